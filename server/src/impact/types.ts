/**
 * The impact report: what CloudFormation will do when the new template replaces the old.
 * Field names mirror `DescribeChangeSet` so that people who know change sets read it at once;
 * `impact`, `reason` and ranges are what change sets lack.
 */
import type { Range } from '../template/ast';
import type { RequiresRecreation, UpdateBehavior } from '../spec/types';

export type { RequiresRecreation } from '../spec/types';
export type ChangeAction = 'Add' | 'Modify' | 'Remove';
export type Replacement = 'True' | 'False' | 'Conditional';
export type Evaluation = 'Static' | 'Dynamic';
export type ChangeSource = 'DirectModification' | 'ParameterReference' | 'ResourceReference' | 'ResourceAttribute';
export type ChangeScope = 'Properties' | 'Metadata' | 'Tags';
export type AttributeChangeType = 'Add' | 'Remove' | 'Modify';
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
  scope: ChangeScope[];
  details: ChangeDetail[];
  impact: Impact;
  /** One line for a person: "replaced because VPC is replaced and VpcId requires replacement". */
  reason: string;
  /** Replacement chain, cause first: e.g. `["parameter Cidr", "VPC", "Subnet"]`. */
  replacementCause?: string[];
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
   * SAM property that caused this change (sam/generatedBy.ts).
   */
  generatedBy?: { logicalId: string; property?: string };
}

export interface ImpactDiagnostic {
  severity: 'error' | 'warning' | 'info';
  message: string;
  code: string;
  range?: Range;
  /** Which template the range points into. */
  rangeIn: 'new' | 'old';
  logicalId?: string;
}

/** The verdict for the whole stack. */
export interface ImpactReport {
  /** `noop`: CloudFormation would answer "No updates are to be performed."; `error`: it would reject the update. */
  status: 'update' | 'noop' | 'error';
  /** A one-line summary, worded like CloudFormation where it has words for it. */
  message: string;
  changes: ResourceChange[];
  diagnostics: ImpactDiagnostic[];
  /** Notes that qualify the verdict: untransformed macros, values only AWS can check, ... */
  notes: string[];
}
