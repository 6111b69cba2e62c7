/**
 * Plain data read from CloudFormation, independent of the SDK's types: timestamps are epoch
 * milliseconds and optional strings are absent rather than empty.
 */

export interface StackSummary {
  stackId: string;
  stackName: string;
  status: string;
  statusReason?: string;
  creationTime: number;
  lastUpdatedTime?: number;
  deletionTime?: number;
  description?: string;
  /**
   * `EXPRESS` when the stack's operations complete as soon as resource configuration is applied
   * (`Stack.DeploymentConfig.Mode`); only DescribeStacks says, so listings leave it absent.
   */
  deploymentMode?: string;
  /** The stack's latest operations, newest first (`LastOperations` of ListStacks and DescribeStacks). */
  lastOperations?: OperationEntry[];
  /** For a nested stack, the id of the stack whose resource it is (`ParentId`). */
  parentId?: string;
  /** The stack's last drift detection (`DriftInformation`): its status and when it ran. */
  drift?: DriftInformation;
}

/** `DriftInformation` of a stack or a resource: `NOT_CHECKED` until a detection checks it. */
export interface DriftInformation {
  status: string;
  checkedAt?: number;
}

/** One of a stack's latest operations as CloudFormation names it: `CREATE_STACK`, `UPDATE_STACK`, `ROLLBACK`, … */
export interface OperationEntry {
  operationType: string;
  operationId: string;
}

/** The stack-level fields the watcher keeps and shows: a listing's, less the deletion time. */
export type StackFields = Omit<StackSummary, 'deletionTime'>;

export interface StackDescription extends StackSummary {
  parameters: { key: string; value?: string; resolvedValue?: string }[];
  outputs: { key: string; value?: string; description?: string; exportName?: string }[];
  tags: { key: string; value: string }[];
  disableRollback?: boolean;
  rootId?: string;
}

/** One export of the Region (ListExports). */
export interface StackExport {
  name: string;
  value: string;
  exportingStackId: string;
}

/** A change set of a stack, as ListChangeSets summarises it. */
export interface ChangeSetSummary {
  changeSetId: string;
  changeSetName: string;
  stackName: string;
  status: string;
  executionStatus: string;
  statusReason?: string;
  creationTime: number;
  description?: string;
}

/** One `ResourceChange` of a change set, in the engine's field names (DescribeChangeSet's, camel-cased). */
export interface ChangeSetResourceChange {
  logicalId: string;
  physicalId?: string;
  resourceType: string;
  action: string;
  replacement?: string;
  policyAction?: string;
  scope: string[];
  /** A drift-aware change set's drift status of the resource (`MODIFIED`, `IN_SYNC`, `UNSUPPORTED`...). */
  driftStatus?: string;
  details: {
    target: {
      attribute: string;
      name?: string;
      path?: string;
      requiresRecreation?: string;
      attributeChangeType?: string;
      beforeValue?: string;
      afterValue?: string;
      /** A drift-aware change set's source of `beforeValue` (`ACTUAL_STATE`) and the property's drift. */
      beforeValueFrom?: string;
      drift?: { previousValue?: string; actualValue?: string };
    };
    evaluation?: string;
    changeSource?: string;
    causingEntity?: string;
  }[];
  /** The logical ids of the nested stacks this change is inside, outermost first; empty for the stack's own resources. */
  nestedIn: string[];
}

/** A change set as DescribeChangeSet describes it, with the changes of its nested change sets. */
export interface ChangeSetDescription extends ChangeSetSummary {
  parameters: Record<string, string>;
  /** `REVERT_DRIFT` for a drift-aware change set. */
  deploymentMode?: string;
  changes: ChangeSetResourceChange[];
}

export interface StackEvent {
  eventId: string;
  stackId: string;
  stackName: string;
  logicalId: string;
  physicalId?: string;
  resourceType: string;
  timestamp: number;
  status: string;
  reason?: string;
  /** The operation the event belongs to (CloudFormation gives it since November 2025). */
  operationId?: string;
  /** `CONFIGURATION_COMPLETE` (configured, still stabilising) or `VALIDATION_FAILED` (rejected by early validation). */
  detailedStatus?: string;
}

/**
 * A check CloudFormation ran on an operation's template before touching any resource (early, or
 * pre-deployment, validation), as DescribeEvents reports it.
 */
export interface ValidationResult {
  name: string;
  /** `FAILED` or `SKIPPED`. */
  status: string;
  reason?: string;
  /** Where in the template the check applies, such as `/Resources/Bucket/Properties/BucketName`. */
  path?: string;
  /** `FAIL` (the operation is rejected) or `WARN`. */
  failureMode?: string;
}

/** One event of DescribeEvents: a stack event, a progress event, or a validation, provisioning or hook error. */
export interface OperationEvent {
  eventId: string;
  stackId: string;
  operationId?: string;
  /** `CREATE_STACK`, `UPDATE_STACK`, `ROLLBACK`, … */
  operationType?: string;
  /** `STACK_EVENT`, `PROGRESS_EVENT`, `VALIDATION_ERROR`, `PROVISIONING_ERROR` or `HOOK_INVOCATION_ERROR`. */
  eventType: string;
  logicalId?: string;
  physicalId?: string;
  resourceType?: string;
  timestamp: number;
  status?: string;
  reason?: string;
  detailedStatus?: string;
  validation?: ValidationResult;
}

export interface StackResource {
  logicalId: string;
  physicalId?: string;
  resourceType: string;
  status: string;
  reason?: string;
  lastUpdated: number;
  /** The resource's last drift detection. */
  drift?: DriftInformation;
}

/** What the last drift detection found on a drifted resource (DescribeStackResourceDrifts). */
export interface StackResourceDrift {
  logicalId: string;
  resourceType: string;
  status: string;
  checkedAt: number;
  differences: { path: string; expected?: string; actual?: string; difference: string }[];
}

/** The read operations on CloudFormation, named as the API names them. */
export const READ_ACTIONS = [
  'ListStacks',
  'DescribeStacks',
  'ListStackResources',
  'DescribeStackEvents',
  'DescribeEvents',
  'GetTemplate',
  'ListExports',
  'ListImports',
  'ListChangeSets',
  'DescribeChangeSet',
  'DescribeStackResourceDrifts',
  'DescribeStackDriftDetectionStatus',
] as const;

/**
 * The one call that starts something: a drift detection, which changes no resource, only the
 * drift status CloudFormation records. Made only when a person asks (the Detect Drift command).
 */
export const DRIFT_DETECTION_ACTION = 'DetectStackDrift';

export type ReadAction = (typeof READ_ACTIONS)[number];

export type ReaderErrorKind =
  | 'throttled'
  | 'expired-credentials'
  /** The computer's clock is too far from AWS's for signatures to be accepted (the SDK corrects its offset). */
  | 'clock-skew'
  | 'no-credentials'
  | 'access-denied'
  | 'not-found'
  | 'network'
  | 'unknown-region'
  | 'server'
  | 'cancelled'
  | 'other';

/** A failed read, described for a person: what went wrong and what fixes it. Never holds secrets. */
export interface ReaderError {
  kind: ReaderErrorKind;
  message: string;
  fix: string;
  /** The AWS error code when there is one (`Throttling`, `ValidationError`, …). */
  code?: string;
}

export type ReadResult<T> = { ok: true; value: T } | { ok: false; error: ReaderError };
