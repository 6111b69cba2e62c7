/**
 * The words of the deployment timeline: its title, the line that sums up the operation, what a
 * resource's bar says when hovered or selected, and the labels of its table. The shapes below are
 * the few fields these words need, so that present/ keeps importing only itself and the engine.
 */
import { durationText } from './durations';

/** A part of an operation: the work it was started for, its rollback, or the cleanup after it. */
export type TimelinePart = 'main' | 'rollback' | 'cleanup';

/** What the summary of an operation needs. */
export interface TimelineOperationFacts {
  stackName: string;
  startStatus: string;
  status: string;
  outcome: 'in-progress' | 'succeeded' | 'failed';
  start: number;
  end?: number;
  reason?: string;
  /** The stack's own failure, when no resource failure is the root cause. */
  rootCause?: { status: string; reason?: string };
}

/** What the words of one resource's bar need. */
export interface TimelineRowFacts {
  logicalId: string;
  resourceType: string;
  start: number;
  end?: number;
  status: string;
  physicalIds: { old?: string; new?: string };
  replaced: boolean;
  rootCause?: { status: string; reason?: string };
  cleanup: boolean;
  leftBehind?: { reason?: string };
}

/**
 * The panel's title: `network: UPDATE timeline`, named after the kind of operation (the status
 * that started it), so that it stays true once the operation has ended.
 */
export function timelineTitle(stackName: string, startStatus: string): string {
  const kind = startStatus.replace(/_IN_PROGRESS$/, '').replace(/_/g, ' ');
  return `${stackName}: ${kind} timeline`;
}

/** `UPDATE_IN_PROGRESS → UPDATE_COMPLETE in 2m 00s`, or `UPDATE_IN_PROGRESS for 45s so far` while it runs. */
export function operationSummaryText(operation: TimelineOperationFacts, now: number): string {
  if (operation.outcome === 'in-progress') return `${operation.startStatus} for ${durationText(now - operation.start)} so far`;
  const took = operation.end !== undefined ? ` in ${durationText(operation.end - operation.start)}` : '';
  // An operation whose rollback is an operation of its own (its own OperationId) ends while the
  // stack still reads as it started: its outcome says more than that status.
  if (operation.status === operation.startStatus && operation.status.endsWith('_IN_PROGRESS')) {
    return `${operation.startStatus} → ${operation.outcome}${took}${operation.outcome === 'failed' ? ', then rolled back in an operation of its own' : ''}`;
  }
  return `${operation.startStatus} → ${operation.status}${took}`;
}

/** `Root cause: CREATE_FAILED — Invalid id…`, for the operation or one of its resources. */
export function timelineRootCauseText(cause: { status: string; reason?: string }): string {
  return `Root cause: ${cause.status}${cause.reason ? ` — ${cause.reason}` : ''}`;
}

/** What a part of an operation is called in a legend and in an event's details. */
export function timelinePartLabel(part: TimelinePart): string {
  return part === 'main' ? 'Deployment' : part === 'rollback' ? 'Rollback' : 'Cleanup';
}

/** A bar's details, one fact a line: what it is, how long it took, which ids, why it failed. */
export function timelineRowText(row: TimelineRowFacts, now: number): string {
  const lines = [`${row.logicalId} (${row.resourceType})`];
  lines.push(row.end === undefined ? `${row.status}, running for ${durationText(now - row.start)}` : `${row.status} after ${durationText(row.end - row.start)}`);
  if (row.replaced) lines.push(`Replaced: ${row.physicalIds.old} → ${row.physicalIds.new}`);
  else if (row.cleanup && row.physicalIds.old) lines.push(`Removed in cleanup: ${row.physicalIds.old}`);
  else if (row.physicalIds.new) lines.push(`Physical id: ${row.physicalIds.new}`);
  if (row.rootCause) lines.push(timelineRootCauseText(row.rootCause));
  if (row.leftBehind) lines.push(`Left behind: could not be deleted${row.leftBehind.reason ? ` (${row.leftBehind.reason})` : ''}`);
  return lines.join('\n');
}

/** The fixed words of the timeline panel: its view switch, table headings and markers. */
export function timelineLabels() {
  return {
    showTable: 'Show as table',
    showTimeline: 'Show as timeline',
    resource: 'Resource',
    type: 'Type',
    started: 'Started',
    duration: 'Duration',
    status: 'Status',
    physicalIds: 'Physical ids',
    events: 'Events',
    time: 'Time',
    part: 'Part',
    reason: 'Reason',
    rootCause: 'Root cause',
    leftBehind: 'Left behind',
    replaced: 'Replaced',
    running: 'running',
    noResources: 'No resource has changed yet.',
    selectHint: 'Hover or select a bar for its events.',
    operation: 'Operation',
    latestOperation: 'Current or last, with its rollback',
  };
}
