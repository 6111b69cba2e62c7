/**
 * Each scripted deployment, transcribed from the experiments of docs/update-rules.md#experiments,
 * followed end to end by the StackWatcher through the real AWS SDK against the local endpoint, on
 * a fake clock. The expectations are the facts of docs/stack-lifecycle.md#facts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeUpdate } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { StackWatcher, type StackSnapshot, type WatcherChange } from '../../../server/src/stacks/stackWatcher';
import type { OperationSummary } from '../../../server/src/stacks/stackModel';
import { READ_ACTIONS, type StackEvent } from '../../../server/src/stacks/types';
import { startEndpoint, type EndpointOptions, type RecordedCall } from '../../endpoint/server';
import { FakeClock, runUntil } from '../../endpoint/fakeClock';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const allCalls: RecordedCall[] = [];

interface Followed {
  stack: StackSnapshot;
  operation: OperationSummary;
  live: boolean;
  /** Events reported as part of the operation, in the order reported. */
  reported: StackEvent[];
  /** The events the endpoint holds for the operation, oldest first. */
  scripted: string[];
  /** Snapshots taken right after given events were applied, keyed `logicalId status`. */
  moments: Map<string, StackSnapshot>;
  changes: WatcherChange[];
  calls: RecordedCall[];
}

/**
 * Plays a scenario and follows its stack until the scripted operation ended. `offsetMs` places
 * the start of the operation relative to when watching begins (negative: already running).
 */
async function follow(
  scenario: string,
  options: { offsetMs?: number; stepMs?: number; endpoint?: Partial<EndpointOptions>; moments?: string[] } = {},
): Promise<Followed> {
  const clock = new FakeClock();
  const stepMs = options.stepMs ?? 7000;
  const startAt = clock.now() + (options.offsetMs ?? 0);
  const endpoint = await startEndpoint({
    scenarios: [scenario],
    now: () => clock.now(),
    startAt,
    stepMs,
    pageSize: { events: 4 },
    ...options.endpoint,
  });
  const created = await CloudFormationReader.create({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  });
  assert.ok(created.ok);
  const reader = created.value;
  const name = endpoint.stacks[0].stackName;
  const watcher = new StackWatcher({ reader, clock, scope: [name], settledIntervalMs: 20_000 });
  const changes: WatcherChange[] = [];
  const moments = new Map<string, StackSnapshot>();
  let ended: Extract<WatcherChange, { kind: 'operation-ended' }> | undefined;
  watcher.onDidChange((change) => {
    changes.push(change);
    if (change.kind === 'event') {
      const key = `${change.event.logicalId} ${change.event.status}`;
      if (options.moments?.includes(key) && !moments.has(key)) moments.set(key, watcher.getStack(change.stackId)!);
    }
    if (change.kind === 'operation-ended' && change.operation.startedAt >= startAt) ended = change;
  });
  watcher.start();
  try {
    const done = await runUntil(clock, watcher, () => ended !== undefined);
    assert.ok(done, 'the operation was seen to end');
    const stack = watcher.getStack(name)!;
    const scripted = endpoint.stacks[0]
      .at(clock.now())
      .events.filter((e) => e.timestamp >= startAt)
      .map((e) => e.eventId)
      .reverse();
    const opStart = changes.findIndex((c) => c.kind === 'event' && c.event.eventId === ended!.operation.startEventId);
    const reported = changes
      .slice(opStart)
      .flatMap((c) => (c.kind === 'event' && c.inOperation ? [c.event] : []));
    return { stack, operation: ended!.operation, live: ended!.live, reported, scripted, moments, changes, calls: [...endpoint.calls] };
  } finally {
    allCalls.push(...endpoint.calls);
    watcher.dispose();
    reader.dispose();
    await endpoint.close();
  }
}

function resourceTable(stack: StackSnapshot) {
  return Object.fromEntries(stack.resources.map((r) => [r.logicalId, `${r.status} ${r.physicalId ?? '-'}`]));
}

function assertEachEventOnce(run: Followed) {
  assert.deepEqual(
    run.reported.map((e) => e.eventId),
    run.scripted,
    'every event of the operation reported exactly once, oldest first',
  );
}

describe('scripted deployments through the SDK', () => {
  test('update with replacement and cleanup (runs 4, 7): new physical ids, old ones deleted in cleanup without touching the current status', async () => {
    const run = await follow('update-replacement', {
      moments: ['VPC UPDATE_COMPLETE', 'VPC DELETE_IN_PROGRESS', 'Instance2 DELETE_IN_PROGRESS'],
    });
    assert.equal(run.stack.status, 'UPDATE_COMPLETE');
    assert.equal(run.operation.outcome, 'succeeded');
    assert.equal(run.operation.rootCause, undefined);
    assert.deepEqual(run.operation.undeleted, []);
    assert.deepEqual(resourceTable(run.stack), {
      VPC: 'UPDATE_COMPLETE vpc-0b22222222222222b',
      Subnet: 'UPDATE_COMPLETE subnet-0b22222222222222b',
      Instance1: 'UPDATE_COMPLETE i-0b33333333333333b',
    });
    assertEachEventOnce(run);

    // While the update runs, the replaced VPC shows its new and its old physical id.
    const replaced = run.moments.get('VPC UPDATE_COMPLETE')!.resources.find((r) => r.logicalId === 'VPC')!;
    assert.equal(replaced.physicalId, 'vpc-0b22222222222222b');
    assert.deepEqual(replaced.formerPhysical.map((p) => p.physicalId), ['vpc-0a11111111111111a']);

    // In cleanup, deleting the old VPC does not change the current VPC's status.
    const cleanup = run.moments.get('VPC DELETE_IN_PROGRESS')!;
    assert.equal(cleanup.status, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    const vpc = cleanup.resources.find((r) => r.logicalId === 'VPC')!;
    assert.equal(vpc.status, 'UPDATE_COMPLETE');
    assert.equal(vpc.physicalId, 'vpc-0b22222222222222b');
    assert.deepEqual(vpc.formerPhysical.map((p) => `${p.physicalId} ${p.status}`), ['vpc-0a11111111111111a DELETE_IN_PROGRESS']);

    // A removed resource keeps its status while it is deleted, and disappears once deleted (run 4).
    const removing = run.moments.get('Instance2 DELETE_IN_PROGRESS')!.resources.find((r) => r.logicalId === 'Instance2')!;
    assert.equal(removing.status, 'CREATE_COMPLETE');
    assert.equal(removing.cleanup?.status, 'DELETE_IN_PROGRESS');
  });

  test('the demo deployment of examples/network: the watcher sees what analyzeUpdate predicts for the template pair', async () => {
    const example = (file: string) => readFileSync(join(__dirname, '../../../examples/network', file), 'utf8');
    const { report } = analyzeUpdate({ text: example('deployed.yaml') }, { text: example('update.yaml') }, { spec: loadResourceSpec(), stackName: 'network' });
    const predicted = (action: string, replacement?: string) =>
      report.changes.filter((c) => c.action === action && c.replacement === replacement).map((c) => c.logicalId).sort();

    const run = await follow('network-example', { moments: ['AccessLogs DELETE_SKIPPED', 'VPC DELETE_IN_PROGRESS'] });
    assert.equal(run.stack.status, 'UPDATE_COMPLETE');
    assert.equal(run.operation.outcome, 'succeeded');
    assert.deepEqual(run.operation.undeleted, []);
    assertEachEventOnce(run);

    // Replaced resources carry their new physical id; the old one is listed as deleted in cleanup.
    assert.deepEqual(resourceTable(run.stack), {
      VPC: 'UPDATE_COMPLETE vpc-0e52d8b1c9a4736f1',
      Subnet: 'UPDATE_COMPLETE subnet-08b3d6e19f4c2a7d5',
      WebSecurityGroup: 'UPDATE_COMPLETE sg-03f7a2c8e61d9b4e2',
      InstanceRole: 'CREATE_COMPLETE network-InstanceRole-Q8ZC1LM4T2XE',
      InstanceProfile: 'CREATE_COMPLETE network-InstanceProfile-7HWJ3NB5DKPA',
      WebServer: 'UPDATE_COMPLETE i-06c1a9e3d7b52f84e',
      Queue: 'CREATE_COMPLETE https://sqs.us-east-1.amazonaws.com/123456789012/network-Queue-Kx7Rq2VbN4Tm',
    });
    const replaced = run.stack.resources.filter((r) => r.formerPhysical.length > 0);
    for (const r of replaced) {
      assert.deepEqual(r.formerPhysical.map((p) => p.status), ['DELETE_COMPLETE'], r.logicalId);
      assert.notEqual(r.formerPhysical[0].physicalId, r.physicalId, r.logicalId);
    }

    // The retained bucket is shown as skipped, not deleting, while cleanup runs, and is gone from the stack afterwards.
    const retained = run.moments.get('AccessLogs DELETE_SKIPPED')!.resources.find((r) => r.logicalId === 'AccessLogs')!;
    assert.equal(retained.status, 'CREATE_COMPLETE');
    assert.equal(retained.cleanup?.status, 'DELETE_SKIPPED');

    // Cleanup deletes the old VPC last, after everything that was inside it.
    const deletedBeforeVpc = run.moments
      .get('VPC DELETE_IN_PROGRESS')!
      .resources.filter((r) => r.formerPhysical.some((p) => p.status === 'DELETE_COMPLETE'))
      .map((r) => r.logicalId)
      .sort();
    assert.deepEqual(deletedBeforeVpc, ['Subnet', 'WebSecurityGroup', 'WebServer']);

    // What the watcher saw, by action, is what the engine predicted for the example templates.
    const created = run.reported.filter((e) => e.status === 'CREATE_COMPLETE').map((e) => e.logicalId);
    const current = new Set(run.stack.resources.map((r) => r.logicalId));
    const removed = [...new Set(run.reported.filter((e) => e.status.startsWith('DELETE_') && !current.has(e.logicalId)).map((e) => e.logicalId))];
    assert.deepEqual(
      { replaced: replaced.map((r) => r.logicalId).sort(), created: created.sort(), removed: removed.sort() },
      { replaced: predicted('Modify', 'True'), created: predicted('Add'), removed: predicted('Remove') },
    );
    assert.deepEqual(predicted('Modify', 'True'), ['Subnet', 'VPC', 'WebSecurityGroup', 'WebServer']);
  });

  test('create failure with rollback (run 34): the root cause is the first failure, not the cancelled siblings', async () => {
    const run = await follow('create-rollback');
    assert.equal(run.stack.status, 'ROLLBACK_COMPLETE');
    assert.equal(run.operation.outcome, 'failed');
    assert.equal(run.operation.startStatus, 'CREATE_IN_PROGRESS');
    assert.deepEqual(
      { logicalId: run.operation.rootCause?.logicalId, status: run.operation.rootCause?.status, reason: run.operation.rootCause?.reason },
      { logicalId: 'Instance', status: 'CREATE_FAILED', reason: 'Invalid id: "bogus" (expecting "ami-...")' },
    );
    assert.deepEqual(resourceTable(run.stack), {
      VPC: 'DELETE_COMPLETE vpc-0c33333333333333c',
      Bucket: 'DELETE_COMPLETE -',
      Instance: 'DELETE_COMPLETE -',
    });
    assertEachEventOnce(run);
  });

  test('update failure whose rollback fails too (run 36): UPDATE_ROLLBACK_FAILED, root cause is the failure that started the rollback', async () => {
    const run = await follow('update-rollback-failed');
    assert.equal(run.stack.status, 'UPDATE_ROLLBACK_FAILED');
    assert.equal(run.operation.outcome, 'failed');
    assert.equal(run.operation.rootCause?.logicalId, 'Instance4');
    assert.equal(run.operation.rootCause?.status, 'CREATE_FAILED');
    assert.equal(run.stack.resources.find((r) => r.logicalId === 'Instance2')?.status, 'UPDATE_FAILED');
    assertEachEventOnce(run);
  });

  test('cleanup delete failure (run 37): the stack succeeds and reports the resource left behind', async () => {
    const run = await follow('cleanup-delete-failed', { moments: ['SG1 DELETE_FAILED'] });
    assert.equal(run.stack.status, 'UPDATE_COMPLETE');
    assert.equal(run.stack.statusReason, 'Update successful. One or more resources could not be deleted.');
    assert.equal(run.operation.outcome, 'succeeded');
    assert.equal(run.operation.rootCause, undefined);
    assert.deepEqual(run.operation.undeleted, [
      { logicalId: 'SG1', physicalId: 'sg-0da0f86b', resourceType: 'AWS::EC2::SecurityGroup', reason: 'resource sg-0da0f86b has a dependent object' },
    ]);
    // Retried deletes do not change SG1's status while it is still part of the stack; afterwards it is disassociated.
    assert.equal(run.moments.get('SG1 DELETE_FAILED')!.resources.find((r) => r.logicalId === 'SG1')?.status, 'CREATE_COMPLETE');
    assert.deepEqual(resourceTable(run.stack), { SG2: 'CREATE_COMPLETE sg-0e2222222', SG3: 'CREATE_COMPLETE sg-0e3333333' });
    assertEachEventOnce(run);
  });

  test('rollback cleanup delete failure (run 38): rolled back, root cause kept, the new group left behind', async () => {
    const run = await follow('rollback-cleanup-delete-failed');
    assert.equal(run.stack.status, 'UPDATE_ROLLBACK_COMPLETE');
    assert.equal(run.operation.outcome, 'failed');
    assert.equal(run.operation.rootCause?.logicalId, 'Instance3');
    assert.deepEqual(run.operation.undeleted.map((u) => `${u.logicalId} ${u.physicalId}`), ['SG3 sg-0ab104bcd']);
    assert.deepEqual(resourceTable(run.stack), { SG2: 'CREATE_COMPLETE sg-0f2222222' });
    assertEachEventOnce(run);
  });

  test('a delete is followed to DELETE_COMPLETE by stack id, after the name stops resolving', async () => {
    const run = await follow('delete-stack');
    assert.equal(run.stack.status, 'DELETE_COMPLETE');
    assert.equal(run.operation.outcome, 'succeeded');
    assertEachEventOnce(run);
  });

  test('watching from the middle of an operation reads back to its start: no event missing or repeated', async () => {
    const run = await follow('update-replacement', { offsetMs: -45_000, endpoint: { pageSize: { events: 2 } } });
    assert.equal(run.stack.status, 'UPDATE_COMPLETE');
    assert.equal(run.live, true);
    assertEachEventOnce(run);
  });

  test('a stack at rest is watched cheaply until its update starts, then followed to the end', async () => {
    const run = await follow('cleanup-delete-failed', { offsetMs: 95_000 });
    assert.equal(run.live, true);
    assert.equal(run.stack.status, 'UPDATE_COMPLETE');
    assertEachEventOnce(run);
    const before = run.calls.filter((c) => c.at < run.operation.startedAt);
    // Settled: one DescribeStacks per 20 s listing interval (plus the first read of history and resources).
    assert.ok(before.filter((c) => c.action === 'DescribeStackEvents').length <= 2, JSON.stringify(before.map((c) => c.action)));
  });

  test('many steps between polls and two-event pages: incremental reads page back to the last seen event', async () => {
    const run = await follow('update-replacement', { stepMs: 400, endpoint: { pageSize: { events: 2 } } });
    assert.equal(run.stack.status, 'UPDATE_COMPLETE');
    assertEachEventOnce(run);
  });

  test('throttling: the watcher backs off exponentially with jitter and still reports every event once', async () => {
    const run = await follow('create-rollback', { endpoint: { throttle: { everyNth: 4, burst: { afterCalls: 3, count: 5 } } } });
    assert.equal(run.stack.status, 'ROLLBACK_COMPLETE');
    assertEachEventOnce(run);
    const throttled = run.calls.filter((c) => c.outcome === 'Throttling');
    assert.ok(throttled.length >= 5);
    // The burst: successive retries wait longer and longer.
    const burst = run.calls.slice(3, 9).map((c) => c.at);
    const gaps = burst.slice(1).map((t, i) => t - burst[i]);
    for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i] > gaps[i - 1], `gaps grow: ${gaps.join(', ')}`);
  });

  test('only read actions were ever sent', () => {
    assert.ok(allCalls.length > 50);
    const actions = new Set(allCalls.map((c) => c.action));
    const allowed = new Set<string>(READ_ACTIONS);
    for (const action of actions) assert.ok(allowed.has(action), `${action} is not a read action`);
  });
});
