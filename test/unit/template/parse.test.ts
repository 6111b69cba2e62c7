import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeAtPath, parseTemplate, toPlain, type TemplateNode } from '../../../server/src/template';

/** The text a node or key spans. */
function spanned(text: string, range: { start: number; end: number }): string {
  return text.slice(range.start, range.end);
}

describe('parseTemplate: formats and scalars', () => {
  test('JSON is recognised by its first character and reads like the same YAML', () => {
    const json = '\uFEFF  {"Resources": {"Bucket": {"Type": "AWS::S3::Bucket", "Properties": {"Tags": [{"Key": "a", "Value": {"Ref": "P"}}], "Versioned": true, "Count": 3, "Nothing": null}}}}';
    const yaml = [
      'Resources:',
      '  Bucket:',
      '    Type: AWS::S3::Bucket',
      '    Properties:',
      '      Tags:',
      '        - Key: a',
      '          Value: !Ref P',
      '      Versioned: true',
      '      Count: 3',
      '      Nothing: null',
      '',
    ].join('\n');
    const fromJson = parseTemplate(json);
    const fromYaml = parseTemplate(yaml);
    assert.equal(fromJson.format, 'json');
    assert.equal(fromYaml.format, 'yaml');
    assert.deepEqual(fromJson.errors, []);
    assert.deepEqual(fromYaml.errors, []);
    assert.deepEqual(toPlain(fromJson.root!), toPlain(fromYaml.root!));
  });

  test('long and short JSON strings with every JSON escape read as JSON.parse reads them', () => {
    const escapes = 'q\\"b\\\\s\\/f\\bf\\fn\\nr\\rt\\tu\\u00e9\\ud83d\\ude00 ';
    for (const repeat of [1, 400]) {
      const text = `{"Short": "${escapes}", "Long": "${escapes.repeat(repeat)}"}`;
      const parsed = parseTemplate(text);
      assert.deepEqual(parsed.errors, []);
      assert.deepEqual(toPlain(parsed.root!), JSON.parse(text));
    }
  });

  test('long double-quoted YAML strings keep YAML meaning (line folding, YAML-only escapes)', () => {
    const words = 'word '.repeat(1000);
    const parsed = parseTemplate(`A: "${words}\n  next"\nB: "\\x41${words}"\n`);
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(toPlain(parsed.root!), { A: `${words.trimEnd()} next`, B: `A${words}` });
  });

  test('a top-level JSON array is JSON too', () => {
    assert.equal(parseTemplate('[1, 2]').format, 'json');
  });

  test('scalars follow the YAML 1.2 core schema', () => {
    const parsed = parseTemplate(
      'a: yes\nb: true\nc: 30\nd: "30"\ne: 1.5\nf: ~\ng: 0x1F\nh: 2010-09-09\ni: on\nj: False\nk: 012\nl: 1e3\n',
    );
    assert.deepEqual(toPlain(parsed.root!), {
      a: 'yes',
      b: true,
      c: 30,
      d: '30',
      e: 1.5,
      f: null,
      g: 31,
      h: '2010-09-09',
      i: 'on',
      j: false,
      k: 12,
      l: 1000,
    });
  });

  test('keys are always strings: other scalars keep the text they were written with', () => {
    const parsed = parseTemplate('1.0: a\ntrue: b\nnull: c\n[x, y]: d\n');
    assert.deepEqual(
      (parsed.root?.kind === 'map' ? parsed.root.entries : []).map((e) => e.key),
      ['1.0', 'true', 'null', '[x, y]'],
    );
  });

  test('a __proto__ key is an ordinary key in the plain value', () => {
    const plain = toPlain(parseTemplate('{"__proto__": {"polluted": 1}}').root!) as Record<string, unknown>;
    assert.deepEqual(Object.keys(plain), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(plain), Object.prototype);
  });

  test('the empty text and a comment-only text have no root and no errors', () => {
    for (const text of ['', '   \n', '# only a comment\n']) {
      const parsed = parseTemplate(text);
      assert.equal(parsed.root, undefined);
      assert.deepEqual(parsed.errors, []);
    }
  });

  test('anchors and aliases expand to copies located at the alias', () => {
    const text = 'Tags: &tags\n  - {Key: team, Value: core}\nOther: *tags\n';
    const parsed = parseTemplate(text);
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(toPlain(parsed.root!), { Tags: [{ Key: 'team', Value: 'core' }], Other: [{ Key: 'team', Value: 'core' }] });
    assert.equal(spanned(text, nodeAtPath(parsed.root!, ['Other'])!.range), '*tags');
  });
});

describe('parseTemplate: ranges', () => {
  const text = [
    'Resources:',
    '  Queue:',
    '    Type: AWS::SQS::Queue',
    '    Properties:',
    '      VisibilityTimeout: 30',
    "      QueueName: !Sub '${AWS::StackName}-q'",
    '      Tags: [{Key: a, Value: "b"}]',
    '',
  ].join('\n');
  const root = parseTemplate(text).root!;

  test('keys and values span exactly their text', () => {
    const properties = nodeAtPath(root, ['Resources', 'Queue', 'Properties']);
    assert.equal(properties?.kind, 'map');
    if (properties?.kind !== 'map') return;
    const [timeout, name, tags] = properties.entries;
    assert.equal(spanned(text, timeout!.keyRange), 'VisibilityTimeout');
    assert.equal(spanned(text, timeout!.value.range), '30');
    assert.equal(spanned(text, name!.keyRange), 'QueueName');
    assert.equal(spanned(text, name!.value.range), "!Sub '${AWS::StackName}-q'");
    assert.equal(spanned(text, tags!.value.range), '[{Key: a, Value: "b"}]');
    assert.equal(spanned(text, nodeAtPath(root, ['Resources', 'Queue', 'Properties', 'Tags', 0, 'Value'])!.range), '"b"');
    assert.equal(spanned(text, nodeAtPath(root, ['Resources', 'Queue', 'Type'])!.range), 'AWS::SQS::Queue');
  });

  test('JSON ranges cover the quoted text', () => {
    const json = '{\n  "Resources": {\n    "Topic": {"Type": "AWS::SNS::Topic"}\n  }\n}';
    const parsed = parseTemplate(json);
    const resources = parsed.root?.kind === 'map' ? parsed.root.entries[0]! : undefined;
    assert.equal(spanned(json, resources!.keyRange), '"Resources"');
    const type: TemplateNode | undefined = nodeAtPath(parsed.root!, ['Resources', 'Topic', 'Type']);
    assert.equal(spanned(json, type!.range), '"AWS::SNS::Topic"');
  });

  test('offsets count UTF-16 code units, as editors do', () => {
    const withEmoji = 'Description: "🙂 é"\nKey: value\n';
    const parsed = parseTemplate(withEmoji);
    const key = parsed.root?.kind === 'map' ? parsed.root.entries[1]! : undefined;
    assert.equal(spanned(withEmoji, key!.keyRange), 'Key');
    assert.equal(spanned(withEmoji, key!.value.range), 'value');
  });
});

describe('parseTemplate: problems are values with ranges', () => {
  test('a YAML syntax error is reported where yaml finds it', () => {
    const text = 'Resources:\n  Bucket:\n    Type: "AWS::S3::Bucket\n';
    const parsed = parseTemplate(text);
    const syntax = parsed.errors.filter((e) => e.code === 'yaml-syntax');
    assert.ok(syntax.length > 0);
    assert.ok(syntax.every((e) => e.severity === 'error' && e.range.start >= 0 && e.range.end <= text.length && e.range.start <= e.range.end));
    assert.ok(syntax.some((e) => e.range.start >= text.indexOf('"AWS')));
  });

  test('a JSON syntax error (missing comma) is reported', () => {
    const text = '{"A": 1 "B": 2}';
    const parsed = parseTemplate(text);
    assert.equal(parsed.format, 'json');
    assert.ok(parsed.errors.some((e) => e.code === 'yaml-syntax'));
  });

  test('a duplicate key is an error on the second key, and the last value wins', () => {
    const text = 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n  Bucket:\n    Type: AWS::SQS::Queue\n';
    const parsed = parseTemplate(text);
    assert.deepEqual(toPlain(parsed.root!), { Resources: { Bucket: { Type: 'AWS::SQS::Queue' } } });
    assert.equal(parsed.errors.length, 1);
    const [error] = parsed.errors;
    assert.equal(error!.code, 'duplicate-key');
    assert.equal(error!.range.start, text.lastIndexOf('Bucket:'));
    assert.equal(spanned(text, error!.range), 'Bucket');
  });

  test('duplicate keys in JSON are reported the same way', () => {
    const text = '{"A": 1, "A": 2}';
    const parsed = parseTemplate(text);
    assert.deepEqual(toPlain(parsed.root!), { A: 2 });
    assert.deepEqual(parsed.errors.map((e) => [e.code, e.range.start]), [['duplicate-key', text.lastIndexOf('"A"')]]);
  });

  test('a second document is an error and only the first is read', () => {
    const text = 'A: 1\n---\nB: 2\n';
    const parsed = parseTemplate(text);
    assert.deepEqual(toPlain(parsed.root!), { A: 1 });
    const error = parsed.errors.find((e) => e.code === 'multiple-documents');
    assert.ok(error);
    assert.ok(error.range.start >= text.indexOf('---') && error.range.start <= text.indexOf('B'));
  });

  test('an alias to no anchor is an error at the alias', () => {
    const text = 'A: *missing\n';
    const parsed = parseTemplate(text);
    assert.deepEqual(toPlain(parsed.root!), { A: null });
    assert.deepEqual(parsed.errors.map((e) => [e.code, spanned(text, e.range)]), [['unknown-alias', '*missing']]);
  });

  test('an alias inside its own anchor is not a cycle but an unknown alias', () => {
    const parsed = parseTemplate('A: &a [1, *a]\n');
    assert.deepEqual(toPlain(parsed.root!), { A: [1, null] });
    assert.deepEqual(parsed.errors.map((e) => e.code), ['unknown-alias']);
  });
});
