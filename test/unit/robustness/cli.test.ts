/**
 * `cfn-impact diff --json` over hostile files: exactly one JSON object, `status: "error"` and
 * exit code 1 when the new template cannot be deployed; unreadable files are a one-line
 * message on stderr and exit code 1, never a stack trace.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';

const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const VALID = 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n';

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Runs `cfn-impact` with the given arguments and captures its output and exit code. */
async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: {} });
  return { code, stdout, stderr };
}

const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
for (let level = 1; level <= 9; level++) lines.push(`a${level}: &a${level} [${Array(9).fill(`*a${level - 1}`).join(', ')}]`);

let seed = 11;
const garbage = Uint8Array.from({ length: 50_000 }, () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256);

const hostile: [string, string | Uint8Array, string][] = [
  ['an empty file', '', 'not-a-template'],
  ['binary garbage', garbage, ''],
  ['package.json', '{"name": "app", "version": "1.0.0", "dependencies": {}}\n', 'not-a-template'],
  ['an alias bomb', `Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Metadata:\n${lines.map((l) => `      ${l}`).join('\n')}\n`, 'alias-limit'],
  ['20,000-deep JSON', `{"Resources": {"Bucket": {"Type": "AWS::S3::Bucket", "Metadata": ${'['.repeat(20_000)}${']'.repeat(20_000)}}}}`, 'nesting-too-deep'],
  ['duplicate keys', 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n  Bucket:\n    Type: AWS::SQS::Queue\n', 'duplicate-key'],
  ['a Ref cycle', 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Ref B\n  B:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Ref A\n', 'circular-dependency'],
  ['an unknown function', 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: {"Fn::Bogus": 1}\n', 'unsupported-function'],
  ['Fn::Select out of range', 'Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Select [3, [a]]\n', 'malformed-intrinsic'],
];

describe('cfn-impact diff --json over hostile templates', () => {
  const validPath = file('valid.yaml', VALID);
  for (const [name, content, code] of hostile) {
    test(`${name} as the new template: one JSON object, status error, exit 1`, async () => {
      const path = file(`${name.replace(/\W+/g, '-')}.json`, content);
      const result = await cli('diff', validPath, path, '--json');
      assert.equal(result.code, 1, result.stderr);
      const out = result.stdout.trim().split('\n');
      assert.equal(out.length, 1);
      const report = JSON.parse(out[0]!) as { status: string; message: string; diagnostics: { code: string; severity: string; location?: { file: string; start: { line: number } } }[] };
      assert.equal(report.status, 'error');
      assert.ok(report.message.length > 0);
      const errors = report.diagnostics.filter((d) => d.severity === 'error');
      assert.ok(errors.length > 0);
      if (code) assert.ok(errors.some((d) => d.code === code), errors.map((d) => d.code).join(', '));
      assert.equal(errors[0]!.location?.file, path);
      assert.ok(errors[0]!.location!.start.line >= 1);
      assert.equal(result.stderr, '');
    });

    test(`${name} as the old template: one JSON object, exit code per its status`, async () => {
      const path = file(`${name.replace(/\W+/g, '-')}-old.json`, content);
      const result = await cli('diff', path, validPath, '--json');
      assert.equal(result.stdout.trim().split('\n').length, 1);
      const report = JSON.parse(result.stdout) as { status: string };
      assert.ok(['update', 'noop', 'error'].includes(report.status), report.status);
      assert.equal(result.code, report.status === 'error' ? 1 : 0);
    });
  }
});

describe('cfn-impact diff over unreadable files', () => {
  const validPath = file('readable.yaml', VALID);
  const unreadable: [string, () => string | undefined, RegExp][] = [
    ['a missing file', () => join(dir, 'missing.yaml'), /cannot read .*missing\.yaml: no such file/],
    [
      'a directory',
      () => {
        const path = join(dir, 'folder.yaml');
        mkdirSync(path, { recursive: true });
        return path;
      },
      /cannot read .*folder\.yaml: is a directory/,
    ],
    [
      'a file without read permission',
      () => {
        // root reads every file whatever its mode, so the case cannot be produced there.
        if (process.getuid?.() === 0) return undefined;
        const path = file('secret.yaml', VALID);
        chmodSync(path, 0o000);
        return path;
      },
      /cannot read .*secret\.yaml: permission denied/,
    ],
  ];
  for (const [name, make, message] of unreadable) {
    for (const side of ['old', 'new'] as const) {
      test(`${name} as the ${side} template: one line on stderr, one error object on stdout, exit 1, no stack trace`, async (t) => {
        const path = make();
        if (path === undefined) {
          t.skip('running as root, which may read any file');
          return;
        }
        const result = await cli('diff', ...(side === 'old' ? [path, validPath] : [validPath, path]), '--json');
        assert.equal(result.code, 1);
        const printed = result.stdout.trim().split('\n');
        assert.equal(printed.length, 1);
        const report = JSON.parse(printed[0]) as { status: string; message: string };
        assert.equal(report.status, 'error');
        assert.match(report.message, message);
        assert.match(result.stderr, message);
        assert.equal(result.stderr.trim().split('\n').length, 1);
        assert.doesNotMatch(result.stderr, /^\s+at /m);
      });
    }
  }
});
