/**
 * The timeline of an operation, for the seed scenarios of the local endpoint (test/endpoint/scenarios.ts),
 * each followed by the StackWatcher through the real AWS SDK on a fake clock. The expectations are
 * read off the scenario scripts: step `n` of a script happens at `startAt + n * STEP_MS`, and the
 * `k`-th event of a step one millisecond after the one before it. What a phase and a root cause
 * are is docs/stack-lifecycle.md#facts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { operationTimeline, type OperationTimeline, type TimelineRow } from '../../../server/src/stacks/operationTimeline';
import { StackWatcher, type StackSnapshot } from '../../../server/src/stacks/stackWatcher';
import { startEndpoint } from '../../endpoint/server';
import { FakeClock, runUntil } from '../../endpoint/fakeClock';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const STEP_MS = 7000;

interface Played {
  timeline: OperationTimeline;
  /** When event `k` of step `step` happened. */
  at(step: number, k?: number): number;
}

/** Plays a scenario from the moment watching starts until `until` holds of the stack (by default: until it rests again). */
async function play(scenario: string, until?: (stack: StackSnapshot) => boolean): Promise<Played> {
  const clock = new FakeClock();
  const startAt = clock.now();
  const endpoint = await startEndpoint({ scenarios: [scenario], now: () => clock.now(), startAt, stepMs: STEP_MS, pageSize: { events: 4 } });
  const created = await CloudFormationReader.create({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  });
  assert.ok(created.ok);
  const reader = created.value;
  const name = endpoint.stacks[0]!.stackName;
  const watcher = new StackWatcher({ reader, clock, scope: [name], settledIntervalMs: 20_000 });
  const done = (stack: StackSnapshot | undefined): boolean =>
    stack?.operation !== undefined && stack.operation.startedAt >= startAt && (until ? until(stack) : stack.operation.outcome !== 'in-progress');
  watcher.start();
  try {
    assert.ok(await runUntil(clock, watcher, () => done(watcher.getStack(name))), 'the watcher saw what the test waits for');
    const stack = watcher.getStack(name)!;
    return { timeline: operationTimeline(stack.events, stack.operation!), at: (step, k = 0) => startAt + step * STEP_MS + k };
  } finally {
    watcher.dispose();
    reader.dispose();
    await endpoint.close();
  }
}

function row(timeline: OperationTimeline, logicalId: string): TimelineRow {
  const found = timeline.rows.find((r) => r.logicalId === logicalId);
  assert.ok(found, `${logicalId} has a row`);
  return found;
}

/** The parts of a row a person sees on its bar. */
function bar(r: TimelineRow) {
  return {
    start: r.start,
    end: r.end,
    outcome: r.outcome,
    phases: r.phases.map((p) => `${p.kind} ${p.start}-${p.end ?? 'now'} ${p.status}`),
    physicalIds: r.physicalIds,
    replaced: r.replaced,
    rootCause: r.rootCause ?? false,
    cleanup: r.cleanup ?? false,
    leftBehind: r.leftBehind ?? false,
  };
}

describe('the timeline of an operation', () => {
  test('update with replacement: replaced resources show old and new ids, the cleanup is a phase of its own, a removed resource is a cleanup row', async () => {
    const { timeline, at } = await play('update-replacement');
    assert.deepEqual(timeline.operation.phases, [
      { status: 'UPDATE_IN_PROGRESS', kind: 'main', start: at(0), end: at(10) },
      { status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', kind: 'cleanup', start: at(10), end: at(17) },
    ]);
    assert.equal(timeline.operation.start, at(0));
    assert.equal(timeline.operation.end, at(17));
    assert.equal(timeline.operation.status, 'UPDATE_COMPLETE');
    assert.equal(timeline.operation.outcome, 'succeeded');
    assert.equal(timeline.operation.rootCause, undefined);
    assert.deepEqual(
      timeline.rows.map((r) => r.logicalId),
      ['VPC', 'Subnet', 'Instance1', 'Instance2'],
      'rows in the order the resources were first touched',
    );
    assert.deepEqual(bar(row(timeline, 'VPC')), {
      start: at(1),
      end: at(16),
      outcome: 'complete',
      phases: [`main ${at(1)}-${at(3)} UPDATE_COMPLETE`, `cleanup ${at(15)}-${at(16)} DELETE_COMPLETE`],
      physicalIds: { old: 'vpc-0a11111111111111a', new: 'vpc-0b22222222222222b' },
      replaced: true,
      rootCause: false,
      cleanup: false,
      leftBehind: false,
    });
    assert.deepEqual(bar(row(timeline, 'Subnet')).phases, [`main ${at(4)}-${at(6)} UPDATE_COMPLETE`, `cleanup ${at(13)}-${at(14)} DELETE_COMPLETE`]);
    assert.deepEqual(row(timeline, 'Instance1').physicalIds, { old: 'i-0a11111111111111a', new: 'i-0b33333333333333b' });
    assert.deepEqual(bar(row(timeline, 'Instance2')), {
      start: at(11, 1),
      end: at(12, 1),
      outcome: 'deleted',
      phases: [`cleanup ${at(11, 1)}-${at(12, 1)} DELETE_COMPLETE`],
      physicalIds: { old: 'i-0a22222222222222a' },
      replaced: false,
      rootCause: false,
      cleanup: true,
      leftBehind: false,
    });
    assert.deepEqual(
      row(timeline, 'VPC').events.map((e) => `${e.phase} ${e.status} ${e.physicalId}`),
      [
        'main UPDATE_IN_PROGRESS vpc-0a11111111111111a',
        'main UPDATE_IN_PROGRESS vpc-0b22222222222222b',
        'main UPDATE_COMPLETE vpc-0b22222222222222b',
        'cleanup DELETE_IN_PROGRESS vpc-0a11111111111111a',
        'cleanup DELETE_COMPLETE vpc-0a11111111111111a',
      ],
      "a bar's events, with their phases, for its details",
    );
    assert.match(row(timeline, 'VPC').events[0]!.reason ?? '', /requires the creation of a new physical resource/);
  });

  test('while the operation runs, the resource being changed and the operation have no end yet', async () => {
    const { timeline, at } = await play('update-replacement', (stack) =>
      stack.events.some((e) => e.logicalId === 'Instance1' && e.physicalId === 'i-0b33333333333333b'),
    );
    assert.equal(timeline.operation.outcome, 'in-progress');
    assert.equal(timeline.operation.end, undefined);
    assert.deepEqual(timeline.operation.phases, [{ status: 'UPDATE_IN_PROGRESS', kind: 'main', start: at(0) }]);
    assert.deepEqual(bar(row(timeline, 'Instance1')).phases, [`main ${at(7)}-now UPDATE_IN_PROGRESS`]);
    assert.equal(row(timeline, 'Instance1').end, undefined);
    assert.equal(row(timeline, 'Instance1').outcome, 'in-progress');
    assert.equal(row(timeline, 'Subnet').end, at(6), 'a resource done before stays done');
    assert.equal(timeline.rows.some((r) => r.logicalId === 'Instance2'), false, 'a resource not touched yet has no row');
  });

  test('create rolled back: the first failure is the root cause, the cancelled ones are failures but not the cause, the rollback is a phase', async () => {
    const { timeline, at } = await play('create-rollback');
    assert.equal(timeline.operation.status, 'ROLLBACK_COMPLETE');
    assert.equal(timeline.operation.outcome, 'failed');
    assert.deepEqual(timeline.operation.phases, [
      { status: 'CREATE_IN_PROGRESS', kind: 'main', start: at(0), end: at(5) },
      { status: 'ROLLBACK_IN_PROGRESS', kind: 'rollback', start: at(5), end: at(8) },
    ]);
    assert.deepEqual(
      timeline.rows.map((r) => r.logicalId),
      ['VPC', 'Instance', 'Bucket'],
    );
    assert.deepEqual(bar(row(timeline, 'Instance')), {
      start: at(1, 1),
      end: at(6, 0),
      outcome: 'failed',
      phases: [`main ${at(1, 1)}-${at(3)} CREATE_FAILED`, `rollback ${at(6, 0)}-${at(6, 0)} DELETE_COMPLETE`],
      physicalIds: {},
      replaced: false,
      rootCause: true,
      cleanup: false,
      leftBehind: false,
    });
    assert.deepEqual(
      row(timeline, 'Instance').events.filter((e) => e.rootCause).map((e) => `${e.status} ${e.reason}`),
      ['CREATE_FAILED Invalid id: "bogus" (expecting "ami-...")'],
      'the failing event itself is marked',
    );
    assert.deepEqual(bar(row(timeline, 'VPC')), {
      start: at(1, 0),
      end: at(7),
      outcome: 'failed',
      phases: [`main ${at(1, 0)}-${at(4, 0)} CREATE_FAILED`, `rollback ${at(6, 2)}-${at(7)} DELETE_COMPLETE`],
      physicalIds: { new: 'vpc-0c33333333333333c' },
      replaced: false,
      rootCause: false,
      cleanup: false,
      leftBehind: false,
    });
    assert.equal(row(timeline, 'Bucket').rootCause, undefined);
    assert.equal(timeline.operation.rootCause, undefined, 'the cause is on a resource row, not the operation');
  });

  test('cleanup delete failure: the removed resource is a failed cleanup row left behind, and the update still succeeded', async () => {
    const { timeline, at } = await play('cleanup-delete-failed');
    assert.equal(timeline.operation.status, 'UPDATE_COMPLETE');
    assert.equal(timeline.operation.outcome, 'succeeded');
    assert.equal(timeline.operation.reason, 'Update successful. One or more resources could not be deleted.');
    assert.deepEqual(timeline.operation.phases, [
      { status: 'UPDATE_IN_PROGRESS', kind: 'main', start: at(0), end: at(4) },
      { status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', kind: 'cleanup', start: at(4), end: at(16) },
    ]);
    assert.deepEqual(bar(row(timeline, 'SG3')), {
      start: at(1),
      end: at(3),
      outcome: 'complete',
      phases: [`main ${at(1)}-${at(3)} CREATE_COMPLETE`],
      physicalIds: { new: 'sg-0e3333333' },
      replaced: false,
      rootCause: false,
      cleanup: false,
      leftBehind: false,
    });
    assert.deepEqual(bar(row(timeline, 'SG1')), {
      start: at(5),
      end: at(15),
      outcome: 'failed',
      phases: [`cleanup ${at(5)}-${at(15)} DELETE_FAILED`],
      physicalIds: { old: 'sg-0da0f86b' },
      replaced: false,
      rootCause: false,
      cleanup: true,
      leftBehind: true,
    });
    assert.deepEqual(
      row(timeline, 'SG1').events.map((e) => e.status),
      ['DELETE_IN_PROGRESS', 'DELETE_FAILED', 'DELETE_IN_PROGRESS', 'DELETE_FAILED', 'DELETE_IN_PROGRESS', 'DELETE_FAILED'],
      'every retry of the delete',
    );
  });

  test('update whose rollback fails: the root cause is the update failure, the failed rollback is a later failure', async () => {
    const { timeline, at } = await play('update-rollback-failed');
    assert.equal(timeline.operation.status, 'UPDATE_ROLLBACK_FAILED');
    assert.equal(timeline.operation.outcome, 'failed');
    assert.deepEqual(timeline.operation.phases, [
      { status: 'UPDATE_IN_PROGRESS', kind: 'main', start: at(0), end: at(8) },
      { status: 'UPDATE_ROLLBACK_IN_PROGRESS', kind: 'rollback', start: at(8), end: at(11) },
    ]);
    assert.deepEqual(
      timeline.rows.map((r) => r.logicalId),
      ['Instance2', 'Instance3', 'Instance4'],
    );
    assert.deepEqual(bar(row(timeline, 'Instance4')), {
      start: at(6),
      end: at(7),
      outcome: 'failed',
      phases: [`main ${at(6)}-${at(7)} CREATE_FAILED`],
      physicalIds: {},
      replaced: false,
      rootCause: true,
      cleanup: false,
      leftBehind: false,
    });
    assert.deepEqual(bar(row(timeline, 'Instance2')), {
      start: at(1),
      end: at(10),
      outcome: 'failed',
      phases: [`main ${at(1)}-${at(2)} UPDATE_COMPLETE`, `rollback ${at(9)}-${at(10)} UPDATE_FAILED`],
      physicalIds: { new: 'i-0da702864000000ad' },
      replaced: false,
      rootCause: false,
      cleanup: false,
      leftBehind: false,
    });
    assert.equal(row(timeline, 'Instance3').outcome, 'complete');
  });
});
