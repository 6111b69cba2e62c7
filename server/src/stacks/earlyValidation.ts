/**
 * Early (pre-deployment) validation: CloudFormation checks an operation's template before it
 * touches any resource, and rejects the operation when a check in FAIL mode fails. The stack's
 * own events then say only that validation failed (DetailedStatus VALIDATION_FAILED); which check,
 * why and where in the template is in the operation's VALIDATION_ERROR events of DescribeEvents.
 */
import type { OperationEvent, StackEvent } from './types';

/** A check that rejected the operation. */
export interface ValidationFailure {
  name: string;
  reason?: string;
  /** Where in the template, such as `/Resources/Archive/Properties/BucketName`. */
  path?: string;
  /** The resource the check was about, when the event names one. */
  logicalId?: string;
  timestamp: number;
}

/**
 * The checks that rejected the operation, oldest first: failed ones in FAIL mode. A failed check
 * in WARN mode let the operation go on, so it is not why the operation failed.
 */
export function failedValidations(events: readonly OperationEvent[]): ValidationFailure[] {
  const failures: ValidationFailure[] = [];
  for (const event of events) {
    const validation = event.validation;
    if (event.eventType !== 'VALIDATION_ERROR' || !validation || validation.status !== 'FAILED' || validation.failureMode === 'WARN') continue;
    const failure: ValidationFailure = { name: validation.name, timestamp: event.timestamp };
    if (validation.reason !== undefined) failure.reason = validation.reason;
    if (validation.path !== undefined) failure.path = validation.path;
    if (event.logicalId !== undefined) failure.logicalId = event.logicalId;
    failures.push(failure);
  }
  return failures.sort((a, b) => a.timestamp - b.timestamp);
}

/**
 * The operation whose failures DescribeEvents is to be asked for: that of the newest event of the
 * stack itself, when CloudFormation gave it one. `events` are newest first, as snapshots hold them.
 */
export function latestOperationId(events: readonly StackEvent[], stackId: string): string | undefined {
  for (const event of events) if (event.physicalId === stackId && event.operationId) return event.operationId;
  return undefined;
}
