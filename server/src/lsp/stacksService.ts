/**
 * The stacks view on the server side: one StackWatcher per configured region, created when the
 * view first asks, polling only while a client says the view is visible, and no AWS call at all in
 * an untrusted workspace. Changes reach clients as a version number, at most a few times a
 * second; they then ask for the tree again.
 */
import type { CloudFormationReader } from '../stacks/cloudFormationReader';
import { failedValidations, latestOperationId, type ValidationFailure } from '../stacks/earlyValidation';
import { StackWatcher, type WatcherChange, type WatcherOptions } from '../stacks/stackWatcher';
import { startDriftDetection } from '../stacks/driftDetection';
import { driftDetectionMessage } from '../present/drift';
import { buildStackTree, consoleUrl } from '../stacks/treeModel';
import type { ReaderError } from '../stacks/types';
import type { AwsSettings, DetectDriftResult, DeployedTemplate, DeploymentEnded, ServerEnvironment, StackChoice, StackChoices, StackOperationKey, StackTimelineAnswer, StacksTree, StackTreeNode } from './protocol';
import type { Logger } from './runSafe';
import { stackTimelineAnswer } from './stackTimeline';
import { completeRegionNode, deploymentEndedOf, readerFailureNode, stackTreeNode, templateLanguage, untrustedNode } from './stacksTree';

export interface StacksServiceOptions {
  logger: Logger;
  /** Called (throttled) when the tree changed, with the new version. */
  onChanged(version: number): void;
  /** Called once per deployment that ended while it was being watched. */
  onDeploymentEnded(ended: DeploymentEnded): void;
  /** Overrides every watcher interval (tests and demos only). */
  pollIntervalMs?: number;
  /** Least time between two change announcements (default 250 ms: at most 4 a second). */
  minAnnounceIntervalMs?: number;
}

/** Stacks whose last announced operation is remembered (far more than a region lists at once). */
const MAX_ANNOUNCED_STACKS = 2000;

type Slot =
  | { configured?: string; state: 'creating'; ready: Promise<void> }
  | { configured?: string; state: 'ready'; reader: CloudFormationReader; watcher: StackWatcher }
  | { configured?: string; state: 'failed'; error: ReaderError };

/** Owns the stacks watchers of one language server. */
export class StacksService {
  private environment: ServerEnvironment = { trusted: false, aws: {} };
  private slots: Slot[] | undefined;
  private visible = false;
  private version = 0;
  private announceTimer: ReturnType<typeof setTimeout> | undefined;
  private lastAnnounced = 0;
  /**
   * The last operation announced as ended, by stack, so each is told once. Only a stack's latest
   * operation can end, so one entry per stack suffices; the oldest go first past a bound.
   */
  private readonly announcedEnds = new Map<string, string>();
  /** Bumped on every reconfiguration, so readers created for an older one are dropped. */
  private generation = 0;

  constructor(private readonly options: StacksServiceOptions) {}

  /** Applies trust and AWS settings; watchers are rebuilt only when something that matters changed. */
  configure(next: ServerEnvironment): void {
    const same = next.trusted === this.environment.trusted && sameAws(next.aws, this.environment.aws);
    this.environment = { trusted: next.trusted, aws: { ...next.aws } };
    if (same) return;
    const hadWatchers = this.slots !== undefined;
    this.disposeSlots();
    if (this.visible && this.environment.trusted) this.ensureSlots();
    if (hadWatchers || this.visible) this.changed();
  }

  /** Whether a client shows the stacks: polling runs only while one does. */
  setVisible(visible: boolean): void {
    this.visible = visible;
    if (visible && this.environment.trusted) this.ensureSlots();
    for (const slot of this.slots ?? []) if (slot.state === 'ready') slot.watcher.setVisible(visible);
  }

  /** The tree for the stacks view. Asking for it sets up the watchers but starts no poll while hidden. */
  async tree(filter: string | undefined): Promise<StacksTree> {
    if (!this.environment.trusted) return { version: this.version, nodes: [untrustedNode()] };
    const slots = this.ensureSlots();
    // The first answer waits for the readers to exist, so it shows regions rather than nothing.
    await Promise.all(slots.map((slot) => (slot.state === 'creating' ? slot.ready : undefined)));
    const now = Date.now();
    const nodes: StackTreeNode[] = [];
    for (const slot of this.slots ?? []) {
      if (slot.state === 'failed') nodes.push(readerFailureNode(slot.configured, slot.error));
      if (slot.state !== 'ready') continue;
      const snapshot = slot.watcher.snapshot();
      const input = { region: slot.reader.info.region, snapshot, ...(slot.reader.info.profile ? { profile: slot.reader.info.profile } : {}) };
      const [region] = buildStackTree({ regions: [input], now, ...(filter?.trim() ? { filter } : {}) });
      if (region) nodes.push(completeRegionNode(stackTreeNode(region), snapshot, filter));
    }
    return { version: this.version, nodes };
  }

  /** Keeps a stack's resources and events loaded while it is expanded. */
  follow(region: string, stackId: string, follow: boolean): void {
    const slot = this.readySlot(region);
    if (!slot) return;
    if (follow) slot.watcher.follow(stackId);
    else slot.watcher.unfollow(stackId);
  }

  /** Reads every region now (cancelling reads in flight); resolves when done. Hidden views are not read. */
  async refresh(): Promise<void> {
    if (!this.environment.trusted) return;
    const slots = this.ensureSlots();
    await Promise.all(slots.map((slot) => (slot.state === 'creating' ? slot.ready : undefined)));
    await Promise.all(
      (this.slots ?? []).map((slot) => (slot.state === 'ready' && this.visible ? slot.watcher.refresh() : undefined)),
    );
    this.changed();
  }

  /**
   * Detects a stack's drift when a person asks: DetectStackDrift, then DescribeStackDriftDetectionStatus
   * every `pollMs` until the detection ends (at most `maxPolls` times); the view is read again after.
   */
  async detectDrift(region: string, stackId: string, { pollMs = 2000, maxPolls = 150 }: { pollMs?: number; maxPolls?: number } = {}): Promise<DetectDriftResult> {
    if (!this.environment.trusted) return { ok: false, message: 'Drift is not detected in an untrusted workspace.' };
    const slots = this.ensureSlots();
    await Promise.all(slots.map((slot) => (slot.state === 'creating' ? slot.ready : undefined)));
    const slot = this.readySlot(region);
    if (!slot) return { ok: false, message: `The region ${region} is not configured (cfnImpact.aws.regions).` };
    const aws = this.environment.aws;
    const started = await startDriftDetection({ region, ...(aws.profile ? { profile: aws.profile } : {}), ...(aws.endpoint ? { endpoint: aws.endpoint } : {}) }, stackId);
    if (!started.ok) return { ok: false, message: `${started.error.message} ${started.error.fix}` };
    for (let poll = 0; poll < maxPolls; poll++) {
      const status = await slot.reader.describeStackDriftDetectionStatus(started.value);
      if (!status.ok) return { ok: false, message: `${status.error.message} ${status.error.fix}` };
      if (status.value.status === 'DETECTION_COMPLETE') {
        void this.refresh().catch(() => undefined);
        return { ok: true, message: driftDetectionMessage(status.value.stackDriftStatus, status.value.driftedResources ?? 0), drifted: status.value.driftedResources ?? 0 };
      }
      if (status.value.status === 'DETECTION_FAILED') return { ok: false, message: `The drift detection failed${status.value.reason ? `: ${status.value.reason}` : '.'}` };
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    return { ok: false, message: 'The drift detection is still running; its result will show in the stacks view when it ends.' };
  }

  /** The template a stack was deployed with. */
  async deployedTemplate(region: string, stackId: string): Promise<DeployedTemplate> {
    if (!this.environment.trusted) return { ok: false, message: 'Stacks are not read in an untrusted workspace.' };
    const slots = this.ensureSlots();
    await Promise.all(slots.map((slot) => (slot.state === 'creating' ? slot.ready : undefined)));
    const slot = this.readySlot(region);
    if (!slot) return { ok: false, message: `The region ${region} is not configured (cfnImpact.aws.regions).` };
    const read = await slot.reader.getTemplate(stackId);
    if (!read.ok) return { ok: false, message: `${read.error.message} ${read.error.fix}` };
    return { ok: true, body: read.value.body, language: templateLanguage(read.value.body) };
  }

  /**
   * The timeline of a stack's current or last operation (or of one of its recent ones), from what
   * its watcher holds. A stack
   * whose events are not loaded yet is followed from then on, so that a later ask (on the next
   * change announcement) finds them; the answer says it is loading meanwhile.
   */
  async timeline(region: string, stackId: string, operation?: StackOperationKey): Promise<StackTimelineAnswer> {
    if (!this.environment.trusted) return { ok: false, state: 'unavailable', message: 'Stacks are not read in an untrusted workspace.' };
    const slots = this.ensureSlots();
    await Promise.all(slots.map((slot) => (slot.state === 'creating' ? slot.ready : undefined)));
    const slot = this.readySlot(region);
    if (!slot) return { ok: false, state: 'unavailable', message: `The region ${region} is not configured (cfnImpact.aws.regions).` };
    const stack = slot.watcher.getStack(stackId);
    if (!stack) return { ok: false, state: 'unavailable', message: `The stack ${stackId} is not among the stacks of ${region}.` };
    if (!stack.followed) slot.watcher.follow(stack.stackId);
    return stackTimelineAnswer(region, stack, Date.now(), operation);
  }

  /**
   * The stacks a template can be linked to, for a quick pick: one ListStacks per region (the
   * person asked, so the view's polling state does not matter), deleted stacks left out.
   */
  async stackChoices(): Promise<StackChoices> {
    if (!this.environment.trusted) return { stacks: [], problems: ['Stacks are not read in an untrusted workspace.'] };
    const slots = this.ensureSlots();
    await Promise.all(slots.map((slot) => (slot.state === 'creating' ? slot.ready : undefined)));
    const stacks: StackChoice[] = [];
    const problems: string[] = [];
    await Promise.all(
      (this.slots ?? []).map(async (slot) => {
        if (slot.state === 'failed') problems.push(`${slot.error.message} ${slot.error.fix}`);
        if (slot.state !== 'ready') return;
        const listed = await slot.reader.listStacks();
        if (!listed.ok) {
          problems.push(`${slot.reader.info.region}: ${listed.error.message} ${listed.error.fix}`);
          return;
        }
        for (const stack of listed.value) {
          if (stack.status !== 'DELETE_COMPLETE') stacks.push({ region: slot.reader.info.region, stackName: stack.stackName, status: stack.status });
        }
      }),
    );
    stacks.sort((a, b) => a.stackName.localeCompare(b.stackName) || a.region.localeCompare(b.region));
    return { stacks, problems };
  }

  /** Stops every watcher and timer. */
  dispose(): void {
    this.disposeSlots();
    if (this.announceTimer !== undefined) clearTimeout(this.announceTimer);
    this.announceTimer = undefined;
  }

  private readySlot(region: string): Extract<Slot, { state: 'ready' }> | undefined {
    for (const slot of this.slots ?? []) if (slot.state === 'ready' && slot.reader.info.region === region) return slot;
    return undefined;
  }

  /** The slots of the current configuration, creating them (and their readers) the first time. */
  private ensureSlots(): Slot[] {
    if (this.slots) return this.slots;
    const regions = this.environment.aws.regions?.length ? [...new Set(this.environment.aws.regions)] : [undefined];
    const generation = this.generation;
    const slots: Slot[] = [];
    regions.forEach((configured, index) => {
      const slot: Slot = { state: 'creating', ready: Promise.resolve() };
      if (configured !== undefined) slot.configured = configured;
      slot.ready = this.createSlot(configured).then((made) => {
        if (generation !== this.generation) {
          if (made.state === 'ready') disposeReady(made);
          return;
        }
        slots[index] = made;
        this.changed();
      });
      slots.push(slot);
    });
    this.slots = slots;
    return slots;
  }

  private async createSlot(configured: string | undefined): Promise<Slot> {
    const aws = this.environment.aws;
    try {
      // Loaded on first use: the AWS SDK is large, and many sessions never open the view.
      const { CloudFormationReader } = await import('../stacks/cloudFormationReader.js');
      const created = await CloudFormationReader.create({
        ...(configured !== undefined ? { region: configured } : {}),
        ...(aws.profile ? { profile: aws.profile } : {}),
        ...(aws.endpoint ? { endpoint: aws.endpoint } : {}),
      });
      if (!created.ok) return withConfigured({ state: 'failed', error: created.error }, configured);
      const reader = created.value;
      const watcher = new StackWatcher({ reader, scope: 'all', ...this.intervals() });
      watcher.onDidChange((change) => this.onWatcherChange(reader, watcher, change));
      watcher.setVisible(this.visible);
      watcher.start();
      return withConfigured({ state: 'ready', reader, watcher }, configured);
    } catch (error) {
      this.options.logger.error(`setting up the stacks reader failed: ${error instanceof Error ? error.message : String(error)}`);
      return withConfigured(
        { state: 'failed', error: { kind: 'other', message: 'The stacks reader could not be set up.', fix: 'See the output of the language server.' } },
        configured,
      );
    }
  }

  private intervals(): Partial<WatcherOptions> {
    const ms = this.options.pollIntervalMs;
    if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return {};
    return { activeIntervalMs: ms, activeMaxIntervalMs: ms, settledIntervalMs: ms, backoffBaseMs: ms, backoffMaxMs: ms * 8 };
  }

  private onWatcherChange(reader: CloudFormationReader, watcher: StackWatcher, change: WatcherChange): void {
    const region = reader.info.region;
    if (change.kind === 'operation-ended' && change.live) {
      const operationKey = `${region}:${change.operation.startEventId ?? change.operation.startedAt}`;
      if (this.announcedEnds.get(change.stackId) !== operationKey && change.operation.outcome !== 'in-progress') {
        this.announcedEnds.delete(change.stackId);
        this.announcedEnds.set(change.stackId, operationKey);
        if (this.announcedEnds.size > MAX_ANNOUNCED_STACKS) this.announcedEnds.delete(this.announcedEnds.keys().next().value!);
        this.announceEnd(reader, watcher, change).catch((error: unknown) =>
          this.options.logger.error(`announcing the end of ${change.stackName} failed: ${error instanceof Error ? error.message : String(error)}`),
        );
      }
    }
    // Only the current configuration's watchers speak; a disposed one may still finish a call.
    if (this.slots?.some((slot) => slot.state === 'ready' && slot.watcher === watcher)) this.changed();
  }

  /**
   * Announces an ended operation; a failed one first asks DescribeEvents (one call) whether early
   * validation rejected it, which then is its root cause. Without that answer (a policy without
   * DescribeEvents, a network error) it is announced with what the events said.
   */
  private async announceEnd(reader: CloudFormationReader, watcher: StackWatcher, change: Extract<WatcherChange, { kind: 'operation-ended' }>): Promise<void> {
    let rejected: ValidationFailure[] = [];
    const operationId = change.operation.outcome === 'failed' ? latestOperationId(watcher.getStack(change.stackId)?.events ?? [], change.stackId) : undefined;
    if (operationId !== undefined) {
      const read = await reader.describeEvents(change.stackId, operationId, { failedOnly: true });
      if (read.ok) rejected = failedValidations(read.value);
    }
    const ended = deploymentEndedOf(reader.info.region, change, change.operation, consoleUrl(reader.info.region, change.stackId), rejected);
    if (ended) this.options.onDeploymentEnded(ended);
  }

  /** Announces a change: at once when the last announcement is old enough, else once the interval has passed. */
  private changed(): void {
    this.version++;
    if (this.announceTimer !== undefined) return;
    const gap = this.options.minAnnounceIntervalMs ?? 250;
    const wait = Math.max(0, this.lastAnnounced + gap - Date.now());
    this.announceTimer = setTimeout(() => {
      this.announceTimer = undefined;
      this.lastAnnounced = Date.now();
      this.options.onChanged(this.version);
    }, wait);
  }

  private disposeSlots(): void {
    this.generation++;
    for (const slot of this.slots ?? []) if (slot.state === 'ready') disposeReady(slot);
    this.slots = undefined;
  }
}

function disposeReady(slot: Extract<Slot, { state: 'ready' }>): void {
  slot.watcher.dispose();
  slot.reader.dispose();
}

function withConfigured<T extends Slot>(slot: T, configured: string | undefined): T {
  if (configured !== undefined) slot.configured = configured;
  return slot;
}

function sameAws(a: AwsSettings, b: AwsSettings): boolean {
  return a.profile === b.profile && a.endpoint === b.endpoint && (a.regions ?? []).join(',') === (b.regions ?? []).join(',');
}
