/**
 * A stack's recent operations, from the events the watcher read: grouped by the operation id
 * CloudFormation gives each event (`StackEvent.OperationId`; an automatic rollback is an operation
 * of its own), and where events carry none, by the stack's own events that start an operation.
 * `LastOperations` names an operation's type where the events alone cannot tell (a continued
 * rollback starts like any rollback). Pure; an operation lasts from its first event to its last.
 */
import { isRunning, operationOutcome, startsOperation, type OperationOutcome } from '../cloudformation/stackLifecycle';
import { StackState, isStackEvent, type OperationSummary } from './stackModel';
import type { OperationEntry, StackEvent } from './types';

/** One operation as its events show it. */
export interface OperationRecord {
  /** CloudFormation's id, when the events carry one. */
  operationId?: string;
  /** `CREATE_STACK`, `UPDATE_STACK`, `DELETE_STACK`, `ROLLBACK`, `CONTINUE_ROLLBACK`, `CREATE_CHANGESET` or `IMPORT_STACK`. */
  operationType: string;
  /** The latest stack status within it. */
  status: string;
  outcome: OperationOutcome;
  startedAt: number;
  /** Its latest event. */
  lastEventAt: number;
  eventCount: number;
  /** Its events, oldest first: what its timeline is drawn from. */
  events: StackEvent[];
}

/** Which operation: its id, or where events carry none, when it started. */
export interface OperationKey {
  operationId?: string;
  startedAt: number;
}

/** How many operations a stack lists. */
export const RECENT_OPERATIONS = 5;

/** The operations of these events (in any order), newest first, at most `limit`. */
export function recentOperations(events: readonly StackEvent[], lastOperations: readonly OperationEntry[] = [], limit = RECENT_OPERATIONS): OperationRecord[] {
  const typeById = new Map(lastOperations.map((entry) => [entry.operationId, entry.operationType]));
  const oldestFirst = [...events].sort((a, b) => a.timestamp - b.timestamp);
  const records: OperationRecord[] = [];
  const byId = new Map<string, OperationRecord>();
  let derived: OperationRecord | undefined;
  let stackStatus: string | undefined;
  for (const event of oldestFirst) {
    const ofStack = isStackEvent(event);
    let record: OperationRecord | undefined;
    if (event.operationId !== undefined) {
      record = byId.get(event.operationId);
      if (!record && ofStack) {
        record = start(event, typeById.get(event.operationId));
        // An automatic rollback is an operation of its own: the one it follows failed.
        const previous = records.at(-1);
        if (previous?.outcome === 'in-progress' && record.operationType === 'ROLLBACK') previous.outcome = 'failed';
        record.operationId = event.operationId;
        byId.set(event.operationId, record);
        records.push(record);
      }
    } else {
      if (ofStack && (startsOperation(stackStatus, event.status) || (derived === undefined && isRunning(event.status)))) {
        derived = start(event, undefined);
        records.push(derived);
      }
      record = derived;
    }
    if (ofStack) stackStatus = event.status;
    // Events of an operation whose start was not read are left out: its duration would be wrong.
    if (!record) continue;
    record.eventCount++;
    record.events.push(event);
    record.lastEventAt = Math.max(record.lastEventAt, event.timestamp);
    if (ofStack) {
      record.status = event.status;
      record.outcome = outcomeOf(record.operationType, event.status);
    }
  }
  return records.reverse().slice(0, limit);
}

/** The type of an operation from the status it starts with, when CloudFormation did not name it. */
function typeFromStart(status: string): string {
  if (status.endsWith('ROLLBACK_IN_PROGRESS')) return 'ROLLBACK';
  if (status === 'REVIEW_IN_PROGRESS') return 'CREATE_CHANGESET';
  if (status.startsWith('CREATE_')) return 'CREATE_STACK';
  if (status.startsWith('DELETE_')) return 'DELETE_STACK';
  if (status.startsWith('IMPORT_')) return 'IMPORT_STACK';
  return 'UPDATE_STACK';
}

/**
 * How an operation ended. A rollback of its own (an operation id of its own) succeeds when the
 * stack is rolled back, although that status says the operation before it failed.
 */
function outcomeOf(operationType: string, status: string): OperationOutcome {
  if (isRunning(status)) return 'in-progress';
  if (operationType === 'ROLLBACK' || operationType === 'CONTINUE_ROLLBACK') return status.endsWith('ROLLBACK_COMPLETE') ? 'succeeded' : 'failed';
  return operationOutcome(status);
}

function start(event: StackEvent, operationType: string | undefined): OperationRecord {
  const type = operationType ?? typeFromStart(event.status);
  return { operationType: type, status: event.status, outcome: outcomeOf(type, event.status), startedAt: event.timestamp, lastEventAt: event.timestamp, eventCount: 0, events: [] };
}

/** The key that finds this operation again among a later reading of the same stack's events. */
export function operationKey(record: OperationRecord): OperationKey {
  return record.operationId !== undefined ? { operationId: record.operationId, startedAt: record.startedAt } : { startedAt: record.startedAt };
}

/** Whether `record` is the operation `key` names: by id where it has one, else by its start. */
export function isOperation(record: OperationRecord, key: OperationKey): boolean {
  return key.operationId !== undefined ? record.operationId === key.operationId : record.operationId === undefined && record.startedAt === key.startedAt;
}

/**
 * The summary of one past or current operation, as the stack model would have made it had these
 * been all the stack's events: its events replayed through a model of their own, so that its root
 * cause and what its cleanup left behind are found by the same rules as the live operation's.
 * The outcome is the record's (a rollback of its own succeeds when the stack is rolled back).
 */
export function operationSummaryOf(record: OperationRecord, stack: { stackId: string; stackName: string }): OperationSummary {
  const model = new StackState({ stackId: stack.stackId, stackName: stack.stackName, status: '', creationTime: record.startedAt }, record.events.length);
  for (const event of record.events) model.applyEvent(event);
  // An operation whose first event did not start work (a status CloudFormation sets at rest) is
  // still the record's: it lasts from its first event to its last.
  const summary = model.operationSummary() ?? { startStatus: record.events[0]?.status ?? record.status, startedAt: record.startedAt, status: record.status, outcome: record.outcome, undeleted: [], eventCount: record.eventCount };
  const out: OperationSummary = { ...summary, outcome: record.outcome };
  // A finished operation ends with its last event, whatever status that left (a create followed
  // by a rollback of its own ends in CREATE_IN_PROGRESS); a succeeded one has no root cause.
  if (record.outcome !== 'in-progress') out.endedAt ??= record.lastEventAt;
  if (record.outcome === 'succeeded') delete out.rootCause;
  return out;
}
