/**
 * The timeline of one stack operation: one row per resource, from its first to its last event in
 * the operation, split into the phases the stack went through (the main work, a rollback, the
 * cleanup), with the physical ids a replacement swapped and the first failure marked as the root
 * cause. A pure function of the events and the operation summary the stack model computed
 * (stackModel.ts), so that every face draws the same picture.
 */
import { isCleanupPhase, isRunning } from '../cloudformation/stackLifecycle';
import { resourceStatusKind, type ResourceStatusKind } from '../cloudformation/resourceStatus';
import { isStackEvent, type OperationSummary } from './stackModel';
import type { StackEvent } from './types';

/**
 * Which part of an operation an event belongs to: the work the operation was started for, the
 * rollback of that work, or the cleanup that deletes old and removed physical resources.
 */
export type TimelinePhaseKind = 'main' | 'rollback' | 'cleanup';

/** One stretch of the stack's own status: `UPDATE_IN_PROGRESS` from `start` until `end`. */
export interface StackPhaseSpan {
  status: string;
  kind: TimelinePhaseKind;
  start: number;
  /** Absent while the stack is still in this status. */
  end?: number;
}

/** One event of a resource, with the phase it happened in. */
export interface TimelineEvent {
  eventId: string;
  timestamp: number;
  status: string;
  reason?: string;
  physicalId?: string;
  phase: TimelinePhaseKind;
  /** This event is the operation's root cause (its first failure). */
  rootCause?: boolean;
}

/** The part of a resource's bar that falls in one phase of the operation. */
export interface ResourcePhaseSpan {
  kind: TimelinePhaseKind;
  start: number;
  /** Absent while the resource is still changing in this phase. */
  end?: number;
  /** The status of the last event in this phase. */
  status: string;
  outcome: ResourceStatusKind;
}

/** One resource's bar. */
export interface TimelineRow {
  logicalId: string;
  resourceType: string;
  start: number;
  /** Absent while the resource is still changing. */
  end?: number;
  /**
   * `failed` when any of its events failed, else what its last event says; the cleanup's events
   * count only for a resource that has no others (the cleanup of a replaced one concerns its old
   * physical resource).
   */
  outcome: ResourceStatusKind;
  phases: ResourcePhaseSpan[];
  /**
   * `new` is the physical id the resource has (or was given) in this operation; `old` the one a
   * replacement superseded, or the one the cleanup removed for a resource taken out of the template.
   */
  physicalIds: { old?: string; new?: string };
  /** A new physical resource replaced the old one. */
  replaced: boolean;
  /** Oldest first. */
  events: TimelineEvent[];
  /** The operation's first failure is this resource's. */
  rootCause?: boolean;
  /** Every event of this resource is in the cleanup phase: a resource removed from the template. */
  cleanup?: boolean;
  /** CloudFormation could not delete this resource during cleanup and left it behind. */
  leftBehind?: boolean;
}

/** The operation as a whole. */
export interface TimelineOperation {
  /** The status that started it (`UPDATE_IN_PROGRESS`, …). */
  startStatus: string;
  start: number;
  /** Absent while it runs. */
  end?: number;
  status: string;
  reason?: string;
  outcome: OperationSummary['outcome'];
  /** The stack's own statuses during the operation, oldest first. */
  phases: StackPhaseSpan[];
  /** The stack's own event that failed first, when no resource failed (the stack's reason is then the cause). */
  rootCause?: { status: string; reason?: string };
}

export interface OperationTimeline {
  operation: TimelineOperation;
  /** Ordered by first event, then as the events came. */
  rows: TimelineRow[];
}

/**
 * The timeline of the operation `operation` summarises, from the stack's events (any order; the
 * watcher's snapshot keeps them newest first). Events before the operation's start are left out.
 */
export function operationTimeline(events: readonly StackEvent[], operation: OperationSummary): OperationTimeline {
  const ordered = eventsOfOperation(events, operation);
  const phases: StackPhaseSpan[] = [];
  let status = operation.startStatus;
  const rows = new Map<string, TimelineRow>();
  for (const event of ordered) {
    if (isStackEvent(event)) {
      status = event.status;
      const previous = phases.at(-1);
      if (previous?.status === status) continue;
      if (previous) previous.end = event.timestamp;
      if (isRunning(status)) phases.push({ status, kind: phaseKind(status), start: event.timestamp });
      continue;
    }
    addEvent(rows, event, phaseKind(status), operation);
  }
  if (phases.length === 0 && isRunning(operation.startStatus)) {
    // The history did not reach back to the start event: the operation's start stands in for it.
    phases.push({ status: operation.startStatus, kind: phaseKind(operation.startStatus), start: operation.startedAt });
  }

  const timelineOperation: TimelineOperation = {
    startStatus: operation.startStatus,
    start: operation.startedAt,
    status: operation.status,
    outcome: operation.outcome,
    phases,
  };
  if (operation.endedAt !== undefined) timelineOperation.end = operation.endedAt;
  if (operation.reason !== undefined) timelineOperation.reason = operation.reason;
  const cause = operation.rootCause;
  if (cause && !rows.get(cause.logicalId)?.rootCause) {
    timelineOperation.rootCause = { status: cause.status, ...(cause.reason !== undefined ? { reason: cause.reason } : {}) };
  }
  const undeleted = new Set(operation.undeleted.map((u) => u.logicalId));
  const running = operation.outcome === 'in-progress';
  for (const row of rows.values()) finishRow(row, running, undeleted.has(row.logicalId));
  return { operation: timelineOperation, rows: [...rows.values()] };
}

/** The events from the operation's start event on, oldest first. */
function eventsOfOperation(events: readonly StackEvent[], operation: OperationSummary): StackEvent[] {
  const ordered = [...events].sort((a, b) => a.timestamp - b.timestamp);
  const startIndex = operation.startEventId === undefined ? -1 : ordered.findIndex((e) => e.eventId === operation.startEventId);
  if (startIndex >= 0) return ordered.slice(startIndex);
  return ordered.filter((e) => e.timestamp >= operation.startedAt);
}

function phaseKind(stackStatus: string): TimelinePhaseKind {
  if (isCleanupPhase(stackStatus)) return 'cleanup';
  if (stackStatus.includes('ROLLBACK')) return 'rollback';
  return 'main';
}

function addEvent(rows: Map<string, TimelineRow>, event: StackEvent, phase: TimelinePhaseKind, operation: OperationSummary): void {
  let row = rows.get(event.logicalId);
  if (!row) {
    row = { logicalId: event.logicalId, resourceType: event.resourceType, start: event.timestamp, outcome: 'in-progress', phases: [], physicalIds: {}, replaced: false, events: [] };
    rows.set(event.logicalId, row);
  }
  const item: TimelineEvent = { eventId: event.eventId, timestamp: event.timestamp, status: event.status, phase };
  if (event.reason !== undefined) item.reason = event.reason;
  if (event.physicalId !== undefined) item.physicalId = event.physicalId;
  if (operation.rootCause?.eventId === event.eventId) {
    item.rootCause = true;
    row.rootCause = true;
  }
  row.events.push(item);
  const span = row.phases.at(-1);
  if (span?.kind === phase) {
    span.status = event.status;
    span.outcome = resourceStatusKind(event.status);
    span.end = event.timestamp;
  } else {
    row.phases.push({ kind: phase, start: event.timestamp, end: event.timestamp, status: event.status, outcome: resourceStatusKind(event.status) });
  }
}

/** Settles what can only be said once all of a row's events are in: its end, outcome and ids. */
function finishRow(row: TimelineRow, running: boolean, leftBehind: boolean): void {
  const last = row.events.at(-1)!;
  const stillChanging = running && resourceStatusKind(last.status) === 'in-progress';
  const span = row.phases.at(-1)!;
  if (stillChanging) delete span.end;
  else row.end = last.timestamp;
  if (row.events.every((e) => e.phase === 'cleanup')) row.cleanup = true;
  // The cleanup of a replaced resource deletes its old physical resource, not the resource itself:
  // unless the cleanup is all there is, the outcome is the work's.
  const own = row.cleanup ? row.events : row.events.filter((e) => e.phase !== 'cleanup');
  row.outcome = own.some((e) => resourceStatusKind(e.status) === 'failed') ? 'failed' : resourceStatusKind(own.at(-1)!.status);
  if (leftBehind) row.leftBehind = true;

  // Physical ids in order of appearance. A replacement shows a second id in the work itself; the
  // cleanup only ever deletes ids already seen, or the id of a resource removed from the template.
  const seen: string[] = [];
  for (const event of row.events) {
    if (event.physicalId && !seen.includes(event.physicalId) && (event.phase !== 'cleanup' || seen.length === 0)) seen.push(event.physicalId);
  }
  if (row.cleanup) {
    if (seen[0] !== undefined) row.physicalIds.old = seen[0];
  } else if (seen.length >= 2) {
    row.physicalIds = { old: seen[0]!, new: seen[1]! };
    row.replaced = true;
  } else if (seen[0] !== undefined) {
    row.physicalIds.new = seen[0];
  }
}
