/**
 * The engine's front door: two template texts with their parameter values in, the report out.
 */
import { evaluateTemplate } from '../evaluate';
import type { EvaluatedTemplate, EvaluationContext } from '../evaluate/types';
import type { Value } from '../evaluate/value';
import type { ResourceSpec } from '../spec/types';
import { parseTemplate, readTemplateModel } from '../template';
import { compareTemplates } from './compareTemplates';
import type { ImpactReport } from './types';

export interface TemplateSide {
  text: string;
  /** Parameter values (CloudFormation's string form); missing ones take their defaults. */
  parameters?: Record<string, string>;
  /**
   * Values applied only to parameters this template declares, below `parameters`: a parameters
   * file shared by two templates, or a deployed stack's values for the next template (what
   * `UsePreviousValue` does). Undeclared keys here are not an error, unlike in `parameters`.
   */
  fallbackParameters?: Record<string, string>;
  /**
   * Parameters that keep the deployed stack's value (`UsePreviousValue`), for the new template:
   * the value the old side resolved to (known or not), whatever either template's default says.
   */
  usePreviousValues?: readonly string[];
}

export interface AnalyzeOptions {
  spec: ResourceSpec;
  region?: string;
  accountId?: string;
  stackName?: string;
  /** The deployed stack's status, when known: CloudFormation rejects updates in most states. */
  stackStatus?: string;
}

export const DEFAULT_REGION = 'us-east-1';
export const DEFAULT_ACCOUNT_ID = '123456789012';
export const DEFAULT_STACK_NAME = 'stack';

/**
 * Parse, model and evaluate one side; callers cache the baseline's result across edits. The new
 * side of an update is given the evaluated baseline as `previous`: its parameters are what
 * `UsePreviousValue` reads, for the names in `usePreviousValues` and for every parameter that
 * has no value and no Default.
 */
export function evaluateSide(side: TemplateSide, options: AnalyzeOptions, previous?: EvaluatedTemplate): EvaluatedTemplate {
  const model = readTemplateModel(parseTemplate(side.text));
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(side.fallbackParameters ?? {})) {
    if (model.parameters.has(name)) parameters[name] = value;
  }
  Object.assign(parameters, side.parameters);
  const ctx: EvaluationContext = {
    parameters,
    region: options.region ?? DEFAULT_REGION,
    accountId: options.accountId ?? DEFAULT_ACCOUNT_ID,
    stackName: options.stackName ?? DEFAULT_STACK_NAME,
  };
  if (previous !== undefined) {
    const values = new Map<string, Value>();
    for (const [name, p] of previous.parameters) values.set(name, p.value);
    ctx.previous = { values, usePrevious: new Set(side.usePreviousValues ?? []) };
  }
  return evaluateTemplate(model, ctx);
}

/** Predicts what deploying `after` over a stack running `before` will do. */
export function analyzeUpdate(
  before: TemplateSide,
  after: TemplateSide,
  options: AnalyzeOptions,
): { report: ImpactReport; before: EvaluatedTemplate; after: EvaluatedTemplate } {
  const evaluatedBefore = evaluateSide(before, options);
  const evaluatedAfter = evaluateSide(after, options, evaluatedBefore);
  return { report: compareTemplates(evaluatedBefore, evaluatedAfter, options), before: evaluatedBefore, after: evaluatedAfter };
}
