/**
 * Deployment outcomes in words, the same in the stacks view, its notification and
 * `cfn-impact watch`: the root cause of a failure and the resources CloudFormation left behind.
 */
import { durationText } from './durations';
import { listSome } from './lists';

/** The first failure of an operation (the later "Resource creation cancelled" ones follow from it). */
export interface RootCause {
  logicalId: string;
  status: string;
  reason?: string;
  /** Set when an early-validation check rejected the operation before any resource was touched. */
  validation?: { name: string; path?: string };
}

/** A resource CloudFormation could not delete during cleanup and left behind. */
export interface LeftBehind {
  logicalId: string;
  physicalId?: string;
  reason?: string;
}

/** How an operation that was followed ended. */
export interface DeploymentOutcome {
  stackName: string;
  region: string;
  /** The final stack status, e.g. `UPDATE_COMPLETE` or `UPDATE_ROLLBACK_COMPLETE`. */
  status: string;
  outcome: 'succeeded' | 'failed';
  /** The stack's status reason. */
  reason?: string;
  rootCause?: RootCause;
  undeleted: readonly LeftBehind[];
}

/** Resources named in a deployment message before the rest are counted. */
const RESOURCES_SHOWN = 5;

/** `Subnet CREATE_FAILED — The CIDR '10.0.0.0/24' conflicts…`, styled by `status` (the terminal colours it). */
export function rootCauseText(cause: RootCause, status: (text: string) => string = (text) => text): string {
  const check = cause.validation;
  if (check) return `early validation ${check.name}${check.path ? ` at ${check.path}` : ''}${cause.reason ? ` — ${cause.reason}` : ''}`;
  return `${cause.logicalId} ${status(cause.status)}${cause.reason ? ` — ${cause.reason}` : ''}`;
}

/** `Root cause: Subnet CREATE_FAILED — …`, for a list of facts about an operation. */
export function rootCauseLine(cause: RootCause, status?: (text: string) => string): string {
  return `Root cause: ${rootCauseText(cause, status)}`;
}

/** One resource left behind: `AccessLogs (logs-bucket-1)`. */
function leftBehindName(resource: LeftBehind): string {
  return resource.physicalId ? `${resource.logicalId} (${resource.physicalId})` : resource.logicalId;
}

/** `CloudFormation could not delete these resources and left them behind: A (id), B and 3 more.` */
export function leftBehindText(undeleted: readonly LeftBehind[]): string {
  const one = undeleted.length === 1;
  const names = listSome(undeleted.map(leftBehindName), RESOURCES_SHOWN);
  return `CloudFormation could not delete ${one ? 'this resource' : 'these resources'} and left ${one ? 'it' : 'them'} behind: ${names}.`;
}

/** `3 left behind`, for a stack's one-line description. */
export function leftBehindCount(count: number): string {
  return `${count} left behind`;
}

/** One resource left behind, with why, for a list of them: `Left behind: AccessLogs logs-bucket-1 could not be deleted (…)`. */
export function leftBehindLine(resource: LeftBehind): string {
  return `Left behind: ${leftBehindName(resource)} could not be deleted${resource.reason ? ` (${resource.reason})` : ''}`;
}

/** The one-paragraph message for a deployment that ended; resources left behind are named whatever the outcome. */
export function deploymentMessage(ended: DeploymentOutcome): { severity: 'info' | 'warning' | 'error'; text: string } {
  const where = `${ended.stackName} (${ended.region})`;
  if (ended.outcome === 'failed') {
    const why = ended.rootCause ? ` ${rootCauseLine(ended.rootCause)}` : ended.reason ? ` ${ended.reason}` : '';
    const behind = ended.undeleted.length > 0 ? `${why.endsWith('.') ? '' : '.'} ${leftBehindText(ended.undeleted)}` : '';
    return { severity: 'error', text: `Deployment of ${where} failed: ${ended.status}.${why}${behind}` };
  }
  if (ended.undeleted.length > 0) return { severity: 'warning', text: `${where} reached ${ended.status}, but ${leftBehindText(ended.undeleted)}` };
  return { severity: 'info', text: `${where} reached ${ended.status}.` };
}

/** A check of early validation that rejected an operation, in one line: `Rejected by early validation: NAME at PATH: reason`. */
export function validationFailureLine(failure: { name: string; reason?: string; path?: string }): string {
  const where = failure.path ? ` at ${failure.path}` : '';
  return `Rejected by early validation: ${failure.name}${where}${failure.reason ? `: ${failure.reason}` : ''}`;
}

/** The progress of an operation in counts and milliseconds (stacks/operationProgress.ts computes it). */
export interface ProgressFigures {
  done: number;
  total: number;
  inProgress: number;
  failed: number;
  elapsedMs: number;
  /** Estimated time left; 0 once the operation is over. */
  etaMs: number;
  /**
   * In an express operation, the resources reported done that may still be stabilising:
   * CloudFormation reports `*_COMPLETE` once their configuration is applied. 0 otherwise.
   */
  stabilising: number;
}

/** `~2 min left`, `<1 min left`, `~2 h left`: time left rounded up, since an estimate that runs out early disappoints. */
export function timeLeftText(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 1) return '<1 min left';
  if (minutes < 90) return `~${minutes} min left`;
  return `~${Math.round(minutes / 60)} h left`;
}

/** `7/12 · ~2 min left`: resources done of all, and the time left while the operation runs. */
export function progressCounts(progress: ProgressFigures, running: boolean): string {
  return running ? `${progress.done}/${progress.total} · ${timeLeftText(progress.etaMs)}` : `${progress.done}/${progress.total}`;
}

/** `UPDATE_IN_PROGRESS · 7/12 · ~2 min left`: an operation in one line. */
/** What each operation is doing, and has done, in a word. */
const OPERATION_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  CREATE: ['creating', 'created'],
  UPDATE: ['updating', 'updated'],
  DELETE: ['deleting', 'deleted'],
  IMPORT: ['importing', 'imported'],
  ROLLBACK: ['rolling back', 'rolled back'],
  UPDATE_ROLLBACK: ['rolling back', 'rolled back'],
  IMPORT_ROLLBACK: ['rolling back', 'rolled back'],
};

/**
 * A stack or resource status in a short word, for a row that must fit the sidebar (the icon says
 * the phase, the tooltip the full status): `updating`, `cleaning up`, `updated`, `rolled back`,
 * `update failed`, `rollback failed`, `in review`, `kept` (DELETE_SKIPPED).
 */
export function statusWord(status: string): string {
  if (status === 'REVIEW_IN_PROGRESS') return 'in review';
  if (status === 'DELETE_SKIPPED') return 'kept';
  if (status.endsWith('_COMPLETE_CLEANUP_IN_PROGRESS')) return status.startsWith('UPDATE_ROLLBACK') ? 'rollback cleanup' : 'cleaning up';
  const parts = /^([A-Z_]+?)_(IN_PROGRESS|COMPLETE|FAILED)$/.exec(status);
  const words = parts ? OPERATION_WORDS[parts[1]!] : undefined;
  if (!parts || !words) return status.toLowerCase().replace(/_/g, ' ');
  if (parts[2] === 'IN_PROGRESS') return words[0];
  if (parts[2] === 'COMPLETE') return words[1];
  return parts[1]!.endsWith('ROLLBACK') ? 'rollback failed' : `${parts[1]!.toLowerCase()} failed`;
}

export function progressLine(status: string, progress: ProgressFigures, running: boolean): string {
  return `${statusWord(status)} · ${progressCounts(progress, running)}`;
}

/** The full progress, one fact a line: for a tooltip or a notification. */
export function progressDetails(progress: ProgressFigures, running: boolean): string[] {
  const counts = [`${progress.done} of ${progress.total} resources done`];
  if (progress.inProgress > 0) counts.push(`${progress.inProgress} in progress`);
  if (progress.failed > 0) counts.push(`${progress.failed} failed`);
  if (progress.stabilising > 0) counts.push(`${progress.stabilising} stabilising (express mode: configured, possibly not ready yet)`);
  const lines = [counts.join(', '), `Elapsed: ${durationText(progress.elapsedMs)}`];
  if (running) lines.push(`Estimated time left: ${durationText(progress.etaMs)} (from this stack's earlier operations, else typical durations)`);
  return lines;
}

/** One of a stack's recent operations (stacks/operationHistory.ts reads them from its events). */
export interface OperationFigures {
  /** `CREATE_STACK`, `UPDATE_STACK`, `ROLLBACK`, … as `LastOperations` names them. */
  operationType: string;
  status: string;
  outcome: 'succeeded' | 'failed' | 'in-progress';
  startedAt: number;
  lastEventAt: number;
}

const OPERATION_NAMES: Record<string, string> = {
  CREATE_STACK: 'Create',
  UPDATE_STACK: 'Update',
  DELETE_STACK: 'Delete',
  ROLLBACK: 'Rollback',
  CONTINUE_ROLLBACK: 'Continued rollback',
  CREATE_CHANGESET: 'Change set review',
  IMPORT_STACK: 'Import',
};

/** `Update`, `Rollback`, `Continued rollback`: what an operation did. */
export function operationName(operationType: string): string {
  return OPERATION_NAMES[operationType] ?? operationType;
}

/**
 * `failed · 3m 10s · UPDATE_ROLLBACK_COMPLETE`: how an operation went and how long it took.
 * The status is the one it ended in; an operation that a rollback of its own followed ended running.
 */
export function operationSummary(operation: OperationFigures): string {
  const outcome = operation.outcome === 'in-progress' ? 'running' : operation.outcome;
  const parts = [outcome, durationText(operation.lastEventAt - operation.startedAt)];
  const status = operationStatusShown(operation);
  if (status) parts.push(status);
  return parts.join(' · ');
}

/**
 * The status an operation is shown with: where it is (running) or where it ended; none for one
 * that ended running, handed over to a rollback of its own (its status would say it still runs).
 */
export function operationStatusShown(operation: OperationFigures): string | undefined {
  return operation.outcome === 'in-progress' || !operation.status.endsWith('_IN_PROGRESS') ? operation.status : undefined;
}

/** `Update · failed · 3m 10s · UPDATE_ROLLBACK_COMPLETE`: one recent operation in a line. */
export function operationHistoryLine(operation: OperationFigures): string {
  return `${operationName(operation.operationType)} · ${operationSummary(operation)}`;
}
