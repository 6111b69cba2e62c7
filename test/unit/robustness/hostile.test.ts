/**
 * Hostile templates through the whole engine: each one, analysed against a small valid
 * template in both directions, gives a report (never an exception), with a precise
 * diagnostic where CloudFormation would object, in bounded time and memory.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { evaluateTemplate } from '../../../server/src/evaluate';
import { analyzeUpdate, compareTemplates, evaluateSide } from '../../../server/src/impact';
import { diagnosticText, verdictMessage } from '../../../server/src/present';
import type { ImpactDiagnostic, ImpactReport } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { readTemplateModel } from '../../../server/src/template';
import type { MapEntry, TemplateNode } from '../../../server/src/template/ast';

const spec = loadResourceSpec();

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The bound is on the CPU time this process spends, because other work on this two-core machine
 * can stretch wall-clock time several-fold; the wall-clock bound only catches a hang.
 */
const CPU_BOUND_MS = 2000;
const WALL_BOUND_MS = 15_000;
const HEAP_BOUND_BYTES = 200 * 1024 * 1024;

const VALID = 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n';

/**
 * Analyses `hostile` as the new template over VALID and as the baseline under VALID, asserting
 * that each direction returns within the time and heap bounds; returns both reports.
 */
function analyzeBothWays(hostile: string): { forward: ImpactReport; backward: ImpactReport } {
  const run = (before: string, after: string): ImpactReport => {
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const elapsed = performance.now() - started;
    const growth = process.memoryUsage().heapUsed - heapBefore;
    assert.ok(cpuMs < CPU_BOUND_MS, `took ${cpuMs.toFixed(0)} ms of CPU time`);
    assert.ok(elapsed < WALL_BOUND_MS, `took ${elapsed.toFixed(0)} ms`);
    assert.ok(growth < HEAP_BOUND_BYTES, `heap grew by ${(growth / 1e6).toFixed(0)} MB`);
    assert.ok(['update', 'noop', 'error'].includes(report.status));
    assert.equal(typeof verdictMessage(report), 'string');
    for (const d of report.diagnostics) assert.notEqual(d.code, 'internal-error', diagnosticText(d));
    return report;
  };
  return { forward: run(VALID, hostile), backward: run(hostile, VALID) };
}

/** The one error of `code` in the new template, checked to have a range that lies inside the text. */
function errorWithCode(report: ImpactReport, code: string, text: string): ImpactDiagnostic {
  assert.equal(report.status, 'error', `expected an error verdict, got ${report.status}: ${report.message}`);
  const found = report.diagnostics.filter((d) => d.code === code && d.severity === 'error' && d.rangeIn === 'new');
  assert.ok(found.length >= 1, `no ${code} error among ${report.diagnostics.map((d) => d.code).join(', ')}`);
  const range = found[0]!.range!;
  assert.ok(range.start >= 0 && range.start <= range.end && range.end <= text.length, `range ${JSON.stringify(range)} outside the text`);
  return found[0]!;
}

function textAt(text: string, d: ImpactDiagnostic): string {
  return text.slice(d.range!.start, d.range!.end);
}

/** A queue whose QueueName is the given YAML value. */
function queueNamed(value: string): string {
  return `Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: ${value}\n`;
}

describe('parser bombs', () => {
  test('the billion-laughs alias bomb inside a resource stops with an alias-limit error at an alias', () => {
    const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let level = 1; level <= 9; level++) lines.push(`a${level}: &a${level} [${Array(9).fill(`*a${level - 1}`).join(', ')}]`);
    const text = `Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Metadata:\n${lines.map((l) => `      ${l}`).join('\n')}\n`;
    const { forward, backward } = analyzeBothWays(text);
    assert.match(textAt(text, errorWithCode(forward, 'alias-limit', text)), /^\*a\d/);
    assert.equal(backward.diagnostics.some((d) => d.code === 'baseline-invalid' && d.rangeIn === 'old'), true);
  });

  const depth = 20_000;
  const deep: [string, string][] = [
    ['JSON arrays', `{"Resources": {"Bucket": {"Type": "AWS::S3::Bucket", "Metadata": ${'['.repeat(depth)}${']'.repeat(depth)}}}}`],
    ['JSON objects', `{"Resources": {"Bucket": {"Type": "AWS::S3::Bucket", "Metadata": ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}}}}`],
    ['YAML flow maps', `Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Metadata: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`],
    ['YAML block sequences', `Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Metadata:\n      ${'- '.repeat(depth)}x\n`],
    ['YAML block maps (3,000 levels: each level indents once more)', `Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Metadata:\n${Array.from({ length: 3000 }, (_, i) => ' '.repeat(i + 6) + 'a:').join('\n')} 1\n`],
    ['a bare JSON document', '['.repeat(depth) + ']'.repeat(depth)],
  ];
  for (const [name, text] of deep) {
    test(`${name} nested ${name.includes('3,000') ? '3,000' : '20,000'} deep are cut with one nesting-too-deep error`, () => {
      const { forward } = analyzeBothWays(text);
      const error = errorWithCode(forward, 'nesting-too-deep', text);
      assert.ok(error.range!.end > error.range!.start);
      assert.equal(forward.diagnostics.filter((d) => d.code === 'nesting-too-deep').length, 1);
    });
  }

  test('an 8 MB string value is compared whole', () => {
    const long = 'x'.repeat(8 * 1024 * 1024);
    const text = `{"Resources": {"Bucket": {"Type": "AWS::S3::Bucket", "Properties": {"BucketName": "${long}"}}}}`;
    const { forward, backward } = analyzeBothWays(text);
    assert.equal(forward.status, 'update');
    assert.deepEqual(forward.changes.map((c) => [c.logicalId, c.action, c.replacement]), [['Bucket', 'Modify', 'True']]);
    assert.deepEqual(backward.changes.map((c) => [c.logicalId, c.action]), [['Bucket', 'Modify']]);
  });

  test('binary garbage is not a template', () => {
    let seed = 7;
    const bytes = Uint8Array.from({ length: 100_000 }, () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256);
    const text = Buffer.from(bytes).toString('latin1');
    const { forward, backward } = analyzeBothWays(text);
    assert.equal(forward.status, 'error');
    assert.ok(forward.diagnostics.some((d) => d.severity === 'error' && d.rangeIn === 'new' && d.range !== undefined));
    // Deploying a real template over garbage creates everything anew, with a warning about the baseline.
    assert.deepEqual(backward.changes.map((c) => [c.logicalId, c.action]), [['Bucket', 'Add']]);
  });

  for (const [name, text] of [['an empty file', ''], ['a file of blank lines and comments', '\n\n# nothing here\n   \n']]) {
    test(`${name} is an empty template, and the baseline warning says so`, () => {
      const { forward, backward } = analyzeBothWays(text);
      const error = errorWithCode(forward, 'not-a-template', text);
      assert.match(diagnosticText(error), /empty/);
      assert.deepEqual(error.range, { start: 0, end: 0 });
      assert.ok(backward.diagnostics.some((d) => d.code === 'baseline-not-a-template' && d.severity === 'warning'));
      assert.deepEqual(backward.changes.map((c) => c.action), ['Add']);
    });
  }

  test('package.json is not a template: the error points at its first key', () => {
    const text = JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'node --test' }, dependencies: { yaml: '^2' } }, null, 2);
    const { forward } = analyzeBothWays(text);
    const error = errorWithCode(forward, 'not-a-template', text);
    // JSON keys' ranges include their quotes.
    assert.equal(textAt(text, error), '"name"');
  });

  test('a YAML scalar is an unsupported structure', () => {
    const text = 'just some words\n';
    const error = errorWithCode(analyzeBothWays(text).forward, 'not-a-template', text);
    assert.match(diagnosticText(error), /unsupported structure/);
  });

  test('a duplicate logical id is an error at the second key', () => {
    const text = 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n  Bucket:\n    Type: AWS::SQS::Queue\n';
    const error = errorWithCode(analyzeBothWays(text).forward, 'duplicate-key', text);
    assert.equal(error.range!.start, text.lastIndexOf('Bucket:'));
  });
});

describe('cycles', () => {
  const cases: [string, string, string][] = [
    ['Ref and GetAtt', 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Ref B\n  B:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !GetAtt A.QueueName\n', 'circular-dependency'],
    ['a resource naming itself', 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !GetAtt A.QueueName\n', 'circular-dependency'],
    ['Fn::Sub variables', 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Sub "${B.Arn}"\n  B:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Sub "${A}-x"\n', 'circular-dependency'],
    ['DependsOn', 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    DependsOn: B\n  B:\n    Type: AWS::SQS::Queue\n    DependsOn: [C]\n  C:\n    Type: AWS::SQS::Queue\n    DependsOn: A\n', 'circular-dependency'],
    ['Conditions', 'Conditions:\n  A: !Condition B\n  B: !Not [!Condition A]\nResources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Condition: A\n', 'circular-condition'],
  ];
  for (const [name, text, code] of cases) {
    test(`a cycle through ${name} is a ${code} error at a member of the cycle`, () => {
      const error = errorWithCode(analyzeBothWays(text).forward, code, text);
      assert.match(textAt(text, error), /^[ABC]$/);
    });
  }

  test('a Ref chain 5,000 resources long is followed without recursion', () => {
    const resources = Array.from({ length: 5000 }, (_, i) => `  R${i}:\n    Type: AWS::SNS::Topic\n${i === 0 ? '' : `    Properties:\n      TopicName: !GetAtt R${i - 1}.TopicName\n`}`);
    const text = `Resources:\n${resources.join('')}`;
    const { forward } = analyzeBothWays(text);
    assert.equal(forward.status, 'update');
    assert.equal(forward.changes.filter((c) => c.action === 'Add').length, 5000);
  });

  test('a 5,000-long chain closed into a loop is one cycle', () => {
    const n = 5000;
    const resources = Array.from({ length: n }, (_, i) => `  R${i}:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Ref R${(i + 1) % n}\n`);
    const text = `Resources:\n${resources.join('')}`;
    const { forward } = analyzeBothWays(text);
    const cycles = forward.diagnostics.filter((d) => d.code === 'circular-dependency');
    assert.equal(cycles.length, 1);
    assert.equal(textAt(text, cycles[0]!), 'R0');
  });
});

describe('malformed intrinsic functions', () => {
  const errors: [string, string, string, RegExp][] = [
    ['Fn::Sub of a number', '{"Fn::Sub": 42}', 'malformed-intrinsic', /Fn::Sub/],
    ['Fn::Sub with three arguments', '!Sub [a, {}, c]', 'malformed-intrinsic', /Fn::Sub/],
    ['Fn::Sub with a list of variables', '!Sub ["${X}", [X, 1]]', 'malformed-intrinsic', /Fn::Sub/],
    ['Fn::Sub of an undeclared name', '!Sub "a-${Nowhere}"', 'unresolved-reference', /Nowhere/],
    ['Fn::Select past the end', '!Select [5, [a, b]]', 'malformed-intrinsic', /index 5/],
    ['Fn::Select at a negative index', '!Select [-1, [a, b]]', 'malformed-intrinsic', /Fn::Select/],
    ['Fn::Select at a 21-digit index', '!Select [999999999999999999999, [a]]', 'malformed-intrinsic', /Fn::Select/],
    ['Fn::Select of a map', '!Select [0, {a: b}]', 'malformed-intrinsic', /Fn::Select/],
    ['an unknown intrinsic function', '{"Fn::Bogus": [a]}', 'unsupported-function', /Fn::Bogus/],
    ['Fn::Cidr with 16,777,216 subnets', '!Select [0, !Cidr [10.0.0.0/8, 16777216, 0]]', 'malformed-intrinsic', /count/],
    ['Fn::Cidr with 1e308 subnets', '{"Fn::Select": [0, {"Fn::Cidr": ["10.0.0.0/8", 1e308, 8]}]}', 'malformed-intrinsic', /count/],
    ['Fn::Cidr with a billion host bits', '{"Fn::Select": [0, {"Fn::Cidr": ["::/0", 256, 1000000000]}]}', 'malformed-intrinsic', /cidrBits/],
    ['Fn::Join of a map', '!Join [",", {a: b}]', 'malformed-intrinsic', /Fn::Join/],
    ['Fn::If of an undeclared condition', '!If [Nowhere, a, b]', 'undefined-condition', /Nowhere/],
  ];
  for (const [name, value, code, message] of errors) {
    test(`${name} is a ${code} error at the function`, () => {
      const text = queueNamed(value);
      const error = errorWithCode(analyzeBothWays(text).forward, code, text);
      assert.match(diagnosticText(error), message);
      assert.ok(text.slice(error.range!.start).startsWith(textAt(text, error)) && error.range!.start >= text.indexOf('QueueName: ') + 11);
    });
  }

  test('an unclosed ${ in Fn::Sub is plain text, as CloudFormation treats it', () => {
    const text = queueNamed('!Sub "q-${AWS::Region"');
    const { forward } = analyzeBothWays(text);
    assert.equal(forward.status, 'update');
    assert.deepEqual(forward.diagnostics.filter((d) => d.severity === 'error'), []);
  });

  test('an unknown AWS resource type is a warning at its Type', () => {
    const text = 'Resources:\n  Thing:\n    Type: AWS::Nope::Thing\n    Properties:\n      X: 1\n';
    const { forward } = analyzeBothWays(text);
    const warning = forward.diagnostics.find((d) => d.code === 'unknown-resource-type');
    assert.ok(warning, 'no unknown-resource-type warning');
    assert.equal(warning.severity, 'warning');
    assert.equal(textAt(text, warning), 'AWS::Nope::Thing');
  });

  test('custom and registry types are not flagged as unknown', () => {
    const text = 'Resources:\n  A:\n    Type: Custom::Anything\n    Properties:\n      ServiceToken: arn\n  B:\n    Type: MyOrg::Widget::Thing\n';
    assert.equal(analyzeBothWays(text).forward.diagnostics.some((d) => d.code === 'unknown-resource-type'), false);
  });
});

describe('work that explodes', () => {
  test('4,000 lookups keyed by the account, in a mapping of 100 by 100 entries, walk it once for each attribute they read, or once for all', () => {
    const mapping = Array.from({ length: 100 }, (_, i) => `    k${i}:\n${Array.from({ length: 100 }, (_, j) => `      a${j}: v${i}-${j}\n`).join('')}`).join('');
    const queues = Array.from({ length: 4_000 }, (_, i) => `  Q${i}:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !FindInMap [Big, !Ref AWS::AccountId, ${i % 2 === 0 ? `a${i % 100}` : '!Ref AWS::StackName'}]\n`).join('');
    const text = `Mappings:\n  Big:\n${mapping}Resources:\n${queues}`;
    const { forward } = analyzeBothWays(text);
    assert.equal(forward.status, 'update', forward.message);
    assert.equal(forward.changes.length, 4_001);
  });

  test('20,000 resources are all planned', () => {
    const text = `Resources:\n${Array.from({ length: 20_000 }, (_, i) => `  R${i}:\n    Type: AWS::SQS::Queue\n`).join('')}`;
    const { forward, backward } = analyzeBothWays(text);
    assert.equal(forward.changes.length, 20_001);
    assert.equal(backward.changes.length, 20_001);
  });

  // How deep each function may nest before the parser's bound: Fn::If opens a map and a list per level, Fn::Join a map and two lists.
  for (const [name, open, close, underParserBound] of [
    ['Fn::If', '{"Fn::If": ["Yes", ', ', "b"]}', 120],
    ['Fn::Join', '{"Fn::Join": ["", [', ']]}', 80],
  ] as const) {
    test(`${name} nested 10,000 deep is cut by the parser and the evaluator`, () => {
      const value = open.repeat(10_000) + '"x"' + close.repeat(10_000);
      const text = `{"Conditions": {"Yes": {"Fn::Equals": ["a", "a"]}}, "Resources": {"Queue": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": ${value}}}}}`;
      const { forward } = analyzeBothWays(text);
      errorWithCode(forward, 'nesting-too-deep', text);
    });

    test(`${name} nested ${underParserBound} deep (under the parser's bound) is cut by the evaluator`, () => {
      const value = open.repeat(underParserBound) + '"x"' + close.repeat(underParserBound);
      const text = `{"Conditions": {"Yes": {"Fn::Equals": ["a", "a"]}}, "Resources": {"Queue": {"Type": "AWS::SQS::Queue", "Properties": {"QueueName": ${value}}}}}`;
      const { forward } = analyzeBothWays(text);
      assert.equal(forward.diagnostics.some((d) => d.code === 'nesting-too-deep'), false);
      errorWithCode(forward, 'depth-limit', text);
    });
  }

  test('nested Fn::ForEach producing a million resources stops with one error', () => {
    const list = (p: string) => `[${Array.from({ length: 100 }, (_, i) => p + i).join(', ')}]`;
    const text = [
      'Transform: AWS::LanguageExtensions',
      'Resources:',
      '  Fn::ForEach::A:',
      `    - X`,
      `    - ${list('a')}`,
      '    - Fn::ForEach::B:',
      `        - Y`,
      `        - ${list('b')}`,
      '        - Fn::ForEach::C:',
      '            - Z',
      `            - ${list('c')}`,
      '            - Q${X}${Y}${Z}:',
      '                Type: AWS::SQS::Queue',
      '',
    ].join('\n');
    const { forward } = analyzeBothWays(text);
    const errors = forward.diagnostics.filter((d) => d.code === 'foreach-too-large');
    assert.equal(errors.length, 1);
    assert.match(textAt(text, errors[0]!), /^Fn::ForEach::/);
  });

  test('Fn::ForEach copying a large fragment many times stops with one error', () => {
    // 2,000 items times a fragment of 2,000 values: four million nodes from 40 KB of text.
    const items = Array.from({ length: 2000 }, (_, i) => `a${i}`).join(',');
    const tags = Array.from({ length: 2000 }, () => '!Sub "${X}"').join(', ');
    const text = `Transform: AWS::LanguageExtensions\nResources:\n  Fn::ForEach::Topics:\n    - X\n    - !Split [",", "${items}"]\n    - Topic\${X}:\n        Type: AWS::SNS::Topic\n        Properties:\n          Tags: [${tags}]\n`;
    const error = errorWithCode(analyzeBothWays(text).forward, 'foreach-too-large', text);
    assert.equal(textAt(text, error), 'Fn::ForEach::Topics');
  });

  test('Fn::Split of an 8 MB string into eight million pieces, joined again', () => {
    const text = queueNamed(`!Join [",", !Split ["a", "${'a'.repeat(8_000_000)}"]]`);
    const { forward } = analyzeBothWays(text);
    assert.equal(forward.status, 'update');
  });

  test('Fn::Length and Fn::ToJsonString of four million items', () => {
    const list = `!Split [",", "${','.repeat(4_000_000)}"]`;
    const text = `Transform: AWS::LanguageExtensions\nResources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties:\n      DelaySeconds: {Fn::Length: ${list}}\n      QueueName: {Fn::ToJsonString: ${list}}\n`;
    assert.equal(analyzeBothWays(text).forward.status, 'update');
  });
});

describe('trees too wide to spread into a call', () => {
  test('lists of 300,000 items under AWS::LanguageExtensions are walked without overflowing the stack', () => {
    // Parsing 600 KB of flow list takes seconds with the yaml library alone, so the tree is built directly.
    const at = { start: 0, end: 0 };
    const scalar = (value: string | number): TemplateNode => ({ kind: 'scalar', range: at, value });
    const map = (entries: [string, TemplateNode][]): TemplateNode => ({ kind: 'map', range: at, entries: entries.map(([key, value]): MapEntry => ({ key, keyRange: at, value })) });
    const wide = (): TemplateNode => ({ kind: 'seq', range: at, items: Array.from({ length: 300_000 }, (_, i) => scalar(i)) });
    const root = map([
      ['Transform', scalar('AWS::LanguageExtensions')],
      ['Conditions', map([['Wide', map([['Fn::Equals', { kind: 'seq', range: at, items: [scalar('a'), wide()] }]])]])],
      ['Resources', map([['Queue', map([['Type', scalar('AWS::SQS::Queue')], ['Condition', scalar('Wide')], ['Metadata', wide()]])]])],
    ]);
    const model = readTemplateModel({ text: '', format: 'json', root, errors: [] });
    const evaluated = evaluateTemplate(model, { parameters: {}, region: 'us-east-1', accountId: '123456789012', stackName: 'stack' });
    assert.deepEqual(evaluated.errors, []);
    assert.equal(evaluated.conditions.get('Wide'), false);
    const report = compareTemplates(evaluateSide({ text: VALID }, { spec }), evaluated, { spec });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action]), [['Bucket', 'Remove']]);
  });
});

describe('keys that name JavaScript internals', () => {
  test('__proto__, constructor and toString as names are errors or plain names, and nothing is polluted', () => {
    const text = [
      'Parameters:',
      '  toString:',
      '    Type: String',
      '    Default: x',
      'Mappings:',
      '  constructor:',
      '    prototype:',
      '      polluted: yes',
      'Conditions:',
      '  valueOf: !Equals [a, a]',
      'Resources:',
      '  __proto__:',
      '    Type: AWS::SQS::Queue',
      '  constructor:',
      '    Type: AWS::SQS::Queue',
      '    Condition: hasOwnProperty',
      '    Properties:',
      '      QueueName: !FindInMap [constructor, prototype, polluted]',
      '      __proto__: {polluted: true}',
      '  Queue:',
      '    Type: AWS::SQS::Queue',
      '    DependsOn: [__proto__, toString]',
      '    Properties:',
      '      QueueName: !Ref toString',
      '      Tags: !GetAtt constructor.prototype',
      'Outputs:',
      '  __proto__:',
      '    Value: !Ref valueOf',
      '',
    ].join('\n');
    const { forward } = analyzeBothWays(text);
    assert.equal(forward.status, 'error');
    const invalidIds = forward.diagnostics.filter((d) => d.code === 'invalid-logical-id').map((d) => textAt(text, d));
    assert.ok(invalidIds.includes('__proto__'), `invalid ids: ${invalidIds.join(', ')}`);
    assert.ok(forward.diagnostics.some((d) => d.code === 'undefined-condition' && textAt(text, d) === 'hasOwnProperty'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  test('a property named __proto__ is compared like any other property', () => {
    const template = (value: number) => `{"Resources": {"Queue": {"Type": "AWS::SQS::Queue", "Properties": {"__proto__": {"a": ${value}}}}}}`;
    const { report } = analyzeUpdate({ text: template(1) }, { text: template(2) }, { spec });
    assert.equal(report.status, 'update');
    assert.deepEqual(report.changes[0]!.details.map((d) => d.target.path), ['/Properties/__proto__/a']);
    assert.equal(analyzeUpdate({ text: template(1) }, { text: template(1) }, { spec }).report.status, 'noop');
  });
});
