/**
 * The fast JSON reader's promise: whenever it accepts a text, the `yaml` package reads that text
 * without any error or warning and builds the same tree, every value and range included; and
 * what it declines, the general path decides. Checked on written cases, on the JSON templates
 * committed in test/fixtures/corpus-slice/ cut after every line and mutated, and on the shared
 * corpus (a fixed spread of it in `npm test`, all of it in `npm run test:long`).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { parseJsonFast } from '../../../server/src/template/fastJson';
import { parseTemplate, parseWithYamlPackage, type FastJsonReader } from '../../../server/src/template/parse';
import { loadCorpus, mutatedTemplateArbitrary } from '../../fuzz/mutations';
import { runLength, spread } from '../../support/runLength';

const SEED = Number(process.env.FAST_JSON_SEED ?? 20_261_206);
const MUTANT_RUNS = Number(process.env.FAST_JSON_RUNS ?? runLength(1000, 4000));

/** Whether the fast path accepted `text`; when it did, asserts that yaml reads the same. */
function fastPathAgrees(text: string, label: string): boolean {
  const fast = parseJsonFast(text);
  if (fast === undefined) return false;
  const general = parseWithYamlPackage(text);
  assert.deepEqual(general.errors, [], `${label}: yaml reports no problem with a text the fast path accepted`);
  assert.deepEqual(fast.root, general.root, `${label}: the same tree, values and ranges`);
  assert.equal(fast.format, general.format);
  return true;
}

describe('parseJsonFast reads JSON exactly like the yaml package', () => {
  const accepted: [string, string][] = [
    ['nested objects and arrays, with the spacing people and generators write', '{\n  "A": {\n    "B": [1, 2, {"C": "d"}],\n    "E": {}\n  },\n  "F": []\n}\n'],
    ['compact JSON with no space at all', '{"A":{"B":[1,{"C":null}]},"D":true}'],
    ['numbers in every JSON form', '{"A": [0, -0, 12, -7, 1.5, -0.25, 1e3, 2E-2, 1.5e+10, 123456789012345678901234, 1e400]}'],
    ['strings with every JSON escape, a surrogate pair and characters beyond ASCII', '{"A": "q\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00 é 😀"}'],
    ['an empty key and a key with a colon in it', '{"": 1, "a:b": 2}'],
    ['CRLF line breaks', '{\r\n  "A": 1,\r\n  "B": [\r\n    "x"\r\n  ]\r\n}\r\n'],
    ['a root array', '[1, "two", {"three": 3}]'],
    ['content at the first column inside the root', '{\n"A": 1,\n"B": {\n"C": 2\n}\n}'],
    ['a key and its colon separated by spaces', '{"A" : 1}'],
  ];
  for (const [name, text] of accepted) test(name, () => assert.ok(fastPathAgrees(text, name), 'the fast path declined'));
});

describe('parseJsonFast declines what the general path should decide', () => {
  const declined: [string, string][] = [
    ['duplicate keys', '{"A": 1, "A": 2}'],
    ['tabs', '{\n\t"A": 1\n}'],
    ['a byte-order mark', '\uFEFF{"A": 1}'],
    ['text after the root', '{"A": 1} x'],
    ['a second root', '{"A": 1}\n{"B": 2}'],
    ['trailing commas', '{"A": [1, 2,]}'],
    ['single quotes', "{'A': 1}"],
    ['comments', '{"A": 1 # one\n}'],
    ['an unquoted key', '{A: 1}'],
    ['a key and its colon on different lines', '{"A"\n: 1}'],
    ['a key longer than YAML allows for an implicit key', `{"${'k'.repeat(1100)}": 1}`],
    ['numbers JSON does not have', '{"A": [01, +1, .5, 0x1F, .inf]}'],
    ['YAML escapes JSON does not have', '{"A": "\\x41"}'],
    ['a raw control character in a string', '{"A": "a\u0001b"}'],
    ['a line break in a string', '{"A": "a\nb"}'],
    ['an unterminated document', '{"A": [1, 2'],
    ['nesting near the bound', `${'['.repeat(200)}${']'.repeat(200)}`],
  ];
  for (const [name, text] of declined) test(name, () => assert.equal(parseJsonFast(text), undefined));

  test('and parseTemplate gives the general path its problems, with ranges', () => {
    const parsed = parseTemplate('{"A": 1, "A": 2}');
    assert.deepEqual(
      parsed.errors.map((e) => [e.code, e.range]),
      [['duplicate-key', { start: 9, end: 12 }]],
    );
  });
});

describe('a JSON fast path that throws instead of reading or declining', () => {
  const faulty: FastJsonReader = () => {
    throw new TypeError('index out of range');
  };

  test("gives the general path's tree and says so with an internal-error warning", () => {
    const text = '{"Resources": {"Q": {"Type": "AWS::SQS::Queue"}}}';
    const parsed = parseTemplate(text, undefined, faulty);
    assert.deepEqual(parsed.root, parseWithYamlPackage(text).root);
    assert.deepEqual(parsed.errors.map((e) => [e.code, e.severity]), [['internal-error', 'warning']]);
    assert.match(parsed.errors[0]!.message, /fast JSON reader \(index out of range\)/);
  });
});

const repository = join(__dirname, '..', '..', '..');

function isStrictJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The JSON templates committed in the corpus slice, by path relative to the repository. */
function committedJsonTemplates(): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) found.push({ path: relative(repository, path), text: readFileSync(path, 'utf8') });
    }
  };
  walk(join(repository, 'test', 'fixtures', 'corpus-slice'));
  walk(join(repository, 'test', 'fixtures', 'cdk'));
  return found;
}

describe('parseJsonFast on real JSON templates, cut and mutated', () => {
  const all = committedJsonTemplates();

  test('reads every committed JSON template as yaml does', () => {
    assert.ok(all.length >= 3, `only ${all.length} committed JSON templates`);
    for (const { path, text } of all) assert.ok(fastPathAgrees(text, path), `${path} was declined`);
  });

  test('a template cut after any of its lines is read exactly when it is still JSON, as yaml reads it', () => {
    // What an editor holds while someone types: a JSON prefix is rarely JSON; the fast path must
    // accept exactly those that are (the committed templates have no tab or duplicate key) and
    // decline the rest, never read them into some tree.
    let cuts = 0;
    let complete = 0;
    for (const { path, text } of all) {
      const ends = [...text.matchAll(/\n/g)].map((m) => m.index).concat(text.length);
      for (const [index, lineEnd] of ends.entries()) {
        const line = index + 1;
        const cut = text.slice(0, lineEnd);
        cuts++;
        const isJson = isStrictJson(cut);
        if (isJson) complete++;
        assert.equal(fastPathAgrees(cut, `${path} up to the end of line ${line}`), isJson, `${path} up to the end of line ${line}`);
      }
    }
    assert.ok(cuts > 100 && complete >= all.length, `${complete} complete of ${cuts} cuts`);
  });

  test(`whenever it accepts a mutated template (${MUTANT_RUNS} mutants), yaml reads it without error into the same tree and ranges`, () => {
    let accepted = 0;
    fc.assert(
      fc.property(mutatedTemplateArbitrary(all.map(({ text }) => text)), ({ mutated, steps }) => {
        if (fastPathAgrees(mutated, steps.join(', '))) accepted++;
      }),
      { seed: SEED, numRuns: MUTANT_RUNS },
    );
    // Not vacuous: many mutants (a changed character inside a string, a doubled entry's value) stay valid JSON.
    assert.ok(accepted >= MUTANT_RUNS / 20, `the fast path accepted only ${accepted} of ${MUTANT_RUNS}`);
    console.log(`# the fast path accepted ${accepted} of ${MUTANT_RUNS} mutants`);
  });
});

describe('parseJsonFast on the shared corpus', () => {
  test('reads every JSON template of the corpus as yaml does', (t) => {
    const corpus = loadCorpus();
    if ('absent' in corpus) {
      t.skip(corpus.absent);
      return;
    }
    const json = corpus.texts.filter((text) => /^\s*[{[]/.test(text));
    const sample = spread(json, 25);
    for (const [index, text] of sample.entries()) assert.ok(fastPathAgrees(text, `corpus JSON template ${index}`), `corpus JSON template ${index} was declined`);
    console.log(`# the fast path read ${sample.length} of the corpus's ${json.length} JSON templates`);
  });
});
