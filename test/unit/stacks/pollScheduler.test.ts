/**
 * The watcher's poll scheduler on a fake clock, with no HTTP: polls here only note what was due
 * and say how they went. When the listing and each stack are read, how a stack's interval adapts,
 * how throttling and errors back off, and that nothing runs while hidden or after stopping.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PollScheduler, type PollIntervals, type PollOutcome, type PollResult } from '../../../server/src/stacks/pollScheduler';
import { FakeClock, runUntil } from '../../endpoint/fakeClock';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** The watcher's defaults. */
const DEFAULTS: PollIntervals = { activeMs: 2000, activeMaxMs: 5000, settledMs: 90_000, backoffBaseMs: 1000, backoffMaxMs: 60_000 };

interface Setup {
  intervals?: Partial<PollIntervals>;
  /** Stacks that want reading. */
  stacks?: string[];
  /** Whether a read of this stack saw something happen (default: only its first read). */
  news?: (key: string, reads: number) => boolean;
  /** How the poll at this moment went (default: every read ok). */
  outcome?: (poll: number) => PollOutcome | 'cancelled';
  random?: () => number;
}

interface Run {
  clock: FakeClock;
  scheduler: PollScheduler;
  /** When each poll ran, relative to the start. */
  polls: number[];
  listings: number[];
  reads: Map<string, number[]>;
  start: number;
}

function scheduled(setup: Setup = {}): Run {
  const clock = new FakeClock();
  const start = clock.now();
  const stacks = setup.stacks ?? [];
  const run: Run = { clock, scheduler: undefined as unknown as PollScheduler, polls: [], listings: [], reads: new Map(stacks.map((s) => [s, []])), start };
  const poll = async (): Promise<PollResult> => {
    const at = clock.now() - start;
    const outcome = setup.outcome?.(run.polls.length) ?? 'ok';
    run.polls.push(at);
    if (outcome === 'cancelled') return 'cancelled';
    const outcomes: PollOutcome[] = [];
    if (run.scheduler.isListingDue()) {
      run.listings.push(at);
      run.scheduler.listed(outcome);
      outcomes.push(outcome);
    }
    for (const key of stacks) {
      if (!run.scheduler.isStackDue(key)) continue;
      const reads = run.reads.get(key)!;
      reads.push(at);
      if (outcome === 'ok') run.scheduler.stackRead(key, (setup.news ?? ((_, n) => n === 1))(key, reads.length));
      outcomes.push(outcome);
    }
    return outcomes;
  };
  run.scheduler = new PollScheduler({
    clock,
    random: setup.random ?? (() => 0.5),
    intervals: { ...DEFAULTS, ...setup.intervals },
    poll,
    waiting: () => stacks,
  });
  return run;
}

/** Lets `ms` of simulated time pass, firing every timer due by then (those due at the very end too, when set before). */
async function runFor(run: Run, ms: number): Promise<void> {
  let reached = false;
  run.clock.setTimeout(() => (reached = true), ms);
  await runUntil(run.clock, run.scheduler, () => reached);
}

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i]);
}

describe('PollScheduler', () => {
  test('the listing is read at start, then once per settled interval (90 s), and nothing else when no stack wants reading', async () => {
    const run = scheduled();
    run.scheduler.start();
    await runFor(run, 10 * MINUTE);
    assert.deepEqual(run.listings, [0, 90, 180, 270, 360, 450, 540].map((s) => s * SECOND));
    assert.deepEqual(run.polls, run.listings);
  });

  test('a stack that wants reading is read 2 s after news, then half as long again after each quiet read, up to 5 s', async () => {
    const run = scheduled({ stacks: ['orders'], news: (_, n) => n === 1 || n === 7 });
    run.scheduler.start();
    await runFor(run, 40 * SECOND);
    // 2 s after the news of the first read; 3, 4.5, then at most 5 s; news on the 7th read: 2 s again.
    assert.deepEqual(gaps(run.reads.get('orders')!).slice(0, 8), [2000, 3000, 4500, 5000, 5000, 5000, 2000, 3000]);
    assert.deepEqual(run.listings, [0], 'the listing keeps its own interval');
  });

  test('a read asked for at once happens at once; a forgotten stack starts over at the shortest interval', async () => {
    const run = scheduled({ stacks: ['orders'], news: () => false });
    run.scheduler.start();
    await runFor(run, 20 * SECOND);
    const before = run.reads.get('orders')!.length;
    run.clock.time += 1000;
    run.scheduler.readStackNow('orders');
    run.scheduler.arm();
    await runFor(run, 0);
    assert.equal(run.reads.get('orders')!.length, before + 1);
    assert.equal(run.reads.get('orders')!.at(-1), run.clock.now() - run.start);
    run.scheduler.forgetStack('orders');
    assert.equal(run.scheduler.isStackDue('orders'), true, 'a stack never read is due');
  });

  test('throttling backs off exponentially from 1 s, half the delay fixed and half random, up to 60 s; a good poll ends it', async () => {
    const throttledPolls = 9;
    for (const [random, fraction] of [[0, 0.5], [0.5, 0.75]] as const) {
      const run = scheduled({ outcome: (n) => (n < throttledPolls ? 'throttled' : 'ok'), random: () => random });
      run.scheduler.start();
      await runFor(run, 5 * MINUTE);
      const full = [1, 2, 4, 8, 16, 32, 60, 60].map((s) => s * SECOND);
      assert.deepEqual(gaps(run.polls).slice(0, 8), full.map((d) => d * fraction), `with random ${random}`);
      // After the good poll the listing is back on its 90 s interval.
      assert.equal(gaps(run.polls)[throttledPolls], 90 * SECOND);
      assert.equal(run.scheduler.failuresInARow, 0, 'throttling is not counted as failing');
    }
  });

  test('other errors back off the same way but never longer than the settled interval, and are counted in a row', async () => {
    const run = scheduled({ intervals: { settledMs: 20_000 }, outcome: (n) => (n < 8 ? 'error' : 'ok'), random: () => 0 });
    let counted = 0;
    run.scheduler.start();
    await runUntil(run.clock, run.scheduler, () => {
      counted = Math.max(counted, run.scheduler.failuresInARow);
      return run.polls.length > 8;
    });
    assert.deepEqual(gaps(run.polls).slice(0, 8), [500, 1000, 2000, 4000, 8000, 16_000, 20_000, 20_000]);
    assert.equal(counted, 8);
    assert.equal(run.scheduler.failuresInARow, 0);
  });

  test('while hidden no timer is set; shown again, whatever came due meanwhile is polled at once', async () => {
    const run = scheduled({ stacks: ['orders'] });
    run.scheduler.start();
    await runFor(run, 10 * SECOND);
    run.scheduler.setVisible(false);
    assert.equal(run.clock.pending, 0);
    assert.equal(run.scheduler.visible, false);
    const polls = run.polls.length;
    run.clock.time += 10 * MINUTE;
    assert.equal(run.polls.length, polls);
    run.scheduler.setVisible(true);
    await runFor(run, 0);
    assert.equal(run.polls.length, polls + 1);
    assert.equal(run.polls.at(-1), run.clock.now() - run.start);
    assert.equal(run.listings.at(-1), run.polls.at(-1), 'the overdue listing too');
  });

  test('one poll at a time: no timer while it runs, the next one set when it ends', async () => {
    const clock = new FakeClock();
    let finish: (result: PollResult) => void = () => undefined;
    const scheduler = new PollScheduler({
      clock,
      random: () => 0.5,
      intervals: DEFAULTS,
      poll: () =>
        new Promise<PollResult>((resolve) => {
          if (scheduler.isListingDue()) scheduler.listed('ok');
          finish = resolve;
        }),
      waiting: () => [],
    });
    scheduler.start();
    assert.equal(clock.pending, 1);
    clock.fireNext();
    assert.equal(clock.pending, 0, 'none while the poll runs');
    assert.equal(scheduler.runNow(), scheduler.runNow(), 'asking again joins the poll in flight');
    finish(['ok']);
    await scheduler.whenIdle();
    assert.equal(clock.pending, 1);
  });

  test('a cancelled poll leaves the backoff as it was', async () => {
    const run = scheduled({ outcome: (n) => (n === 0 ? 'throttled' : n === 1 ? 'cancelled' : 'ok'), random: () => 0 });
    run.scheduler.start();
    await runFor(run, 0);
    await run.scheduler.runNow();
    assert.deepEqual(run.polls, [0, 0]);
    await runFor(run, 10 * SECOND);
    assert.equal(run.polls[2], 500, 'still 0.5 s after the throttled poll');
  });

  test('everything due now: the listing and every stack at once, the backoff forgotten', async () => {
    const run = scheduled({ stacks: ['orders', 'billing'], outcome: (n) => (n < 5 ? 'throttled' : 'ok') });
    run.scheduler.start();
    await runUntil(run.clock, run.scheduler, () => run.polls.length === 5);
    run.scheduler.everythingDueNow();
    assert.equal(run.clock.pending, 0);
    await run.scheduler.runNow();
    const now = run.clock.now() - run.start;
    assert.equal(run.polls.at(-1), now);
    assert.equal(run.listings.at(-1), now);
    assert.equal(run.reads.get('orders')!.at(-1), now);
    assert.equal(run.reads.get('billing')!.at(-1), now);
  });

  test('stopped for good: no timer again, whether shown again or asked to arm', async () => {
    const run = scheduled({ stacks: ['orders'] });
    run.scheduler.start();
    await runFor(run, 5 * SECOND);
    run.scheduler.stop();
    assert.equal(run.clock.pending, 0);
    run.scheduler.setVisible(false);
    run.scheduler.setVisible(true);
    run.scheduler.arm();
    run.scheduler.start();
    assert.equal(run.clock.pending, 0);
  });
});
