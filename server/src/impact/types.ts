/**
 * The impact report: what CloudFormation will do when the new template replaces the old.
 * Field names mirror `DescribeChangeSet` so that people who know change sets read it at once;
 * `impact`, `reason` and ranges are what change sets lack.
 */
import type { Range } from '../template/ast';
import type { UpdateBehavior } from '../spec/types';

export type ChangeAction = 'Add' | 'Modify' | 'Remove';
export type Replacement = 'True' | 'False' | 'Conditional';
export type RequiresRecreation = 'Never' | 'Conditionally' | 'Always';
export type Evaluation = 'Static' | 'Dynamic';
export type ChangeSource = 'DirectModification' | 'ParameterReference' | 'ResourceReference' | 'ResourceAttribute';
export type ChangeScope = 'Properties' | 'Metadata' | 'Tags';

/** The effect on one resource, worst last: how a person should weigh the change. */
export type Impact =
  | 'create'
  | 'delete'
  | 'no-interruption'
  | 'some-interruption'
  | 'conditional-replacement'
  | 'replacement'
  | 'will-fail';

export interface ChangeTarget {
  attribute: ChangeScope;
  /** Top-level property name (absent for Metadata). */
  name?: string;
  /** Full path of the changed value, e.g. `/Properties/VpcConfig/SubnetIds/0`. */
  path: string;
  requiresRecreation: RequiresRecreation;
}

export interface ChangeDetail {
  target: ChangeTarget;
  evaluation: Evaluation;
  changeSource: ChangeSource;
  /** The parameter name, or `LogicalId` / `LogicalId.Attribute`, that caused the change, when not a direct edit. */
  causingEntity?: string;
  /** Update behaviour of the changed property according to the spec and the documentation overlay. */
  behavior: UpdateBehavior;
  /** Where the changed value is in the new template (or the old one, when it was removed). */
  range?: Range;
  rangeIn: 'new' | 'old';
  /** The values before and after, rendered for people (symbols as `${VPC}` / `${VPC.Arn}`). */
  before?: string;
  after?: string;
}

export interface ResourceChange {
  logicalId: string;
  resourceType: string;
  action: ChangeAction;
  /** Only for Modify. */
  replacement?: Replacement;
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
