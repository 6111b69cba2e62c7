/**
 * Early validation read from DescribeEvents: which checks rejected an operation, through the real
 * SDK against the local endpoint (whose events follow the API reference's OperationEvent), and
 * which operation to ask about.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { failedValidations, latestOperationId } from '../../../server/src/stacks/earlyValidation';
import type { OperationEvent } from '../../../server/src/stacks/types';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

describe('early validation', () => {
  let endpoint: LocalEndpoint;
  let reader: CloudFormationReader;
  const now = Date.UTC(2024, 4, 1, 12);

  before(async () => {
    // Both scripted operations are over by `now`.
    endpoint = await startEndpoint({ scenarios: ['update-validation-failed', 'update-replacement'], now: () => now, startAt: now - 600_000, pageSize: { events: 2 } });
    const created = await CloudFormationReader.create({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
    assert.ok(created.ok);
    reader = created.value;
  });

  after(async () => {
    reader.dispose();
    await endpoint.close();
  });

  test('stack events carry their operation id: the rejected update is an operation of its own, after the create', async () => {
    const read = await reader.describeStackEvents('storage');
    assert.ok(read.ok);
    const [newest] = read.value.events;
    assert.equal(newest.status, 'UPDATE_FAILED');
    assert.equal(newest.detailedStatus, 'VALIDATION_FAILED');
    const operations = new Set(read.value.events.map((e) => e.operationId));
    assert.equal(operations.size, 2, 'the create and the update');
    assert.ok(!operations.has(undefined));
    // No resource was touched: besides the stack's own events, only the create's.
    const updateEvents = read.value.events.filter((e) => e.operationId === newest.operationId);
    assert.deepEqual(
      updateEvents.map((e) => e.status),
      ['UPDATE_FAILED', 'UPDATE_IN_PROGRESS'],
    );
    assert.equal(latestOperationId(read.value.events, newest.stackId), newest.operationId);
  });

  test('DescribeEvents with FailedEvents names the check that rejected the update and where in the template', async () => {
    const events = await reader.describeStackEvents('storage');
    assert.ok(events.ok);
    const [newest] = events.value.events;
    const read = await reader.describeEvents(newest.stackId, newest.operationId!, { failedOnly: true });
    assert.ok(read.ok);
    assert.ok(read.value.every((e) => e.operationId === newest.operationId));
    assert.deepEqual(
      read.value.map((e) => e.eventType).sort(),
      ['STACK_EVENT', 'VALIDATION_ERROR'],
      'the failed stack event and the failed check; not the UPDATE_IN_PROGRESS',
    );
    assert.deepEqual(failedValidations(read.value), [
      {
        name: 'ResourceNameConflict',
        reason: 'A bucket named shared-archive already exists in this account.',
        path: '/Resources/Archive/Properties/BucketName',
        logicalId: 'Archive',
        timestamp: read.value.find((e) => e.eventType === 'VALIDATION_ERROR')!.timestamp,
      },
    ]);
  });

  test('an operation that passed validation: DescribeEvents answers its stack events, and no check failed', async () => {
    const events = await reader.describeStackEvents('network');
    assert.ok(events.ok);
    const [newest] = events.value.events;
    const read = await reader.describeEvents(newest.stackId, newest.operationId!, { maxPages: 50 });
    assert.ok(read.ok);
    assert.deepEqual(
      read.value.map((e) => e.eventId),
      events.value.events.filter((e) => e.operationId === newest.operationId).map((e) => e.eventId),
    );
    assert.deepEqual(failedValidations(read.value), []);
  });

  test('only failed checks in FAIL mode rejected the operation, oldest first; WARN and SKIPPED ones did not', () => {
    const check = (name: string, status: string, failureMode: string, timestamp: number): OperationEvent => ({
      eventId: name,
      stackId: 'stack',
      eventType: 'VALIDATION_ERROR',
      timestamp,
      validation: { name, status, failureMode },
    });
    const events = [check('Later', 'FAILED', 'FAIL', 3), check('BucketNotEmpty', 'FAILED', 'WARN', 1), check('Skipped', 'SKIPPED', 'FAIL', 1), check('First', 'FAILED', 'FAIL', 2)];
    assert.deepEqual(
      failedValidations(events).map((f) => f.name),
      ['First', 'Later'],
    );
  });

  test('no operation id (events from before CloudFormation gave them): nothing to ask DescribeEvents about', () => {
    assert.equal(latestOperationId([{ eventId: 'e', stackId: 's', stackName: 'n', logicalId: 'n', physicalId: 's', resourceType: 'AWS::CloudFormation::Stack', timestamp: 1, status: 'UPDATE_FAILED' }], 's'), undefined);
  });
});
