/**
 * The protocol's timeline of a stack, from the watcher's snapshot: the stacks module's
 * `operationTimeline`, copied field by field into the transfer types and worded by present/.
 */
import { resourceStatusKind } from '../cloudformation/resourceStatus';
import { ago, durationText, offsetText, operationHistoryLine, operationSummaryText, timelineLabels, timelinePartLabel, timelineRootCauseText, timelineRowText, timelineTitle } from '../present';
import { isOperation, operationKey, operationSummaryOf, recentOperations, type OperationRecord } from '../stacks/operationHistory';
import { operationTimeline, type TimelineOperation, type TimelineRow } from '../stacks/operationTimeline';
import type { StackSnapshot } from '../stacks/stackWatcher';
import type { StackOperationKey, StackTimelineAnswer, StackTimelineChoice, StackTimelineEvent, StackTimelineOperation, StackTimelineRow, StackTimelineSpan } from './protocol';

/**
 * The answer for one stack as the watcher knows it at `now` (this computer's clock): the timeline
 * of the operation `wanted` names among its recent ones, or without one, of its current or last
 * operation as the watcher follows it (a failed operation with its rollback).
 */
export function stackTimelineAnswer(region: string, stack: StackSnapshot, now: number, wanted?: StackOperationKey): StackTimelineAnswer {
  if (!stack.detailed) return { ok: false, state: 'loading', message: `Reading the events of ${stack.stackName}…` };
  const operations = recentOperations(stack.events, stack.lastOperations);
  const key = wanted === undefined ? undefined : validKey(wanted);
  if (wanted !== undefined && key === undefined) return { ok: false, state: 'unavailable', message: 'That is not an operation of a stack.' };
  const chosen = key === undefined ? undefined : operations.find((record) => isOperation(record, key));
  if (key !== undefined && !chosen) return { ok: false, state: 'unavailable', message: `That operation is no longer among the recent events of ${stack.stackName}.` };
  const summary = chosen ? operationSummaryOf(chosen, stack) : stack.operation;
  if (!summary) return { ok: false, state: 'unavailable', message: `No operation of ${stack.stackName} was found in its recent events.` };
  const timeline = operationTimeline(chosen ? chosen.events : stack.events, summary);
  // Event times are CloudFormation's clock, `now` this computer's: a clock behind AWS's must not
  // draw a running bar shorter than the events it has already shown.
  for (const row of timeline.rows) now = Math.max(now, row.events.at(-1)!.timestamp);
  for (const phase of timeline.operation.phases) now = Math.max(now, phase.start);
  return {
    ok: true,
    timeline: {
      region,
      stackId: stack.stackId,
      stackName: stack.stackName,
      title: timelineTitle(stack.stackName, timeline.operation.startStatus),
      now,
      operation: operationOf(stack.stackName, timeline.operation, now),
      rows: timeline.rows.map((row) => rowOf(row, timeline.operation.start, now)),
      operations: choicesOf(operations, chosen, now),
      labels: timelineLabels(),
    },
  };
}

/** The operations to switch between: the current or last one as followed, then each recent one. */
function choicesOf(operations: OperationRecord[], chosen: OperationRecord | undefined, now: number): StackTimelineChoice[] {
  return operations.map((record) => ({
    operation: operationKey(record),
    label: `${operationHistoryLine(record)} · ${ago(record.startedAt, now)}`,
    selected: record === chosen,
  }));
}

/** The key as the client sent it, if it is one: a request's parameters are not trusted. */
function validKey(value: unknown): StackOperationKey | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { operationId, startedAt } = value as Record<string, unknown>;
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return undefined;
  if (operationId !== undefined && (typeof operationId !== 'string' || operationId.length > 256)) return undefined;
  return operationId !== undefined ? { operationId, startedAt } : { startedAt };
}

function operationOf(stackName: string, operation: TimelineOperation, now: number): StackTimelineOperation {
  const out: StackTimelineOperation = {
    startStatus: operation.startStatus,
    status: operation.status,
    outcome: operation.outcome,
    start: operation.start,
    summary: operationSummaryText({ ...operation, stackName }, now),
    parts: operation.phases.map((phase) => {
      const part: StackTimelineOperation['parts'][number] = { status: phase.status, part: phase.kind, label: timelinePartLabel(phase.kind), start: phase.start };
      if (phase.end !== undefined) part.end = phase.end;
      return part;
    }),
  };
  if (operation.end !== undefined) out.end = operation.end;
  if (operation.reason !== undefined) out.reason = operation.reason;
  if (operation.rootCause) out.rootCause = timelineRootCauseText(operation.rootCause);
  return out;
}

function rowOf(row: TimelineRow, operationStart: number, now: number): StackTimelineRow {
  const status = outcomeStatus(row);
  const cause = row.events.find((e) => e.rootCause);
  const lastFailure = [...row.events].reverse().find((e) => e.status === 'DELETE_FAILED');
  const out: StackTimelineRow = {
    logicalId: row.logicalId,
    resourceType: row.resourceType,
    start: row.start,
    kind: row.outcome,
    status,
    spans: row.phases.map((phase) => {
      const span: StackTimelineSpan = { part: phase.kind, start: phase.start, status: phase.status, kind: phase.outcome };
      if (phase.end !== undefined) span.end = phase.end;
      return span;
    }),
    physicalIds: { ...row.physicalIds },
    replaced: row.replaced,
    rootCause: row.rootCause === true,
    cleanup: row.cleanup === true,
    leftBehind: row.leftBehind === true,
    duration: durationText((row.end ?? now) - row.start),
    details: timelineRowText(
      {
        logicalId: row.logicalId,
        resourceType: row.resourceType,
        start: row.start,
        ...(row.end !== undefined ? { end: row.end } : {}),
        status,
        physicalIds: row.physicalIds,
        replaced: row.replaced,
        ...(cause ? { rootCause: { status: cause.status, ...(cause.reason !== undefined ? { reason: cause.reason } : {}) } } : {}),
        cleanup: row.cleanup === true,
        ...(row.leftBehind ? { leftBehind: lastFailure?.reason !== undefined ? { reason: lastFailure.reason } : {} } : {}),
      },
      now,
    ),
    events: row.events.map((event) => {
      const item: StackTimelineEvent = {
        timestamp: event.timestamp,
        offset: offsetText(event.timestamp - operationStart),
        status: event.status,
        kind: resourceStatusKind(event.status),
        part: event.phase,
      };
      if (event.reason !== undefined) item.reason = event.reason;
      if (event.physicalId !== undefined) item.physicalId = event.physicalId;
      if (event.rootCause) item.rootCause = true;
      return item;
    }),
  };
  if (row.end !== undefined) out.end = row.end;
  return out;
}

/**
 * The status a row's outcome is read from: its first failure when it failed, else its last event
 * outside the cleanup (the cleanup of a replaced resource concerns the old physical resource).
 */
function outcomeStatus(row: TimelineRow): string {
  const own = row.cleanup ? row.events : row.events.filter((e) => e.phase !== 'cleanup');
  const failed = own.find((e) => resourceStatusKind(e.status) === 'failed');
  return (failed ?? own.at(-1)!).status;
}
