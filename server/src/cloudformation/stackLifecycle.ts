/**
 * The CloudFormation stack lifecycle as data: every stack status, what happens in it, what can
 * follow it, as docs/stack-lifecycle.md describes it with its evidence (AWS's lifecycle diagram,
 * the TLA+ model of the statuses and the update experiments); everything else (the watcher, the
 * tree, the CLI, the impact engine's precondition check) reads this table instead of matching
 * status strings itself. Like every module of `cloudformation/`, it is pure knowledge and imports
 * nothing outside this folder.
 */

export const STACK_STATUSES = [
  'REVIEW_IN_PROGRESS',
  'CREATE_IN_PROGRESS',
  'CREATE_COMPLETE',
  'CREATE_FAILED',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_COMPLETE',
  'ROLLBACK_FAILED',
  'UPDATE_IN_PROGRESS',
  'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_COMPLETE',
  'UPDATE_FAILED',
  'UPDATE_ROLLBACK_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
  'UPDATE_ROLLBACK_COMPLETE',
  'UPDATE_ROLLBACK_FAILED',
  'DELETE_IN_PROGRESS',
  'DELETE_COMPLETE',
  'DELETE_FAILED',
  'IMPORT_IN_PROGRESS',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_IN_PROGRESS',
  'IMPORT_ROLLBACK_COMPLETE',
  'IMPORT_ROLLBACK_FAILED',
] as const;

export type StackStatus = (typeof STACK_STATUSES)[number];

/** Where a stack stands: an operation running, or the way the last one ended. */
export type StackPhase = 'in-progress' | 'complete' | 'failed' | 'rolled-back';

/** Resource operations CloudFormation performs while a stack is in a state (docs/stack-lifecycle.md#resource-operations). */
export type ResourceOperation = 'create' | 'update' | 'delete' | 'import';

/** Stack operations a user (or a tool acting for one) can start. */
export type StackOperation =
  | 'update'
  | 'import'
  | 'delete'
  | 'execute-change-set'
  | 'cancel-update'
  | 'retry-update'
  | 'rollback'
  | 'continue-update-rollback';

/** The outcome of the operation a stack status belongs to. */
export type OperationOutcome = 'succeeded' | 'failed' | 'in-progress';

export interface StackOperationEdge {
  operation: StackOperation;
  /** The status the stack enters when the operation starts. */
  to: StackStatus;
}

export interface StackStateInfo {
  status: StackStatus;
  phase: StackPhase;
  /**
   * Whether CloudFormation itself is working on the stack. `REVIEW_IN_PROGRESS` is an
   * in-progress state in which nothing runs: the stack waits for a change set to be executed.
   */
  running: boolean;
  resourceOperations: readonly ResourceOperation[];
  /** Transitions CloudFormation makes on its own from this state. */
  next: readonly StackStatus[];
  /** Operations a user may start from this state, and where each one leads. */
  operations: readonly StackOperationEdge[];
  explanation: string;
}

const settledOperations: readonly StackOperationEdge[] = [
  { operation: 'update', to: 'UPDATE_IN_PROGRESS' },
  { operation: 'import', to: 'IMPORT_IN_PROGRESS' },
  { operation: 'delete', to: 'DELETE_IN_PROGRESS' },
];
const deleteOnly: readonly StackOperationEdge[] = [{ operation: 'delete', to: 'DELETE_IN_PROGRESS' }];

function state(info: StackStateInfo): StackStateInfo {
  return info;
}

/** Every stack status with its phase, resource operations, transitions and explanation. */
export const STACK_STATES: Readonly<Record<StackStatus, StackStateInfo>> = {
  REVIEW_IN_PROGRESS: state({
    status: 'REVIEW_IN_PROGRESS',
    phase: 'in-progress',
    running: false,
    resourceOperations: [],
    next: [],
    operations: [
      { operation: 'execute-change-set', to: 'CREATE_IN_PROGRESS' },
      { operation: 'execute-change-set', to: 'IMPORT_IN_PROGRESS' },
      { operation: 'delete', to: 'DELETE_IN_PROGRESS' },
    ],
    explanation:
      'The stack was created by a change set and has no resources yet. Nothing happens until the change set is executed (or the stack is deleted).',
  }),
  CREATE_IN_PROGRESS: state({
    status: 'CREATE_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['create'],
    next: ['CREATE_COMPLETE', 'CREATE_FAILED', 'ROLLBACK_IN_PROGRESS'],
    operations: [],
    explanation: 'CloudFormation is creating the stack’s resources in dependency order.',
  }),
  CREATE_COMPLETE: state({
    status: 'CREATE_COMPLETE',
    phase: 'complete',
    running: false,
    resourceOperations: [],
    next: [],
    operations: settledOperations,
    explanation: 'Every resource was created. The stack can be updated or deleted.',
  }),
  CREATE_FAILED: state({
    status: 'CREATE_FAILED',
    phase: 'failed',
    running: false,
    resourceOperations: [],
    next: [],
    operations: [{ operation: 'rollback', to: 'ROLLBACK_IN_PROGRESS' }, ...deleteOnly],
    explanation:
      'Creation failed and rollback was disabled, so the resources that were created are still there. Fix the cause, then roll back or delete the stack.',
  }),
  ROLLBACK_IN_PROGRESS: state({
    status: 'ROLLBACK_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['delete'],
    // CREATE_FAILED after a rollback is drawn in AWS's diagram (docs/stack-lifecycle.md#diagram); ROLLBACK_COMPLETE is the usual end.
    next: ['ROLLBACK_COMPLETE', 'ROLLBACK_FAILED', 'CREATE_FAILED'],
    operations: [],
    explanation: 'Creation failed; CloudFormation is deleting the resources it created.',
  }),
  ROLLBACK_COMPLETE: state({
    status: 'ROLLBACK_COMPLETE',
    phase: 'rolled-back',
    running: false,
    resourceOperations: [],
    next: [],
    operations: deleteOnly,
    explanation:
      'Creation failed and every resource it created was deleted again. The stack cannot be updated: delete it and create it again.',
  }),
  ROLLBACK_FAILED: state({
    status: 'ROLLBACK_FAILED',
    phase: 'failed',
    running: false,
    resourceOperations: [],
    next: [],
    operations: deleteOnly,
    explanation:
      'Creation failed and some of the resources it created could not be deleted. Delete the stack (possibly retaining those resources).',
  }),
  UPDATE_IN_PROGRESS: state({
    status: 'UPDATE_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['create', 'update'],
    next: ['UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_FAILED'],
    operations: [{ operation: 'cancel-update', to: 'UPDATE_ROLLBACK_IN_PROGRESS' }],
    explanation:
      'CloudFormation is creating new resources and updating changed ones; replacements are created first and the old ones are deleted later, in cleanup.',
  }),
  UPDATE_COMPLETE_CLEANUP_IN_PROGRESS: state({
    status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['delete'],
    next: ['UPDATE_COMPLETE'],
    operations: [],
    explanation:
      'The update succeeded and the stack is usable; CloudFormation is deleting replaced and removed resources. Delete events here concern old physical resources.',
  }),
  UPDATE_COMPLETE: state({
    status: 'UPDATE_COMPLETE',
    phase: 'complete',
    running: false,
    resourceOperations: [],
    next: [],
    operations: settledOperations,
    explanation: 'The update succeeded. The stack can be updated again or deleted.',
  }),
  UPDATE_FAILED: state({
    status: 'UPDATE_FAILED',
    phase: 'failed',
    running: false,
    resourceOperations: [],
    next: [],
    operations: [
      { operation: 'retry-update', to: 'UPDATE_IN_PROGRESS' },
      { operation: 'rollback', to: 'UPDATE_ROLLBACK_IN_PROGRESS' },
      ...deleteOnly,
    ],
    explanation:
      'The update failed and rollback was disabled, so the stack is left half updated. Fix the cause and retry the update, or roll it back.',
  }),
  UPDATE_ROLLBACK_IN_PROGRESS: state({
    status: 'UPDATE_ROLLBACK_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['update'],
    next: ['UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED'],
    operations: [],
    explanation: 'The update failed; CloudFormation is updating resources back to their previous configuration.',
  }),
  UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS: state({
    status: 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['delete'],
    next: ['UPDATE_ROLLBACK_COMPLETE'],
    operations: [],
    explanation:
      'The stack is back at its previous configuration; CloudFormation is deleting the resources the failed update created.',
  }),
  UPDATE_ROLLBACK_COMPLETE: state({
    status: 'UPDATE_ROLLBACK_COMPLETE',
    phase: 'rolled-back',
    running: false,
    resourceOperations: [],
    next: [],
    operations: settledOperations,
    explanation: 'The update failed and was rolled back: the stack runs its previous template. It can be updated again.',
  }),
  UPDATE_ROLLBACK_FAILED: state({
    status: 'UPDATE_ROLLBACK_FAILED',
    phase: 'failed',
    running: false,
    resourceOperations: [],
    next: [],
    operations: [{ operation: 'continue-update-rollback', to: 'UPDATE_ROLLBACK_IN_PROGRESS' }, ...deleteOnly],
    explanation:
      'The update failed and so did its rollback. Nothing more happens until you fix the resources and continue the rollback (possibly skipping them), or delete the stack.',
  }),
  DELETE_IN_PROGRESS: state({
    status: 'DELETE_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['delete'],
    next: ['DELETE_COMPLETE', 'DELETE_FAILED'],
    operations: [],
    explanation: 'CloudFormation is deleting the stack and its resources.',
  }),
  DELETE_COMPLETE: state({
    status: 'DELETE_COMPLETE',
    phase: 'complete',
    running: false,
    resourceOperations: [],
    next: [],
    operations: [],
    explanation: 'The stack and its resources were deleted (except those with a Retain deletion policy).',
  }),
  DELETE_FAILED: state({
    status: 'DELETE_FAILED',
    phase: 'failed',
    running: false,
    resourceOperations: [],
    next: [],
    operations: deleteOnly,
    explanation: 'Some resources could not be deleted. Fix them and delete again, or delete while retaining them.',
  }),
  IMPORT_IN_PROGRESS: state({
    status: 'IMPORT_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['import'],
    next: ['IMPORT_COMPLETE', 'IMPORT_ROLLBACK_IN_PROGRESS'],
    operations: [],
    explanation: 'CloudFormation is bringing existing resources under the stack’s management.',
  }),
  IMPORT_COMPLETE: state({
    status: 'IMPORT_COMPLETE',
    phase: 'complete',
    running: false,
    resourceOperations: [],
    next: [],
    operations: settledOperations,
    explanation: 'The resources were imported. The stack can be updated or deleted.',
  }),
  IMPORT_ROLLBACK_IN_PROGRESS: state({
    status: 'IMPORT_ROLLBACK_IN_PROGRESS',
    phase: 'in-progress',
    running: true,
    resourceOperations: ['import'],
    next: ['IMPORT_ROLLBACK_COMPLETE', 'IMPORT_ROLLBACK_FAILED'],
    operations: [],
    explanation: 'The import failed; CloudFormation is releasing the resources it imported (they are retained, not deleted).',
  }),
  IMPORT_ROLLBACK_COMPLETE: state({
    status: 'IMPORT_ROLLBACK_COMPLETE',
    phase: 'rolled-back',
    running: false,
    resourceOperations: [],
    next: [],
    operations: settledOperations,
    explanation: 'The import failed and was rolled back: the stack is as before. It can be updated again.',
  }),
  IMPORT_ROLLBACK_FAILED: state({
    status: 'IMPORT_ROLLBACK_FAILED',
    phase: 'failed',
    running: false,
    resourceOperations: [],
    next: [],
    operations: deleteOnly,
    explanation: 'The import failed and so did its rollback. Fix the resources, then delete the stack or retry.',
  }),
};

/** The statuses a stack can be in when it first appears (after the `<nonexistent>` state). */
export const INITIAL_STACK_STATUSES: readonly StackStatus[] = ['CREATE_IN_PROGRESS', 'REVIEW_IN_PROGRESS'];

const statusSet: ReadonlySet<string> = new Set(STACK_STATUSES);

/** Whether a string is a stack status this table knows. */
export function isStackStatus(value: string): value is StackStatus {
  return statusSet.has(value);
}

/** The lifecycle entry of a status, or undefined for a status this table does not know. */
export function stackStateInfo(status: string): StackStateInfo | undefined {
  return isStackStatus(status) ? STACK_STATES[status] : undefined;
}

/** The phase of a status; an unknown `*_IN_PROGRESS` status counts as in progress, other unknown ones as failed. */
export function stackPhase(status: string): StackPhase {
  const info = stackStateInfo(status);
  if (info) return info.phase;
  return status.endsWith('_IN_PROGRESS') ? 'in-progress' : 'failed';
}

/** Whether CloudFormation is working on a stack in this status (REVIEW_IN_PROGRESS is waiting, not working). */
export function isRunning(status: string): boolean {
  const info = stackStateInfo(status);
  return info ? info.running : status.endsWith('_IN_PROGRESS');
}

/** Whether a status is settled: no operation is in progress, the stack rests there until someone acts. */
export function isTerminal(status: string): boolean {
  return stackPhase(status) !== 'in-progress';
}

/** Whether the stack can never leave this status (its life is over). */
export function isFinal(status: string): boolean {
  const info = stackStateInfo(status);
  return info !== undefined && info.next.length === 0 && info.operations.length === 0;
}

/**
 * Whether `to` can directly follow `from` (`from` undefined: the stack did not exist).
 * An impossible observed transition means that polls missed intermediate states.
 */
export function isTransitionPossible(from: StackStatus | undefined, to: StackStatus): boolean {
  if (from === undefined) return INITIAL_STACK_STATUSES.includes(to);
  const info = STACK_STATES[from];
  return info.next.includes(to) || info.operations.some((edge) => edge.to === to);
}

/** The outcome of the operation that a stack status belongs to. */
export function operationOutcome(status: string): OperationOutcome {
  switch (stackPhase(status)) {
    case 'in-progress':
      return 'in-progress';
    case 'complete':
      return 'succeeded';
    default:
      return 'failed';
  }
}

/** Whether a stack operation may start from this status. */
export function isOperationAllowed(status: StackStatus, operation: StackOperation): boolean {
  return STACK_STATES[status].operations.some((edge) => edge.operation === operation);
}

/** Whether the stack is in one of the cleanup phases, where delete events concern old physical resources. */
export function isCleanupPhase(status: string): boolean {
  return status === 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' || status === 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS';
}

/**
 * Whether moving from `previous` to `next` starts a new operation: CloudFormation starts working
 * on a stack that was resting (settled, waiting in review, or not existing).
 */
export function startsOperation(previous: string | undefined, next: string): boolean {
  return (previous === undefined || !isRunning(previous)) && isRunning(next);
}
