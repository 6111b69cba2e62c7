import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateTemplate } from '../../../server/src/evaluate';
import { compareTemplates } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { readTemplateModel } from '../../../server/src/template';
import { parseYamlFast } from '../../../server/src/template/fastYaml';
import { parseTemplate, parseWithYamlPackage, type FastYamlReader } from '../../../server/src/template/parse';

/** The fast path must read the text, and build exactly the tree the general path builds. */
function assertReadsLikeYamlPackage(text: string): void {
  const fast = parseYamlFast(text);
  assert.ok(fast, 'the fast path declined');
  const general = parseWithYamlPackage(text);
  assert.deepEqual(general.errors, []);
  assert.deepEqual(fast.root, general.root);
}

describe('parseYamlFast reads the common template subset exactly like the yaml package', () => {
  const accepted: [string, string][] = [
    ['block mappings, nested, with blank lines between entries', 'A:\n  B: 1\n\n  C:\n    D: x\n\nE: y\n'],
    ['a document start marker', '---\nResources:\n  A:\n    Type: AWS::SQS::Queue\n'],
    ['plain scalars under the core schema', 'A: [1, -2, +3, 0o17, 0x1F, 1.5, .5, 1e3, .inf, -.Inf, .nan, true, False, null, ~, 0123, x1]\n'],
    ['quoted scalars and keys', `'a b': 'it''s'\n"c": "tab\\tquote\\"\\u00e9\\x41"\nD: ''\n`],
    ['comments at the end of lines and between entries at their column', 'A: 1 # one\n# about B\nB:\n  # inside\n  C: 2 # two\n  # before D\n  D: [x, y] # flow\n'],
    ['a comment after a key that opens a block', 'A: # note\n  B: 1\n'],
    ['block sequences, compact mappings in them, sequences in sequences', 'A:\n  - x\n  - k: 1\n    j: 2\n  - - a\n    - b\n  -\n    z: 3\nB:\n- indentless\n- two\nC: 1\n'],
    ['short forms on scalars, flow and block collections', "A: !Ref B\nC: !GetAtt R.Arn\nD: !GetAtt 'R.Outputs.X'\nE: !Sub '${AWS::StackName}-x'\nF: !If [Cond, !Ref X, !Ref 'AWS::NoValue']\nG: !Join\n  - ''\n  - - 'arn:'\n    - !Ref AWS::Partition\nH: !FindInMap [M, !Ref 'AWS::Region', Ami]\nI: !Equals [!Ref E, prod]\nJ: !Sub\n  - '${A}'\n  - A: !Ref B\nK: !GetAZs ''\nL: !Ref 123\n"],
    ['flow mappings and nested flow collections', 'A: {Key: v, "Q": [1, {x: !Ref y}], E: {}}\nB: []\n'],
    ['literal block scalars with each chomping', 'A: |\n  line 1\n    indented\n\n  line 3\nB: |-\n  x\n\n\nC: |+\n  y\n\nD: !Sub |\n  #!/bin/bash\n  echo ${AWS::Region}\nE: 1'],
    ['nulls, with and without comments', 'A:\nB:   \nC: # nothing\nD:\n  - \n  - x\nE:'],
    ['keys that look like other types keep their text', '1: a\ntrue: b\nnull: c\n1.0: d\n'],
    ['a text without a final line break', 'A:\n  B: [x]'],
  ];
  for (const [name, text] of accepted) test(name, () => assertReadsLikeYamlPackage(text));
});

describe('parseYamlFast declines what the general path should decide', () => {
  const declined: [string, string][] = [
    ['anchors and aliases', 'A: &x 1\nB: *x\n'],
    ['folded block scalars', 'A: >\n  folded\n  text\n'],
    ['multi-line plain scalars', 'A: one\n  two\n'],
    ['multi-line quoted scalars', "A: 'one\n  two'\n"],
    ['multi-line flow collections', 'A: [a,\n  b]\n'],
    ['duplicate keys', 'A: 1\nA: 2\n'],
    ['unknown tags', 'A: !Foo x\n'],
    ['preprocessor tags', 'A: !Rain::Embed x.txt\n'],
    ['tabs', 'A:\n\tB: 1\n'],
    ['CRLF line breaks', 'A: 1\r\nB: 2\r\n'],
    ['a byte-order mark', '\uFEFFA: 1\n'],
    ['a second document', 'A: 1\n---\nB: 2\n'],
    ['a comment at the end of a block, which yaml may or may not count into it', 'A:\n  B: 1\n    # deeper\nC: 2\n'],
    ['a key and value on one line after another key', 'A: b: c\n'],
    ['a mis-indented line', 'A:\n    B: 1\n  C: 2\n'],
    ['a root that is not a mapping', '- a\n- b\n'],
    ['trailing commas in flow sequences', 'A: [a, b, ]\n'],
    ['unsupported escapes', 'A: "\\N"\n'],
    ['a clipped literal block scalar that ends the text without a line break, which yaml still ends with one', 'A: |\n  S'],
    ['a kept literal block scalar likewise', 'A: |+\n  S'],
  ];
  for (const [name, text] of declined) test(name, () => assert.equal(parseYamlFast(text), undefined));
});

describe('a fast path that throws instead of reading or declining', () => {
  const text = 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n';
  const faulty: FastYamlReader = () => {
    throw new TypeError("Cannot read properties of undefined (reading 'indent')");
  };

  test("still gives the user the general path's tree, and says so with an internal-error warning", () => {
    const parsed = parseTemplate(text, faulty);
    assert.deepEqual(parsed.root, parseWithYamlPackage(text).root);
    assert.deepEqual(
      parsed.errors.map((e) => ({ code: e.code, severity: e.severity, range: e.range })),
      [{ code: 'internal-error', severity: 'warning', range: { start: 0, end: 0 } }],
    );
    assert.match(parsed.errors[0]!.message, /fast YAML reader \(Cannot read properties of undefined \(reading 'indent'\)\)/);
  });

  test('reaches the impact report as internal-error, which the robustness and fuzz suites fail on', () => {
    const context = { parameters: {}, region: 'us-east-1', accountId: '123456789012', stackName: 'stack' };
    const evaluate = (reader: FastYamlReader) => evaluateTemplate(readTemplateModel(parseTemplate(text, reader)), context);
    const report = compareTemplates(evaluate(parseYamlFast), evaluate(faulty), { spec: loadResourceSpec() });
    assert.deepEqual(report.diagnostics.map((d) => `${d.severity} ${d.code}`), ['warning internal-error']);
    // The verdict stays what the text means: the same template on both sides is no update.
    assert.equal(report.status, 'noop');
  });

  test('a decline is not a fault: the general path reads the text and nothing is reported', () => {
    assert.deepEqual(parseTemplate(text, () => undefined), parseWithYamlPackage(text));
  });
});

const corpus = join(__dirname, '..', '..', '..', '..', 'shared', 'corpus');

describe('parseYamlFast on the real-world corpus', () => {
  test('agrees with the general path on every template it reads', (t) => {
    if (!existsSync(corpus)) {
      t.skip(`the corpus is not at ${corpus}`);
      return;
    }
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ya?ml|template)$/.test(name)) files.push(path);
      }
    };
    walk(corpus);
    let read = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const fast = parseYamlFast(text);
      if (!fast) continue;
      read++;
      const general = parseWithYamlPackage(text);
      assert.deepEqual(general.errors, [], file);
      assert.deepEqual(fast.root, general.root, file);
    }
    // Most real templates stay inside the subset; if this drops, the fast path stopped earning its keep.
    assert.ok(read > files.length / 2, `the fast path read only ${read} of ${files.length} templates`);
  });
});
