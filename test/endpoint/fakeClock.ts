/**
 * A fake clock for the watcher (and the endpoint's script): time moves only when a timer fires,
 * so a ten-minute deployment plays out in milliseconds with no real sleeps.
 */
import type { WatcherClock } from '../../server/src/stacks/stackWatcher';

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

export class FakeClock implements WatcherClock {
  private timers: Timer[] = [];
  private sequence = 0;
  private seed: number;

  constructor(
    public time = Date.UTC(2024, 4, 1, 10, 0, 0),
    seed = 42,
  ) {
    this.seed = seed;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { id: ++this.sequence, due: this.time + Math.max(0, ms), callback };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** A deterministic pseudo-random number in [0, 1). */
  random(): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2147483648;
    return this.seed / 2147483648;
  }

  /** Moves time to the earliest timer and fires it; false when no timer is pending. */
  fireNext(): boolean {
    if (this.timers.length === 0) return false;
    let next = this.timers[0];
    for (const t of this.timers) if (t.due < next.due || (t.due === next.due && t.id < next.id)) next = t;
    this.timers = this.timers.filter((t) => t !== next);
    this.time = Math.max(this.time, next.due);
    next.callback();
    return true;
  }

  /** Whether a timer is pending. */
  get pending(): number {
    return this.timers.length;
  }
}

/** Something that polls on the fake clock and can say when its current poll is over. */
export interface Pollable {
  whenIdle(): Promise<void>;
}

/**
 * Fires timers one by one, letting each poll finish, until `done()` holds or `maxMs` of simulated
 * time passed. Returns whether `done()` held.
 */
export async function runUntil(clock: FakeClock, subject: Pollable, done: () => boolean, maxMs = 3_600_000): Promise<boolean> {
  const limit = clock.now() + maxMs;
  await subject.whenIdle();
  while (!done()) {
    if (clock.now() > limit || !clock.fireNext()) return done();
    await subject.whenIdle();
  }
  return true;
}

/**
 * Fires timers whenever some are pending (the watcher is waiting) until `work` settles, yielding
 * to real I/O in between: for code that owns its watcher, such as the `watch` command.
 */
export async function driveUntilSettled<T>(clock: FakeClock, work: Promise<T>, maxTimers = 100_000): Promise<T> {
  let settled = false;
  work.then(
    () => (settled = true),
    () => (settled = true),
  );
  let fired = 0;
  while (!settled) {
    if (clock.pending > 0 && fired < maxTimers) {
      clock.fireNext();
      fired++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return work;
}
