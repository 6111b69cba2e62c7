/**
 * `cfn-impact diff --stack NAME NEW`: the deployed stack (its template as submitted, its current
 * parameter values and its status) is the baseline, read through the real SDK from the local
 * endpoint, with the parameter rules of the editor's linked stack.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// The SDK's credential chain reads the process environment.
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

const root = join(__dirname, '..', '..', '..');
const deployed = join(root, 'examples', 'network', 'deployed.yaml');
const update = join(root, 'examples', 'network', 'update.yaml');
const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-stack-'));
const env = { AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' };

let endpoint: LocalEndpoint;
before(async () => {
  endpoint = await startEndpoint({ scenarios: ['change-set-review', 'update-replacement'] });
});
after(() => endpoint.close());

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env });
  return { code, stdout, stderr };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('cfn-impact diff --stack', () => {
  test("a template whose defaults differ from the stack's values is a no-op: the stack's values carry over", async () => {
    // The stack runs deployed.yaml with VpcCidr 10.1.0.0/16 and InstanceType t3.small; the
    // template's defaults are 10.0.0.0/16 and t3.micro. Without values given, CloudFormation
    // keeps the stack's (UsePreviousValue), so nothing changes.
    const { code, stdout, stderr } = await run('diff', '--stack', 'network-review', deployed, '--endpoint', endpoint.url, '--json');
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const result = JSON.parse(stdout);
    assert.equal(result.status, 'noop');
    assert.equal(result.message, 'No updates are to be performed.');
    const actions = new Set(endpoint.calls.map((c) => c.action));
    assert.ok(actions.has('GetTemplate') && actions.has('DescribeStacks'));
    assert.equal(endpoint.calls.find((c) => c.action === 'GetTemplate')?.params.TemplateStage, 'Original');
  });

  test('the same template compared as a file, with its defaults, would replace the VPC: the stack values are what made the no-op', async () => {
    const { stdout } = await run('diff', deployed, deployed, '--old-parameters', file('stack-values.json', '{"VpcCidr":"10.1.0.0/16","InstanceType":"t3.small","Environment":"staging"}'), '--new-parameters', file('none.json', '{}'), '--json');
    const result = JSON.parse(stdout);
    assert.equal(result.status, 'update');
    assert.ok(result.changes.some((c: { logicalId: string; replacement: string }) => c.logicalId === 'VPC' && c.replacement === 'True'));
  });

  test('--new-parameters apply to NEW: a new CIDR replaces the VPC and what depends on it', async () => {
    const { code, stdout } = await run('diff', '--stack', 'network-review', deployed, '--endpoint', endpoint.url, '--json', '--new-parameters', file('cidr.json', '[{"ParameterKey":"VpcCidr","ParameterValue":"10.2.0.0/16"},{"ParameterKey":"InstanceType","UsePreviousValue":true}]'), '--fail-on', 'replacement');
    assert.equal(code, 2);
    const result = JSON.parse(stdout);
    const vpc = result.changes.find((c: { logicalId: string }) => c.logicalId === 'VPC');
    assert.equal(vpc.replacement, 'True');
    // InstanceType keeps the stack's t3.small (UsePreviousValue), so WebServer changes only through the replaced subnet.
    const server = result.changes.find((c: { logicalId: string }) => c.logicalId === 'WebServer');
    assert.ok(!server.details.some((d: { target: { name?: string } }) => d.target.name === 'InstanceType'));
  });

  test('update.yaml over the stack: the tag edit, the added queue and the retained bucket', async () => {
    const { code, stdout } = await run('diff', '--stack', 'network-review', update, '--endpoint', endpoint.url, '--json');
    assert.equal(code, 0);
    const result = JSON.parse(stdout);
    assert.deepEqual(
      result.changes.map((c: { logicalId: string; action: string }) => `${c.action} ${c.logicalId}`).sort(),
      ['Add Queue', 'Modify WebSecurityGroup', 'Remove AccessLogs'],
    );
  });

  test("the stack status check applies: a stack in UPDATE_ROLLBACK_FAILED rejects updates", async () => {
    const failed = await startEndpoint({ scenarios: ['update-rollback-failed'], startAt: 0 });
    try {
      const stack = failed.stacks[0];
      const { code, stdout } = await run('diff', '--stack', stack.stackName, update, '--endpoint', failed.url, '--json');
      const result = JSON.parse(stdout);
      assert.equal(code, 1);
      assert.equal(result.status, 'error');
      assert.match(result.message, /UPDATE_ROLLBACK_FAILED/);
    } finally {
      await failed.close();
    }
  });

  test('an unknown stack is an error with a message, and JSON still prints one object', async () => {
    const { code, stdout, stderr } = await run('diff', '--stack', 'no-such-stack', update, '--endpoint', endpoint.url, '--json');
    assert.equal(code, 1);
    assert.match(stderr, /no-such-stack/);
    assert.equal(JSON.parse(stdout).status, 'error');
  });

  test('--stack takes exactly one template, and --old-parameters does not apply', async () => {
    assert.equal((await run('diff', '--stack', 'network-review', deployed, update, '--endpoint', endpoint.url)).code, 1);
    const { code, stderr } = await run('diff', '--stack', 'network-review', update, '--old-parameters', file('o.json', '{}'), '--endpoint', endpoint.url);
    assert.equal(code, 1);
    assert.match(stderr, /--old-parameters/);
  });
});
