/**
 * A stack's recent operations: its events grouped by `OperationId` (an automatic rollback is an
 * operation of its own, docs: "View stack events by operation"), named by `LastOperations` where
 * DescribeStacks gives it, newest first with outcome and duration; events without operation ids
 * (as CloudFormation wrote them before November 2025) grouped by the stack events that start an
 * operation. Read through the real SDK from the local endpoint playing the seed scenarios.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { operationHistoryLine, operationSummaryText } from '../../../server/src/present';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { operationSummaryOf, recentOperations } from '../../../server/src/stacks/operationHistory';
import { operationTimeline } from '../../../server/src/stacks/operationTimeline';
import { buildStackTree, type TreeNode } from '../../../server/src/stacks/treeModel';
import type { StackSnapshot } from '../../../server/src/stacks/stackWatcher';
import type { StackEvent } from '../../../server/src/stacks/types';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const STEP_MS = 1000;

describe("a stack's recent operations, read from the local endpoint", () => {
  let endpoint: LocalEndpoint;
  let reader: CloudFormationReader;
  const now = Date.UTC(2024, 4, 1, 12);

  before(async () => {
    // Both scripted operations have finished by `now`.
    endpoint = await startEndpoint({ scenarios: ['create-rollback', 'update-replacement'], now: () => now, startAt: now - 600_000, stepMs: STEP_MS });
    const created = await CloudFormationReader.create({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIAOPERATIONS', secretAccessKey: 'not-a-secret' } });
    assert.ok(created.ok);
    reader = created.value;
  });

  after(async () => {
    await endpoint?.close();
  });

  async function operationsOf(stackName: string) {
    const [stacks, events] = await Promise.all([reader.describeStacks({ stackName }), reader.describeStackEvents(stackName)]);
    assert.ok(stacks.ok && events.ok);
    const stack = stacks.value[0]!;
    return { stack, operations: recentOperations(events.value.events, stack.lastOperations) };
  }

  test('a failed create and its rollback are two operations: the create failed, the rollback succeeded', async () => {
    const { stack, operations } = await operationsOf('web');
    // LastOperations, newest first: the rollback, then the create it followed.
    assert.deepEqual(stack.lastOperations?.map((o) => o.operationType), ['ROLLBACK', 'CREATE_STACK']);
    assert.deepEqual(operations.map((o) => o.operationId), stack.lastOperations?.map((o) => o.operationId));
    // The script: the create's events fill steps 0 to 4 (eight events), the rollback's steps 5 to 8 (six).
    assert.deepEqual(
      operations.map((o) => [o.operationType, o.outcome, o.status, o.eventCount, Math.round((o.lastEventAt - o.startedAt) / STEP_MS)]),
      [
        ['ROLLBACK', 'succeeded', 'ROLLBACK_COMPLETE', 6, 3],
        ['CREATE_STACK', 'failed', 'CREATE_IN_PROGRESS', 8, 4],
      ],
    );
    assert.deepEqual(operations.map(operationHistoryLine), ['Rollback · succeeded · 3s · ROLLBACK_COMPLETE', 'Create · failed · 4s']);
  });

  test('an existing stack updated: the update, newest first, then the create hours before it', async () => {
    const { operations } = await operationsOf('network');
    assert.deepEqual(
      operations.map((o) => [o.operationType, o.outcome, o.status]),
      [
        ['UPDATE_STACK', 'succeeded', 'UPDATE_COMPLETE'],
        ['CREATE_STACK', 'succeeded', 'CREATE_COMPLETE'],
      ],
    );
  });

  test("each operation has a timeline of its own: the failed create's bars and root cause, then the rollback's", async () => {
    const { stack } = await operationsOf('web');
    const events = await reader.describeStackEvents('web');
    assert.ok(events.ok);
    const [rollback, create] = recentOperations(events.value.events, stack.lastOperations);
    const createTimeline = operationTimeline(create!.events, operationSummaryOf(create!, stack));
    // Steps 0 to 4 of the script: three resources started, the instance's bad image id the first failure.
    assert.deepEqual(
      createTimeline.rows.map((row) => [row.logicalId, row.outcome, row.rootCause === true, row.phases.map((p) => p.kind).join()]),
      [
        ['VPC', 'failed', false, 'main'],
        ['Instance', 'failed', true, 'main'],
        ['Bucket', 'failed', false, 'main'],
      ],
    );
    // It ends with its last event, at step 4 (the endpoint spaces a step's events a millisecond apart).
    const { outcome, start, end } = createTimeline.operation;
    assert.deepEqual([outcome, start, Math.round((end! - start) / STEP_MS)], ['failed', create!.startedAt, 4]);
    // Its last stack status is the one it started with: the rollback's statuses are the rollback's.
    assert.equal(operationSummaryText({ ...createTimeline.operation, stackName: 'web' }, end!), 'CREATE_IN_PROGRESS → failed in 4s, then rolled back in an operation of its own');

    const rollbackTimeline = operationTimeline(rollback!.events, operationSummaryOf(rollback!, stack));
    // Steps 5 to 8: the rollback deletes all three, and succeeds.
    assert.deepEqual(
      rollbackTimeline.rows.map((row) => [row.logicalId, row.outcome, row.phases.map((p) => p.kind).join()]),
      [
        ['Instance', 'deleted', 'rollback'],
        ['Bucket', 'deleted', 'rollback'],
        ['VPC', 'deleted', 'rollback'],
      ],
    );
    assert.deepEqual(rollbackTimeline.operation.phases.map((p) => p.status), ['ROLLBACK_IN_PROGRESS']);
    assert.deepEqual([rollbackTimeline.operation.outcome, rollbackTimeline.operation.rootCause], ['succeeded', undefined]);
  });

  test("the stacks tree lists a detailed stack's operations under it", async () => {
    const { stack } = await operationsOf('web');
    const events = await reader.describeStackEvents('web');
    assert.ok(events.ok);
    const { deletionTime: _deleted, ...fields } = stack;
    const snapshot: StackSnapshot = { ...fields, detailed: true, followed: false, resources: [], events: events.value.events };
    const tree = buildStackTree({ regions: [{ region: 'us-east-1', snapshot: { region: 'us-east-1', stacks: [snapshot], paused: false, listedAt: now } }], now });
    const stackNode = find(tree, (n) => n.kind === 'stack');
    const group = stackNode?.children?.find((n) => n.kind === 'operations');
    assert.equal(group?.description, '2');
    assert.deepEqual(
      group?.children?.map((n) => [n.label, n.description, n.stack?.phase]),
      [
        // Started 595 s and 600 s before `now`: both round to ten minutes.
        ['Rollback', 'succeeded · 3s · ROLLBACK_COMPLETE · 10 min ago', 'complete'],
        ['Create', 'failed · 4s · 10 min ago', 'failed'],
      ],
    );
    assert.match(group?.children?.[0]?.tooltip ?? '', /Operation id: [0-9a-f-]{36}/);
  });
});

/** A stack event of `web` at second `at`, optionally in an operation. */
function stackEvent(at: number, status: string, operationId?: string): StackEvent {
  return { eventId: `e${at}`, stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/web/1', stackName: 'web', logicalId: 'web', physicalId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/web/1', resourceType: 'AWS::CloudFormation::Stack', timestamp: at * 1000, status, ...(operationId ? { operationId } : {}) };
}

function resourceEvent(at: number, status: string, operationId?: string): StackEvent {
  return { eventId: `r${at}`, stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/web/1', stackName: 'web', logicalId: 'Bucket', physicalId: 'web-bucket', resourceType: 'AWS::S3::Bucket', timestamp: at * 1000, status, ...(operationId ? { operationId } : {}) };
}

describe('recent operations from events without operation ids', () => {
  test('each start of work on a resting stack begins an operation; an update and its automatic rollback are one failed update', () => {
    const events = [
      stackEvent(0, 'CREATE_IN_PROGRESS'),
      resourceEvent(1, 'CREATE_COMPLETE'),
      stackEvent(2, 'CREATE_COMPLETE'),
      stackEvent(100, 'UPDATE_IN_PROGRESS'),
      resourceEvent(101, 'UPDATE_FAILED'),
      stackEvent(102, 'UPDATE_ROLLBACK_IN_PROGRESS'),
      resourceEvent(103, 'UPDATE_COMPLETE'),
      stackEvent(110, 'UPDATE_ROLLBACK_COMPLETE'),
    ];
    // In any order, as pages of DescribeStackEvents arrive newest first.
    const operations = recentOperations(events.reverse());
    assert.deepEqual(operations.map(operationHistoryLine), ['Update · failed · 10s · UPDATE_ROLLBACK_COMPLETE', 'Create · succeeded · 2s · CREATE_COMPLETE']);
    assert.equal(operations[0]!.operationId, undefined);
  });

  test('events of an operation whose start was not read are left out, and at most five operations are listed', () => {
    const events = [resourceEvent(1, 'UPDATE_COMPLETE'), stackEvent(2, 'UPDATE_COMPLETE')];
    for (let i = 1; i <= 6; i++) events.push(stackEvent(i * 100, 'UPDATE_IN_PROGRESS'), stackEvent(i * 100 + 30, 'UPDATE_COMPLETE'));
    const operations = recentOperations(events);
    assert.equal(operations.length, 5);
    assert.deepEqual(operations.map((o) => o.startedAt / 1000), [600, 500, 400, 300, 200]);
  });

  test('an operation still running reads as running, with its current status', () => {
    const operations = recentOperations([stackEvent(0, 'UPDATE_IN_PROGRESS', 'op-1'), resourceEvent(65, 'UPDATE_IN_PROGRESS', 'op-1')], [{ operationType: 'UPDATE_STACK', operationId: 'op-1' }]);
    assert.deepEqual(operations.map(operationHistoryLine), ['Update · running · 1m 05s · UPDATE_IN_PROGRESS']);
  });

  test('LastOperations names what the events cannot: a continued rollback starts like any rollback', () => {
    const operations = recentOperations(
      [stackEvent(0, 'UPDATE_ROLLBACK_IN_PROGRESS', 'op-9'), stackEvent(40, 'UPDATE_ROLLBACK_COMPLETE', 'op-9')],
      [{ operationType: 'CONTINUE_ROLLBACK', operationId: 'op-9' }],
    );
    assert.deepEqual(operations.map(operationHistoryLine), ['Continued rollback · succeeded · 40s · UPDATE_ROLLBACK_COMPLETE']);
  });
});

function find(nodes: readonly TreeNode[], match: (node: TreeNode) => boolean): TreeNode | undefined {
  for (const node of nodes) {
    if (match(node)) return node;
    const inner = find(node.children ?? [], match);
    if (inner) return inner;
  }
  return undefined;
}
