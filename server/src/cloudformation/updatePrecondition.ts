/**
 * What CloudFormation checks about the stack itself before it accepts an update with a new
 * template. The answer comes from the lifecycle table, so the precondition and the transitions
 * the watcher expects cannot drift apart.
 */
import { isOperationAllowed, isStackStatus } from './stackLifecycle';

/** Whether CloudFormation accepts an `UpdateStack` (with a new template) for a stack in this status. */
export function canUpdate(status: string): boolean {
  return isStackStatus(status) && isOperationAllowed(status, 'update');
}

/** CloudFormation's own rejection message for an update of a stack in a status that does not allow it. */
export function updateRejectionMessage(stackId: string, status: string): string {
  return `Stack:${stackId} is in ${status} state and can not be updated.`;
}
