/**
 * Inputs and outputs of template evaluation.
 */
import type { Range, TemplateError } from '../template/ast';
import type { TemplateModel } from '../template/model';
import type { Value } from './value';

/** What the caller knows about the deployment: parameter values and the pseudo parameters. */
export interface EvaluationContext {
  /** Supplied parameter values, as strings (CloudFormation's wire form). Missing ones fall back to defaults. */
  parameters: Record<string, string>;
  region: string;
  accountId: string;
  stackName: string;
  /** Defaults to the partition of the region (`aws`, `aws-cn`, `aws-us-gov`, ...). */
  partition?: string;
  /** Defaults to the URL suffix of the partition (`amazonaws.com`, `amazonaws.com.cn`). */
  urlSuffix?: string;
  /** A stack id ARN; defaults to a symbolic value. */
  stackId?: string;
  /** Notification ARNs of the stack; defaults to an empty list. */
  notificationArns?: string[];
}

/** A parameter's resolved value and where it came from. */
export interface ResolvedParameter {
  name: string;
  value: Value;
  source: 'supplied' | 'default' | 'missing';
}

/** One resource after evaluation. */
export interface EvaluatedResource {
  logicalId: string;
  type: string;
  /** False when the resource's Condition is false: CloudFormation does not create it. */
  active: boolean;
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

/** A fully evaluated template. */
export interface EvaluatedTemplate {
  model: TemplateModel;
  parameters: Map<string, ResolvedParameter>;
  conditions: Map<string, boolean>;
  /**
   * Conditions whose value depends on something known only at deploy time (an SSM
   * parameter, an unset parameter): they count as false in `conditions`, in resource
   * activity and in `Fn::If`, and a note says so.
   */
  undecidedConditions: Set<string>;
  resources: Map<string, EvaluatedResource>;
  /** Evaluated Output values, for views; never part of the no-op decision. Outputs whose Condition is false are absent. */
  outputs: Map<string, Value>;
  /** Evaluation problems: missing references, cycles, malformed intrinsics, each with a range. */
  errors: TemplateError[];
  /** Notes for the verdict, e.g. "Transform AWS::Serverless-2016-10-31 not expanded: analysed as written". */
  notes: { message: string; range?: Range }[];
}
