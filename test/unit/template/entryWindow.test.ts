/**
 * A text with one entry that does not parse, read that entry alone and the rest by the fast path
 * (server/src/template/entryWindow.ts), must be read exactly as the `yaml` package reads the whole
 * text: the same tree, the same problems, every range included. The texts are real templates with
 * a key typed the way an editor holds it before its colon, at every line: above the line, at its
 * indent; below it, one level deeper; and the line's own key with its colon taken away; then lines
 * half written in the other ways yaml reads apart, mutants of the templates
 * (test/fuzz/mutations.ts), and, where it is present, AWS's whole sample collection, every seventh
 * line. `npm test` takes every third line of the committed templates (every eighth for the lines
 * half written), 300 mutants and one corpus template in twenty; `npm run test:long` takes them all.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAroundEntry } from '../../../server/src/template/entryWindow';
import { parseYamlFast, type FastYamlDecline } from '../../../server/src/template/fastYaml';
import { parseTemplate, parseWithYamlPackage } from '../../../server/src/template/parse';
import { mutatedTemplateArbitrary } from '../../fuzz/mutations';
import { runLength, spread } from '../../support/runLength';

const repository = join(__dirname, '..', '..', '..');
const corpus = join(repository, '..', 'shared', 'corpus');

/** The YAML templates under a folder (JSON is never read by the fast path). */
function yamlTemplates(folder: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) found.push(...yamlTemplates(path));
    else if (/\.(ya?ml|template)$/.test(name)) {
      const text = readFileSync(path, 'utf8');
      if (!text.trimStart().startsWith('{')) found.push(text);
    }
  }
  return found;
}

/** What is typed: a key before its colon, and lines half written in the ways yaml reads apart (a flow collection or a quote left open, a tag with no value, a tab...). */
const TYPED = ['T', 'Ti', 'Tim Out'];
const HALF_WRITTEN = ['- T', 'T: [a', 'T: "a', "T: 'a", 'T: !Ref', 'T: a: b', 'T:a', '\tT', 'T: {a: 1', '? T', 'T #c', '"T', 'T: >'];

/** Keys being typed around line `i` of `lines`: above it at its indent, below it one level deeper, and its own key without its colon. */
function keysTypedAt(lines: readonly string[], i: number, typed: readonly string[] = TYPED): string[] {
  const line = lines[i]!;
  const indent = line.length - line.trimStart().length;
  if (line.trim() === '' || line.trimStart().startsWith('#') || indent === 0) return [];
  const pad = ' '.repeat(indent);
  const texts: string[] = [];
  for (const key of typed) {
    texts.push([...lines.slice(0, i), pad + key, ...lines.slice(i)].join('\n'));
    texts.push([...lines.slice(0, i + 1), `${pad}  ${key}`, ...lines.slice(i + 1)].join('\n'));
  }
  const colon = line.indexOf(': ');
  if (colon > 0) texts.push([...lines.slice(0, i), line.slice(0, colon) + line.slice(colon + 1), ...lines.slice(i + 1)].join('\n'));
  return texts;
}

/** Counts of the texts the fast path declined and of those read entry by entry. */
interface Tally {
  declined: number;
  windowed: number;
}

/** When the fast path declines `text` and one entry is read alone, asserts that the reading is the `yaml` package's. */
function agrees(text: string, tally: Tally, label: () => string): void {
  const declined: FastYamlDecline = {};
  if (parseYamlFast(text, declined) !== undefined || declined.lineStart === undefined) return;
  tally.declined++;
  const windowed = parseAroundEntry(text, declined.lineStart, parseYamlFast, parseWithYamlPackage);
  if (windowed === undefined) return;
  tally.windowed++;
  const general = parseWithYamlPackage(text);
  assert.deepEqual(windowed.errors, general.errors, `${label()}: the same problems`);
  assert.deepEqual(windowed.root, general.root, `${label()}: the same tree, values and ranges`);
}

const slice = [...yamlTemplates(join(repository, 'test', 'fixtures', 'corpus-slice')), ...yamlTemplates(join(repository, 'examples', 'network'))];

describe('one entry that does not parse, read alone', () => {
  test('a key typed at any line of the committed templates is read as yaml reads the whole text', () => {
    const tally: Tally = { declined: 0, windowed: 0 };
    const stride = runLength(3, 1);
    slice.forEach((text, file) => {
      const lines = text.split('\n');
      for (let i = 1 + (file % stride); i < lines.length; i += stride) keysTypedAt(lines, i).forEach((typed, n) => agrees(typed, tally, () => `template ${file}, line ${i + 1}, edit ${n}`));
    });
    // Not vacuous: most keys typed are read entry by entry (the others are valid YAML the fast path leaves to yaml, or touch more than their entry).
    assert.ok(tally.windowed >= tally.declined / 2, `only ${tally.windowed} of ${tally.declined} read entry by entry`);
    console.log(`# ${tally.windowed} of ${tally.declined} texts with a key typed were read entry by entry`);
  });

  test('and so is a line half written in any of the ways yaml reads apart, at any line', () => {
    const tally: Tally = { declined: 0, windowed: 0 };
    const stride = runLength(8, 1);
    slice.forEach((text, file) => {
      const lines = text.split('\n');
      for (let i = 1 + (file % stride); i < lines.length; i += stride) keysTypedAt(lines, i, HALF_WRITTEN).forEach((typed, n) => agrees(typed, tally, () => `template ${file}, line ${i + 1}, edit ${n}`));
    });
    assert.ok(tally.windowed > 0);
    console.log(`# ${tally.windowed} of ${tally.declined} texts with a line half written were read entry by entry`);
  });

  test('so is a mutant of them, whenever one of its entries is read alone', () => {
    const tally: Tally = { declined: 0, windowed: 0 };
    fc.assert(
      fc.property(mutatedTemplateArbitrary(slice), ({ mutated, steps }) => agrees(mutated, tally, () => steps.join(', '))),
      { seed: 20_261_125, numRuns: runLength(300, 2000) },
    );
    console.log(`# ${tally.windowed} of ${tally.declined} declined mutants were read entry by entry`);
  });

  test('the user gets it through parseTemplate: a resource with a key typed in a large template', () => {
    const resources = Array.from({ length: 300 }, (_, i) => `  Queue${i}:\n    Type: AWS::SQS::Queue\n    Properties:\n      DelaySeconds: ${i % 10}\n`).join('');
    const text = `AWSTemplateFormatVersion: '2010-09-09'\nResources:\n${resources}Outputs:\n  First:\n    Value: !Ref Queue0\n`;
    const typing = text.replace('      DelaySeconds: 7\n', '      DelaySeconds: 7\n      Visib\n');
    const declined: FastYamlDecline = {};
    assert.equal(parseYamlFast(typing, declined), undefined);
    assert.ok(parseAroundEntry(typing, declined.lineStart!, parseYamlFast, parseWithYamlPackage), 'read entry by entry');
    const parsed = parseTemplate(typing);
    assert.deepEqual(parsed, parseWithYamlPackage(typing));
    assert.deepEqual(parsed.errors.map((e) => [e.code, typing.slice(e.range.start, e.range.end)]), [['yaml-syntax', 'Visib']]);
  });

  test("a resource's logical id being typed, before its colon, between two resources: read as yaml reads it, entry by entry", () => {
    const resources = Array.from({ length: 50 }, (_, i) => `  Queue${i}:\n    Type: AWS::SQS::Queue\n    Properties:\n      DelaySeconds: ${i % 10}\n`).join('');
    const text = `Resources:\n${resources}`;
    const windowedIds: string[] = [];
    for (const id of ['N', 'NewQu', 'NewQueue']) {
      const typing = text.replace('  Queue20:\n', `  ${id}\n  Queue20:\n`);
      assert.deepEqual(parseTemplate(typing), parseWithYamlPackage(typing), id);
      const declined: FastYamlDecline = {};
      assert.equal(parseYamlFast(typing, declined), undefined);
      if (parseAroundEntry(typing, declined.lineStart!, parseYamlFast, parseWithYamlPackage)) windowedIds.push(id);
    }
    // `N` alone stays in its entry; a longer id runs on into the next key, and the two entries are read together.
    assert.deepEqual(windowedIds, ['N', 'NewQu', 'NewQueue']);
  });

  test('a line that does not parse above every section, after a blank first line, is read by the general path (the look up to its section stops at the text\'s start)', () => {
    const text = '\n  Tim\nResources:\n  Queue:\n    Type: AWS::SQS::Queue\n';
    assert.deepEqual(parseTemplate(text), parseWithYamlPackage(text));
    const declined: FastYamlDecline = {};
    assert.equal(parseYamlFast(text, declined), undefined);
    assert.equal(parseAroundEntry(text, declined.lineStart!, parseYamlFast, parseWithYamlPackage), undefined);
  });

  test("AWS's sample collection, a key typed at every seventh line", (t) => {
    if (!existsSync(corpus)) {
      t.skip(`the corpus is not at ${corpus}`);
      return;
    }
    const tally: Tally = { declined: 0, windowed: 0 };
    const templates = yamlTemplates(corpus);
    spread(templates, Math.ceil(templates.length / 20)).forEach((text, file) => {
      const lines = text.split('\n');
      for (let i = 1 + (file % 7); i < lines.length; i += 7) keysTypedAt(lines, i).forEach((typed, n) => agrees(typed, tally, () => `corpus template ${file}, line ${i + 1}, edit ${n}`));
    });
    assert.ok(tally.windowed > 0);
    console.log(`# ${tally.windowed} of ${tally.declined} corpus texts with a key typed were read entry by entry`);
  });
});
