/**
 * `cfn-impact watch --json` against a flaky account, on a fake clock: transient faults are
 * ridden out and every event of the deployment is printed exactly once; problems polling cannot
 * fix end the watch with exit 1 and a message that says what to do.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runWatch } from '../../../server/src/cli/watch';
import type { CliIo } from '../../../server/src/cli/io';
import { startEndpoint } from '../../endpoint/server';
import { FakeClock, driveUntilSettled } from '../../endpoint/fakeClock';
import { FaultInjector } from '../../endpoint/faults';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

const SECOND = 1000;

/** Watches the update-replacement deployment (8 s per step) with faults placed by `inject`. */
async function watch(inject: (faults: FaultInjector, start: number) => void, during?: (endpoint: Awaited<ReturnType<typeof startEndpoint>>, clock: FakeClock) => void) {
  const clock = new FakeClock();
  const faults = new FaultInjector(() => clock.now());
  const start = clock.now();
  const endpoint = await startEndpoint({ scenarios: ['update-replacement'], now: () => clock.now(), startAt: start, stepMs: 8000, pageSize: { events: 3 }, intercept: faults.intercept });
  inject(faults, start);
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: { AWS_REGION: 'us-east-1' } };
  try {
    during?.(endpoint, clock);
    const code = await driveUntilSettled(clock, runWatch(['network', '--endpoint', endpoint.url, '--json'], io, { clock }));
    const lines = stdout.trim() ? stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
    const scripted = endpoint.stacks[0]
      .at(clock.now())
      .events.filter((e) => e.timestamp >= start)
      .map((e) => e.eventId)
      .reverse();
    return { code, stderr, lines, scripted, faults, calls: endpoint.calls };
  } finally {
    await endpoint.close();
  }
}

describe('cfn-impact watch --json on a flaky account', () => {
  test('throttling, 5xx, resets, malformed XML and clock skew in turn: exit 0, every event once, oldest first', async () => {
    const run = await watch((faults, start) => {
      faults
        .during(start + 10 * SECOND, start + 20 * SECOND, { kind: 'throttle' })
        .during(start + 60 * SECOND, start + 67 * SECOND, { kind: 'server-error', code: 'ServiceUnavailable' })
        .during(start + 80 * SECOND, start + 86 * SECOND, { kind: 'reset' })
        .during(start + 98 * SECOND, start + 104 * SECOND, { kind: 'malformed' })
        .during(start + 115 * SECOND, Number.POSITIVE_INFINITY, { kind: 'skew', ms: 15 * 60_000 });
    });
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
    const events = run.lines.filter((l) => l.type === 'event').map((l) => l.eventId);
    assert.deepEqual(events, run.scripted, 'each event of the deployment once, in order');
    assert.equal(run.lines.at(-1)?.type, 'done');
    assert.equal(run.lines.at(-1)?.status, 'UPDATE_COMPLETE');
    assert.deepEqual([...run.faults.injected.keys()].sort(), ['malformed', 'reset', 'server-error', 'skew', 'throttle']);
  });

  test('the settled status listed before the resources could be reloaded: the end is still announced, exit 0', async () => {
    let endsAt = 0;
    let refusedAfterEnd = 0;
    const run = await watch(
      () => undefined,
      (endpoint, clock) => {
        const faults = new FaultInjector(() => clock.now());
        endsAt = endpoint.stacks[0].endsAt;
        // From the last event on, the resources cannot be listed for 12 s: longer than the 5 s
        // between two descriptions of a settled stack, so the settled status is listed first.
        endpoint.options.intercept = (request) => {
          if (request.call.action !== 'ListStackResources' || clock.now() < endsAt || clock.now() >= endsAt + 12 * SECOND) return false;
          refusedAfterEnd++;
          faults.next(1, { kind: 'throttle' });
          return faults.intercept(request);
        };
      },
    );
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
    assert.ok(refusedAfterEnd >= 2, `${refusedAfterEnd} reloads refused`);
    const reloaded = run.calls.find((c) => c.action === 'ListStackResources' && c.at >= endsAt && c.outcome === 'ok')!;
    const listedSettled = run.calls.filter((c) => c.action === 'DescribeStacks' && c.at >= endsAt && c.at < reloaded.at);
    assert.ok(listedSettled.length >= 1, 'the settled stack was described before its resources were reloaded');
    assert.deepEqual(run.lines.filter((l) => l.type === 'event').map((l) => l.eventId), run.scripted);
    assert.equal(run.lines.at(-1)?.type, 'done');
    assert.equal(run.lines.at(-1)?.status, 'UPDATE_COMPLETE');
  });

  test('credentials that expire mid-watch end it: exit 1, what happened and the fix on stderr, events so far on stdout', async () => {
    const run = await watch((faults, start) => faults.during(start + 30 * SECOND, Number.POSITIVE_INFINITY, { kind: 'expired-token' }));
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^cfn-impact watch: The AWS credentials have expired: .*\n {2}Refresh your credentials/);
    const events = run.lines.filter((l) => l.type === 'event').map((l) => l.eventId);
    assert.ok(events.length > 0);
    assert.deepEqual(events, run.scripted.slice(0, events.length), 'a prefix of the deployment, nothing twice');
  });

  test('the stack vanishing mid-watch ends it: exit 1 with "does not exist" and the fix', async () => {
    const run = await watch(
      () => undefined,
      (endpoint, clock) => {
        const stack = endpoint.stacks[0];
        const vanishAt = clock.now() + 40 * SECOND;
        // Like a stack whose record was dropped: from then on every call about it is "does not exist".
        const originalAt = stack.at.bind(stack);
        stack.at = (now) => (now >= vanishAt ? { ...originalAt(now), exists: false } : originalAt(now));
      },
    );
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^cfn-impact watch: Stack with id \S+ does not exist\n {2}Check the stack name and the region/);
  });
});
