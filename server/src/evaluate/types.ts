/**
 * Inputs and outputs of template evaluation.
 */
import type { Range, TemplateError } from '../template/ast';
import type { TemplateModel } from '../template/model';
import type { SamNote } from '../sam/model/context';
import type { Value } from './value';

/** Something about the template that qualifies the verdict, as data, with where it is written. */
export type EvaluationNote = SamNote | (
  /** A template-level transform other than AWS::LanguageExtensions: the template is analysed as written. */
  | { kind: 'transform-not-expanded'; transform: string }
  /** `Fn::Transform` inside a value: what the macros produce is a value only they know. */
  | { kind: 'macro-not-expanded'; macros: string[] }
  /** A condition that reads values known only at deploy time: what it guards is compared as written. */
  | { kind: 'condition-undecided'; condition: string }
  /** `Fn::GetStackOutput` is read from the other stack at update time. */
  | { kind: 'stack-output-read-at-update' }
  /** A local path `aws cloudformation package` uploads (`Code: ./src`): the files there are not in the template. */
  | { kind: 'packaged-artifact'; logicalId: string; property: string; path: string }
  /** Registry modules, whose resources are not visible. */
  | { kind: 'registry-modules'; modules: string[] }
) & { range?: Range };

/** Values other stacks of the same account and Region publish, as the caller read them. */
export interface CrossStackValues {
  /** Every export of the Region (`ListExports`): export name → value. */
  exports?: ReadonlyMap<string, string>;
  /** Outputs of other stacks (`DescribeStacks`): stack name → output key → value. */
  stackOutputs?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** What the caller knows about the deployment: parameter values and the pseudo parameters. */
export interface EvaluationContext {
  /** Supplied parameter values, as strings (CloudFormation's wire form). Missing ones fall back to defaults. */
  parameters: Record<string, string>;
  /**
   * The stack's Region, when the caller knows it. Without it `AWS::Region` (and the partition and
   * URL suffix it decides) is a deploy-time value, the same before and after, never a default.
   */
  region?: string;
  /** The account's id; unknown (the same before and after) when the caller does not know it. */
  accountId?: string;
  /** The stack's name; unknown (the same before and after) when the caller does not know it. */
  stackName?: string;
  /** Defaults to the partition of the region (`aws`, `aws-cn`, `aws-us-gov`, ...); unknown without a region. */
  partition?: string;
  /** Defaults to the URL suffix of the partition (`amazonaws.com`, `amazonaws.com.cn`); unknown without a region. */
  urlSuffix?: string;
  /** A stack id ARN; defaults to a symbolic value. */
  stackId?: string;
  /** Notification ARNs of the stack; defaults to an empty list. */
  notificationArns?: string[];
  /**
   * What other stacks of the account publish, read by the caller (the engine never calls AWS):
   * with it, `Fn::ImportValue` and `Fn::GetStackOutput` resolve to their current values.
   */
  crossStack?: CrossStackValues;
  /**
   * The deployed stack's parameter values, for the new template of an update: what
   * `UsePreviousValue` means. A parameter with no supplied value and no Default takes its
   * previous value (which may itself be unknown: the same unknown on both sides), and so does
   * every parameter named in `usePrevious`, whatever its Default says.
   */
  previous?: {
    values: ReadonlyMap<string, Value>;
    usePrevious?: ReadonlySet<string>;
  };
}

/**
 * A parameter's resolved value and where it came from. `previous`: the deployed stack's value
 * (`UsePreviousValue`, or no value and no Default in the new template); `missing`: no value at
 * all. A missing value is the stack's current value, unknown here: `value` is an unknown keyed
 * by the parameter's name, so the same expression over it compares equal on both sides.
 */
export interface ResolvedParameter {
  name: string;
  value: Value;
  source: 'supplied' | 'default' | 'previous' | 'missing';
}

/** One resource after evaluation. */
export interface EvaluatedResource {
  logicalId: string;
  type: string;
  /**
   * False when the resource's Condition is false: CloudFormation does not create it. True when
   * it is true, and also when it is undecided: the resource is then compared as written, and
   * `undecidedCondition` says on what its existence depends.
   */
  active: boolean;
  /** The resource's Condition when only deploy-time values decide it: its name and canonical key. */
  undecidedCondition?: { name: string; key: string };
  /** Evaluated Properties (an object; `{}` when absent). `AWS::NoValue` entries are removed. */
  properties: Value;
  /** Evaluated resource-level Metadata (`undefined` when absent). */
  metadata: Value | undefined;
  /**
   * Logical ids this resource depends on: explicit DependsOn plus every Ref/GetAtt/Sub
   * reference in Properties, Metadata and the resource attributes, counting only the
   * branches of `Fn::If` that are taken (CloudFormation resolves conditions before it
   * orders the work). Explicit ones first, then in order of appearance, without repeats.
   */
  dependsOn: string[];
  /**
   * Evaluated resource attributes that are not Properties or Metadata (`DeletionPolicy`,
   * `UpdateReplacePolicy`, `CreationPolicy`, `UpdatePolicy`, ...), keyed as written.
   * They never trigger an update on their own, but their new values apply when one happens.
   */
  attributes: Record<string, Value>;
}

/** An output with an `Export`: its name, its evaluated value and where its Export is written. */
export interface ExportedOutput {
  output: string;
  value: Value;
  range: Range;
}

/** A fully evaluated template. */
export interface EvaluatedTemplate {
  model: TemplateModel;
  parameters: Map<string, ResolvedParameter>;
  conditions: Map<string, boolean>;
  /**
   * Conditions whose value depends on something known only at deploy time (an SSM
   * parameter, a parameter without a value), by name, each with a canonical key of what it
   * computes: two undecided conditions with the same key have the same value. Resources under
   * them are evaluated as present (`EvaluatedResource.undecidedCondition`), `Fn::If` over them
   * keeps both branches, and they are false in `conditions`.
   */
  undecidedConditions: Map<string, string>;
  resources: Map<string, EvaluatedResource>;
  /** Evaluated Output values, for views; never part of the no-op decision. Outputs whose Condition is false are absent. */
  outputs: Map<string, Value>;
  /** The outputs that are exported, by export name (names known only at deploy time left out). */
  exports: Map<string, ExportedOutput>;
  /** Evaluation problems: missing references, cycles, malformed intrinsics, each with a range. */
  errors: TemplateError[];
  /** What qualifies the verdict (a transform not expanded, a condition only AWS decides...), as data; `present/` words it. */
  notes: EvaluationNote[];
}
