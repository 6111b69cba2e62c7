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
  /** Logical ids this resource depends on: explicit DependsOn plus every Ref/GetAtt/Sub reference. */
  dependsOn: string[];
}

/** A fully evaluated template. */
export interface EvaluatedTemplate {
  model: TemplateModel;
  parameters: Map<string, ResolvedParameter>;
  conditions: Map<string, boolean>;
  resources: Map<string, EvaluatedResource>;
  /** Evaluated Outputs, for views; never part of the no-op decision. */
  outputs: Map<string, Value>;
  /** Evaluation problems: missing references, cycles, malformed intrinsics, each with a range. */
  errors: TemplateError[];
  /** Notes for the verdict, e.g. "Transform AWS::Serverless-2016-10-31 not expanded: analysed as written". */
  notes: { message: string; range?: Range }[];
}
