/**
 * A stack's recent operations, from the events the watcher read: grouped by the operation id
 * CloudFormation gives each event (`StackEvent.OperationId`; an automatic rollback is an operation
 * of its own), and where events carry none, by the stack's own events that start an operation.
 * `LastOperations` names an operation's type where the events alone cannot tell (a continued
 * rollback starts like any rollback). Pure; an operation lasts from its first event to its last.
 */
import { isRunning, operationOutcome, startsOperation, type OperationOutcome } from '../cloudformation/stackLifecycle';
import { isStackEvent } from './stackModel';
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
  return { operationType: type, status: event.status, outcome: outcomeOf(type, event.status), startedAt: event.timestamp, lastEventAt: event.timestamp, eventCount: 0 };
}
