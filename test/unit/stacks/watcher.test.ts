/**
 * How the StackWatcher spends API calls over a whole region, on a fake clock against the local
 * endpoint: cheap listing of settled stacks, following what runs, pausing while hidden,
 * recovering missed operations from events, keeping the last state through errors.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { StackWatcher, type WatcherChange, type WatcherOptions } from '../../../server/src/stacks/stackWatcher';
import { startEndpoint, type EndpointOptions, type LocalEndpoint } from '../../endpoint/server';
import { FakeClock, runUntil } from '../../endpoint/fakeClock';
import { FaultInjector } from '../../endpoint/faults';
import { isRunning } from '../../../server/src/cloudformation/stackLifecycle';
import { ChurningStack } from '../flaky/churningStack';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

interface Region {
  clock: FakeClock;
  endpoint: LocalEndpoint;
  watcher: StackWatcher;
  changes: WatcherChange[];
  close(): Promise<void>;
}

/** A region on a fake clock: the endpoint's script starts `offsetMs` after the watcher (not started yet). */
async function region(endpointOptions: Partial<EndpointOptions>, watcherOptions: Partial<WatcherOptions> = {}, offsetMs = 0): Promise<Region> {
  const clock = new FakeClock();
  const endpoint = await startEndpoint({ now: () => clock.now(), startAt: clock.now() + offsetMs, ...endpointOptions });
  const created = await CloudFormationReader.create({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
  });
  assert.ok(created.ok);
  const watcher = new StackWatcher({ reader: created.value, clock, scope: 'all', ...watcherOptions });
  const changes: WatcherChange[] = [];
  watcher.onDidChange((c) => changes.push(c));
  return {
    clock,
    endpoint,
    watcher,
    changes,
    async close() {
      watcher.dispose();
      created.value.dispose();
      await endpoint.close();
    },
  };
}

describe('StackWatcher over a region', () => {
  test('settled stacks cost one paged DescribeStacks per listing interval, nothing else', async () => {
    const r = await region({ settledStacks: 30, pageSize: { stacks: 10 } }, { settledIntervalMs: 60_000 });
    try {
      r.watcher.start();
      const end = r.clock.now() + 10 * 60_000;
      await runUntil(r.clock, r.watcher, () => r.clock.now() >= end);
      assert.equal(r.watcher.snapshot().stacks.length, 30);
      assert.deepEqual([...new Set(r.endpoint.calls.map((c) => c.action))], ['DescribeStacks']);
      // Ten minutes at one listing a minute (plus the first), three pages each.
      assert.equal(r.endpoint.calls.length, 11 * 3);
    } finally {
      await r.close();
    }
  });

  test('a stack that starts deploying is followed every few seconds until it ends, then announced', async () => {
    const r = await region({ scenarios: ['create-success'], settledStacks: 3, stepMs: 6000 }, { settledIntervalMs: 30_000 }, 10_000);
    try {
      r.watcher.start();
      const ended = () => r.changes.find((c) => c.kind === 'operation-ended');
      assert.ok(await runUntil(r.clock, r.watcher, () => ended() !== undefined));
      const change = ended();
      assert.ok(change?.kind === 'operation-ended');
      assert.equal(change.live, true);
      assert.equal(change.operation.status, 'CREATE_COMPLETE');
      const eventReads = r.endpoint.calls.filter((c) => c.action === 'DescribeStackEvents').map((c) => c.at);
      const gaps = eventReads.slice(1).map((t, i) => t - eventReads[i]);
      assert.ok(gaps.every((g) => g >= 2000 && g <= 5000), `event polls 2–5 s apart: ${gaps.join(', ')}`);
      assert.equal(r.watcher.getStack('messaging')?.resources.length, 2);
    } finally {
      await r.close();
    }
  });

  test('while hidden nothing is polled; becoming visible polls at once', async () => {
    const r = await region({ scenarios: ['update-replacement'], stepMs: 5000 }, {}, 120_000);
    try {
      r.watcher.start();
      await runUntil(r.clock, r.watcher, () => r.endpoint.calls.length > 0);
      r.watcher.setVisible(false);
      const calls = r.endpoint.calls.length;
      const hiddenAt = r.clock.now();
      assert.equal(r.clock.pending, 0, 'no timer left while hidden');
      r.clock.time += 10 * 60_000;
      assert.equal(r.endpoint.calls.length, calls);
      r.watcher.setVisible(true);
      await runUntil(r.clock, r.watcher, () => r.endpoint.calls.length > calls);
      assert.ok(r.endpoint.calls[calls].at >= hiddenAt + 10 * 60_000);
      assert.equal(r.endpoint.calls[calls].at, r.clock.now());
    } finally {
      await r.close();
    }
  });

  test('refresh cancels the request in flight and polls again; a cancellation is not an error', async () => {
    const r = await region({ settledStacks: 2, latencyMs: 40 });
    try {
      r.watcher.start();
      r.clock.fireNext();
      await r.watcher.refresh();
      assert.equal(r.watcher.snapshot().stacks.length, 2);
      assert.equal(r.watcher.snapshot().error, undefined);
      assert.equal(r.changes.filter((c) => c.kind === 'error').length, 0);
    } finally {
      await r.close();
    }
  });

  test('an operation that happened entirely between two listings is recovered from the events', async () => {
    // The cleanup-delete-failed update takes 17 s and starts 5 s in; listings are 30 s apart.
    const r = await region({ scenarios: ['cleanup-delete-failed'], stepMs: 1000 }, { settledIntervalMs: 30_000 }, 5000);
    try {
      r.watcher.start();
      const ended = () => r.changes.find((c) => c.kind === 'operation-ended' && c.live);
      assert.ok(await runUntil(r.clock, r.watcher, () => ended() !== undefined));
      const change = ended();
      assert.ok(change?.kind === 'operation-ended');
      assert.equal(change.operation.status, 'UPDATE_COMPLETE');
      assert.deepEqual(change.operation.undeleted.map((u) => u.logicalId), ['SG1']);
      const listings = r.endpoint.calls.filter((c) => c.action === 'DescribeStacks');
      assert.equal(listings.length, 2, 'the second listing showed the change');
    } finally {
      await r.close();
    }
  });

  test('credential errors keep the last known state and clear on the next good poll', async () => {
    const r = await region({ settledStacks: 4 });
    try {
      r.watcher.start();
      await runUntil(r.clock, r.watcher, () => r.watcher.snapshot().stacks.length === 4);
      r.endpoint.options.fail = { code: 'ExpiredToken', message: 'The security token included in the request is expired', status: 403 };
      await r.watcher.refresh();
      const failing = r.watcher.snapshot();
      assert.equal(failing.error?.kind, 'expired-credentials');
      assert.equal(failing.stacks.length, 4);
      r.endpoint.options.fail = undefined;
      await r.watcher.refresh();
      assert.equal(r.watcher.snapshot().error, undefined);
      assert.deepEqual(
        r.changes.filter((c) => c.kind === 'error').map((c) => (c.kind === 'error' ? c.error?.kind ?? 'cleared' : '')),
        ['expired-credentials', 'cleared'],
      );
    } finally {
      await r.close();
    }
  });

  test('a stack that has not changed is not copied again for every snapshot', async () => {
    const r = await region({ settledStacks: 3 });
    try {
      r.watcher.start();
      await runUntil(r.clock, r.watcher, () => r.watcher.snapshot().stacks.length === 3);
      const [first] = r.watcher.snapshot().stacks;
      assert.equal(r.watcher.snapshot().stacks[0], first, 'the same snapshot while nothing changed');
      r.watcher.follow(first.stackId);
      const followed = r.watcher.getStack(first.stackId)!;
      assert.notEqual(followed, first);
      assert.equal(followed.followed, true);
      await runUntil(r.clock, r.watcher, () => r.watcher.getStack(first.stackId)!.detailed);
      const detailed = r.watcher.getStack(first.stackId)!;
      assert.ok(detailed.events.length > 0 && detailed.resources.length > 0, 'events and resources once read');
      assert.equal(followed.events.length, 0, 'an earlier snapshot is left as it was');
    } finally {
      await r.close();
    }
  });

  test('events kept per stack are capped, without duplicates', async () => {
    const r = await region({ scenarios: ['update-replacement'], stepMs: 3000 }, { maxEventsPerStack: 8 });
    try {
      r.watcher.start();
      r.watcher.follow('network');
      assert.ok(await runUntil(r.clock, r.watcher, () => r.changes.some((c) => c.kind === 'operation-ended' && c.live)));
      const events = r.watcher.getStack('network')!.events;
      assert.equal(events.length, 8);
      assert.equal(new Set(events.map((e) => e.eventId)).size, 8);
      assert.equal(events[0].status, 'UPDATE_COMPLETE');
    } finally {
      await r.close();
    }
  });

  test('with no scope given the whole region is watched: a followed stack is read through the listing, never described by name', async () => {
    const r = await region({ settledStacks: 3, pageSize: { stacks: 10 } }, { scope: undefined, settledIntervalMs: 60_000 });
    try {
      const name = r.endpoint.stacks[0].stackName;
      r.watcher.follow(name);
      r.watcher.start();
      const end = r.clock.now() + 10 * 60_000;
      await runUntil(r.clock, r.watcher, () => r.clock.now() >= end);
      assert.equal(r.watcher.snapshot().stacks.length, 3);
      assert.equal(r.watcher.getStack(name)?.followed, true);
      assert.equal(r.watcher.getStack(name)?.detailed, true);
      const describedByName = r.endpoint.calls.filter((c) => c.action === 'DescribeStacks' && c.params.StackName !== undefined);
      assert.deepEqual(describedByName, [], 'the listing of every stack already shows it');
      assert.equal(r.endpoint.calls.filter((c) => c.action === 'DescribeStacks').length, 11, 'one listing a minute, plus the first');
    } finally {
      await r.close();
    }
  });

  test('an operation over before watching stays history when the first reload of the resources is throttled', async () => {
    // The update-replacement operation (18 steps of 1 s) ended 10 s before the watch starts.
    const r = await region({ scenarios: ['update-replacement'], stepMs: 1000 }, {}, -27_000);
    const faults = new FaultInjector(() => r.clock.now());
    let throttled = false;
    r.endpoint.options.intercept = (request) => {
      if (request.call.action !== 'ListStackResources' || throttled) return false;
      throttled = true;
      faults.next(1, { kind: 'throttle' });
      return faults.intercept(request);
    };
    try {
      r.watcher.follow('network');
      r.watcher.start();
      const ended = () => r.changes.filter((c) => c.kind === 'operation-ended');
      assert.ok(await runUntil(r.clock, r.watcher, () => ended().length > 0));
      assert.equal(throttled, true, 'the first reload was refused');
      const [change] = ended();
      assert.ok(change.kind === 'operation-ended');
      assert.equal(change.operation.status, 'UPDATE_COMPLETE');
      assert.equal(change.live, false, 'it ended before the watch began');
    } finally {
      await r.close();
    }
  });

  test('updates that end and start again between two reads: each end announced is of an operation that ended', async () => {
    // Four-second updates every 12 s; a stack at rest is listed every 30 s, so one read of its
    // events can hold the end of one update and the start of the next.
    const r = await region({}, { settledIntervalMs: 30_000 });
    const churn = new ChurningStack({ stackName: 'orders', resources: 1, operations: 8, periodMs: 12_000, eventGapMs: 1000 }, r.clock.now() + 30_000, {
      region: 'us-east-1',
      accountId: '123456789012',
    });
    r.endpoint.stacks.push(churn);
    const runningWhenAnnounced: boolean[] = [];
    r.watcher.onDidChange((change) => {
      if (change.kind === 'operation-ended') runningWhenAnnounced.push(isRunning(r.watcher.getStack(change.stackId)!.status));
    });
    try {
      r.watcher.start();
      assert.ok(await runUntil(r.clock, r.watcher, () => r.clock.now() > churn.lastEventAt + 60_000));
      const ends = r.changes.flatMap((c) => (c.kind === 'operation-ended' && c.live ? [c.operation] : []));
      assert.ok(runningWhenAnnounced.includes(true), 'some end was read together with the next start');
      assert.ok(ends.length >= 4, `${ends.length} ends announced`);
      for (const operation of ends) {
        assert.equal(operation.status, 'UPDATE_COMPLETE');
        assert.equal(operation.outcome, 'succeeded');
      }
      assert.equal(new Set(ends.map((o) => o.startEventId)).size, ends.length, 'each end once');
    } finally {
      await r.close();
    }
  });

  test('a stack asked for by name that does not exist is reported as not found', async () => {
    const r = await region({ settledStacks: 1 }, { scope: ['nope'] });
    try {
      r.watcher.start();
      await runUntil(r.clock, r.watcher, () => r.changes.some((c) => c.kind === 'error'));
      assert.equal(r.watcher.snapshot().error?.kind, 'not-found');
      assert.equal(r.watcher.snapshot().stacks.length, 0);
    } finally {
      await r.close();
    }
  });
});
