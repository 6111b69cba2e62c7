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
 * Parse, model and evaluate one side: a template with no baseline, or a step of `analyzeUpdate`.
 * The new side of an update is given the evaluated baseline as `previous`: its parameters are
 * what `UsePreviousValue` reads, for the names in `usePreviousValues` and for every parameter
 * that has no value and no Default.
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

/**
 * Where `analyzeUpdate` keeps evaluated baselines between calls, so that a baseline is evaluated
 * once however often the edited side changes. A `Map` will do; the language server's worker keeps
 * one entry per open document. The caller names each entry, because only it knows cheaply what
 * identifies a baseline: its text, its parameter values and the options it is evaluated under.
 */
export interface BaselineCache {
  get(key: string): EvaluatedTemplate | undefined;
  set(key: string, evaluated: EvaluatedTemplate): void;
}

/** A cache for the baseline's evaluation, and the key this baseline is kept under in it. */
export interface BaselineCaching {
  baselineCache: BaselineCache;
  baselineKey: string;
}

/** Both sides of an update, evaluated, and CloudFormation's plan for it. */
export interface UpdateAnalysis {
  report: ImpactReport;
  before: EvaluatedTemplate;
  after: EvaluatedTemplate;
}

/**
 * Predicts what deploying `after` over a stack running `before` will do. With `caching`, the
 * baseline's evaluation is taken from the cache when it holds `baselineKey`, else evaluated and
 * kept there; everything else is computed on every call.
 */
export function analyzeUpdate(before: TemplateSide, after: TemplateSide, options: AnalyzeOptions, caching?: BaselineCaching): UpdateAnalysis {
  const evaluatedBefore = evaluateBaseline(before, options, caching);
  const evaluatedAfter = evaluateSide(after, options, evaluatedBefore);
  return { report: compareTemplates(evaluatedBefore, evaluatedAfter, options), before: evaluatedBefore, after: evaluatedAfter };
}

function evaluateBaseline(before: TemplateSide, options: AnalyzeOptions, caching: BaselineCaching | undefined): EvaluatedTemplate {
  if (!caching) return evaluateSide(before, options);
  const kept = caching.baselineCache.get(caching.baselineKey);
  if (kept) return kept;
  const evaluated = evaluateSide(before, options);
  caching.baselineCache.set(caching.baselineKey, evaluated);
  return evaluated;
}
