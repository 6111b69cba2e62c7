/**
 * The impact report: what CloudFormation will do when the new template replaces the old.
 * Field names mirror `DescribeChangeSet` so that people who know change sets read it at once;
 * `impact`, the structured causes and ranges are what change sets lack. Nothing here is a
 * sentence of ours: `server/src/present/` words changes for every face.
 */
import type { Range } from '../template/ast';
import type { EvaluationNote } from '../evaluate/types';
import type { RequiresRecreation, UpdateBehavior } from '../spec/types';
import type { HeldData } from './dataHolding';

export type { RequiresRecreation } from '../spec/types';
export type { HeldData } from './dataHolding';
export type ChangeAction = 'Add' | 'Modify' | 'Remove';
export type Replacement = 'True' | 'False' | 'Conditional';
export type Evaluation = 'Static' | 'Dynamic';
export type ChangeSource = 'DirectModification' | 'ParameterReference' | 'ResourceReference' | 'ResourceAttribute';
export type ChangeScope = 'Properties' | 'Metadata' | 'Tags';
/** `SyncWithActual` (drift-aware change sets): the drift status is reset, the value not changed. */
export type AttributeChangeType = 'Add' | 'Remove' | 'Modify' | 'SyncWithActual';
/** What happens to the physical resource: DeletionPolicy for a removal, UpdateReplacePolicy for a replacement. */
export type PolicyAction = 'Delete' | 'Retain' | 'Snapshot' | 'ReplaceAndDelete' | 'ReplaceAndRetain' | 'ReplaceAndSnapshot';

/**
 * The effect on one resource, mildest first: how a person should weigh the change. `none`: a
 * change set lists the resource because it re-reads a value at deploy time, but that value is
 * known to stay the same, so CloudFormation changes nothing.
 */
export type Impact =
  | 'none'
  | 'create'
  | 'delete'
  | 'no-interruption'
  | 'some-interruption'
  | 'conditional-replacement'
  | 'replacement'
  | 'will-fail';

/** `ResourceTargetDefinition`: which value changes and whether that recreates the resource. */
export interface ChangeTarget {
  /** `Tags` for the Tags property, as change sets write it; `Properties` for the others. */
  attribute: ChangeScope;
  /** The top-level property name when `attribute` is `Properties`; absent otherwise, as in change sets. */
  name?: string;
  /** Full path of the changed value, e.g. `/Properties/VpcConfig/SubnetIds/0`. */
  path: string;
  /** What the specification says at this path (`Conditionally` where it says "maybe"). */
  requiresRecreation: RequiresRecreation;
  attributeChangeType: AttributeChangeType;
  /** The values before and after, rendered for people (symbols as `${VPC}` / `${VPC.Arn}`). */
  beforeValue?: string;
  afterValue?: string;
  /** For base64 text (an instance's `UserData`): the first line that differs, decoded (decodedText.ts). */
  changedLine?: { line: number; before: string; after: string };
  /** Where `beforeValue` comes from, in a drift-aware preview: the live value (`ACTUAL_STATE`). */
  beforeValueFrom?: 'ACTUAL_STATE' | 'PREVIOUS_DEPLOYMENT_STATE';
}

export interface ChangeDetail {
  target: ChangeTarget;
  evaluation: Evaluation;
  changeSource: ChangeSource;
  /** The parameter name, or `LogicalId` / `LogicalId.Attribute`, that caused the change, when not a direct edit. */
  causingEntity?: string;
  /** Update behaviour of the changed property according to the spec and the documentation overlay. */
  behavior: UpdateBehavior;
  /**
   * Set on a `Dynamic` detail whose value is known to stay the same: what it reads is not
   * replaced, or is an attribute that an update in place cannot change (see valueDiff.ts).
   * A change set lists it all the same; it changes nothing.
   */
  keepsValue?: true;
  /** Where the changed value is in the new template (or the old one, when it was removed). */
  range?: Range;
  rangeIn: 'new' | 'old';
  /**
   * For a lookup keyed by values only the deployment knows: the change happens only where the
   * stack's keys are these (`{key: 'Size', values: ['large']}`); the values shown are the changed
   * entry's (valueDiff.ts).
   */
  when?: LookupCondition;
  /** For a resource the Serverless transform generated: the SAM property the changed value comes from (`Timeout`, `Events.Hello.Properties.Path`). */
  samProperty?: string;
}

/** The deploy-time keys of a lookup (`Size`) and the values of them that select a changed entry (`large`). */
export interface LookupCondition {
  key: string;
  values: string[];
}

export interface ResourceChange {
  logicalId: string;
  resourceType: string;
  action: ChangeAction;
  /**
   * Only for Modify: what the change set says, from each detail's RequiresRecreation and
   * Evaluation. `impact` is this analysis's verdict and may be milder (an instance type change is
   * `Conditional` here and `some-interruption` there).
   */
  replacement?: Replacement;
  /** What happens to the old physical resource, for a removal or a replacement. */
  policyAction?: PolicyAction;
  /** Set when no policy is written and `policyAction` is CloudFormation's default for the type (RDS: `Snapshot`). */
  policyDefaulted?: true;
  /** What this change puts at risk beyond the resource itself: its data, the cleanup (see `ChangeRisk`). */
  risks?: ChangeRisk[];
  scope: ChangeScope[];
  details: ChangeDetail[];
  impact: Impact;
  /** For Modify: the index in `details` of the detail that decides the impact (the worst, Static first). */
  decidedBy?: number;
  /** Why CloudFormation will accept this update and then fail it (impact `will-fail`). */
  failure?: UpdateFailure;
  /** For a replacement: the edit at its root and the resources replaced down to this one. */
  replacementCause?: ReplacementCause;
  /** For Add or Remove: the resource's Condition, which turned true (Add) or false (Remove). */
  conditionTurned?: string;
  /**
   * The resource's Condition, when only deploy-time values decide it (it reads a parameter
   * with no value here, or an SSM parameter): the change happens only if that condition holds.
   */
  condition?: string;
  /** The resource's key in the new template (Add/Modify) or the old one (Remove). */
  range: Range;
  rangeIn: 'new' | 'old';
  /**
   * For a resource the Serverless transform generated: the SAM resource that produced it and the
   * SAM property that caused this change (sam/output/generatedBy.ts).
   */
  generatedBy?: { logicalId: string; property?: string };
  /** For an `AWS::CloudFormation::Stack` whose template is a local file: the child stack's own plan (nested.ts). */
  nested?: NestedReport;
  /** How CloudFormation carries the update out, where an `UpdatePolicy` decides it (rollouts.ts). */
  rollout?: UpdateRollout;
  /**
   * For an update: the dynamic references the resource's properties hold
   * (`{{resolve:ssm:/app/version}}`), which CloudFormation resolves anew as it updates it
   * (dynamicReferences.ts). Only references, never the values behind them.
   */
  dynamicReferences?: string[];
  /** What the update does to the resource's properties changed outside CloudFormation, as its last drift detection found them (drift.ts). */
  drift?: DriftEffect[];
  /** In a REVERT_DRIFT preview: the template now says what is live, so only the drift status is reset (a change set's `SyncWithActual`). */
  syncWithActual?: true;
}

/**
 * What an update does to one property changed outside CloudFormation (`path`, as drift detection
 * writes it, inside `Properties`). In the normal mode: `overwritten` (the template changes it, the
 * live value goes), `may-revert` (another property of the resource is updated, and its handler may
 * write the template's value back), `stays` (the resource is not updated), `discarded` (the
 * resource is replaced and the new one is made from the template). In a REVERT_DRIFT preview:
 * `reverted` (set back to the template's value), `synced` (the template now says the live value:
 * only the drift status is reset), `kept` (left as it is, for `why`).
 */
export interface DriftEffect {
  kind: 'overwritten' | 'may-revert' | 'stays' | 'discarded' | 'reverted' | 'synced' | 'kept';
  path: string;
  /** The live value and the value the stack's template gave it, as drift detection wrote them (JSON text). */
  live?: string;
  previous?: string;
  /** The new template's value, rendered; absent when the new template leaves the property out. */
  next?: string;
  /** When the detection found it (epoch ms). */
  checkedAt?: number;
  why?: 'create-only' | 'aws-managed' | 'external-tag';
}

/**
 * How CloudFormation carries out an update beyond the resource's own API call: where its
 * `UpdatePolicy` hands it to another service, or what the update leaves as it was (as data;
 * `present/` words it).
 */
export type UpdateRollout =
  /**
   * An `AWS::Lambda::Alias` under `CodeDeployLambdaAliasUpdate` moves to another version:
   * CodeDeploy shifts the alias's traffic to it, running the hooks before and after and watching
   * the deployment group's alarms, and the stack update waits for the deployment and fails with it.
   */
  | {
      kind: 'traffic-shift';
      /** The deployment group: its logical id when the template declares it, else its name; absent when only AWS knows it. */
      deploymentGroup?: string;
      /** The deployment configuration, when the deployment group names one. */
      config?: DeploymentConfiguration;
      /** The Lambda functions CodeDeploy runs before traffic moves and after, by logical id or name. */
      hooks: { beforeTraffic?: string; afterTraffic?: string };
      /** How many CloudWatch alarms can stop the deployment (the deployment group's, when enabled); absent when the template does not declare the group. */
      alarms?: number;
    }
  /**
   * An Auto Scaling group's instances replaced in batches (`AutoScalingRollingUpdate`): at most
   * `maxBatchSize` at a time, `minInstancesInService` kept in service; `pauseTime` after each
   * batch, or the longest wait for its instances' signals when `waitsForSignals`.
   */
  | { kind: 'rolling-update'; maxBatchSize: number; minInstancesInService: number; pauseTime?: string; waitsForSignals: boolean }
  /** The whole group replaced (`AutoScalingReplacingUpdate` with `WillReplace`): a new group and its instances, the old one deleted in cleanup. */
  | { kind: 'replacing-update' }
  /** An Auto Scaling instance refresh (`AutoScalingInstanceRefresh`), with its strategy and the alarms that roll it back. */
  | { kind: 'instance-refresh'; strategy?: string; minHealthyPercentage?: number; alarms: number }
  /** A new launch template or configuration and no policy that replaces the instances: those running keep theirs. */
  | { kind: 'instances-kept' }
  /** An EC2 instance restarted for new `UserData`, whose scripts by default run only at first boot. */
  | { kind: 'user-data-not-rerun' };

/** A CodeDeploy deployment configuration: its name, and how it moves traffic when that is known. */
export interface DeploymentConfiguration {
  /** `CodeDeployDefault.LambdaCanary10Percent5Minutes`, a custom configuration's name or logical id. */
  name?: string;
  routing?: TrafficRouting;
}

/** How a Lambda deployment configuration moves traffic (`TrafficRoutingConfig`). */
export type TrafficRouting =
  | { type: 'all-at-once' }
  /** `percent` of the traffic for `minutes`, then all of it. */
  | { type: 'canary'; percent: number; minutes: number }
  /** `percent` more of the traffic every `minutes`, until all of it. */
  | { type: 'linear'; percent: number; minutes: number };

/**
 * What an update does inside a nested stack: the child template's report, with the parameter
 * values its parent passes. Ranges in `changes` and `diagnostics` point into the child's file.
 */
export interface NestedReport {
  /** The child template's path, relative to the folder of the top template. */
  path: string;
  status: ImpactReport['status'];
  /** CloudFormation's words for the child's no-op or rejection. */
  message?: string;
  changes: ResourceChange[];
  risks?: StackRisk[];
  diagnostics: ImpactDiagnostic[];
}

/** Why CloudFormation will accept an update and then fail it, as data (`present/` words it). */
export type UpdateFailure =
  /** The whole type cannot be updated (`AWS::CloudFormation::WaitCondition`). */
  | { kind: 'type-not-updatable' }
  /** A custom resource's ServiceToken changed. */
  | { kind: 'service-token' }
  /** A property whose documentation says updates are not supported changed. */
  | { kind: 'property-not-updatable'; property: string }
  /** The resource needs replacing but keeps an explicit name, which the replacement would need too. */
  | { kind: 'custom-name-replacement'; property: string; name: string }
  /** The replacement cannot be created while the old resource exists: a subnet's overlapping CIDR block in the same VPC. */
  | { kind: 'replacement-conflict'; conflict: 'subnet-cidr'; value: string }
  /** A DynamoDB table's update creates or deletes more than one global secondary index (a rename is both). */
  | { kind: 'index-operations'; created: string[]; deleted: string[] }
  /** A database's EngineVersion moves to another major version without `AllowMajorVersionUpgrade: true`. */
  | { kind: 'major-version-upgrade'; from: string; to: string }
  /** A database's EngineVersion moves to an earlier version, which RDS has no path to. */
  | { kind: 'engine-downgrade'; from: string; to: string }
  /** A DB instance's AllocatedStorage (GiB) decreases, which RDS never does. */
  | { kind: 'storage-decrease'; from: number; to: number }
  /** A DB instance's AllocatedStorage (GiB) grows by less than the 10 percent RDS requires. */
  | { kind: 'storage-increase-too-small'; from: number; to: number }
  /** An EKS cluster's Version moves anywhere but to the next Kubernetes minor version. */
  | { kind: 'kubernetes-version'; from: string; to: string }
  /** An ECS service whose `controller` (`CODE_DEPLOY`, `EXTERNAL`) owns the change to `property`: UpdateService refuses it. */
  | { kind: 'deployment-controller'; controller: 'CODE_DEPLOY' | 'EXTERNAL'; property: string }
  /** The resource was deleted outside CloudFormation (drift `DELETED`): the update finds nothing to update. */
  | { kind: 'deleted-outside'; checkedAt?: number };

/**
 * A risk that comes with a change, as data (`present/` words it). Each names what the resource
 * holds, from the list of data-holding types in dataHolding.ts. `possible`: the change may
 * replace the resource (impact `conditional-replacement`), and the risk comes only if it does.
 */
export type ChangeRisk =
  /**
   * The old physical resource of a replacement, or the removed resource, is deleted with its data:
   * `policy` is the attribute that decided it, `written` its value as written when there is one
   * (absent: the default, `Delete`; `Snapshot` on a type that cannot be snapshotted also deletes).
   */
  | { kind: 'data-loss'; holds: HeldData; policy: 'UpdateReplacePolicy' | 'DeletionPolicy'; written?: string; possible?: true }
  /**
   * The old physical resource of a replacement, or the removed resource, is kept with its data
   * (`Retain`), outside the stack: a replacement's new resource starts empty.
   */
  | { kind: 'data-kept'; holds: HeldData; policy: 'UpdateReplacePolicy' | 'DeletionPolicy'; possible?: true }
  /**
   * The old physical resource of a replacement, or the removed resource, is snapshotted, then
   * deleted (`Snapshot`, on a type that supports it): a replacement's new resource starts empty.
   */
  | { kind: 'data-snapshot'; holds: HeldData; policy: 'UpdateReplacePolicy' | 'DeletionPolicy'; possible?: true }
  /**
   * CloudFormation cannot delete the resource while it holds data (a bucket with objects): the
   * delete fails in cleanup, is retried, and the resource is left behind outside the stack, while
   * the update still completes.
   */
  | { kind: 'cleanup-may-fail'; holds: HeldData; possible?: true }
  /**
   * The deployed resource's service refuses to delete it: `protection` (DeletionProtection...) is
   * on. The delete fails in cleanup and the resource is left behind, outside the stack, with its
   * data, while the update completes.
   */
  | { kind: 'deletion-protected'; protection: string; possible?: true };

/**
 * A risk to the whole stack, as data (`present/` words it): what depends on this stack from
 * outside it. Kept open for more kinds (a nested stack's own risks).
 */
export type StackRisk =
  /**
   * An output with an `Export` changes value or is removed (`change`), or its export is renamed
   * (`removed` for the old name). Without an account it is not known whether another stack imports it.
   */
  | { kind: 'export-changes'; export: string; output: string; change: 'modified' | 'removed' }
  /** The same, for an export other stacks import (`ListImports`): CloudFormation fails the update. */
  | { kind: 'export-in-use'; export: string; output: string; change: 'modified' | 'removed'; importedBy: string[] };

/** Where a replacement comes from, as data: the edit at the root, then each replaced logical id. */
export interface ReplacementCause {
  /** What changed the deciding property of the first resource replaced: the property, and the parameter or resource behind it. */
  root: { property: string; changeSource: ChangeSource; causingEntity?: string };
  /** The logical ids replaced in turn, the root's resource first and this one last. */
  chain: string[];
}

/**
 * A finding of this analysis about the pair of templates, as data (`present/` words it). Template
 * errors are not findings: they reproduce CloudFormation's own messages and travel as `message`.
 */
export type Finding =
  /** Parameters with no value at hand, compared as the stack's current value (UsePreviousValue). */
  | { kind: 'parameters-current-value'; parameters: string[] }
  /** An early-validation check that rejected the deployed stack's last operation, at its template path. */
  | { kind: 'early-validation-failed'; check: string; reason?: string }
  /** A resource under a condition only AWS decides, whose condition changed: it may be created or deleted. */
  | { kind: 'condition-may-change'; logicalId: string; condition: string }
  /** An AWS type the resource specification does not list. */
  | { kind: 'unknown-resource-type'; resourceType: string }
  /** The baseline is not a template; `reason` is why, in CloudFormation's words. */
  | { kind: 'baseline-not-a-template'; reason: string }
  /** The baseline has template errors; `first` is the first, in CloudFormation's words. */
  | { kind: 'baseline-invalid'; errors: number; first: string }
  /** A change's risk, placed at the resource (for a removal, at the new template's Resources key). */
  | { kind: 'change-risk'; logicalId: string; resourceType: string; action: ChangeAction; risk: ChangeRisk }
  /** A risk to the stack, placed at the output. */
  | StackRisk
  /**
   * A REST API whose served definition changes (`changed`: the API or its parts) while none of its
   * `deployments` is created anew: its stages keep serving the API as it was (apiDeployments.ts).
   */
  | { kind: 'api-not-redeployed'; restApi: string; changed: string[]; deployments: string[] }
  /**
   * Functions whose versioned code or settings change while none of their versions is created
   * anew: what reads the versions (aliases, permissions...) keeps each function as it was
   * (lambdaVersions.ts). One function each, but for SAM functions a Globals edit changes together:
   * one finding at that line for them all. `sam`: SAM's functions, whose versions SAM names (both
   * set by sam/output/generatedBy.ts once changes are attributed).
   */
  | { kind: 'version-not-republished'; functions: UnpublishedFunction[]; sam?: true }
  /** A nested stack's template is in S3 or on the web: its changes are not analysed (placed at TemplateURL). */
  | { kind: 'nested-template-remote'; logicalId: string; url: string }
  /** A nested stack's template is one of the templates above it: not followed (placed at TemplateURL). */
  | { kind: 'nested-cycle'; logicalId: string; path: string }
  /** A nested stack deeper than the limit: not followed (placed at TemplateURL). */
  | { kind: 'nested-too-deep'; logicalId: string; path: string; limit: number }
  /** More nested stacks than the limit in one analysis: the rest are not followed (placed at TemplateURL). */
  | { kind: 'nested-too-many'; logicalId: string; path: string; limit: number }
  /** A nested stack's template could not be read on one side: `too-large` (over CloudFormation's 1 MB) or `unreadable`. */
  /** `deployed`: the old side is the nested stack a deployed parent runs, read through its physical id. */
  | { kind: 'nested-template-unreadable'; logicalId: string; path: string; side: 'new' | 'old'; reason: ChildTemplateProblem; deployed?: boolean }
  /** A nested stack's new template has template errors: the update fails when CloudFormation reaches it. `first` is the first, in CloudFormation's words. */
  | { kind: 'nested-template-invalid'; logicalId: string; path: string; errors: number; first: string }
  /** A property changed outside CloudFormation, and what this update does to it (placed where the new template writes it, else at the resource). */
  | { kind: 'drift'; logicalId: string; effect: DriftEffect; revert?: true }
  /** A resource whose last drift detection is older than its last update: it says nothing about the resource as it is. */
  | { kind: 'drift-stale'; logicalId: string; checkedAt: number; lastUpdated: number }
  /** A resource deleted outside CloudFormation that this update leaves alone: the stack still lists it. */
  | { kind: 'drift-deleted'; logicalId: string; checkedAt?: number };

/** A function whose change no new version publishes: what changed, its versions, and what reads them. */
export interface UnpublishedFunction {
  function: string;
  changed: string[];
  versions: string[];
  readers: string[];
}

/**
 * Why a child template could not be read: missing is worded as `aws cloudformation package` words
 * it; `not-read` is a baseline whose children the caller does not read (a deployed stack's).
 */
export type ChildTemplateProblem = 'missing' | 'too-large' | 'unreadable' | 'not-read';

interface DiagnosticPlace {
  severity: 'error' | 'warning' | 'info';
  code: string;
  range?: Range;
  /** Which template the range points into. */
  rangeIn: 'new' | 'old';
  logicalId?: string;
}

/** A problem or finding at a place: a template error in CloudFormation's words, or a finding of ours as data. */
export type ImpactDiagnostic = DiagnosticPlace & ({ message: string; finding?: undefined } | { finding: Finding; message?: undefined });

/** Something that qualifies the verdict, as data: what the template holds that cannot be seen, values only AWS checks. */
export type ReportNote =
  | EvaluationNote
  /** A parameter AWS resolves at deploy time (an SSM parameter): assumed unchanged. `value` describes it. */
  | { kind: 'parameter-resolved-by-aws'; parameter: string; value: string }
  /** A parameter of an AWS-specific type whose value changed: AWS validates it only once the update runs. */
  | { kind: 'parameter-validated-late'; parameter: string; type: string }
  /** A REVERT_DRIFT preview of a stack no drift detection has checked: there is no drift known to set back. */
  | { kind: 'drift-never-checked' }
  /** A REVERT_DRIFT preview: resources no detection checked (types drift detection does not support among them), compared template to template. */
  | { kind: 'drift-not-checked'; logicalIds: string[] };

/** The verdict for the whole stack. */
/** What kind of thing was edited. */
export type EditSiteKind = 'parameter' | 'mapping-entry' | 'condition' | 'globals';

/** One edit outside the resources, and what it causes. */
export interface EditSite {
  kind: EditSiteKind;
  /** As the template names it: `InstanceType`, `SubnetConfig.PublicOne.CIDR`, `IsProd`, `Function.Timeout`. */
  name: string;
  /** The edited entry's key, in the new text. */
  range: Range;
  /** The changes it causes, in template order: `via` names the replaced resource a cascaded change follows. */
  effects: EditEffect[];
}

export interface EditEffect {
  /** The changed resource; for a resource the Serverless transform generates, the SAM resource it comes from. */
  logicalId: string;
  /** The change overwrites a value changed outside CloudFormation, as the last drift detection found it (drift.ts). */
  overwritesDrift?: string[];
  action: ResourceChange['action'];
  impact: ResourceChange['impact'];
  /** The resource whose replacement (or new attribute) this change follows, when it does not read the edit itself. */
  via?: string;
  /**
   * For a SAM resource, the generated resource whose change this is when it is not the one that
   * bears the SAM resource's name (its role, its version): the weightiest of what it generates.
   */
  generated?: { logicalId: string; resourceType: string };
}

export interface ImpactReport {
  /** `noop`: CloudFormation would answer "No updates are to be performed."; `error`: it would reject the update. */
  status: 'update' | 'noop' | 'error';
  /**
   * CloudFormation's words for a no-op or a rejection ("No updates are to be performed.", the
   * rejecting error). An update has none: its summary is worded by `present/` from the changes.
   */
  message?: string;
  changes: ResourceChange[];
  /** Risks to the stack as a whole (exports other stacks may import); absent when there are none. */
  risks?: StackRisk[];
  diagnostics: ImpactDiagnostic[];
  notes: ReportNote[];
  /** Edits outside the resources (a parameter's value, a mapping entry, a condition, a Globals value) and the changes each causes; absent when there are none. */
  editSites?: EditSite[];
}
