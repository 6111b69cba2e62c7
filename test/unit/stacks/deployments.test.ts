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

/**
 * What deploying examples/network/update.yaml over a stack running examples/network/deployed.yaml
 * does, worked out by hand from the two templates and the rules in docs/update-rules.md
 * (sections 1, 3 and 4) and docs/stack-lifecycle.md, not from the engine's output. The
 * engine's prediction and the watcher's view of the scripted deployment (test/endpoint/scenarios.ts,
 * `network-example`) are both held to it.
 */
const NETWORK_UPDATE = {
  /**
   * Replaced resources, with the property whose change requires replacement (resource
   * specification: "Update requires: Replacement"). The VpcCidr default changes from
   * 10.0.0.0/16 to 10.1.0.0/16 and the VPC's CidrBlock reads it, so the VPC is replaced (section 3).
   * A replaced resource has a new physical id, so every property that reads it changes (section 4,
   * run 7): Subnet and WebSecurityGroup take `VpcId: !Ref VPC`, the Subnet's CidrBlock also reads
   * `!GetAtt VPC.CidrBlock`; WebServer takes `SubnetId: !Ref Subnet`. WebServer's InstanceType
   * change (t3.micro to t3.small, some interruption) and its SecurityGroupIds (no interruption)
   * are outweighed: replacement trumps (run 6).
   */
  replaced: { VPC: 'CidrBlock', Subnet: 'VpcId', WebSecurityGroup: 'VpcId', WebServer: 'SubnetId' },
  /** Only in update.yaml: added, created during UPDATE_IN_PROGRESS (section 3). */
  created: ['Queue'],
  /** Only in deployed.yaml: removed, during UPDATE_COMPLETE_CLEANUP_IN_PROGRESS (section 3). */
  removed: ['AccessLogs'],
  /**
   * Removed with `DeletionPolicy: Retain` in deployed.yaml: it leaves the stack without being
   * deleted, a DELETE_SKIPPED event and no DELETE_IN_PROGRESS (the resource delete outcomes of seed 002).
   */
  retained: ['AccessLogs'],
  /**
   * Evaluated the same on both sides, so not touched (section 1): nothing InstanceRole and
   * InstanceProfile read changed. AlarmTopic is in neither stack: its condition IsProduction reads
   * Environment, staging on both sides.
   */
  untouched: ['InstanceProfile', 'InstanceRole'],
  /**
   * What each replaced resource references among the replaced ones: updates run in dependency
   * order, a resource after the ones it references (section 3, run 5), and cleanup deletes the old
   * physical resources in the reverse order, the instance before its subnet before its VPC (run 7).
   */
  references: { Subnet: ['VPC'], WebSecurityGroup: ['VPC'], WebServer: ['Subnet', 'WebSecurityGroup'] },
};

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

  test('the demo deployment of examples/network: the watcher sees, and analyzeUpdate predicts, what the rules say the template pair does', async () => {
    const example = (file: string) => readFileSync(join(__dirname, '../../../examples/network', file), 'utf8');
    const { report } = analyzeUpdate({ text: example('deployed.yaml') }, { text: example('update.yaml') }, { spec: loadResourceSpec(), stackName: 'network' });

    // The engine's prediction, held to the expectations worked out by hand.
    const predicted = (action: string, replacement?: string) =>
      report.changes.filter((c) => c.action === action && c.replacement === replacement).map((c) => c.logicalId).sort();
    assert.deepEqual(
      { replaced: predicted('Modify', 'True'), created: predicted('Add'), removed: predicted('Remove') },
      { replaced: Object.keys(NETWORK_UPDATE.replaced).sort(), created: NETWORK_UPDATE.created, removed: NETWORK_UPDATE.removed },
    );
    assert.equal(report.changes.length, Object.keys(NETWORK_UPDATE.replaced).length + NETWORK_UPDATE.created.length + NETWORK_UPDATE.removed.length, 'nothing else changes');
    for (const [logicalId, property] of Object.entries(NETWORK_UPDATE.replaced)) {
      const details = report.changes.find((c) => c.logicalId === logicalId)!.details;
      assert.ok(details.some((d) => d.target.name === property && d.target.requiresRecreation === 'Always'), `${logicalId} is replaced for its ${property}`);
    }

    const run = await follow('network-example', { moments: ['AccessLogs DELETE_SKIPPED', 'VPC DELETE_IN_PROGRESS'] });
    assert.equal(run.stack.status, 'UPDATE_COMPLETE');
    assert.equal(run.operation.outcome, 'succeeded');
    assert.deepEqual(run.operation.undeleted, []);
    assertEachEventOnce(run);

    // Replaced resources carry their new physical id (the ids are the scenario's); the old one is listed as deleted in cleanup.
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

    // While the old VPC is being deleted, the watcher already shows everything that was inside it deleted.
    const deletedBeforeVpc = run.moments
      .get('VPC DELETE_IN_PROGRESS')!
      .resources.filter((r) => r.formerPhysical.some((p) => p.status === 'DELETE_COMPLETE'))
      .map((r) => r.logicalId)
      .sort();
    assert.deepEqual(deletedBeforeVpc, ['Subnet', 'WebSecurityGroup', 'WebServer']);

    // What the watcher saw, held to the same expectations.
    const events = run.reported.filter((e) => e.resourceType !== 'AWS::CloudFormation::Stack');
    const current = new Set(run.stack.resources.map((r) => r.logicalId));
    const idsWith = (test: (status: string) => boolean) => [...new Set(events.filter((e) => test(e.status)).map((e) => e.logicalId))].sort();
    assert.deepEqual(
      {
        replaced: replaced.map((r) => r.logicalId).sort(),
        created: idsWith((status) => status === 'CREATE_COMPLETE'),
        removed: idsWith((status) => status.startsWith('DELETE_')).filter((id) => !current.has(id)),
        retained: idsWith((status) => status === 'DELETE_SKIPPED'),
        untouched: [...current].filter((id) => !events.some((e) => e.logicalId === id)).sort(),
      },
      {
        replaced: Object.keys(NETWORK_UPDATE.replaced).sort(),
        created: NETWORK_UPDATE.created,
        removed: NETWORK_UPDATE.removed,
        retained: NETWORK_UPDATE.retained,
        untouched: NETWORK_UPDATE.untouched,
      },
    );
    for (const id of NETWORK_UPDATE.retained) assert.ok(!events.some((e) => e.logicalId === id && e.status === 'DELETE_IN_PROGRESS'), `${id} is not deleted`);

    // The order the rules give, on the events as reported (oldest first).
    const at = (logicalId: string, status: string) => {
      const index = events.findIndex((e) => e.logicalId === logicalId && e.status === status);
      assert.ok(index >= 0, `${logicalId} ${status} was reported`);
      return index;
    };
    const cleanupStarts = run.reported.findIndex((e) => e.status === 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    const cleanupIndex = events.findIndex((e) => run.reported.indexOf(e) > cleanupStarts);
    assert.ok(cleanupStarts >= 0 && cleanupIndex >= 0, 'the update has a cleanup phase with resource events');
    events.forEach((e, index) => {
      const deleting = e.status.startsWith('DELETE_');
      assert.equal(deleting, index >= cleanupIndex, `${e.logicalId} ${e.status}: creates and updates before cleanup, deletes only in it`);
    });
    for (const [logicalId, references] of Object.entries(NETWORK_UPDATE.references)) {
      for (const referenced of references) {
        assert.ok(at(referenced, 'UPDATE_COMPLETE') < at(logicalId, 'UPDATE_IN_PROGRESS'), `${logicalId} is updated after ${referenced} is`);
        assert.ok(at(logicalId, 'DELETE_COMPLETE') < at(referenced, 'DELETE_IN_PROGRESS'), `the old ${logicalId} is deleted before the old ${referenced}`);
      }
    }
    for (const logicalId of Object.keys(NETWORK_UPDATE.replaced)) {
      const old = events.find((e) => e.logicalId === logicalId && e.status === 'UPDATE_IN_PROGRESS')!.physicalId;
      const deleted = [...new Set(events.filter((e) => e.logicalId === logicalId && e.status.startsWith('DELETE_')).map((e) => e.physicalId))];
      assert.deepEqual(deleted, [old], `cleanup deletes ${logicalId}'s old physical id`);
      assert.notEqual(run.stack.resources.find((r) => r.logicalId === logicalId)!.physicalId, old, `${logicalId} has a new physical id`);
    }
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
