/**
 * `cfn-impact verify`: a change set read through the real SDK from the local endpoint (all pages,
 * nested change sets included), compared with the prediction resource by resource. The change
 * sets are written from the user guide's example change sets, not from the engine's output.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// The SDK's credential chain reads the process environment.
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

const update = join(__dirname, '..', '..', '..', 'examples', 'network', 'update.yaml');

let endpoint: LocalEndpoint;
before(async () => {
  // One change per page: the reader must follow NextToken to see them all.
  endpoint = await startEndpoint({ scenarios: ['change-set-review'], pageSize: { changes: 1 } });
});
after(() => endpoint.close());

async function verify(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['verify', '--stack', 'network-review', '--endpoint', endpoint.url, ...argv], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: { AWS_REGION: 'us-east-1' } });
  return { code, stdout, stderr };
}

interface Compared {
  logicalId: string;
  agrees: boolean;
  disagreements: { kind: string; message: string; changeSet?: string; predicted?: string; onlyInChangeSet?: string[]; onlyPredicted?: string[] }[];
}

describe('cfn-impact verify', () => {
  test('agrees, exit 0, with the change set CloudFormation wrote for the update (its own template and values read)', async () => {
    const before = endpoint.calls.length;
    const { code, stdout, stderr } = await verify('--change-set', 'add-queue');
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const lines = stdout.trimEnd().split('\n');
    assert.equal(lines[1], 'Change set add-queue agrees with the prediction on all 3 resources.');
    assert.deepEqual(lines.slice(3).sort(), [
      '  ✓ AccessLogs (AWS::S3::Bucket): both Remove',
      '  ✓ Queue (AWS::SQS::Queue): both Add',
      '  ✓ WebSecurityGroup (AWS::EC2::SecurityGroup): both Modify',
    ]);
    const calls = endpoint.calls.slice(before);
    assert.equal(calls.filter((c) => c.action === 'DescribeChangeSet').length, 3, 'three pages of one change each');
    assert.ok(calls.every((c) => c.action !== 'DescribeChangeSet' || c.params.IncludePropertyValues === 'true'));
    assert.ok(calls.some((c) => c.action === 'GetTemplate' && c.params.ChangeSetName !== undefined), "the change set's template");
  });

  test('reports each kind of disagreement, exit 3: replacement, details, action, only in the change set, only predicted', async () => {
    const { code, stdout } = await verify('--change-set', 'edited-by-hand', update, '--json');
    assert.equal(code, 3);
    const result = JSON.parse(stdout) as { status: string; message: string; resources: Compared[] };
    assert.equal(result.status, 'differ');
    assert.equal(result.message, 'Change set edited-by-hand and the prediction differ on 4 resources (agree on 0).');
    const byId = Object.fromEntries(result.resources.map((r) => [r.logicalId, r]));
    assert.deepEqual(byId.WebSecurityGroup.disagreements.map((d) => d.kind), ['replacement', 'details']);
    assert.deepEqual([byId.WebSecurityGroup.disagreements[0].changeSet, byId.WebSecurityGroup.disagreements[0].predicted], ['True', 'False']);
    assert.deepEqual([byId.WebSecurityGroup.disagreements[1].onlyInChangeSet, byId.WebSecurityGroup.disagreements[1].onlyPredicted], [['GroupDescription'], []]);
    assert.deepEqual(byId.Queue.disagreements.map((d) => [d.kind, d.changeSet, d.predicted]), [['action', 'Modify', 'Add']]);
    assert.deepEqual(byId.InstanceRole.disagreements.map((d) => d.kind), ['only-in-change-set']);
    assert.deepEqual(byId.AccessLogs.disagreements.map((d) => d.kind), ['only-predicted']);
    assert.equal(byId.Queue.disagreements[0].message, 'the change set says Modify, the prediction Add');
  });

  test('the text output marks each resource that differs', async () => {
    const { code, stdout } = await verify('--change-set', 'edited-by-hand', update);
    assert.equal(code, 3);
    assert.ok(stdout.includes('  ✗ WebSecurityGroup (AWS::EC2::SecurityGroup): Replacement True in the change set, False predicted; only the change set changes GroupDescription\n'));
    assert.ok(stdout.includes('  ✗ AccessLogs (AWS::S3::Bucket): only the prediction lists it (Remove); the change set leaves it unchanged\n'));
  });

  test("nested change sets are read by their ARN and listed apart: the prediction covers the stack's own resources", async () => {
    const { code, stdout } = await verify('--change-set', 'with-nested-stack', update, '--json');
    assert.equal(code, 3);
    const result = JSON.parse(stdout) as { message: string; nested: { nestedIn: string[]; logicalId: string; action: string }[] };
    assert.deepEqual(result.nested, [{ nestedIn: ['Alarms'], logicalId: 'AlarmTopic', resourceType: 'AWS::SNS::Topic', action: 'Add' }]);
    assert.match(result.message, /1 change inside a nested stack is not compared/);
    const nestedRead = endpoint.calls.filter((c) => c.action === 'DescribeChangeSet' && c.params.ChangeSetName.includes(':changeSet/with-nested-stack-Alarms'));
    assert.ok(nestedRead.length > 0);
  });

  test('an unknown change set is an error with exit 1 and one JSON object', async () => {
    const { code, stdout, stderr } = await verify('--change-set', 'no-such-change-set', '--json');
    assert.equal(code, 1);
    assert.match(stderr, /no-such-change-set/);
    assert.equal(JSON.parse(stdout).status, 'error');
  });
});
