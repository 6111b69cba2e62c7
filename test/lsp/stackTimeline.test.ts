// The deployment timeline over the real language server: `cfnImpact/stackTimeline` answers the
// bars of a stack's current or last operation from what the stacks watcher read of the local
// CloudFormation endpoint, live while the operation runs. The endpoint runs on a clock the test
// moves; the expectations are read off the scenario scripts (test/endpoint/scenarios.ts), where
// step `n` happens `n` steps after the operation's start.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  stackTimelineRequest,
  stacksChangedNotification,
  stacksTreeRequest,
  stacksVisibilityNotification,
  type StackTimeline,
  type StackTimelineRow,
} from '../../server/src/lsp/protocol';
import { SCENARIOS } from '../endpoint/scenarios';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { TestServer } from './support/languageServer';
import { eventually, useTestAwsEnvironment } from './support/awsEnvironment';

// The spawned server inherits this environment: test credentials for signing, and no region,
// profile or AWS configuration file of the machine running the tests.
useTestAwsEnvironment('AKIATIMELINETEST', 'timeline-test-not-a-secret');

const pollIntervalMs = 40;
const stepMs = 1000;

function row(timeline: StackTimeline, logicalId: string): StackTimelineRow {
  const found = timeline.rows.find((r) => r.logicalId === logicalId);
  assert.ok(found, `${logicalId} has a bar`);
  return found;
}

describe('the deployment timeline, served by the language server', () => {
  let time = Date.now();
  const updateStartsAt = time + 60_000;
  const createStartsAt = time + 120_000;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  const changes: number[] = [];

  const timelineOf = (stackId: string) => server.connection.sendRequest(stackTimelineRequest, { region: 'us-east-1', stackId });
  /** The timeline of `stackName` once it satisfies `holds`. */
  const timelineWhen = (stackName: string, what: string, holds: (timeline: StackTimeline) => boolean) =>
    eventually(`the timeline of ${stackName} ${what}`, async () => {
      const answer = await timelineOf(stackName);
      return answer.ok && holds(answer.timeline) ? answer.timeline : undefined;
    });

  before(async () => {
    endpoint = await startEndpoint({
      scenarios: [
        { name: 'update-replacement', startAt: updateStartsAt },
        { name: 'create-rollback', startAt: createStartsAt },
      ],
      now: () => time,
      stepMs,
    });
    server = await TestServer.start({
      initializationOptions: {
        environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } },
        stacksPollIntervalMs: pollIntervalMs,
      },
    });
    server.connection.onNotification(stacksChangedNotification, (changed) => {
      changes.push(changed.version);
    });
    await server.connection.sendRequest(stacksTreeRequest, {});
    await server.connection.sendNotification(stacksVisibilityNotification, { visible: true });
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
  });

  test('a stack at rest shows its last operation, once its events are read', async () => {
    const first = await eventually('network to be listed', async () => {
      const answer = await timelineOf('network');
      return answer.ok || answer.state === 'loading' ? answer : undefined;
    });
    if (!first.ok) assert.match(first.message, /^Reading the events of network/);
    const created = await timelineWhen('network', 'to be loaded', () => true);
    assert.equal(created.operation.startStatus, 'CREATE_IN_PROGRESS', 'the stack was created before the scripted update');
    assert.equal(created.operation.outcome, 'succeeded');
  });

  test('while an update runs, the timeline grows: the resource being replaced has no end yet, done ones keep theirs', async () => {
    const changesBefore = changes.length;
    time = updateStartsAt + 8 * stepMs; // Step 8: Instance1's replacement is being created.
    const running = await timelineWhen('network', 'during the update', (t) => t.operation.startStatus === 'UPDATE_IN_PROGRESS' && t.rows.length === 3);
    await eventually('the change to be announced', () => (changes.length > changesBefore ? true : undefined));
    assert.equal(running.title, 'network: UPDATE timeline');
    assert.equal(running.operation.outcome, 'in-progress');
    assert.equal(running.operation.end, undefined);
    assert.match(running.operation.summary, /^UPDATE_IN_PROGRESS for \d+s so far$/);
    assert.deepEqual(
      running.rows.map((r) => [r.logicalId, r.kind, r.end === undefined ? 'running' : r.end - r.start]),
      [
        ['VPC', 'complete', 2 * stepMs],
        ['Subnet', 'complete', 2 * stepMs],
        ['Instance1', 'in-progress', 'running'],
      ],
    );
    assert.ok(
      running.now >= row(running, 'Instance1').events.at(-1)!.timestamp,
      'a running bar reaches at least its last event, even when this computer\'s clock is behind CloudFormation\'s (here the endpoint runs ahead)',
    );
  });

  test('once the update is done, replaced resources show both ids and the cleanup is set apart', async () => {
    time = updateStartsAt + SCENARIOS['update-replacement'].steps.length * stepMs;
    const done = await timelineWhen('network', 'after the update', (t) => t.operation.startStatus === 'UPDATE_IN_PROGRESS' && t.operation.outcome !== 'in-progress');
    assert.deepEqual([done.operation.status, done.operation.outcome], ['UPDATE_COMPLETE', 'succeeded']);
    assert.equal(done.operation.summary, 'UPDATE_IN_PROGRESS → UPDATE_COMPLETE in 17s');
    assert.deepEqual(
      done.operation.parts.map((p) => [p.label, p.status, p.start - updateStartsAt, p.end! - updateStartsAt]),
      [
        ['Deployment', 'UPDATE_IN_PROGRESS', 0, 10 * stepMs],
        ['Cleanup', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 10 * stepMs, 17 * stepMs],
      ],
    );
    assert.deepEqual(
      done.rows.map((r) => [r.logicalId, r.status, r.replaced, r.cleanup]),
      [
        ['VPC', 'UPDATE_COMPLETE', true, false],
        ['Subnet', 'UPDATE_COMPLETE', true, false],
        ['Instance1', 'UPDATE_COMPLETE', true, false],
        ['Instance2', 'DELETE_COMPLETE', false, true],
      ],
    );
    const vpc = row(done, 'VPC');
    assert.deepEqual(vpc.physicalIds, { old: 'vpc-0a11111111111111a', new: 'vpc-0b22222222222222b' });
    assert.deepEqual(vpc.spans.map((s) => [s.part, s.status]), [
      ['main', 'UPDATE_COMPLETE'],
      ['cleanup', 'DELETE_COMPLETE'],
    ]);
    assert.equal(vpc.details, 'VPC (AWS::EC2::VPC)\nUPDATE_COMPLETE after 15s\nReplaced: vpc-0a11111111111111a → vpc-0b22222222222222b');
    assert.deepEqual(vpc.events.map((e) => `${e.offset} ${e.part} ${e.status}`), [
      '+1s main UPDATE_IN_PROGRESS',
      '+2s main UPDATE_IN_PROGRESS',
      '+3s main UPDATE_COMPLETE',
      '+15s cleanup DELETE_IN_PROGRESS',
      '+16s cleanup DELETE_COMPLETE',
    ]);
    assert.equal(row(done, 'Instance2').details.split('\n')[2], 'Removed in cleanup: i-0a22222222222222a');
  });

  test('a failed create marks its first failure as the root cause, and the rollback as a part of its own', async () => {
    time = createStartsAt + SCENARIOS['create-rollback'].steps.length * stepMs;
    const failed = await timelineWhen('web', 'after the rollback', (t) => t.operation.status === 'ROLLBACK_COMPLETE');
    assert.equal(failed.operation.outcome, 'failed');
    assert.equal(failed.operation.summary, 'CREATE_IN_PROGRESS → ROLLBACK_COMPLETE in 8s');
    assert.deepEqual(failed.operation.parts.map((p) => p.label), ['Deployment', 'Rollback']);
    assert.deepEqual(
      failed.rows.map((r) => [r.logicalId, r.kind, r.rootCause]),
      [
        ['VPC', 'failed', false],
        ['Instance', 'failed', true],
        ['Bucket', 'failed', false],
      ],
    );
    const instance = row(failed, 'Instance');
    assert.equal(instance.status, 'CREATE_FAILED');
    assert.equal(instance.details.split('\n').at(-1), 'Root cause: CREATE_FAILED — Invalid id: "bogus" (expecting "ami-...")');
    assert.deepEqual(
      instance.events.filter((e) => e.rootCause).map((e) => `${e.offset} ${e.status}`),
      ['+3s CREATE_FAILED'],
    );
  });

  test("the panel offers the stack's recent operations, and an earlier one's timeline is its own", async () => {
    const latest = await timelineWhen('network', 'after the update', (t) => t.operation.status === 'UPDATE_COMPLETE');
    // Newest first: the scripted update, then the create the endpoint gave the stack before it.
    assert.deepEqual(
      latest.operations.map((o) => [o.label.split(' · ').slice(0, 2).join(' · '), o.selected]),
      [
        ['Update · succeeded', false],
        ['Create · succeeded', false],
      ],
    );
    const create = latest.operations[1]!.operation;
    const answer = await server.connection.sendRequest(stackTimelineRequest, { region: 'us-east-1', stackId: 'network', operation: create });
    assert.ok(answer.ok);
    assert.equal(answer.timeline.operation.startStatus, 'CREATE_IN_PROGRESS');
    assert.equal(answer.timeline.operation.outcome, 'succeeded');
    assert.ok(answer.timeline.operation.start < updateStartsAt, 'the create came before the update');
    assert.deepEqual(answer.timeline.operations.map((o) => o.selected), [false, true]);
    assert.ok(answer.timeline.rows.every((r) => r.events.every((e) => e.timestamp < updateStartsAt)), 'none of the update\'s events');
  });

  test('an operation that is not one of the stack\'s, or not an operation at all, is said so', async () => {
    const gone = await server.connection.sendRequest(stackTimelineRequest, { region: 'us-east-1', stackId: 'network', operation: { operationId: 'no-such-operation', startedAt: 0 } });
    assert.deepEqual(gone, { ok: false, state: 'unavailable', message: 'That operation is no longer among the recent events of network.' });
    const hostile = await server.connection.sendRequest(stackTimelineRequest, { region: 'us-east-1', stackId: 'network', operation: { startedAt: 'soon' } as never });
    assert.deepEqual(hostile, { ok: false, state: 'unavailable', message: 'That is not an operation of a stack.' });
  });

  test('a stack or region the server does not know has no timeline, and says why', async () => {
    const unknownStack = await timelineOf('no-such-stack');
    assert.deepEqual(unknownStack, { ok: false, state: 'unavailable', message: 'The stack no-such-stack is not among the stacks of us-east-1.' });
    const unknownRegion = await server.connection.sendRequest(stackTimelineRequest, { region: 'eu-west-3', stackId: 'network' });
    assert.deepEqual(unknownRegion, { ok: false, state: 'unavailable', message: 'The region eu-west-3 is not configured (cfnImpact.aws.regions).' });
  });
});
