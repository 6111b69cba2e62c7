/**
 * The model of one stack as the watcher knows it, and the pure rules that fold CloudFormation
 * events into it. The rules are the facts of docs/stack-lifecycle.md#facts: resources are tracked
 * by logical id and by physical id, delete events during the cleanup phases concern old physical
 * resources and do not change the current resource, failed cleanup deletes leave resources behind
 * while the stack still succeeds, and the root cause of a failure is the first failed event of the
 * operation.
 */
import { isCleanupPhase, isRunning, isStackStatus, isTransitionPossible, operationOutcome, startsOperation } from '../cloudformation/stackLifecycle';
import type { OperationOutcome } from '../cloudformation/stackLifecycle';
import type { DriftInformation, OperationEntry, StackEvent, StackFields, StackResource, StackSummary } from './types';

/** One physical resource seen under a logical id during the current operation. */
export interface PhysicalResourceState {
  physicalId: string;
  /** Latest status seen for this physical resource (from events). */
  status: string;
  reason?: string;
  timestamp: number;
}

export interface ResourceModel {
  logicalId: string;
  resourceType: string;
  /** The resource's status as CloudFormation reports it (ListStackResources), not the latest cleanup event. */
  status: string;
  reason?: string;
  physicalId?: string;
  lastUpdated: number;
  /**
   * Other physical resources under this logical id in the current operation: the one a
   * replacement superseded, with the status of its deletion during cleanup.
   */
  formerPhysical: PhysicalResourceState[];
  /** The latest cleanup event for the current physical resource itself (a removed resource being deleted). */
  cleanup?: PhysicalResourceState;
  /** The resource's last drift detection, from the listing. */
  drift?: DriftInformation;
}

export interface RootCause {
  logicalId: string;
  physicalId?: string;
  resourceType: string;
  status: string;
  reason?: string;
  eventId: string;
  timestamp: number;
}

export interface UndeletedResource {
  logicalId: string;
  physicalId?: string;
  resourceType: string;
  reason?: string;
}

export interface OperationSummary {
  /** The stack status that started the operation (`UPDATE_IN_PROGRESS`, `CREATE_IN_PROGRESS`, …). */
  startStatus: string;
  startedAt: number;
  /** The event that started it; absent when the history was not read back that far. */
  startEventId?: string;
  status: string;
  reason?: string;
  outcome: OperationOutcome;
  endedAt?: number;
  /** The first failed event of the operation (resource failures first, else the stack's own failure reason). */
  rootCause?: RootCause;
  /** Resources whose delete failed during cleanup and which CloudFormation left behind. */
  undeleted: UndeletedResource[];
  /** Number of events that belong to this operation. */
  eventCount: number;
}

const CANCELLED = /^Resource (creation|update) cancelled/i;

/**
 * Whether an event is about the stack itself rather than one of its resources. The stack's own
 * events carry its id as physical id; a nested stack may share the stack's name as logical id, so
 * the name decides only when an event has no physical id.
 */
export function isStackEvent(event: StackEvent): boolean {
  if (event.resourceType !== 'AWS::CloudFormation::Stack') return false;
  return event.physicalId !== undefined ? event.physicalId === event.stackId : event.logicalId === event.stackName;
}

interface OperationState {
  startStatus: string;
  startedAt: number;
  startEventId?: string;
  endedAt?: number;
  resourceRootCause?: RootCause;
  stackRootCause?: RootCause;
  undeleted: Map<string, UndeletedResource>;
  eventCount: number;
}

/** What applying one event did, so the watcher can tell its listeners. */
export interface EventEffect {
  /** The event belongs to an operation (not the boundary event before it). */
  inOperation: boolean;
  /** The stack status changed: from → to. */
  statusChange?: { from?: string; to: string };
  /** The event started an operation. */
  started: boolean;
  /** The event ended an operation (the stack left a running state). */
  ended: boolean;
  /** The transition was impossible according to the lifecycle table (polls missed states). */
  impossible: boolean;
}

/**
 * The mutable model of one stack. Change it through its methods only: each bumps `revision`, by
 * which the watcher knows whether a snapshot taken earlier still holds.
 */
export class StackState implements StackFields {
  stackId: string;
  stackName: string;
  status: string;
  statusReason?: string;
  creationTime: number;
  lastUpdatedTime?: number;
  description?: string;
  deploymentMode?: string;
  lastOperations?: OperationEntry[];
  parentId?: string;
  readonly resources = new Map<string, ResourceModel>();
  private changes = 0;
  /** Oldest first, at most `maxEvents`. */
  events: StackEvent[] = [];
  private operation?: OperationState;
  /** Ids of events applied in the current operation (and the boundary event), for dedupe. */
  private seen = new Set<string>();
  /** The newest event applied: incremental reads stop here. */
  lastEventId?: string;

  constructor(
    summary: StackSummary,
    private readonly maxEvents = 1000,
  ) {
    this.stackId = summary.stackId;
    this.stackName = summary.stackName;
    this.status = summary.status;
    this.statusReason = summary.statusReason;
    this.creationTime = summary.creationTime;
    this.lastUpdatedTime = summary.lastUpdatedTime;
    this.description = summary.description;
    this.deploymentMode = summary.deploymentMode;
    this.lastOperations = summary.lastOperations;
    this.parentId = summary.parentId;
  }

  /** Counts the changes made to the model: equal revisions mean equal content. */
  get revision(): number {
    return this.changes;
  }

  /** Takes the stack-level fields of a listing (status only when events do not drive it). */
  applySummary(summary: StackSummary, statusFromEvents: boolean): void {
    this.changes++;
    this.stackName = summary.stackName;
    this.creationTime = summary.creationTime;
    this.lastUpdatedTime = summary.lastUpdatedTime ?? this.lastUpdatedTime;
    if (summary.description !== undefined) this.description = summary.description;
    if (summary.deploymentMode !== undefined) this.deploymentMode = summary.deploymentMode;
    if (summary.lastOperations !== undefined) this.lastOperations = summary.lastOperations;
    if (summary.parentId !== undefined) this.parentId = summary.parentId;
    if (!statusFromEvents) {
      this.status = summary.status;
      this.statusReason = summary.statusReason;
    }
  }

  /**
   * Prepares for the history read back from the previous operation's end (in any order): the
   * listed status is forgotten, so that the replayed events, not the listing, define every
   * status change. A history that holds no event of the stack itself did not reach back that
   * far (a long operation): the listed status stays, and if it is running, its operation is
   * taken as started before the history read, without a start event.
   */
  prepareReplay(history: readonly StackEvent[]): void {
    this.changes++;
    if (history.some(isStackEvent)) {
      this.status = '';
      this.statusReason = undefined;
      return;
    }
    if (this.operation === undefined && isRunning(this.status)) {
      this.operation = { startStatus: this.status, startedAt: this.lastUpdatedTime ?? this.creationTime, undeleted: new Map(), eventCount: 0 };
    }
  }

  /** Whether this event was already applied. */
  hasSeen(eventId: string): boolean {
    return this.seen.has(eventId);
  }

  /** Folds one event (applied oldest first) into the model. */
  applyEvent(event: StackEvent): EventEffect {
    const effect: EventEffect = { inOperation: false, started: false, ended: false, impossible: false };
    if (this.seen.has(event.eventId)) return effect;
    this.changes++;
    this.seen.add(event.eventId);
    this.lastEventId = event.eventId;
    this.pushEvent(event);

    if (isStackEvent(event)) {
      const from = this.status;
      const to = event.status;
      if (startsOperation(from, to) || (this.operation === undefined && isRunning(to))) {
        this.startOperation(event);
        effect.started = true;
      }
      if (from && isStackStatus(from) && isStackStatus(to) && from !== to && !effect.started) {
        effect.impossible = !isTransitionPossible(from, to);
      }
      if (from !== to) effect.statusChange = { from: from || undefined, to };
      this.status = to;
      this.statusReason = event.reason;
      const op = this.operation;
      if (op) {
        effect.inOperation = true;
        op.eventCount++;
        const failing = operationOutcome(to) === 'failed' || to.endsWith('ROLLBACK_IN_PROGRESS');
        if (op.stackRootCause === undefined && event.reason && failing) {
          op.stackRootCause = rootCauseOf(event);
        }
        if (isRunning(from) && !isRunning(to)) {
          op.endedAt = event.timestamp;
          effect.ended = true;
        }
      }
      return effect;
    }

    const op = this.operation;
    if (op) {
      effect.inOperation = true;
      op.eventCount++;
    }
    const cleanup = isCleanupPhase(this.status) && event.status.startsWith('DELETE_');
    if (op && !cleanup && event.status.endsWith('_FAILED')) {
      const current = op.resourceRootCause;
      if (current === undefined || (CANCELLED.test(current.reason ?? '') && !CANCELLED.test(event.reason ?? ''))) {
        op.resourceRootCause = rootCauseOf(event);
      }
    }
    if (cleanup) this.applyCleanupEvent(event, op);
    else this.applyResourceEvent(event);
    return effect;
  }

  /** Replaces the resource table with a listing (authoritative), keeping what events taught about physical ids. */
  applyResourceListing(listing: StackResource[]): void {
    this.changes++;
    const next = new Map<string, ResourceModel>();
    for (const row of listing) {
      const known = this.resources.get(row.logicalId);
      const model: ResourceModel = {
        logicalId: row.logicalId,
        resourceType: row.resourceType,
        status: row.status,
        reason: row.reason,
        physicalId: row.physicalId,
        lastUpdated: row.lastUpdated,
        formerPhysical: known ? known.formerPhysical.filter((p) => p.physicalId !== row.physicalId) : [],
        cleanup: known?.cleanup,
      };
      if (row.drift) model.drift = row.drift;
      next.set(row.logicalId, model);
    }
    this.resources.clear();
    for (const [id, model] of next) this.resources.set(id, model);
  }

  /** Marks a stack CloudFormation no longer knows as deleted, with the answer as its reason. */
  markDeleted(reason: string): void {
    this.changes++;
    this.status = 'DELETE_COMPLETE';
    this.statusReason = reason;
  }

  /** The current (or last) operation, summarised. */
  operationSummary(): OperationSummary | undefined {
    const op = this.operation;
    if (!op) return undefined;
    const outcome = operationOutcome(this.status);
    const rootCause = outcome === 'failed' || outcome === 'in-progress' ? (op.resourceRootCause ?? op.stackRootCause) : undefined;
    const summary: OperationSummary = {
      startStatus: op.startStatus,
      startedAt: op.startedAt,
      status: this.status,
      outcome,
      undeleted: [...op.undeleted.values()],
      eventCount: op.eventCount,
    };
    if (op.startEventId !== undefined) summary.startEventId = op.startEventId;
    if (this.statusReason !== undefined) summary.reason = this.statusReason;
    if (op.endedAt !== undefined && !isRunning(this.status)) summary.endedAt = op.endedAt;
    if (rootCause) summary.rootCause = rootCause;
    return summary;
  }

  private startOperation(event: StackEvent): void {
    this.operation = {
      startStatus: event.status,
      startedAt: event.timestamp,
      startEventId: event.eventId,
      undeleted: new Map(),
      eventCount: 0,
    };
    // Dedupe only needs the ids of this operation: older events are behind the incremental-read marker.
    this.seen = new Set([event.eventId]);
    for (const resource of this.resources.values()) {
      resource.formerPhysical = [];
      delete resource.cleanup;
    }
  }

  private applyResourceEvent(event: StackEvent): void {
    let resource = this.resources.get(event.logicalId);
    if (!resource) {
      resource = {
        logicalId: event.logicalId,
        resourceType: event.resourceType,
        status: event.status,
        lastUpdated: event.timestamp,
        formerPhysical: [],
      };
      this.resources.set(event.logicalId, resource);
    }
    const newId = event.physicalId;
    if (newId && resource.physicalId && newId !== resource.physicalId) {
      // A replacement (or a rollback back to the old resource): the superseded one stays listed.
      resource.formerPhysical = resource.formerPhysical.filter((p) => p.physicalId !== newId && p.physicalId !== resource!.physicalId);
      resource.formerPhysical.push({ physicalId: resource.physicalId, status: resource.status, timestamp: resource.lastUpdated });
    }
    if (newId) resource.physicalId = newId;
    resource.resourceType = event.resourceType || resource.resourceType;
    resource.status = event.status;
    resource.reason = event.reason;
    resource.lastUpdated = event.timestamp;
  }

  private applyCleanupEvent(event: StackEvent, op: OperationState | undefined): void {
    const key = `${event.logicalId}\u0000${event.physicalId ?? ''}`;
    if (op) {
      if (event.status === 'DELETE_FAILED') {
        const undeleted: UndeletedResource = { logicalId: event.logicalId, resourceType: event.resourceType };
        if (event.physicalId) undeleted.physicalId = event.physicalId;
        if (event.reason) undeleted.reason = event.reason;
        op.undeleted.set(key, undeleted);
      } else if (event.status === 'DELETE_COMPLETE' || event.status === 'DELETE_SKIPPED') {
        op.undeleted.delete(key);
      }
    }
    const resource = this.resources.get(event.logicalId);
    if (!resource) return;
    const state: PhysicalResourceState = { physicalId: event.physicalId ?? '', status: event.status, timestamp: event.timestamp };
    if (event.reason) state.reason = event.reason;
    if (!event.physicalId || event.physicalId === resource.physicalId) {
      // The current physical resource is being deleted: the logical resource was removed from the template.
      if (event.status === 'DELETE_COMPLETE') this.resources.delete(event.logicalId);
      else resource.cleanup = state;
      return;
    }
    const index = resource.formerPhysical.findIndex((p) => p.physicalId === event.physicalId);
    if (index >= 0) resource.formerPhysical[index] = state;
    else resource.formerPhysical.push(state);
  }

  private pushEvent(event: StackEvent): void {
    this.events.push(event);
    // Trim in batches so that a long operation does not shift the array on every event.
    if (this.events.length > this.maxEvents + Math.max(16, this.maxEvents >> 3)) {
      this.events.splice(0, this.events.length - this.maxEvents);
    }
  }
}

function rootCauseOf(event: StackEvent): RootCause {
  const cause: RootCause = {
    logicalId: event.logicalId,
    resourceType: event.resourceType,
    status: event.status,
    eventId: event.eventId,
    timestamp: event.timestamp,
  };
  if (event.physicalId) cause.physicalId = event.physicalId;
  if (event.reason) cause.reason = event.reason;
  return cause;
}
