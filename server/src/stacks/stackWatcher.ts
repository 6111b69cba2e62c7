/**
 * Keeps a model of a region's stacks, their resources and events up to date, cheaply: one
 * DescribeStacks for all settled stacks now and then, one incremental DescribeStackEvents per
 * running stack every few seconds, nothing while nothing is visible, exponential backoff with
 * jitter when throttled. Each stack's lifecycle in the watcher is a StackWatchState moved by one
 * transition function; when to read is the PollScheduler's. Time and timers are injected, so tests
 * and benchmarks run on a fake clock.
 */
import { isFinal, isRunning } from '../cloudformation/stackLifecycle';
import { StackState, isStackEvent, type OperationSummary, type ResourceModel } from './stackModel';
import { learnDurations, type LearnedDurations } from './operationProgress';
import { plannedResources, type PlannedResource } from './plannedResources';
import type { CloudFormationReader, EventReadOptions, EventReadProgress } from './cloudFormationReader';
import { PollScheduler, type PollClock, type PollOutcome, type PollResult } from './pollScheduler';
import {
  firstListed,
  isDetailed,
  keptWhenUnlisted,
  nextWatchState,
  wantsEvents,
  wantsReads,
  type StackWatchObservation,
  type StackWatchState,
} from './stackWatchState';
import type { ReaderError, StackEvent, StackFields, StackSummary } from './types';

/** Changes that show a stack moving: they restart the quiet limit. */
const PROGRESS: ReadonlySet<WatcherChange['kind']> = new Set(['status', 'event', 'resources', 'operation-ended']);

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
export type StackReader = Pick<CloudFormationReader, 'describeStacks' | 'describeStackEvents' | 'listStackResources' | 'getTemplate' | 'info'>;

export interface WatcherOptions {
  reader: StackReader;
  clock?: WatcherClock;
  /** 'all' (the default) watches every stack of the region; a list watches only those stacks (names or ids). */
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
  /**
   * Reports `quiet` when no event, status or resource change was seen for this long, checked
   * after every poll (so within one poll interval of it). Whatever the reason (a stack silent
   * while a resource stabilises, an account throttled for good, a bug), a caller that waits for
   * an operation's end can stop waiting.
   */
  quietLimitMs?: number;
}

export type WatcherChange =
  /** Stacks appeared or disappeared, or a listing changed stack-level fields. */
  | { kind: 'stacks' }
  | { kind: 'status'; stackId: string; stackName: string; from?: string; to: string; reason?: string; inOperation: boolean }
  | { kind: 'event'; stackId: string; stackName: string; event: StackEvent; inOperation: boolean }
  | { kind: 'resources'; stackId: string }
  /** Nothing moved for `quietLimitMs` (see WatcherOptions); reported again after each further such stretch. */
  | { kind: 'quiet'; sinceMs: number }
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
  /** How long its resources took in the operations the watcher read, for estimates of time left; absent when none was read. */
  durations?: LearnedDurations;
  /** The resources the running operation rolls out, from the template being deployed; absent when not read. */
  planned?: PlannedResource[];
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

/** One stack the watcher tracks: its model, where it stands in the watcher's lifecycle, and whether someone follows it. */
interface Tracked {
  model: StackState;
  watch: StackWatchState;
  /** Someone keeps this stack's events and resources current, settled or not: a wish, not a lifecycle state. */
  followed: boolean;
  /** What the last listing showed, to tell whether the next one shows a change. */
  listed?: { status: string; lastUpdatedTime?: number };
  error?: ReaderError;
  /** An event read that failed part way, to be gone on with by the next read of the same kind. */
  interruptedRead?: { first: boolean; until?: string; progress: EventReadProgress };
  /**
   * How long resources took in the operation before the current one: a stack found running is
   * read one operation further back in its first (and only) history read, because the events
   * the model keeps start with the current operation.
   */
  history?: LearnedDurations;
  /**
   * The resources the running operation rolls out, read once per operation (started at
   * `startedAt`) from the template being deployed; `resources` absent while unread or unreadable.
   */
  plan?: { startedAt: number; resources?: PlannedResource[] };
  /** The last snapshot taken and what it was taken of: tree requests come often, changes seldom. */
  snapshot?: { revision: number; followed: boolean; detailed: boolean; plan?: Tracked['plan']; error?: ReaderError; value: StackSnapshot };
}

/** Watches the stacks of one region through a read-only reader. */
export class StackWatcher {
  private readonly clock: WatcherClock;
  private readonly scheduler: PollScheduler;
  private readonly tracked = new Map<string, Tracked>();
  /** Names (or ids) asked for in list scope, mapped to the stack id once resolved. */
  private readonly wanted = new Map<string, string | undefined>();
  private readonly listeners = new Set<(change: WatcherChange) => void>();
  /** Whether the whole region is watched (scope 'all', or none given) rather than a list of stacks. */
  private readonly wholeRegion: boolean;
  private readonly maxEvents: number;
  private controller?: AbortController;
  private disposed = false;
  private error?: ReaderError;
  private listedAt?: number;
  /** When an event, a status or the resources last changed (or polling started). */
  private lastProgressAt = 0;

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
    this.wholeRegion = !Array.isArray(options.scope);
    if (Array.isArray(options.scope)) for (const name of options.scope) this.wanted.set(name, undefined);
  }

  /** Starts polling. */
  start(): void {
    if (this.disposed) return;
    this.lastProgressAt = this.clock.now();
    this.scheduler.start();
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
    for (const t of this.tracked.values()) this.observe(t, { kind: 'refresh', followed: t.followed });
    await this.scheduler.runNow();
  }

  /** Keeps events and resources of this stack (name or id) loaded and current, settled or not. */
  follow(nameOrId: string): void {
    const t = this.find(nameOrId);
    if (t) {
      t.followed = true;
      if (!isDetailed(t.watch)) this.scheduler.readStackNow(t.model.stackId);
    } else if (!this.wholeRegion || !this.wanted.has(nameOrId)) {
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
    const s = t.model;
    const detailed = isDetailed(t.watch);
    const cached = t.snapshot;
    if (cached && cached.revision === s.revision && cached.followed === t.followed && cached.detailed === detailed && cached.error === t.error && cached.plan === t.plan) {
      return cached.value;
    }
    const snap: StackSnapshot = {
      stackId: s.stackId,
      stackName: s.stackName,
      status: s.status,
      creationTime: s.creationTime,
      detailed,
      followed: t.followed,
      // Copies: the model keeps changing after the snapshot is taken.
      resources: [...s.resources.values()].map((r) => ({ ...r, formerPhysical: r.formerPhysical.map((p) => ({ ...p })) })),
      events: s.events.slice(-this.maxEvents).reverse(),
    };
    if (s.statusReason !== undefined) snap.statusReason = s.statusReason;
    if (s.lastUpdatedTime !== undefined) snap.lastUpdatedTime = s.lastUpdatedTime;
    if (s.description !== undefined) snap.description = s.description;
    if (s.deploymentMode !== undefined) snap.deploymentMode = s.deploymentMode;
    if (s.lastOperations !== undefined) snap.lastOperations = s.lastOperations;
    if (s.parentId !== undefined) snap.parentId = s.parentId;
    const seen = learnDurations(s.events);
    snap.durations = {
      byLogicalId: { ...t.history?.byLogicalId, ...seen.byLogicalId },
      byType: { ...t.history?.byType, ...seen.byType },
    };
    const operation = s.operationSummary();
    if (operation) snap.operation = operation;
    if (operation && t.plan?.resources && t.plan.startedAt === operation.startedAt) snap.planned = t.plan.resources;
    if (t.error) snap.error = t.error;
    t.snapshot = { revision: s.revision, followed: t.followed, detailed, value: snap };
    if (t.plan) t.snapshot.plan = t.plan;
    if (t.error) t.snapshot.error = t.error;
    return snap;
  }

  private find(nameOrId: string): Tracked | undefined {
    const byId = this.tracked.get(nameOrId);
    if (byId) return byId;
    const resolved = this.wanted.get(nameOrId);
    if (resolved) return this.tracked.get(resolved);
    for (const t of this.tracked.values()) if (t.model.stackName === nameOrId && t.model.status !== 'DELETE_COMPLETE') return t;
    for (const t of this.tracked.values()) if (t.model.stackName === nameOrId) return t;
    return undefined;
  }

  private emit(change: WatcherChange): void {
    if (PROGRESS.has(change.kind)) this.lastProgressAt = this.clock.now();
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A failing listener must not stop the watcher or the other listeners.
      }
    }
  }

  /** The ids of the stacks that want reading, for the scheduler's timer. */
  private *waitingStacks(): Iterable<string> {
    for (const [id, t] of this.tracked) if (wantsReads(t.watch, t.model.status, t.followed)) yield id;
  }

  /** Moves a stack's watch state by one observation and carries out what the transition asks for. */
  private observe(t: Tracked, observation: StackWatchObservation): void {
    const { state, effects } = nextWatchState(t.watch, observation);
    t.watch = state;
    const model = t.model;
    for (const effect of effects) {
      switch (effect.kind) {
        case 'poll-now':
          this.scheduler.readStackNow(model.stackId);
          break;
        case 'announce-ended':
          this.emit({ kind: 'operation-ended', stackId: model.stackId, stackName: model.stackName, operation: effect.ended.operation, live: effect.ended.live });
          break;
        case 'announce-gone': {
          const from = model.status;
          model.markDeleted(effect.reason);
          if (from !== 'DELETE_COMPLETE') {
            this.emit({ kind: 'status', stackId: model.stackId, stackName: model.stackName, from: from || undefined, to: 'DELETE_COMPLETE', reason: effect.reason, inOperation: false });
          }
          break;
        }
      }
    }
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
      if (!wantsReads(t.watch, t.model.status, t.followed) || !this.scheduler.isStackDue(id)) continue;
      outcomes.push(await this.pollStack(t, signal));
    }
    if (signal.aborted) return 'cancelled';
    this.reportQuiet();
    // Every call of this poll succeeded: whatever went wrong before is over.
    if (outcomes.length > 0 && outcomes.every((outcome) => outcome === 'ok')) this.setError(undefined);
    return outcomes;
  }

  /** Reports `quiet` when the quiet limit passed since anything moved, and starts counting again. */
  private reportQuiet(): void {
    const limit = this.options.quietLimitMs;
    const sinceMs = this.clock.now() - this.lastProgressAt;
    if (limit === undefined || sinceMs < limit) return;
    this.lastProgressAt = this.clock.now();
    this.emit({ kind: 'quiet', sinceMs });
  }

  private setError(error: ReaderError | undefined, t?: Tracked): void {
    const consecutive = this.scheduler.failuresInARow + 1;
    if (t) {
      if (t.error?.message === error?.message) return;
      if (error) t.error = error;
      else delete t.error;
      this.emit({ kind: 'error', stackId: t.model.stackId, stackName: t.model.stackName, error, consecutive });
      return;
    }
    if (!error && !this.error) return;
    this.error = error;
    this.emit({ kind: 'error', error, consecutive: error && error.kind !== 'throttled' ? consecutive : 0 });
  }

  /**
   * Sorts a failed read. A cancellation is no failure. A stack that CloudFormation no longer knows
   * by its id was deleted and its record dropped: that stack's error, and no reason to slow down
   * polling of the others. Anything else is the connection's (a name that never resolved too).
   */
  private classify(error: ReaderError, t?: Tracked): PollOutcome {
    if (error.kind === 'cancelled') return 'ok';
    if (error.kind === 'not-found' && t) {
      this.observe(t, { kind: 'not-found', reason: error.message });
      this.setError(error, t);
      return 'ok';
    }
    this.setError(error);
    return error.kind === 'throttled' ? 'throttled' : 'error';
  }

  private async pollListing(signal: AbortSignal): Promise<PollOutcome> {
    if (!this.wholeRegion) return this.pollWanted(signal);
    const listed = await this.options.reader.describeStacks({ signal });
    if (!listed.ok) return this.classify(listed.error);
    this.setError(undefined);
    const observedBefore = this.listedAt !== undefined;
    this.listedAt = this.clock.now();
    this.mergeListing(listed.value, true, observedBefore);
    return this.wanted.size > 0 ? this.pollWanted(signal) : 'ok';
  }

  /**
   * Whether describing a stack asked for by name can tell anything new: not when the region's
   * listing shows it anyway, not when it is deleted (it never changes again), and not while its
   * events are read every few seconds.
   */
  private worthDescribing(t: Tracked): boolean {
    if (this.wholeRegion || isFinal(t.model.status)) return false;
    return !(isDetailed(t.watch) && isRunning(t.model.status));
  }

  /** Describes each stack asked for by name that is worth describing. */
  private async pollWanted(signal: AbortSignal): Promise<PollOutcome> {
    let outcome: PollOutcome = 'ok';
    for (const [name, id] of this.wanted) {
      if (signal.aborted) break;
      const t = id ? this.tracked.get(id) : undefined;
      if (t && !this.worthDescribing(t)) continue;
      const described = await this.options.reader.describeStacks({ stackName: id ?? name, signal });
      if (!described.ok) {
        const failed = this.classify(described.error, t);
        if (failed !== 'ok') outcome = failed;
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
    return outcome;
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
          model: new StackState(summary, this.maxEvents),
          watch: firstListed(observedBefore),
          followed: [...this.wanted.values()].includes(summary.stackId) || this.wanted.has(summary.stackName),
        };
        if (this.wanted.has(summary.stackName)) this.wanted.set(summary.stackName, summary.stackId);
        this.tracked.set(summary.stackId, t);
        membershipChanged = true;
      } else {
        const listing: StackWatchObservation = { kind: 'listed', status: summary.status };
        if (summary.lastUpdatedTime !== undefined) listing.lastUpdatedTime = summary.lastUpdatedTime;
        if (t.listed) listing.previous = t.listed;
        this.observe(t, listing);
      }
      t.listed = { status: summary.status, lastUpdatedTime: summary.lastUpdatedTime };
      const statusBefore = t.model.status;
      const detailed = isDetailed(t.watch);
      t.model.applySummary(summary, detailed);
      if (!detailed && statusBefore !== t.model.status) membershipChanged = true;
      if (t.error?.kind === 'not-found') this.setError(undefined, t);
    }
    if (complete) {
      for (const [id, t] of this.tracked) {
        if (present.has(id) || t.followed || keptWhenUnlisted(t.watch, t.model.status)) continue;
        this.tracked.delete(id);
        this.scheduler.forgetStack(id);
        membershipChanged = true;
      }
    }
    if (membershipChanged) this.emit({ kind: 'stacks' });
  }

  /** Reads one stack: its new events when they are due, then its resources when they are to be (re)loaded. */
  private async pollStack(t: Tracked, signal: AbortSignal): Promise<PollOutcome> {
    const model = t.model;
    const reader = this.options.reader;
    let news = false;
    if (wantsEvents(t.watch, model.status)) {
      const first = !isDetailed(t.watch);
      const until = first ? undefined : model.lastEventId;
      const interrupted = t.interruptedRead;
      const resume = interrupted && interrupted.first === first && interrupted.until === until ? interrupted.progress : undefined;
      // A stack found running is read one operation further back, to learn how long its resources take.
      const boundaries = first && isRunning(model.status) ? 2 : 1;
      const options: EventReadOptions = first
        ? { signal, maxPages: this.options.maxHistoryPages ?? 10, stopAt: operationEnd(boundaries, resume?.events ?? []) }
        : { signal, until, maxPages: 50 };
      if (resume) options.resume = resume;
      const read = await reader.describeStackEvents(model.stackId, options);
      if (!read.ok) {
        if (read.progress) t.interruptedRead = { first, ...(until !== undefined ? { until } : {}), progress: read.progress };
        return this.classify(read.error, t);
      }
      delete t.interruptedRead;
      let events = read.value.events;
      if (first) {
        // Only the events from the previous operation's end on are the model's; older ones are history.
        const stop = operationEnd(1, []);
        const boundary = events.findIndex(stop);
        if (boundary >= 0 && boundary < events.length - 1) {
          t.history = learnDurations(events.slice(boundary + 1));
          events = events.slice(0, boundary + 1);
        }
        model.prepareReplay(events);
      }
      const fresh = events.filter((e) => !model.hasSeen(e.eventId)).reverse();
      let ended: OperationSummary | undefined;
      for (const event of fresh) {
        const effect = model.applyEvent(event);
        this.emit({ kind: 'event', stackId: model.stackId, stackName: model.stackName, event, inOperation: effect.inOperation });
        if (effect.statusChange) {
          this.emit({
            kind: 'status',
            stackId: model.stackId,
            stackName: model.stackName,
            from: effect.statusChange.from,
            to: effect.statusChange.to,
            reason: event.reason,
            inOperation: effect.inOperation,
          });
        }
        // Summarised right at its end: the next operation may start within the same read.
        if (effect.ended) ended = model.operationSummary();
      }
      news = fresh.length > 0;
      const observation: StackWatchObservation = { kind: 'events', status: model.status };
      const operation = model.operationSummary();
      if (operation) observation.operation = operation;
      if (ended) observation.ended = ended;
      this.observe(t, observation);
    }
    await this.readPlan(t, signal);
    let reloaded = false;
    if (t.watch.kind === 'loading') {
      const listing = await reader.listStackResources(model.stackId, { signal });
      if (!listing.ok) return this.classify(listing.error, t);
      model.applyResourceListing(listing.value);
      this.emit({ kind: 'resources', stackId: model.stackId });
      reloaded = true;
    }
    if (t.error) this.setError(undefined, t);
    // Announcing an ended operation comes last, when everything about it was read.
    if (reloaded) this.observe(t, { kind: 'resources', status: model.status });
    this.scheduler.stackRead(model.stackId, news);
    return 'ok';
  }

  /**
   * Reads, once per operation of a detailed running stack, the resources it rolls out: the
   * template being deployed (GetTemplate, stage Processed) under the stack's parameter values
   * (DescribeStacks). A read that was cancelled or throttled is tried again at the next poll; one
   * that failed otherwise leaves the progress counting what the events reveal.
   */
  private async readPlan(t: Tracked, signal: AbortSignal): Promise<void> {
    const model = t.model;
    const operation = model.operationSummary();
    if (!operation || !isRunning(model.status) || !isDetailed(t.watch) || t.plan?.startedAt === operation.startedAt) return;
    const plan: NonNullable<Tracked['plan']> = { startedAt: operation.startedAt };
    t.plan = plan;
    const reader = this.options.reader;
    const [template, described] = await Promise.all([reader.getTemplate(model.stackId, { stage: 'Processed', signal }), reader.describeStacks({ stackName: model.stackId, signal })]);
    const failed = !template.ok ? template.error : !described.ok ? described.error : undefined;
    if (failed) {
      if (failed.kind === 'cancelled' || failed.kind === 'throttled') delete t.plan;
      return;
    }
    if (!template.ok || !described.ok) return;
    const parameters: Record<string, string> = {};
    for (const p of described.value[0]?.parameters ?? []) if (p.value !== undefined) parameters[p.key] = p.value;
    // A new object: the snapshot cache sees that the plan changed.
    t.plan = { ...plan, resources: plannedResources(template.value.body, { stackId: model.stackId, stackName: model.stackName, parameters }) };
  }
}

/**
 * Where a first read of a stack's history stops, reading newest first: at the settled stack event
 * before a running one, the end of an operation, the `count`-th such end going back (1: the end of
 * the operation before the current or last one). `readBefore` are the events an interrupted
 * attempt had already read.
 */
function operationEnd(count: number, readBefore: readonly StackEvent[]): (event: StackEvent) => boolean {
  let sawRunning = false;
  let ends = 0;
  const isEnd = (event: StackEvent): boolean => {
    if (!isStackEvent(event)) return false;
    if (isRunning(event.status)) {
      sawRunning = true;
      return false;
    }
    if (!sawRunning) return false;
    sawRunning = false;
    ends++;
    return ends >= count;
  };
  for (const event of readBefore) isEnd(event);
  return isEnd;
}
