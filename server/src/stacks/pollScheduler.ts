/**
 * When the StackWatcher reads what: the listing now and then, each stack that wants reading every
 * few seconds (sooner after news, later while nothing happens), nothing while nothing shows the
 * stacks, and exponential backoff with jitter after throttling or errors. It owns the one timer
 * and runs one poll at a time; the clock and the random source are injected, so that tests and
 * benchmarks run it on simulated time.
 */

/** The clock the scheduler reads and sets its timer on. */
export interface PollClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PollIntervals {
  /** A stack that wants reading is read again this soon after something happened. */
  activeMs: number;
  /** ... and this much later at most while nothing happens (the interval grows by half each quiet read). */
  activeMaxMs: number;
  /** Time between two listings; also the longest backoff after errors that are not throttling. */
  settledMs: number;
  /** The first backoff; each further one in a row doubles, up to `backoffMaxMs`. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** How one read of a poll went: throttling is backed off from separately from other failures. */
export type PollOutcome = 'ok' | 'throttled' | 'error';

/** The outcomes of every read of one poll, or 'cancelled' when the poll was cut short. */
export type PollResult = PollOutcome[] | 'cancelled';

export interface PollSchedulerOptions {
  clock: PollClock;
  /** A number in [0, 1): the jitter of backoffs. */
  random: () => number;
  intervals: PollIntervals;
  /** One poll: reads whatever is due (ask `isListingDue` and `isStackDue`). */
  poll: () => Promise<PollResult>;
  /** The keys of the stacks that want reading now; the timer is set for the earliest of them. */
  waiting: () => Iterable<string>;
}

interface StackTimes {
  dueAt: number;
  intervalMs: number;
}

/** Decides when polls happen and runs them, one at a time. */
export class PollScheduler {
  private readonly stacks = new Map<string, StackTimes>();
  private timer: unknown;
  private running?: Promise<void>;
  private started = false;
  private stopped = false;
  private shown = true;
  private nextListAt = 0;
  private backoffUntil = 0;
  private throttledInARow = 0;
  private failedInARow = 0;

  constructor(private readonly options: PollSchedulerOptions) {}

  /** Whether polling is allowed by visibility (nothing polls while nothing shows the stacks). */
  get visible(): boolean {
    return this.shown;
  }

  /** Polls that ended with errors other than throttling, in a row. */
  get failuresInARow(): number {
    return this.failedInARow;
  }

  /** Starts polling: the listing is due at once. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.nextListAt = this.options.clock.now();
    this.arm();
  }

  /** Stops for good: no timer is set again. A poll in flight finishes (cancel its reads to end it sooner). */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /** Pauses the timer while hidden; when shown again, whatever came due meanwhile is polled at once. */
  setVisible(visible: boolean): void {
    if (this.shown === visible) return;
    this.shown = visible;
    if (visible) this.arm();
    else this.disarm();
  }

  /** Runs a poll now, or joins the one in flight; resolves when it is done. */
  runNow(): Promise<void> {
    if (this.running) return this.running;
    const running = this.runPoll().finally(() => {
      this.running = undefined;
      this.arm();
    });
    this.running = running;
    return running;
  }

  /** Resolves when no poll is running. */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Makes everything due now and forgets the backoff (a refresh: the user asked). */
  everythingDueNow(): void {
    const now = this.options.clock.now();
    this.nextListAt = now;
    this.backoffUntil = 0;
    for (const times of this.stacks.values()) times.dueAt = now;
    this.disarm();
  }

  /** Whether the listing is due. */
  isListingDue(): boolean {
    return this.options.clock.now() >= this.nextListAt;
  }

  /** Makes the listing due at once. */
  listNow(): void {
    this.nextListAt = this.options.clock.now();
  }

  /** Records a listing: the next one after the settled interval, or, when it failed, as soon as the backoff allows. */
  listed(outcome: PollOutcome): void {
    const now = this.options.clock.now();
    this.nextListAt = outcome === 'ok' ? now + this.options.intervals.settledMs : now;
  }

  /** Whether a stack's read is due (a stack never read is). */
  isStackDue(key: string): boolean {
    const times = this.stacks.get(key);
    return times === undefined || times.dueAt <= this.options.clock.now();
  }

  /** Makes a stack's read due at once. */
  readStackNow(key: string): void {
    const times = this.stacks.get(key);
    if (times) times.dueAt = this.options.clock.now();
  }

  /** Records a successful read of a stack: after news read again soon, else a little later than last time. */
  stackRead(key: string, news: boolean): void {
    const { activeMs, activeMaxMs } = this.options.intervals;
    const previous = this.stacks.get(key)?.intervalMs ?? activeMs;
    const intervalMs = news ? activeMs : Math.min(activeMaxMs, Math.ceil(previous * 1.5));
    this.stacks.set(key, { dueAt: this.options.clock.now() + intervalMs, intervalMs });
  }

  /** Forgets a stack that is no longer watched. */
  forgetStack(key: string): void {
    this.stacks.delete(key);
  }

  /** Sets the timer for the earliest due read, no earlier than the backoff allows; not while hidden, stopped or polling. */
  arm(): void {
    if (!this.started || this.stopped || !this.shown || this.running) return;
    this.disarm();
    const clock = this.options.clock;
    let due = this.nextListAt;
    for (const key of this.options.waiting()) due = Math.min(due, this.stacks.get(key)?.dueAt ?? clock.now());
    due = Math.max(due, this.backoffUntil);
    this.timer = clock.setTimeout(() => {
      this.timer = undefined;
      void this.runNow();
    }, Math.max(0, due - clock.now()));
  }

  private disarm(): void {
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async runPoll(): Promise<void> {
    const result = await this.options.poll();
    // A poll cut short says nothing about the account: the backoff stays as it was.
    if (result === 'cancelled') return;
    const now = this.options.clock.now();
    if (result.includes('throttled')) {
      this.throttledInARow++;
      this.backoffUntil = now + this.backoffDelay(this.throttledInARow);
      return;
    }
    this.throttledInARow = 0;
    if (result.includes('error')) {
      this.failedInARow++;
      this.backoffUntil = now + Math.min(this.options.intervals.settledMs, this.backoffDelay(this.failedInARow));
    } else {
      this.failedInARow = 0;
      this.backoffUntil = 0;
    }
  }

  /** Exponential backoff with jitter: half the delay fixed, half random. */
  private backoffDelay(attempt: number): number {
    const { backoffBaseMs, backoffMaxMs } = this.options.intervals;
    const delay = Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.min(attempt - 1, 30));
    return Math.round(delay / 2 + (this.options.random() * delay) / 2);
  }
}
