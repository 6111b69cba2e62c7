/**
 * Keeps a model of a region's stacks, their resources and events up to date, cheaply: one
 * DescribeStacks for all settled stacks now and then, one incremental DescribeStackEvents per
 * running stack every few seconds, nothing while nothing is visible, exponential backoff with
 * jitter when throttled. When to read is the PollScheduler's. Time and timers are injected, so
 * tests and benchmarks run on a fake clock.
 */
import { isRunning, isTransitionPossible, isStackStatus } from './lifecycle';
import { StackState, isStackEvent, type OperationSummary, type ResourceModel } from './stackModel';
import type { CloudFormationReader } from './cloudFormationReader';
import { PollScheduler, type PollClock, type PollOutcome, type PollResult } from './pollScheduler';
import type { ReaderError, StackEvent, StackFields, StackSummary } from './types';

/** The clock the watcher polls on, and its source of jitter. */
export interface WatcherClock extends PollClock {
  random(): number;
}

/** The real clock. */
export const systemClock: WatcherClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  random: () => Math.random(),
};

/** The reads the watcher needs; CloudFormationReader provides them. */
export type StackReader = Pick<CloudFormationReader, 'describeStacks' | 'describeStackEvents' | 'listStackResources' | 'info'>;

export interface WatcherOptions {
  reader: StackReader;
  clock?: WatcherClock;
  /** 'all' watches every stack of the region; a list watches only those stacks (names or ids). */
  scope?: 'all' | string[];
  /** Poll interval for a running stack right after something happened (default 2 s). */
  activeIntervalMs?: number;
  /** The interval for a running stack grows to this while nothing happens (default 5 s). */
  activeMaxIntervalMs?: number;
  /** Interval of the one listing call for settled stacks (default 90 s: with 200 stacks in two pages, under 2 calls a minute). */
  settledIntervalMs?: number;
  /** Events kept per stack (default 1,000). */
  maxEventsPerStack?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Pages read back to find where the current operation started (default 10). */
  maxHistoryPages?: number;
}

export type WatcherChange =
  /** Stacks appeared or disappeared, or a listing changed stack-level fields. */
  | { kind: 'stacks' }
  | { kind: 'status'; stackId: string; stackName: string; from?: string; to: string; reason?: string; inOperation: boolean }
  | { kind: 'event'; stackId: string; stackName: string; event: StackEvent; inOperation: boolean }
  | { kind: 'resources'; stackId: string }
  /** An operation ended; `live` is false when it had already ended before the watcher looked. */
  | { kind: 'operation-ended'; stackId: string; stackName: string; operation: OperationSummary; live: boolean }
  /**
   * The connection (stackId absent) or one stack has an error, or it was cleared (error undefined).
   * `consecutive` counts failed polls in a row; throttling is reported with 0, because backing
   * off is the answer to it, not giving up.
   */
  | { kind: 'error'; stackId?: string; stackName?: string; error?: ReaderError; consecutive: number };

/**
 * What the watcher knows of one stack at one moment. Snapshots are shared by every caller until
 * the stack changes, so they are read-only.
 */
export interface StackSnapshot extends StackFields {
  /** Whether events and resources were loaded. */
  detailed: boolean;
  followed: boolean;
  resources: ResourceModel[];
  /** Newest first. */
  events: StackEvent[];
  operation?: OperationSummary;
  error?: ReaderError;
}

export interface WatcherSnapshot {
  region: string;
  stacks: StackSnapshot[];
  /** The connection-level error, if the last listing failed (the stacks are the last known state). */
  error?: ReaderError;
  /** When the stacks were last listed successfully. */
  listedAt?: number;
  paused: boolean;
}

interface Tracked {
  state: StackState;
  followed: boolean;
  detailed: boolean;
  /** An event read is due (a listing showed a change). */
  needsEvents: boolean;
  resourcesStale: boolean;
  /** An operation ended and is announced once the resources are reloaded. */
  endedPending: boolean;
  /** A change was seen while watching, so an operation found ending is news. */
  changeObserved: boolean;
  listed?: { status: string; lastUpdatedTime?: number };
  error?: ReaderError;
  /** The last snapshot taken and what it was taken of: tree requests come often, changes seldom. */
  snapshot?: { revision: number; followed: boolean; detailed: boolean; error?: ReaderError; value: StackSnapshot };
}

/** Watches the stacks of one region through a read-only reader. */
export class StackWatcher {
  private readonly clock: WatcherClock;
  private readonly scheduler: PollScheduler;
  private readonly tracked = new Map<string, Tracked>();
  /** Names (or ids) asked for in list scope, mapped to the stack id once resolved. */
  private readonly wanted = new Map<string, string | undefined>();
  private readonly listeners = new Set<(change: WatcherChange) => void>();
  private readonly maxEvents: number;
  private controller?: AbortController;
  private disposed = false;
  private error?: ReaderError;
  private listedAt?: number;

  constructor(private readonly options: WatcherOptions) {
    const clock = options.clock ?? systemClock;
    this.clock = clock;
    const activeMs = options.activeIntervalMs ?? 2000;
    this.scheduler = new PollScheduler({
      clock,
      random: () => clock.random(),
      intervals: {
        activeMs,
        activeMaxMs: Math.max(activeMs, options.activeMaxIntervalMs ?? 5000),
        settledMs: options.settledIntervalMs ?? 90_000,
        backoffBaseMs: options.backoffBaseMs ?? 1000,
        backoffMaxMs: options.backoffMaxMs ?? 60_000,
      },
      poll: () => this.poll(),
      waiting: () => this.waitingStacks(),
    });
    this.maxEvents = options.maxEventsPerStack ?? 1000;
    if (Array.isArray(options.scope)) for (const name of options.scope) this.wanted.set(name, undefined);
  }

  /** Starts polling. */
  start(): void {
    if (!this.disposed) this.scheduler.start();
  }

  /** Stops polling for good and cancels requests in flight. */
  dispose(): void {
    this.disposed = true;
    this.scheduler.stop();
    this.controller?.abort();
    this.listeners.clear();
  }

  /** Pauses all polling while nothing shows the stacks; resumes (polling what is due at once) when visible again. */
  setVisible(visible: boolean): void {
    this.scheduler.setVisible(visible);
  }

  /** Cancels requests in flight and polls everything now; resolves when that poll is done. */
  async refresh(): Promise<void> {
    if (this.disposed) return;
    this.controller?.abort();
    await this.scheduler.whenIdle();
    this.scheduler.everythingDueNow();
    for (const t of this.tracked.values()) {
      if (t.followed || isRunning(t.state.status)) t.needsEvents = true;
    }
    await this.scheduler.runNow();
  }

  /** Keeps events and resources of this stack (name or id) loaded and current, settled or not. */
  follow(nameOrId: string): void {
    const t = this.find(nameOrId);
    if (t) {
      t.followed = true;
      if (!t.detailed) this.scheduler.readStackNow(t.state.stackId);
    } else if (Array.isArray(this.options.scope) || !this.wanted.has(nameOrId)) {
      this.wanted.set(nameOrId, undefined);
      this.scheduler.listNow();
    }
    this.scheduler.arm();
  }

  /** Stops keeping details of a stack current (it stays listed). */
  unfollow(nameOrId: string): void {
    const t = this.find(nameOrId);
    if (t) t.followed = false;
  }

  /** Registers a change listener. */
  onDidChange(listener: (change: WatcherChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Resolves when no poll is running. */
  whenIdle(): Promise<void> {
    return this.scheduler.whenIdle();
  }

  /** The model of one stack (name or id). */
  getStack(nameOrId: string): StackSnapshot | undefined {
    const t = this.find(nameOrId);
    return t ? this.snapshotOf(t) : undefined;
  }

  /** Everything the watcher knows, for presentation. */
  snapshot(): WatcherSnapshot {
    const snapshot: WatcherSnapshot = {
      region: this.options.reader.info.region,
      stacks: [...this.tracked.values()].map((t) => this.snapshotOf(t)),
      paused: !this.scheduler.visible,
    };
    if (this.error) snapshot.error = this.error;
    if (this.listedAt !== undefined) snapshot.listedAt = this.listedAt;
    return snapshot;
  }

  /** The snapshot of one stack: the one taken before when nothing changed since, else a new copy. */
  private snapshotOf(t: Tracked): StackSnapshot {
    const s = t.state;
    const cached = t.snapshot;
    if (cached && cached.revision === s.revision && cached.followed === t.followed && cached.detailed === t.detailed && cached.error === t.error) {
      return cached.value;
    }
    const snap: StackSnapshot = {
      stackId: s.stackId,
      stackName: s.stackName,
      status: s.status,
      creationTime: s.creationTime,
      detailed: t.detailed,
      followed: t.followed,
      // Copies: the model keeps changing after the snapshot is taken.
      resources: [...s.resources.values()].map((r) => ({ ...r, formerPhysical: r.formerPhysical.map((p) => ({ ...p })) })),
      events: s.events.slice(-this.maxEvents).reverse(),
    };
    if (s.statusReason !== undefined) snap.statusReason = s.statusReason;
    if (s.lastUpdatedTime !== undefined) snap.lastUpdatedTime = s.lastUpdatedTime;
    if (s.description !== undefined) snap.description = s.description;
    const operation = s.operationSummary();
    if (operation) snap.operation = operation;
    if (t.error) snap.error = t.error;
    t.snapshot = { revision: s.revision, followed: t.followed, detailed: t.detailed, value: snap };
    if (t.error) t.snapshot.error = t.error;
    return snap;
  }

  private find(nameOrId: string): Tracked | undefined {
    const byId = this.tracked.get(nameOrId);
    if (byId) return byId;
    const resolved = this.wanted.get(nameOrId);
    if (resolved) return this.tracked.get(resolved);
    for (const t of this.tracked.values()) if (t.state.stackName === nameOrId && t.state.status !== 'DELETE_COMPLETE') return t;
    for (const t of this.tracked.values()) if (t.state.stackName === nameOrId) return t;
    return undefined;
  }

  private emit(change: WatcherChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A failing listener must not stop the watcher or the other listeners.
      }
    }
  }

  private wantsDetails(t: Tracked): boolean {
    return t.needsEvents || t.resourcesStale || isRunning(t.state.status) || (t.followed && !t.detailed);
  }

  /** The ids of the stacks that want reading, for the scheduler's timer. */
  private *waitingStacks(): Iterable<string> {
    for (const [id, t] of this.tracked) if (this.wantsDetails(t)) yield id;
  }

  /** One poll: the listing when due, then every stack whose read is due. */
  private async poll(): Promise<PollResult> {
    const controller = new AbortController();
    this.controller = controller;
    const signal = controller.signal;
    const outcomes: PollOutcome[] = [];
    if (this.scheduler.isListingDue()) {
      const listed = await this.pollListing(signal);
      outcomes.push(listed);
      this.scheduler.listed(listed);
    }
    for (const [id, t] of [...this.tracked]) {
      if (signal.aborted || this.disposed) break;
      if (!this.wantsDetails(t) || !this.scheduler.isStackDue(id)) continue;
      outcomes.push(await this.pollStack(t, signal));
    }
    if (signal.aborted) return 'cancelled';
    // Every call of this poll succeeded: whatever went wrong before is over.
    if (outcomes.length > 0 && outcomes.every((outcome) => outcome === 'ok')) this.setError(undefined);
    return outcomes;
  }

  private setError(error: ReaderError | undefined, t?: Tracked): void {
    const consecutive = this.scheduler.failuresInARow + 1;
    if (t) {
      if (t.error?.message === error?.message) return;
      if (error) t.error = error;
      else delete t.error;
      this.emit({ kind: 'error', stackId: t.state.stackId, stackName: t.state.stackName, error, consecutive });
      return;
    }
    if (!error && !this.error) return;
    this.error = error;
    this.emit({ kind: 'error', error, consecutive: error && error.kind !== 'throttled' ? consecutive : 0 });
  }

  /**
   * Sorts a failed read of one stack: a missing stack is gone (that stack's error, and no reason
   * to slow down polling of the others), anything else the connection's.
   */
  private classify(error: ReaderError, t: Tracked): PollOutcome {
    if (error.kind === 'cancelled') return 'ok';
    if (error.kind === 'throttled') {
      this.setError(error);
      return 'throttled';
    }
    if (error.kind === 'not-found') {
      this.markGone(t, error);
      return 'ok';
    }
    this.setError(error);
    return 'error';
  }

  /**
   * A stack that CloudFormation no longer knows by its id was deleted and its record dropped: it
   * is shown deleted, with the answer as its error, and never polled again (ids are not reused).
   */
  private markGone(t: Tracked, error: ReaderError): void {
    const state = t.state;
    const from = state.status;
    state.markDeleted(error.message);
    t.detailed = true;
    t.needsEvents = false;
    t.resourcesStale = false;
    t.endedPending = false;
    if (from !== 'DELETE_COMPLETE') {
      this.emit({ kind: 'status', stackId: state.stackId, stackName: state.stackName, from: from || undefined, to: 'DELETE_COMPLETE', reason: error.message, inOperation: false });
    }
    this.setError(error, t);
  }

  private classifyGlobal(error: ReaderError): PollOutcome {
    if (error.kind === 'cancelled') return 'ok';
    if (error.kind === 'throttled') {
      this.setError(error);
      return 'throttled';
    }
    this.setError(error);
    return 'error';
  }

  private async pollListing(signal: AbortSignal): Promise<PollOutcome> {
    if (this.options.scope === undefined || this.options.scope === 'all') {
      const listed = await this.options.reader.describeStacks({ signal });
      if (!listed.ok) return this.classifyGlobal(listed.error);
      this.setError(undefined);
      const observedBefore = this.listedAt !== undefined;
      this.listedAt = this.clock.now();
      this.mergeListing(listed.value, true, observedBefore);
      if (this.wanted.size > 0) return this.pollWanted(signal);
      return 'ok';
    }
    return this.pollWanted(signal);
  }

  /** Describes each stack asked for by name whose events are not already being read. */
  private async pollWanted(signal: AbortSignal): Promise<PollOutcome> {
    let result: PollOutcome = 'ok';
    for (const [name, id] of this.wanted) {
      const t = id ? this.tracked.get(id) : undefined;
      if (t && t.detailed && isRunning(t.state.status)) continue;
      // A deleted stack never changes again.
      if (t?.state.status === 'DELETE_COMPLETE') continue;
      if (t && this.options.scope === 'all' || signal.aborted) continue;
      const described = await this.options.reader.describeStacks({ stackName: id ?? name, signal });
      if (!described.ok) {
        // A name that never resolved is a connection-level answer ("no such stack"); a known stack keeps its own error.
        const r = t ? this.classify(described.error, t) : this.classifyGlobal(described.error);
        if (r !== 'ok') result = r;
        continue;
      }
      this.setError(undefined);
      const observedBefore = this.listedAt !== undefined;
      this.listedAt = this.clock.now();
      const [summary] = described.value;
      if (summary) {
        this.wanted.set(name, summary.stackId);
        this.mergeListing([summary], false, observedBefore);
        const tracked = this.tracked.get(summary.stackId);
        if (tracked) tracked.followed = true;
      }
    }
    return result;
  }

  /**
   * Folds a listing into the model; with `complete`, stacks missing from it are gone. Stacks first
   * seen after an earlier listing (`observedBefore`) are new, so their operations are news.
   */
  private mergeListing(summaries: StackSummary[], complete: boolean, observedBefore: boolean): void {
    let membershipChanged = false;
    const present = new Set<string>();
    for (const summary of summaries) {
      present.add(summary.stackId);
      let t = this.tracked.get(summary.stackId);
      if (!t) {
        t = {
          state: new StackState(summary, this.maxEvents),
          followed: [...this.wanted.values()].includes(summary.stackId) || this.wanted.has(summary.stackName),
          detailed: false,
          // A stack that appeared since the last listing was deployed meanwhile: read what happened.
          needsEvents: isRunning(summary.status) || observedBefore,
          resourcesStale: false,
          endedPending: false,
          changeObserved: observedBefore,
        };
        if (this.wanted.has(summary.stackName)) this.wanted.set(summary.stackName, summary.stackId);
        this.tracked.set(summary.stackId, t);
        membershipChanged = true;
      } else {
        const before = t.listed;
        const changed = before !== undefined && (before.status !== summary.status || before.lastUpdatedTime !== summary.lastUpdatedTime);
        if (changed) {
          t.changeObserved = true;
          // A status that cannot follow the last one seen, or a settled stack that moved, means an
          // operation happened between polls: recover what happened from the events.
          const possible =
            isStackStatus(before.status) && isStackStatus(summary.status) && isTransitionPossible(before.status, summary.status);
          if (!possible || t.detailed || isRunning(summary.status)) {
            t.needsEvents = true;
            this.scheduler.readStackNow(summary.stackId);
          }
        }
      }
      t.listed = { status: summary.status, lastUpdatedTime: summary.lastUpdatedTime };
      const statusBefore = t.state.status;
      t.state.applySummary(summary, t.detailed);
      if (!t.detailed && statusBefore !== t.state.status) membershipChanged = true;
      if (t.error?.kind === 'not-found') this.setError(undefined, t);
    }
    if (complete) {
      for (const [id, t] of this.tracked) {
        if (present.has(id) || t.followed || isRunning(t.state.status) || t.needsEvents || t.endedPending) continue;
        this.tracked.delete(id);
        this.scheduler.forgetStack(id);
        membershipChanged = true;
      }
    }
    if (membershipChanged) this.emit({ kind: 'stacks' });
  }

  private async pollStack(t: Tracked, signal: AbortSignal): Promise<PollOutcome> {
    const state = t.state;
    const reader = this.options.reader;
    let gotEvents = false;
    const wasDetailed = t.detailed;
    if (!t.detailed || t.needsEvents || isRunning(state.status)) {
      const first = !t.detailed;
      let sawRunning = false;
      const read = await reader.describeStackEvents(state.stackId, first
        ? {
            signal,
            maxPages: this.options.maxHistoryPages ?? 10,
            // Read back to the end of the previous operation: the settled stack event before the
            // newest running one.
            stopAt: (e) => {
              if (!isStackEvent(e)) return false;
              if (isRunning(e.status)) {
                sawRunning = true;
                return false;
              }
              return sawRunning;
            },
          }
        : { signal, until: state.lastEventId, maxPages: 50 });
      if (!read.ok) return this.classify(read.error, t);
      if (first) state.prepareReplay();
      const fresh = read.value.events.filter((e) => !state.hasSeen(e.eventId)).reverse();
      for (const event of fresh) {
        const effect = state.applyEvent(event);
        this.emit({ kind: 'event', stackId: state.stackId, stackName: state.stackName, event, inOperation: effect.inOperation });
        if (effect.statusChange) {
          this.emit({
            kind: 'status',
            stackId: state.stackId,
            stackName: state.stackName,
            from: effect.statusChange.from,
            to: effect.statusChange.to,
            reason: event.reason,
            inOperation: effect.inOperation,
          });
        }
        if (effect.ended) t.endedPending = true;
        if (effect.started && !first) t.changeObserved = true;
      }
      gotEvents = fresh.length > 0;
      if (first) {
        t.resourcesStale = true;
        // An operation already over when first read is announced too, but not as news.
        if (!isRunning(state.status) && state.operationSummary()) t.endedPending = true;
      }
      t.needsEvents = false;
      t.detailed = true;
      if (t.endedPending) t.resourcesStale = true;
    }
    if (t.resourcesStale) {
      const listing = await reader.listStackResources(state.stackId, { signal });
      if (!listing.ok) return this.classify(listing.error, t);
      state.applyResourceListing(listing.value);
      t.resourcesStale = false;
      this.emit({ kind: 'resources', stackId: state.stackId });
    }
    if (t.error) this.setError(undefined, t);
    if (t.endedPending) {
      t.endedPending = false;
      const operation = state.operationSummary();
      if (operation) {
        const live = wasDetailed || t.changeObserved;
        this.emit({ kind: 'operation-ended', stackId: state.stackId, stackName: state.stackName, operation, live });
      }
    }
    this.scheduler.stackRead(state.stackId, gotEvents);
    return 'ok';
  }
}
