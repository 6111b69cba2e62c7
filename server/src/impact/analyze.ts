/**
 * The engine's front door: two template texts with their parameter values in, the report out.
 */
import { findEditSites } from './editSites';
import { packagedArtifactNotes } from './packagedArtifacts';
import { applyLanguageExtensions, evaluateTemplate, partitionOfRegion, unevaluated } from '../evaluate';
import type { CrossStackValues, EvaluatedTemplate, EvaluationContext } from '../evaluate/types';
import type { Value } from '../evaluate/value';
import { valueKey } from '../evaluate/render';
import { expandServerless, generatedByOf, languageExtensionsBeforeServerless, pointDetailsAtSamProperties, pointFindingsAtSamProperties, runsServerlessTransform, type LocalArtifacts, type SamNote, type SamSourceMap } from '../sam';
import type { StackDrift } from '../cloudformation/drift';
import { withDrift } from './drift';
import type { ResourceSpec } from '../spec/types';
import { isWellFormed, parseTemplate, readTemplateModel } from '../template';
import type { TemplateModel } from '../template/model';
import { changedOutputs, compareTemplates, type CompareOptions, type NestedOutputs } from './compareTemplates';
import { lastOperationDiagnostics, type LastOperationFailure } from './lastOperation';
import { childStackPath, DEFAULT_NESTED_STACKS, reanalyseChildren, rollUpNestedStacks, transplantNested, withDeployedTemplateUrls, type AnalyzeChild, type NestedTemplates, type NestingPlace } from './nested';
import type { ImpactDiagnostic, ImpactReport } from './types';

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
  /**
   * For a nested stack's template: the values its parent's `Parameters` pass, known or not. They
   * take precedence over everything else; a value only AWS knows stays that unknown.
   */
  passedParameters?: ReadonlyMap<string, Value>;
  /**
   * For a SAM template: whether each local artifact path it names (`localArtifactPaths`) is a
   * file or folder beside it, as the caller found. A missing one is an error; without this map,
   * or for a path not in it, nobody looked.
   */
  artifacts?: LocalArtifacts;
}

export interface AnalyzeOptions {
  spec: ResourceSpec;
  /** The deployed stack's drift as its last detection found it (a stack baseline's): what the update does to it. */
  drift?: StackDrift;
  /** Preview a drift-aware change set in `REVERT_DRIFT` mode: every drifted property set back to the template's value. */
  revertDrift?: boolean;
  /** The stack's Region, when known (the deployed stack's, or given): else `AWS::Region` is a deploy-time value, the same before and after. */
  region?: string;
  /** The account's id, when known (the deployed stack's, or given): else `AWS::AccountId` is a deploy-time value, the same before and after. */
  accountId?: string;
  /** The stack's name, when known (the deployed stack's, or given): else `AWS::StackName` is a deploy-time value, the same before and after. */
  stackName?: string;
  /** The deployed stack's status, when known: CloudFormation rejects updates in most states. */
  stackStatus?: string;
  /**
   * A SAM template reaches CloudFormation as written, with no `sam build`/`sam deploy` packaging it
   * first: a function with no code is then the transform's error (sam/plugins/samCliPackaging.ts).
   */
  withoutSamCli?: boolean;
  /**
   * The early-validation checks that rejected the deployed stack's last operation (DescribeEvents,
   * read by the caller with the stack): each is a warning where its template path still is in
   * the new template, until an operation succeeds.
   */
  lastOperationFailures?: readonly LastOperationFailure[];
  /**
   * What the caller read from the account about other stacks (the engine never calls AWS): the
   * Region's exports and other stacks' outputs, which imports resolve to, and who imports each
   * of the deployed stack's exports. Without it imports stay deploy-time values and a changed
   * export is a warning. Part of what identifies a cached baseline.
   */
  crossStack?: CrossStackValues & { importsByExport?: ReadonlyMap<string, readonly string[]> };
  /**
   * Where the child templates of nested stacks with a local `TemplateURL` are read from, on each
   * side. Without it nested stacks are compared by their own properties only.
   */
  nested?: NestedTemplates;
}

/** One side's evaluation; for a SAM template, of the processed template, with the source map of its expansion. */
export interface EvaluatedSide extends EvaluatedTemplate {
  /** From each resource the Serverless transform generated to the SAM resource and property that produced it. */
  samSourceMap?: SamSourceMap;
  /** For a SAM template, its model as written, before the transform: what the editor shows. */
  writtenModel?: TemplateModel;
}

/** What a side is to the analysis that evaluates it (`evaluateSide`). */
export interface SideRole {
  /** The evaluated baseline, for the new side of an update. */
  previous?: EvaluatedTemplate;
  /** The side is the stack's baseline. */
  baseline?: boolean;
}

/**
 * Parse, model and evaluate one side: a template with no baseline, or a step of `analyzeUpdate`.
 * The new side of an update is given the evaluated baseline as `previous`: its parameters are
 * what `UsePreviousValue` reads, for the names in `usePreviousValues` and for every parameter
 * that has no value and no Default.
 *
 * A template with `Transform: AWS::Serverless-2016-10-31` is expanded first (sam/), after its
 * parameter values are known and before anything is evaluated: SAM resolves parameters itself
 * where a generated logical id depends on them (an alias name, a function's code location), and
 * the evaluation then reads the processed template as CloudFormation does.
 *
 * A text that does not parse (a key typed, before its colon) is not evaluated: CloudFormation
 * reads nothing of it, and the tree the parser recovered from it does not nest as the text does.
 * A `baseline` that does not parse is the exception: the stack's baseline cannot be rejected, so
 * it is compared as that tree, at its best (the comparison says the baseline has errors).
 */
export function evaluateSide(side: TemplateSide, options: AnalyzeOptions, { previous, baseline = false }: SideRole = {}): EvaluatedSide {
  let model = readTemplateModel(parseTemplate(side.text));
  const wellFormed = isWellFormed(model.parsed);
  if (!wellFormed && !baseline) return unevaluated(model);
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(side.fallbackParameters ?? {})) {
    if (model.parameters.has(name)) parameters[name] = value;
  }
  Object.assign(parameters, side.parameters);
  const passedUnknowns = new Map<string, Value>();
  for (const [name, value] of side.passedParameters ?? []) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') parameters[name] = String(value);
    else passedUnknowns.set(name, value);
  }
  const ctx: EvaluationContext = { parameters };
  if (options.region !== undefined) ctx.region = options.region;
  if (options.accountId !== undefined) ctx.accountId = options.accountId;
  if (options.stackName !== undefined) ctx.stackName = options.stackName;
  if (options.crossStack) ctx.crossStack = options.crossStack;
  if (previous !== undefined || passedUnknowns.size > 0) {
    const values = new Map<string, Value>();
    for (const [name, p] of previous?.parameters ?? []) values.set(name, p.value);
    // A value the parent passes that only AWS knows is taken as the deployed value is: whatever the Default says.
    for (const [name, value] of passedUnknowns) values.set(name, value);
    ctx.previous = { values, usePrevious: new Set([...(side.usePreviousValues ?? []), ...passedUnknowns.keys()]) };
  }
  let samSourceMap: SamSourceMap | undefined;
  let samNotes: SamNote[] = [];
  const writtenModel = model;
  if (runsServerlessTransform(model)) {
    // AWS::LanguageExtensions listed first runs first.
    const samInput = languageExtensionsBeforeServerless(model) ? applyLanguageExtensions(model, ctx) : model;
    const expansion = expandServerless(samInput, {
      parameters: transformParameters(model, parameters, ctx),
      ...(ctx.region === undefined ? {} : { region: ctx.region, partition: partitionOfRegion(ctx.region) }),
      ...(side.artifacts ? { artifacts: side.artifacts } : {}),
      ...(options.withoutSamCli ? { withoutSamCli: true } : {}),
    });
    model = readTemplateModel(expansion.parsed, { processed: true });
    samSourceMap = expansion.sourceMap;
    samNotes = expansion.notes;
  }
  const evaluated: EvaluatedSide = evaluateTemplate(model, ctx);
  evaluated.notes.push(...packagedArtifactNotes(writtenModel));
  if (!wellFormed) {
    // What the recovered tree would mean is not judged; a SAM baseline's meaning, besides, is the
    // transform's output, which such a text never gets.
    evaluated.errors = [];
    evaluated.notes = [];
  }
  if (samSourceMap === undefined) return evaluated;
  evaluated.notes.push(...samNotes);
  evaluated.samSourceMap = samSourceMap;
  evaluated.writtenModel = writtenModel;
  return evaluated;
}

/**
 * The parameter values the Serverless transform sees: supplied values, and the deployed stack's
 * known values for the parameters that keep them. Defaults the transform reads itself; a value
 * known only to the deployed stack stays a reference.
 */
function transformParameters(model: ReturnType<typeof readTemplateModel>, supplied: Record<string, string>, ctx: EvaluationContext): Map<string, unknown> {
  const values = new Map<string, unknown>(Object.entries(supplied));
  for (const [name, decl] of model.parameters) {
    if (values.has(name)) continue;
    const keeps = ctx.previous?.usePrevious?.has(name) || decl.default === undefined;
    const previous = keeps ? ctx.previous?.values.get(name) : undefined;
    if (typeof previous === 'string') values.set(name, previous);
  }
  return values;
}

/** Compares two evaluated sides: CloudFormation's plan, each change to a generated resource attributed to its SAM resource and its values pointed at the SAM properties they come from. */
export function compareSides(before: EvaluatedSide, after: EvaluatedSide, options: AnalyzeOptions, nestedOutputs?: CompareOptions['nestedOutputs']): ImpactReport {
  if (!isWellFormed(after.model.parsed)) return rejectedUnread(after);
  const report = compareTemplates(before, after, nestedOutputs ? { ...options, nestedOutputs } : options);
  if (before.samSourceMap !== undefined || after.samSourceMap !== undefined) {
    for (const change of report.changes) {
      const generatedBy = generatedByOf(change, before.samSourceMap, after.samSourceMap);
      if (!generatedBy) continue;
      change.generatedBy = generatedBy;
      pointDetailsAtSamProperties(change, before.samSourceMap, after.samSourceMap);
    }
    pointFindingsAtSamProperties(report);
  }
  const editSites = findEditSites(before, after, report.changes);
  if (editSites.length > 0) report.editSites = editSites;
  return report;
}

/**
 * A text that does not parse, as CloudFormation answers it: rejected with the parser's messages,
 * before any transform runs. Nothing the text means is judged: the tree the parser recovered does
 * not nest as the text does, and a SAM template compared as written would have every SAM resource
 * read as a new type.
 */
function rejectedUnread(after: EvaluatedSide): ImpactReport {
  const diagnostics: ImpactDiagnostic[] = after.model.errors.map((e) => ({ severity: e.severity, message: e.message, code: e.code, range: e.range, rangeIn: 'new' }));
  const first = diagnostics.find((d) => d.severity === 'error');
  return { status: 'error', message: first?.message, changes: [], diagnostics, notes: [] };
}

/**
 * Where `analyzeUpdate` keeps evaluated sides between calls, so that a baseline, and each side of
 * a nested stack's child template, is evaluated once however often the edited side changes. A
 * `Map` will do; the language server's worker keeps one baseline per open document with its
 * children's sides. The caller names the baseline's entry, because only it knows cheaply what
 * identifies a baseline: its text, its parameter values and the options it is evaluated under;
 * the children's keys start with it.
 */
export interface BaselineCache {
  get(key: string): EvaluatedSide | undefined;
  set(key: string, evaluated: EvaluatedSide): void;
}

/** A cache for the baseline's evaluation, and the key this baseline is kept under in it. */
export interface BaselineCaching {
  baselineCache: BaselineCache;
  baselineKey: string;
}

/** Both sides of an update, evaluated, and CloudFormation's plan for it. */
export interface UpdateAnalysis {
  report: ImpactReport;
  before: EvaluatedSide;
  after: EvaluatedSide;
}

/**
 * Predicts what deploying `after` over a stack running `before` will do. With `caching`, the
 * baseline's evaluation is taken from the cache when it holds `baselineKey`, else evaluated and
 * kept there; so are both sides of each nested stack's child template, under keys made from the
 * baseline's, the child's place, its text and what the parent passes it: a keystroke in the
 * parent evaluates no child again unless what it passes changes. The edited side and the plans
 * are computed on every call.
 */
export function analyzeUpdate(before: TemplateSide, after: TemplateSide, options: AnalyzeOptions, caching?: BaselineCaching): UpdateAnalysis {
  const top = options.nested?.templatePath ?? '';
  const budget = { left: options.nested?.maxStacks ?? DEFAULT_NESTED_STACKS };
  const analysis = analyzeLevel(before, after, options, caching, undefined, { path: top, stackPath: '', chain: [top], depth: 0, budget });
  if (options.lastOperationFailures?.length) {
    analysis.report.diagnostics.push(...lastOperationDiagnostics(analysis.after.writtenModel ?? analysis.after.model, options.lastOperationFailures));
  }
  // What the update does to what was changed outside CloudFormation, from the deployed stack's last drift detection.
  if (options.drift) analysis.report = withDrift(analysis.report, options.drift, analysis.after, { spec: options.spec, revert: options.revertDrift === true });
  return analysis;
}

/**
 * One level of an update: the template's own plan, then the plans of its nested stacks rolled up
 * into it. `afterKey`, for a child template, keeps its edited side's evaluation in the cache too.
 */
function analyzeLevel(before: TemplateSide, after: TemplateSide, options: AnalyzeOptions, caching: BaselineCaching | undefined, afterKey: string | undefined, place: NestingPlace): UpdateAnalysis {
  const evaluatedBefore = evaluateBaseline(before, options, caching);
  const evaluateAfter = () => evaluateSide(after, options, { previous: evaluatedBefore });
  const evaluatedAfter = caching && afterKey !== undefined ? kept(caching.baselineCache, afterKey, evaluateAfter) : evaluateAfter();
  const compared = options.nested ? (withDeployedTemplateUrls(evaluatedBefore, evaluatedAfter, options.nested, place) as EvaluatedSide) : evaluatedAfter;
  const report = compareSides(evaluatedBefore, compared, options);
  if (options.nested) {
    const firstNestingDiagnostic = report.diagnostics.length;
    const analyzeChild: AnalyzeChild = (childBefore, childAfter, childPath, logicalId, budget = place.budget) => {
      // CloudFormation names a nested stack after its parent, its logical id and a random suffix:
      // its name is a deploy-time value of its own (what the parent passes it is keyed apart).
      const childOptions: AnalyzeOptions = { ...options };
      delete childOptions.stackName;
      // Who imports the parent's exports says nothing about the child's; its status is its own
      // (known when the deployed nested stack was read).
      delete childOptions.stackStatus;
      if (childBefore.status !== undefined) childOptions.stackStatus = childBefore.status;
      if (options.crossStack) childOptions.crossStack = { ...options.crossStack, importsByExport: undefined };
      const childPlace = { path: childPath, stackPath: childStackPath(place.stackPath, logicalId), chain: [...place.chain, childPath], depth: place.depth + 1, budget };
      // The child's sides are kept under what decides their evaluation: the parent's baseline (and
      // with it the options), the child's place, what the parent passes it and its text.
      const childCaching = caching && { baselineCache: caching.baselineCache, baselineKey: sideKey(`${caching.baselineKey}\u0000child ${childPlace.stackPath} ${childPath}${childBefore.status === undefined ? '' : ` ${childBefore.status}`}`, childBefore.passed, childBefore.text) };
      const child = analyzeLevel(
        { text: childBefore.text, passedParameters: childBefore.passed },
        { text: childAfter.text, passedParameters: childAfter.passed },
        childOptions,
        childCaching,
        childCaching && sideKey(`${childCaching.baselineKey}\u0000edited`, childAfter.passed, childAfter.text),
        childPlace,
      );
      const changed = child.report.status === 'error' ? new Set<string>() : changedOutputs(child.before, child.after, child.report.changes, options.spec);
      return { report: child.report, changedOutputs: changed };
    };
    const rollUp = rollUpNestedStacks(report, evaluatedBefore, evaluatedAfter, options.nested, place, analyzeChild);
    // Readers of a nested stack's outputs change with the outputs its child's plan changes, no
    // more and no less: the parent's plan is made again knowing them, the children's carried over.
    // A child passed such an output is analysed again under that plan, and its own outputs may
    // then change other readers: the plan is made again until nothing moves (each round settles
    // at least one more link of the chain, so there are no more rounds than children).
    let current = report;
    let nestingFrom = firstNestingDiagnostic;
    for (let round = 0; round <= rollUp.children.size && current.status !== 'error' && outputsMatter(evaluatedAfter, rollUp.outputs, current); round++) {
      const refined = compareSides(evaluatedBefore, compared, options, rollUp.outputs);
      const ownDiagnostics = refined.diagnostics.length;
      transplantNested(current, refined, evaluatedAfter, nestingFrom);
      current = refined;
      nestingFrom = ownDiagnostics;
      if (!reanalyseChildren(current, evaluatedAfter, rollUp, analyzeChild)) break;
    }
    return { report: current, before: evaluatedBefore, after: evaluatedAfter };
  }
  return { report, before: evaluatedBefore, after: evaluatedAfter };
}

/**
 * Whether knowing the children's changed outputs can change the parent's plan: a resource depends
 * on an analysed nested stack that is updated (its outputs change, or the plan already updates it
 * and, not knowing, takes every output as possibly changed).
 */
function outputsMatter(after: EvaluatedTemplate, outputs: ReadonlyMap<string, NestedOutputs>, report: ImpactReport): boolean {
  const updated = new Set([...outputs].filter(([logicalId, child]) => child.updated || report.changes.some((c) => c.logicalId === logicalId)).map(([logicalId]) => logicalId));
  if (updated.size === 0) return false;
  for (const resource of after.resources.values()) if (resource.dependsOn.some((id) => updated.has(id))) return true;
  return false;
}

function evaluateBaseline(before: TemplateSide, options: AnalyzeOptions, caching: BaselineCaching | undefined): EvaluatedSide {
  const evaluate = () => evaluateSide(before, options, { baseline: true });
  return caching ? kept(caching.baselineCache, caching.baselineKey, evaluate) : evaluate();
}

/** The side the cache keeps under `key`, else `evaluate`'s, kept there. */
function kept(cache: BaselineCache, key: string, evaluate: () => EvaluatedSide): EvaluatedSide {
  const found = cache.get(key);
  if (found) return found;
  const evaluated = evaluate();
  cache.set(key, evaluated);
  return evaluated;
}

/** A cache key for one side of a child template: `prefix`, the values its parent passes it, and its text. */
function sideKey(prefix: string, passed: ReadonlyMap<string, Value>, text: string): string {
  const values = [...passed].map(([name, value]) => `${name}=${valueKey(value)}`).join('\u0001');
  return `${prefix}\u0000${values}\u0000${text}`;
}

/** The state before a stack exists: no resources, no parameters. */
const NO_STACK = "AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n";

/**
 * Predicts what creating a stack from `after` does: every resource it declares (under a true
 * condition) is added, as a change set for a new stack lists them, and the template's errors
 * reject the creation. The empty state compared with is not a template anyone submits, so its
 * own "at least one resource" error is not reported.
 */
export function analyzeCreation(after: TemplateSide, options: AnalyzeOptions): UpdateAnalysis {
  const nothing = evaluateSide({ text: NO_STACK }, options);
  nothing.errors = [];
  nothing.model.errors = [];
  const evaluatedAfter = evaluateSide(after, options);
  return { report: compareSides(nothing, evaluatedAfter, options), before: nothing, after: evaluatedAfter };
}
