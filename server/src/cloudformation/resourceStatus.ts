/**
 * What a resource status (`CREATE_COMPLETE`, `DELETE_SKIPPED`, …) says about the resource. Unlike
 * stack statuses, resource statuses have no table of their own: their suffix decides, except for
 * the two ways a resource leaves a stack.
 */

/** The broad kind of a resource status: still changing, done, failed, deleted, or left out of the stack but kept. */
export type ResourceStatusKind = 'in-progress' | 'complete' | 'failed' | 'deleted' | 'skipped';

/** Classifies a resource status; `DELETE_SKIPPED` is a retained resource (DeletionPolicy: Retain). */
export function resourceStatusKind(status: string): ResourceStatusKind {
  if (status === 'DELETE_COMPLETE') return 'deleted';
  if (status === 'DELETE_SKIPPED') return 'skipped';
  if (status.endsWith('_IN_PROGRESS')) return 'in-progress';
  if (status.endsWith('_FAILED')) return 'failed';
  return 'complete';
}
