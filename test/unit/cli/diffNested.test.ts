/**
 * `cfn-impact diff` with nested stacks (docs/update-rules.md#nested-stacks): each side's child
 * templates are the files next to that side's template, and the child's plan rolls up into the
 * stack resource's row and into `--json`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';

const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-nested-'));

/** Writes a folder of templates and returns the folder's path. */
function folder(name: string, files: Record<string, string>): string {
  const path = join(dir, name);
  mkdirSync(join(path, 'stacks'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
  return path;
}

async function run(...argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: {} });
  return { code, stdout };
}

const parent = `Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: stacks/network.yaml
      Parameters:
        VpcCidr: 10.0.0.0/16
`;

const network = (cidr: string, topicName: string) => `Parameters:
  VpcCidr:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: ${cidr}
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: 10.0.0.0/24
  Alerts:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: ${topicName}
`;

const before = folder('before', { 'parent.yaml': parent, 'stacks/network.yaml': network('!Ref VpcCidr', 'alerts') });
const after = folder('after', { 'parent.yaml': parent, 'stacks/network.yaml': network('10.9.0.0/16', 'alarms') });
const missing = folder('missing', { 'parent.yaml': parent });

describe('cfn-impact diff with nested stacks', () => {
  test("a child-only edit is a row for the stack resource that counts the child's changes", async () => {
    const { code, stdout } = await run('diff', join(before, 'parent.yaml'), join(after, 'parent.yaml'));
    assert.equal(code, 0);
    const row = stdout.split('\n').find((line) => /\sNetwork\s/.test(line));
    assert.match(row ?? '', /AWS::CloudFormation::Stack\s+nested: 2 replace · 1 modify$/);
    // Under it, each change inside the nested stack with its cause, named by the child's path.
    const inside = stdout.split('\n').filter((line) => line.includes('stacks/network.yaml › ')).map((line) => line.trim());
    assert.deepEqual(inside, [
      'stacks/network.yaml › ⟳ replace Vpc — CidrBlock changed',
      'stacks/network.yaml › ⟳ replace Subnet — VpcId ← Vpc replaced',
      'stacks/network.yaml › ✎ update (no interruption) Alerts — DisplayName changed',
    ]);
  });

  test("--json carries the child's plan under nested, located in the child's own file", async () => {
    const { stdout } = await run('diff', join(before, 'parent.yaml'), join(after, 'parent.yaml'), '--json');
    const json = JSON.parse(stdout);
    const stack = json.changes.find((c: { logicalId: string }) => c.logicalId === 'Network');
    assert.equal(stack.action, 'Modify');
    assert.equal(stack.nested.path, 'stacks/network.yaml');
    assert.equal(stack.nested.status, 'update');
    const vpc = stack.nested.changes.find((c: { logicalId: string }) => c.logicalId === 'Vpc');
    assert.equal(vpc.impact, 'replacement');
    assert.equal(vpc.location.file, join(after, 'stacks/network.yaml'));
    assert.equal(vpc.location.start.line, 5);
  });

  test('a missing child file fails the diff with the error at TemplateURL', async () => {
    const { code, stdout } = await run('diff', join(before, 'parent.yaml'), join(missing, 'parent.yaml'), '--json');
    assert.equal(code, 1);
    const json = JSON.parse(stdout);
    assert.equal(json.status, 'error');
    const error = json.diagnostics.find((d: { code: string }) => d.code === 'nested-template-missing');
    assert.equal(error.message, 'Parameter TemplateURL of resource Network refers to a file or folder that does not exist stacks/network.yaml');
    assert.deepEqual(error.location.start, { line: 5, column: 20 });
  });
});
