/**
 * A template linked to a deployed stack whose pipeline created change sets: the verdict lens
 * offers to compare them (ListChangeSets), and the comparison, read through the real SDK from the
 * local endpoint (DescribeChangeSet), is `cfn-impact verify`'s for the version the editor shows.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseBaselineRequest, commands, compareChangeSetRequest, type CompareChangeSetArguments } from '../../server/src/lsp/protocol';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { TestServer } from './support/languageServer';
import { useTestAwsEnvironment } from './support/awsEnvironment';

useTestAwsEnvironment('AKIACHANGESETSTEST', 'change-sets-test-not-a-secret');

const update = readFileSync(join(__dirname, '..', '..', 'examples', 'network', 'update.yaml'), 'utf8');

describe('change sets of a linked stack, in the editor', () => {
  let endpoint: LocalEndpoint;
  let server: TestServer;
  const uri = 'untitled:network-review.yaml';

  before(async () => {
    endpoint = await startEndpoint({ scenarios: ['change-set-review'] });
    server = await TestServer.start({ initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } } });
    await server.open(uri, update);
    const status = await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'stack', stackName: 'network-review' } });
    assert.equal(status?.state, 'ok');
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
  });

  async function changeSetLens() {
    for (let attempt = 0; attempt < 100; attempt++) {
      const lens = ((await server.codeLenses(uri)) ?? []).find((l) => l.command?.command === commands.compareChangeSet);
      if (lens) return lens;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail('no change set lens');
  }

  test('the verdict lens is joined by one that offers the stack’s change sets', async () => {
    const lens = await changeSetLens();
    assert.equal(lens.range.start.line, 0);
    assert.equal(lens.command?.title, 'Compare with a change set (add-queue, edited-by-hand, with-nested-stack)');
    assert.deepEqual(lens.command?.arguments, [{ uri, changeSets: ['add-queue', 'edited-by-hand', 'with-nested-stack'] } satisfies CompareChangeSetArguments]);
    assert.ok(endpoint.calls.some((c) => c.action === 'ListChangeSets' && c.params.StackName === 'network-review'));
  });

  test('comparing with the change set CloudFormation wrote for this version: they agree', async () => {
    const result = await server.connection.sendRequest(compareChangeSetRequest, { uri, changeSetName: 'add-queue' });
    assert.equal(result.agrees, true);
    assert.equal(result.message, 'Change set add-queue agrees with the prediction on all 3 resources.');
    assert.deepEqual([...result.lines].sort(), [
      '✓ AccessLogs (AWS::S3::Bucket): both Remove',
      '✓ Queue (AWS::SQS::Queue): both Add',
      '✓ WebSecurityGroup (AWS::EC2::SecurityGroup): both Modify',
    ]);
  });

  test('comparing with a change set made from another template: they differ, resource by resource', async () => {
    const result = await server.connection.sendRequest(compareChangeSetRequest, { uri, changeSetName: 'edited-by-hand' });
    assert.equal(result.agrees, false);
    assert.equal(result.message, 'Change set edited-by-hand and the prediction differ on 4 resources (agree on 0).');
    assert.ok(result.lines.includes('✗ Queue (AWS::SQS::Queue): the change set says Modify, the prediction Add'));
  });

  test('an unknown change set is a message, not a failure', async () => {
    const result = await server.connection.sendRequest(compareChangeSetRequest, { uri, changeSetName: 'gone' });
    assert.equal(result.agrees, undefined);
    assert.match(result.message, /gone/);
  });
});
