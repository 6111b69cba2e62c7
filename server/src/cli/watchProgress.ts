/**
 * The progress `cfn-impact watch` reports: the stack's operation progress, held so that the
 * count of resources done never goes back (a rollback moves finished resources back into
 * progress, which a bar or a CI log should not show as lost work), reported only when a count
 * changes.
 */
import { isRunning } from '../cloudformation/stackLifecycle';
import { NO_HISTORY, operationProgress, type OperationProgress } from '../stacks/operationProgress';
import type { StackSnapshot } from '../stacks/stackWatcher';

/** Follows one stack's operation progress from snapshot to snapshot. */
export class WatchProgress {
  /** The latest progress computed, whether or not it was reported. */
  current?: OperationProgress;
  private last?: OperationProgress;
  private operationStart?: number;

  /**
   * The progress at `now` when its counts differ from the last one returned, else undefined.
   * Nothing before the stack's events were read, since counts from a bare listing would be wrong.
   */
  next(stack: StackSnapshot | undefined, now: number): OperationProgress | undefined {
    if (!stack?.detailed || !stack.operation) return undefined;
    const computed = operationProgress(stack, stack.durations ?? NO_HISTORY, now);
    if (!computed) return undefined;
    if (this.operationStart !== stack.operation.startedAt) {
      this.operationStart = stack.operation.startedAt;
      this.last = undefined;
    }
    const previous = this.last;
    const total = Math.max(computed.total, previous?.total ?? 0);
    const done = isRunning(stack.status) ? Math.min(total, Math.max(computed.done, previous?.done ?? 0)) : total;
    const progress: OperationProgress = { ...computed, total, done };
    this.current = progress;
    if (
      previous &&
      previous.done === progress.done &&
      previous.total === progress.total &&
      previous.inProgress === progress.inProgress &&
      previous.failed === progress.failed
    ) {
      return undefined;
    }
    this.last = progress;
    return progress;
  }
}
