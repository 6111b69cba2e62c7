import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_NESTING_DEPTH, nodeAtPath, parseTemplate, toPlain, type ParsedTemplate } from '../../../server/src/template';

/**
 * Parses hostile text, asserting that it neither throws nor takes a second of CPU time.
 * CPU time rather than wall time, so that other processes competing for the machine cannot fail the test.
 */
function parseWithinASecond(text: string): ParsedTemplate {
  const before = process.cpuUsage();
  const parsed = parseTemplate(text);
  const used = process.cpuUsage(before);
  const milliseconds = (used.user + used.system) / 1000;
  assert.ok(milliseconds < 1000, `took ${milliseconds.toFixed(0)} ms of CPU time`);
  return parsed;
}

/** The billion-laughs document: nine levels, each aliasing the previous one nine times. */
function billionLaughs(): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let level = 1; level <= 9; level++) {
    lines.push(`a${level}: &a${level} [${Array(9).fill(`*a${level - 1}`).join(', ')}]`);
  }
  return lines.join('\n') + '\n';
}

describe('hostile input is bounded', () => {
  test('the billion-laughs alias bomb stops expanding with an error', () => {
    const parsed = parseWithinASecond(billionLaughs());
    const errors = parsed.errors.filter((e) => e.code === 'alias-limit');
    assert.equal(errors.length, 1);
    assert.equal(parsed.text.slice(errors[0]!.range.start, errors[0]!.range.end).startsWith('*a'), true);
    // The bounded tree is small enough to turn into a plain value.
    assert.equal(JSON.stringify(toPlain(parsed.root!)).length < 10_000_000, true);
  });

  const depth = 20_000;
  const deepInputs: [string, string][] = [
    ['JSON arrays', '['.repeat(depth) + ']'.repeat(depth)],
    ['JSON objects', '{"a": '.repeat(depth) + '1' + '}'.repeat(depth)],
    ['YAML flow maps', '{a: '.repeat(depth) + '1' + '}'.repeat(depth)],
    ['YAML block sequences', '- '.repeat(depth) + 'x\n'],
    ['YAML short forms', '!If ['.repeat(depth) + ']'.repeat(depth)],
    // A block map needs one more space of indentation per level, so 3,000 levels is already 4.5 MB.
    ['YAML block maps', Array.from({ length: 3000 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1\n'],
  ];
  for (const [name, text] of deepInputs) {
    test(`deeply nested ${name} are cut at ${MAX_NESTING_DEPTH} levels with one error`, () => {
      const parsed = parseWithinASecond(text);
      const errors = parsed.errors.filter((e) => e.code === 'nesting-too-deep');
      assert.equal(errors.length, 1);
      assert.ok(errors[0]!.range.end > errors[0]!.range.start);
      assert.ok(parsed.root !== undefined);
      // Whatever consumes the tree may recurse over it safely.
      assert.doesNotThrow(() => JSON.stringify(toPlain(parsed.root!)));
    });
  }

  test('nesting just under the bound is read in full without errors', () => {
    const levels = MAX_NESTING_DEPTH - 1;
    const parsed = parseWithinASecond('['.repeat(levels) + '1' + ']'.repeat(levels));
    assert.deepEqual(parsed.errors, []);
    assert.equal(nodeAtPath(parsed.root!, Array(levels - 1).fill(0))?.kind, 'seq');
  });

  test('an 8 MB string is read whole, in JSON and in YAML', () => {
    const long = 'x'.repeat(8 * 1024 * 1024);
    for (const text of [`{"Description": "${long}"}`, `Description: ${long}\n`, `Description: '${long}'\n`, `Description: |\n  ${long}\n`]) {
      const parsed = parseWithinASecond(text);
      assert.deepEqual(parsed.errors, []);
      const value = toPlain(parsed.root!) as { Description: string };
      assert.equal(value.Description.trimEnd(), long);
    }
  });

  test('an 8 MB double-quoted string with escapes is read whole', () => {
    const line = 'a'.repeat(78) + '\\n';
    const text = `{"Description": "${line.repeat(100_000)}"}`;
    const parsed = parseWithinASecond(text);
    assert.deepEqual(parsed.errors, []);
    assert.equal((toPlain(parsed.root!) as { Description: string }).Description.length, 7_900_000);
  });

  test('random binary bytes give errors, not exceptions', () => {
    // A fixed linear congruential sequence keeps the bytes the same on every run.
    let seed = 12345;
    const bytes = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < bytes.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      bytes[i] = seed >> 16;
    }
    for (const text of [bytes.toString('latin1'), bytes.toString('utf8')]) {
      const parsed = parseWithinASecond(text);
      assert.ok(parsed.errors.length > 0);
      for (const error of parsed.errors) {
        assert.ok(error.range.start >= 0 && error.range.start <= error.range.end && error.range.end <= text.length);
      }
    }
  });

  test('the empty file is no template and no error', () => {
    const parsed = parseWithinASecond('');
    assert.equal(parsed.root, undefined);
    assert.deepEqual(parsed.errors, []);
  });
});
