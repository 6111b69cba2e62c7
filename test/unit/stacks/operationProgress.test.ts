/**
 * Progress and time left of a followed operation, for the scripted deployments of
 * docs/update-rules.md#experiments, read through the real SDK from the local endpoint on a fake
 * clock. The rules: a resource is done once its latest event of the operation finished it, in
 * progress while its latest is `*_IN_PROGRESS`, failed when `*_FAILED`; cleanup deletes of the
 * physical resources a replacement superseded do not move the resource; once the stack settles
 * everything is done. Time left: the longest remaining time of the resources in progress plus the
 * longest duration of the pending ones, durations learned from the stack's own earlier operation
 * (the endpoint's history creates each resource in 29 s), else typical ones (30 s for a type the
 * table does not name).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runWatch } from '../../../server/src/cli/watch';
import type { CliIo } from '../../../server/src/cli/io';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { NO_HISTORY, operationProgress, type OperationProgress } from '../../../server/src/stacks/operationProgress';
import { StackWatcher, type StackSnapshot } from '../../../server/src/stacks/stackWatcher';
import { buildStackTree, type TreeNode } from '../../../server/src/stacks/treeModel';
import { startEndpoint } from '../../endpoint/server';
import { FakeClock, driveUntilSettled, runUntil } from '../../endpoint/fakeClock';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

/** How long the endpoint's history took to create each resource of an existing stack. */
const LEARNED_MS = 29_000;
/** The typical duration of a type the fallback table does not name. */
const TYPICAL_MS = 30_000;

interface Moment {
  progress: OperationProgress;
  now: number;
  stack: StackSnapshot;
}

/** Follows a scenario's operation to its end; the progress right after the first event of each `logicalId status` asked for. */
async function progressOf(scenario: string, keys: string[]): Promise<{ moments: Map<string, Moment>; final: Moment; startedAt: number }> {
  const clock = new FakeClock();
  const startAt = clock.now();
  const endpoint = await startEndpoint({ scenarios: [scenario], now: () => clock.now(), startAt, stepMs: 7000, pageSize: { events: 4 } });
  const created = await CloudFormationReader.create({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  });
  assert.ok(created.ok);
  const reader = created.value;
  const name = endpoint.stacks[0].stackName;
  const watcher = new StackWatcher({ reader, clock, scope: [name], settledIntervalMs: 20_000 });
  const moments = new Map<string, Moment>();
  const at = (stack: StackSnapshot): Moment => ({ progress: operationProgress(stack, stack.durations ?? NO_HISTORY, clock.now())!, now: clock.now(), stack });
  let ended = false;
  watcher.onDidChange((change) => {
    if (change.kind === 'event') {
      const key = `${change.event.logicalId} ${change.event.status}`;
      if (keys.includes(key) && !moments.has(key)) moments.set(key, at(watcher.getStack(change.stackId)!));
    }
    if (change.kind === 'operation-ended' && change.operation.startedAt >= startAt) ended = true;
  });
  watcher.start();
  try {
    assert.ok(await runUntil(clock, watcher, () => ended), 'the operation was seen to end');
    for (const key of keys) assert.ok(moments.has(key), `${key} was seen`);
    return { moments, final: at(watcher.getStack(name)!), startedAt: startAt };
  } finally {
    watcher.dispose();
    reader.dispose();
    await endpoint.close();
  }
}

/** When the resource's current run of work in the operation began: its first event of that status. */
function startOf(moment: Moment, logicalId: string, status: string): number {
  const events = moment.stack.events.filter((e) => e.logicalId === logicalId && e.status === status && e.timestamp >= moment.stack.operation!.startedAt);
  return Math.min(...events.map((e) => e.timestamp));
}

function counts(p: OperationProgress): Pick<OperationProgress, 'done' | 'total' | 'inProgress' | 'failed'> {
  return { done: p.done, total: p.total, inProgress: p.inProgress, failed: p.failed };
}

/** The stack's resource node of that name, as the stacks tree shows it at the moment. */
function resourceNode(moment: Moment, logicalId: string): TreeNode {
  const [region] = buildStackTree({ regions: [{ region: 'us-east-1', snapshot: { region: 'us-east-1', stacks: [moment.stack], paused: false } }], now: moment.now });
  const resources = region.children![0].children!.find((n) => n.kind === 'resources')!;
  return resources.children!.find((n) => n.label === logicalId)!;
}

describe('operation progress', () => {
  test('replacement: replaced resources count once, cleanup of old physical ids does not undo them, time left learned from the stack', async () => {
    const { moments, final, startedAt } = await progressOf('update-replacement', ['Instance1 UPDATE_IN_PROGRESS', 'Instance2 DELETE_IN_PROGRESS']);
    const instance1 = moments.get('Instance1 UPDATE_IN_PROGRESS')!;
    // VPC and Subnet replaced, Instance1 being replaced, Instance2 (to be removed) not touched yet.
    assert.deepEqual(counts(instance1.progress), { done: 2, total: 4, inProgress: 1, failed: 0 });
    assert.equal(instance1.progress.elapsedMs, instance1.now - startedAt);
    const instance1Left = LEARNED_MS - (instance1.now - startOf(instance1, 'Instance1', 'UPDATE_IN_PROGRESS'));
    assert.equal(instance1.progress.etaMs, Math.max(0, instance1Left) + LEARNED_MS);

    const removal = moments.get('Instance2 DELETE_IN_PROGRESS')!;
    // In cleanup: Instance1's old instance is being deleted too, which leaves Instance1 done.
    assert.deepEqual(counts(removal.progress), { done: 3, total: 4, inProgress: 1, failed: 0 });
    assert.equal(removal.progress.etaMs, Math.max(0, LEARNED_MS - (removal.now - startOf(removal, 'Instance2', 'DELETE_IN_PROGRESS'))));

    assert.deepEqual(counts(final.progress), { done: 4, total: 4, inProgress: 0, failed: 0 });
    assert.equal(final.progress.etaMs, 0);
    assert.equal(final.progress.elapsedMs, final.stack.operation!.endedAt! - startedAt);
  });

  test('rollback with a root cause: the failure is counted, its cancelled siblings stay in progress until they fail, typical durations without history', async () => {
    const { moments, final } = await progressOf('create-rollback', ['Instance CREATE_FAILED', 'VPC DELETE_IN_PROGRESS']);
    const failure = moments.get('Instance CREATE_FAILED')!;
    assert.equal(failure.stack.operation?.rootCause?.logicalId, 'Instance');
    assert.deepEqual(counts(failure.progress), { done: 0, total: 3, inProgress: 2, failed: 1 });
    const left = (logicalId: string) => TYPICAL_MS - (failure.now - startOf(failure, logicalId, 'CREATE_IN_PROGRESS'));
    assert.equal(failure.progress.etaMs, Math.max(0, left('VPC'), left('Bucket')));

    const rollback = moments.get('VPC DELETE_IN_PROGRESS')!;
    // Instance and Bucket are deleted (done); the VPC's delete runs.
    assert.deepEqual(counts(rollback.progress), { done: 2, total: 3, inProgress: 1, failed: 0 });

    assert.equal(final.stack.status, 'ROLLBACK_COMPLETE');
    assert.deepEqual(counts(final.progress), { done: 3, total: 3, inProgress: 0, failed: 0 });
    assert.equal(final.progress.etaMs, 0);
  });

  test('cleanup failure: the resource left behind counts as failed, and the operation still ends with everything done', async () => {
    const { moments, final } = await progressOf('cleanup-delete-failed', ['SG3 CREATE_IN_PROGRESS', 'SG1 DELETE_FAILED']);
    const creating = moments.get('SG3 CREATE_IN_PROGRESS')!;
    assert.deepEqual(counts(creating.progress), { done: 0, total: 3, inProgress: 1, failed: 0 });
    // SG3 is new: its type's mean in this stack's history (SG1 and SG2, 29 s each) stands in for it.
    const sg3Left = LEARNED_MS - (creating.now - startOf(creating, 'SG3', 'CREATE_IN_PROGRESS'));
    assert.equal(creating.progress.etaMs, Math.max(0, sg3Left) + LEARNED_MS);

    const failing = moments.get('SG1 DELETE_FAILED')!;
    assert.deepEqual(counts(failing.progress), { done: 1, total: 3, inProgress: 0, failed: 1 });

    assert.equal(final.stack.status, 'UPDATE_COMPLETE');
    assert.deepEqual(counts(final.progress), { done: 3, total: 3, inProgress: 0, failed: 1 });
  });
});

describe('express mode', () => {
  test('resources reported complete count as done but read as stabilising until the operation ends', async () => {
    const { moments, final } = await progressOf('update-express', ['Handler UPDATE_COMPLETE']);
    const configured = moments.get('Handler UPDATE_COMPLETE')!;
    assert.equal(configured.stack.deploymentMode, 'EXPRESS');
    assert.deepEqual(counts(configured.progress), { done: 1, total: 2, inProgress: 0, failed: 0 });
    assert.equal(configured.progress.stabilising, 1);
    // The distribution has not started: its own 29 s from the stack's history, not the table's minutes.
    assert.equal(configured.progress.etaMs, LEARNED_MS);
    const handler = resourceNode(configured, 'Handler');
    assert.equal(handler.description, 'updated · stabilising');
    assert.deepEqual(handler.resource, { status: 'UPDATE_COMPLETE', kind: 'in-progress' });

    assert.deepEqual(counts(final.progress), { done: 2, total: 2, inProgress: 0, failed: 0 });
    assert.equal(final.progress.stabilising, 0);
    assert.deepEqual(resourceNode(final, 'Handler').resource, { status: 'UPDATE_COMPLETE', kind: 'complete' });
  });
});

describe('cfn-impact watch --json progress records', () => {
  async function watchJson(stack: string, scenario: string): Promise<Record<string, unknown>[]> {
    const clock = new FakeClock();
    const endpoint = await startEndpoint({ scenarios: [scenario], now: () => clock.now(), startAt: clock.now(), stepMs: 5000, pageSize: { events: 3 } });
    let stdout = '';
    const io: CliIo = { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: { AWS_REGION: 'us-east-1' } };
    try {
      await driveUntilSettled(clock, runWatch([stack, '--endpoint', endpoint.url, '--json'], io, { clock }));
      return stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    } finally {
      await endpoint.close();
    }
  }

  test('a record whenever a count changes, with the documented fields; the last, before done, has done === total', async () => {
    const lines = await watchJson('network', 'update-replacement');
    const records = lines.filter((l) => l.type === 'progress');
    assert.ok(records.length >= 5, `one record per step of the replacement cascade: ${records.length}`);
    for (const r of records) assert.deepEqual(Object.keys(r), ['type', 'done', 'total', 'inProgress', 'failed', 'elapsedMs', 'etaMs']);
    const last = records.at(-1)!;
    assert.deepEqual([last.done, last.total, last.inProgress, last.etaMs], [4, 4, 0, 0]);
    assert.equal(lines.at(-1)?.type, 'done');
    for (let i = 1; i < records.length; i++) {
      const [a, b] = [records[i - 1], records[i]];
      assert.notDeepEqual([a.done, a.total, a.inProgress, a.failed], [b.done, b.total, b.inProgress, b.failed], 'records only when a count changes');
    }
  });

  test('done never goes back, even when a rollback takes finished resources back into progress', async () => {
    // Instance2 is updated (done), then updated back during the rollback.
    const lines = await watchJson('fleet', 'update-rollback-failed');
    const done = lines.filter((l) => l.type === 'progress').map((l) => l.done as number);
    for (let i = 1; i < done.length; i++) assert.ok(done[i] >= done[i - 1], `done: ${done.join(', ')}`);
    const last = lines.filter((l) => l.type === 'progress').at(-1)!;
    assert.equal(last.done, last.total);
  });
});

describe('the total of a create', () => {
  test("is the template's resources from the first progress record, read once with GetTemplate (stage Processed), not those the events have revealed so far", async () => {
    const clock = new FakeClock();
    const endpoint = await startEndpoint({ scenarios: ['create-success'], now: () => clock.now(), startAt: clock.now(), stepMs: 5000, pageSize: { events: 3 } });
    let stdout = '';
    const io: CliIo = { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: { AWS_REGION: 'us-east-1' } };
    try {
      await driveUntilSettled(clock, runWatch(['messaging', '--endpoint', endpoint.url, '--json'], io, { clock }));
      const records = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.type === 'progress');
      // The template declares a queue and a topic; the first record comes before either has an event.
      assert.deepEqual(records.map((r) => r.total), records.map(() => 2));
      assert.equal(records[0]!.done, 0);
      const templateReads = endpoint.calls.filter((c) => c.action === 'GetTemplate');
      assert.deepEqual(templateReads.map((c) => c.params.TemplateStage), ['Processed'], 'one read for the one operation');
    } finally {
      await endpoint.close();
    }
  });
});
