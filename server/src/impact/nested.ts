/**
 * Nested stacks: an `AWS::CloudFormation::Stack` whose `TemplateURL` is a local file (as written
 * before `aws cloudformation package`) is analysed with its child template, and the child's plan
 * rolls up into the stack resource's change (docs/update-rules.md#nested-stacks).
 */
import type { EvaluatedResource, EvaluatedTemplate } from '../evaluate/types';
import { compactKey, valueKey } from '../evaluate/render';
import { isValueObject, UnknownValue, type Value } from '../evaluate/value';
import { parseTemplate, readTemplateModel } from '../template';
import type { Range } from '../template/ast';
import { deepestNodeAt } from './locate';
import { valuesEqual } from './valueDiff';
import type { NestedOutputs } from './compareTemplates';
import type { ChildTemplateProblem, ImpactDiagnostic, ImpactReport, NestedReport, ResourceChange } from './types';
import { propertyOf } from './writtenValues';

/** A child template as the caller read it: its text, or why there is none. */
export type ChildTemplate = { text: string } | { problem: ChildTemplateProblem };

/**
 * Where child templates come from, given by the caller (the engine reads no file). Paths are
 * relative to the folder of the top template, with `/` separators; each side reads from where its
 * top template came from (the edited files, git HEAD, the old file of a `diff`).
 */
export interface NestedTemplates {
  /** The top template's own path, relative to the same folder: a child that leads back to it is a cycle. */
  templatePath: string;
  readNew(path: string): ChildTemplate;
  readOld(path: string): ChildTemplate;
  /** How many levels of nesting are followed below the top template; deeper stacks are left out with a finding. */
  maxDepth?: number;
  /** How many nested stacks one analysis follows, all levels together; the rest are left out with a finding. */
  maxStacks?: number;
  /**
   * With a deployed stack as the baseline: the nested stack the deployed parent runs at
   * `stackPath` (its logical ids from the top stack down, `/`-separated), as the caller read it
   * through the nested stack's physical id. Undefined when the baseline is not a deployed stack.
   */
  readDeployed?(stackPath: string): DeployedChildStack | undefined;
}

/** A deployed parent's nested stack: the template it runs (GetTemplate) and its status, or why there is none. */
export type DeployedChildStack = { text: string; status: string } | { problem: ChildTemplateProblem };

/** The nesting levels followed when the caller sets none. */
export const DEFAULT_NESTED_DEPTH = 5;

/** The nested stacks one analysis follows when the caller sets no limit: a bound on hostile fan-out. */
export const DEFAULT_NESTED_STACKS = 50;

/** One side of a child stack: its template and the values its parent passes, known or not. */
export interface ChildSide {
  text: string;
  passed: ReadonlyMap<string, Value>;
  /** The old side of a deployed nested stack: its stack status (an update is refused in some). */
  status?: string;
}

/** A child stack's plan, and the outputs of it that the plan changes. */
export interface ChildAnalysis {
  report: ImpactReport;
  changedOutputs: ReadonlySet<string>;
}

/**
 * Analyses a child stack; the caller (analyze.ts) runs the whole pipeline one level down. The
 * child's own nested stacks count against `budget` (by default the analysis's shared one).
 */
export type AnalyzeChild = (before: ChildSide, after: ChildSide, childPath: string, logicalId: string, budget?: { left: number }) => ChildAnalysis;

/** Where a template sits in the nesting: its path and the paths above it. */
export interface NestingPlace {
  path: string;
  /** The logical ids of the stack resources from the top template down to this one, `/`-separated (empty at the top). */
  stackPath: string;
  /** The paths from the top template down to this one, this one included. */
  chain: readonly string[];
  depth: number;
  /** How many more child templates this analysis may follow, shared by every level. */
  budget: { left: number };
}

const STACK_TYPE = 'AWS::CloudFormation::Stack';
/** A detail's path that is one value a stack resource passes to its child. */
const PARAMETER_PATH = /^\/Properties\/Parameters\/([^/]+)$/;
const SAM_APPLICATION_TYPE = 'AWS::Serverless::Application';

/** What a child's analysis was made from, kept to make it again under another plan of its parent. */
interface AnalysedChild {
  childPath: string;
  before: ChildSide;
  /** The values the new side passes, before the parent's plan marks those that change. */
  passed: ReadonlyMap<string, Value>;
  newText: string;
  /** The stack resource's key, where a change only the child makes is placed. */
  range: Range;
  /** Whether the child's template changed as read from files: the stack is updated whatever its plan. */
  templateChanged: boolean;
  /** The passed parameters the plan it was analysed under changes (`changedParameterKey`). */
  changedParameters: string;
  /** How many of the analysis's nested stacks its own nested stacks took: an analysis again takes as many, not more. */
  nestedBelow: number;
}

/** The children rolled up into a parent's plan: what each one's plan says of its outputs, and how to analyse it again. */
export interface NestedRollUp {
  outputs: Map<string, NestedOutputs>;
  children: Map<string, AnalysedChild>;
}

/**
 * Follows each nested stack of `after` whose template is a local file and rolls its child's plan
 * up into `report`: the stack resource's change gets `nested`, and becomes a Modify when only the
 * child's template changed. Findings about the nesting go to `report.diagnostics` at `TemplateURL`.
 * Returns, for each stack resource whose child was analysed, the child's outputs that change.
 */
export function rollUpNestedStacks(
  report: ImpactReport,
  before: EvaluatedTemplate,
  after: EvaluatedTemplate,
  templates: NestedTemplates,
  place: NestingPlace,
  analyzeChild: AnalyzeChild,
): NestedRollUp {
  const outputs = new Map<string, NestedOutputs>();
  const children = new Map<string, AnalysedChild>();
  if (report.status === 'error') return { outputs, children };
  const limit = templates.maxDepth ?? DEFAULT_NESTED_DEPTH;
  // A new template whose child cannot be read cannot be packaged: the update is never made.
  let unpackable: ImpactDiagnostic | undefined;
  for (const [logicalId, next] of after.resources) {
    if (!next.active || next.type !== STACK_TYPE) continue;
    const url = propertyOf(next.properties, 'TemplateURL');
    if (typeof url !== 'string') continue;
    const decl = after.model.resources.get(logicalId)!;
    const urlRange = deepestNodeAt(decl.properties, ['TemplateURL'])?.range ?? decl.keyRange;
    const at = (diagnostic: Omit<ImpactDiagnostic, 'range' | 'rangeIn' | 'logicalId'>): void => {
      report.diagnostics.push({ ...diagnostic, range: urlRange, rangeIn: 'new', logicalId } as ImpactDiagnostic);
    };
    if (isRemote(url)) {
      at({ severity: 'info', code: 'nested-template-remote', finding: { kind: 'nested-template-remote', logicalId, url } });
      continue;
    }
    const childPath = joinPath(folderOf(place.path), url);
    if (place.chain.includes(childPath)) {
      at({ severity: 'warning', code: 'nested-cycle', finding: { kind: 'nested-cycle', logicalId, path: childPath } });
      continue;
    }
    if (place.depth + 1 > limit) {
      at({ severity: 'warning', code: 'nested-too-deep', finding: { kind: 'nested-too-deep', logicalId, path: childPath, limit } });
      continue;
    }
    if (place.budget.left <= 0) {
      const most = templates.maxStacks ?? DEFAULT_NESTED_STACKS;
      at({ severity: 'warning', code: 'nested-too-many', finding: { kind: 'nested-too-many', logicalId, path: childPath, limit: most } });
      continue;
    }
    place.budget.left -= 1;
    const newChild = templates.readNew(childPath);
    if ('problem' in newChild) {
      if (newChild.problem === 'not-read') {
        at({ severity: 'warning', code: 'nested-template-unreadable', finding: { kind: 'nested-template-unreadable', logicalId, path: childPath, side: 'new', reason: 'not-read' } });
        continue;
      }
      if (newChild.problem === 'missing') {
        // The words of `aws cloudformation package`, which is what stops a missing file.
        at({ severity: 'error', code: 'nested-template-missing', message: `Parameter TemplateURL of resource ${logicalId} refers to a file or folder that does not exist ${url}` });
      } else {
        at({ severity: 'error', code: 'nested-template-unreadable', finding: { kind: 'nested-template-unreadable', logicalId, path: childPath, side: 'new', reason: newChild.problem } });
      }
      unpackable ??= report.diagnostics[report.diagnostics.length - 1];
      continue;
    }
    const prev = before.resources.get(logicalId);
    // A new nested stack is created whole; there is no child plan to roll up.
    if (!prev?.active || prev.type !== STACK_TYPE) continue;
    const oldUrl = propertyOf(prev.properties, 'TemplateURL');
    if (typeof oldUrl !== 'string') continue;
    let oldChild: ChildTemplate;
    let oldStatus: string | undefined;
    if (isRemote(oldUrl)) {
      // A deployed stack's baseline names its child as packaged, in S3: the nested stack it runs
      // is the baseline when the caller read it, else the child is compared with nothing.
      const deployed = templates.readDeployed?.(childStackPath(place.stackPath, logicalId));
      if (deployed === undefined) {
        at({ severity: 'info', code: 'nested-template-remote', finding: { kind: 'nested-template-remote', logicalId, url: oldUrl } });
        continue;
      }
      oldChild = deployed;
      if ('status' in deployed) oldStatus = deployed.status;
    } else {
      oldChild = templates.readOld(joinPath(folderOf(place.path), oldUrl));
    }
    if ('problem' in oldChild) {
      const finding = isRemote(oldUrl)
        ? { kind: 'nested-template-unreadable' as const, logicalId, path: childPath, side: 'old' as const, reason: oldChild.problem, deployed: true }
        : { kind: 'nested-template-unreadable' as const, logicalId, path: joinPath(folderOf(place.path), oldUrl), side: 'old' as const, reason: oldChild.problem };
      at({ severity: 'warning', code: 'nested-template-unreadable', finding });
      continue;
    }
    const existing = report.changes.find((c) => c.logicalId === logicalId && c.action === 'Modify');
    const oldSide: ChildSide = { text: oldChild.text, passed: passedParameters(prev.properties), ...(oldStatus !== undefined ? { status: oldStatus } : {}) };
    const passed = passedParameters(next.properties);
    const budgetBefore = place.budget.left;
    const analysis = analyzeChild(oldSide, { text: newChild.text, passed: markChangedUnknowns(oldSide.passed, new Map(passed), existing) }, childPath, logicalId);
    const nestedBelow = budgetBefore - place.budget.left;
    const child = analysis.report;
    // A child whose template changed is updated even when its plan is empty (see below).
    const templateChanged = oldStatus === undefined && oldChild.text !== newChild.text;
    if (child.status !== 'error') {
      outputs.set(logicalId, { updated: child.status === 'update' || templateChanged, changed: analysis.changedOutputs });
      children.set(logicalId, { childPath, before: oldSide, passed, newText: newChild.text, range: decl.keyRange, templateChanged, changedParameters: changedParameterKey(existing), nestedBelow });
    }
    const nested = nestedReport(childPath, child);
    if (child.status === 'error') {
      const errors = child.diagnostics.filter((d) => d.severity === 'error' && d.rangeIn === 'new');
      at({
        severity: 'error',
        code: 'nested-template-invalid',
        finding: { kind: 'nested-template-invalid', logicalId, path: childPath, errors: errors.length, first: child.message ?? errors[0]?.message ?? '' },
      });
    }
    if (existing) {
      existing.nested = nested;
      continue;
    }
    // A child whose template changed is updated even when its parent's properties did not
    // (after packaging, its TemplateURL names a new object). A deployed child's template is the
    // one `package` wrote (reformatted): only its plan tells whether it changed.
    if (child.status === 'noop' && !templateChanged) continue;
    insertInTemplateOrder(report, after, childOnlyChange(logicalId, decl.keyRange, nested));
  }
  if (unpackable) rejectAsUnpackable(report, unpackable);
  return { outputs, children };
}

/**
 * Analyses again each child whose passed values `report` (the parent's plan made again knowing
 * its nested stacks' outputs) changes otherwise than the plan the child was analysed under: a
 * value passed from another nested stack's output that changes after all, or that keeps its
 * value. The new plans replace the old ones in `report` and in `rollUp`. Returns whether any
 * child's outputs now change otherwise, which may change the parent's plan again.
 */
export function reanalyseChildren(report: ImpactReport, after: EvaluatedTemplate, rollUp: NestedRollUp, analyzeChild: AnalyzeChild): boolean {
  let outputsMoved = false;
  for (const [logicalId, child] of rollUp.children) {
    const change = report.changes.find((c) => c.logicalId === logicalId && c.action === 'Modify');
    const changedParameters = changedParameterKey(change);
    if (changedParameters === child.changedParameters) continue;
    child.changedParameters = changedParameters;
    const passed = markChangedUnknowns(child.before.passed, new Map(child.passed), change);
    const analysis = analyzeChild(child.before, { text: child.newText, passed }, child.childPath, logicalId, { left: child.nestedBelow });
    if (analysis.report.status === 'error') continue;
    const outputs = { updated: analysis.report.status === 'update' || child.templateChanged, changed: analysis.changedOutputs };
    const previous = rollUp.outputs.get(logicalId);
    if (!previous || previous.updated !== outputs.updated || !sameSet(previous.changed, outputs.changed)) outputsMoved = true;
    rollUp.outputs.set(logicalId, outputs);
    const nested = nestedReport(child.childPath, analysis.report);
    if (change) change.nested = nested;
    else if (analysis.report.status !== 'noop' || child.templateChanged) insertInTemplateOrder(report, after, childOnlyChange(logicalId, child.range, nested));
  }
  return outputsMoved;
}

/** The passed parameters a plan's change of a stack resource changes, as one comparable key. */
function changedParameterKey(change: ResourceChange | undefined): string {
  const names: string[] = [];
  for (const detail of change?.details ?? []) {
    const name = detail.keepsValue ? undefined : PARAMETER_PATH.exec(detail.target.path)?.[1];
    if (name !== undefined) names.push(name);
  }
  return names.sort().join('\u0000');
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

/**
 * Carries what rolling the children up added to `from` over to `to`, the parent's plan made again
 * knowing which of its nested stacks' outputs change: each stack resource's `nested`, the
 * child-only updates, and the nesting's findings (`from`'s diagnostics from `firstDiagnostic` on).
 */
export function transplantNested(from: ImpactReport, to: ImpactReport, after: EvaluatedTemplate, firstDiagnostic: number): void {
  for (const change of from.changes) {
    if (!change.nested) continue;
    const target = to.changes.find((c) => c.logicalId === change.logicalId && c.action === 'Modify');
    if (target) target.nested = change.nested;
    else insertInTemplateOrder(to, after, change);
  }
  to.diagnostics.push(...from.diagnostics.slice(firstDiagnostic));
}

/** The stack path of a nested stack resource of the stack at `parentStackPath` (empty for the top stack). */
export function childStackPath(parentStackPath: string, logicalId: string): string {
  return parentStackPath === '' ? logicalId : `${parentStackPath}/${logicalId}`;
}

/**
 * The new side as the parent's own comparison sees it: a nested stack whose deployed template
 * the caller read keeps the deployed (packaged) TemplateURL where the new one names a local
 * file. `package` gives the child a new S3 object only when its template changed, and what
 * changed in it is the child's plan, rolled up afterwards as for a child read from git; the URL
 * itself says nothing more, and compared as written it would make every reader of the nested
 * stack's outputs look changed.
 */
export function withDeployedTemplateUrls(before: EvaluatedTemplate, after: EvaluatedTemplate, templates: NestedTemplates, place: NestingPlace): EvaluatedTemplate {
  if (!templates.readDeployed) return after;
  let resources: Map<string, EvaluatedResource> | undefined;
  for (const [logicalId, next] of after.resources) {
    if (!next.active || next.type !== STACK_TYPE || !isValueObject(next.properties)) continue;
    const url = next.properties.TemplateURL;
    const prev = before.resources.get(logicalId);
    const oldUrl = prev?.active && prev.type === STACK_TYPE ? propertyOf(prev.properties, 'TemplateURL') : undefined;
    if (typeof url !== 'string' || isRemote(url) || typeof oldUrl !== 'string' || !isRemote(oldUrl)) continue;
    const deployed = templates.readDeployed(childStackPath(place.stackPath, logicalId));
    if (deployed === undefined || 'problem' in deployed) continue;
    resources ??= new Map(after.resources);
    resources.set(logicalId, { ...next, properties: { ...next.properties, TemplateURL: oldUrl } });
  }
  return resources ? { ...after, resources } : after;
}

/** The report of an update that stops before CloudFormation sees it, like a template error: no changes, the error as its message. */
function rejectAsUnpackable(report: ImpactReport, error: ImpactDiagnostic): void {
  report.status = 'error';
  report.changes = [];
  delete report.risks;
  if (error.message !== undefined) report.message = error.message;
  else delete report.message;
}

/** The child report as it rolls up: what a person needs to see the child's plan. */
function nestedReport(path: string, child: ImpactReport): NestedReport {
  return {
    path,
    status: child.status,
    ...(child.message !== undefined ? { message: child.message } : {}),
    changes: child.changes,
    ...(child.risks ? { risks: child.risks } : {}),
    diagnostics: child.diagnostics,
  };
}

/** The stack resource's change when only its child changed: an update in place of the nested stack. */
function childOnlyChange(logicalId: string, range: Range, nested: NestedReport): ResourceChange {
  return {
    logicalId,
    resourceType: STACK_TYPE,
    action: 'Modify',
    replacement: 'False',
    scope: [],
    details: [],
    impact: 'no-interruption',
    range,
    rangeIn: 'new',
    nested,
  };
}

/** Puts a change among the report's changes in the new template's resource order (removals stay last), and makes a no-op an update. */
function insertInTemplateOrder(report: ImpactReport, after: EvaluatedTemplate, change: ResourceChange): void {
  const order = [...after.model.resources.keys()];
  const position = order.indexOf(change.logicalId);
  const index = report.changes.findIndex((c) => c.action === 'Remove' || order.indexOf(c.logicalId) > position);
  report.changes.splice(index === -1 ? report.changes.length : index, 0, change);
  if (report.status === 'noop') {
    report.status = 'update';
    delete report.message;
  }
}

/**
 * The new side's passed values, where the parent's plan says a value only AWS knows changes
 * although it reads the same (a `Ref` to a replaced resource is the same expression over a new
 * physical id): such a value becomes a different unknown, so the child sees it change.
 */
export function markChangedUnknowns(before: ReadonlyMap<string, Value>, after: Map<string, Value>, change: ResourceChange | undefined): Map<string, Value> {
  if (!change) return after;
  for (const detail of change.details) {
    if (detail.keepsValue) continue;
    const name = PARAMETER_PATH.exec(detail.target.path)?.[1];
    const value = name !== undefined ? after.get(name) : undefined;
    if (name === undefined || !(value instanceof UnknownValue) || !valuesEqual(before.get(name), value)) continue;
    after.set(name, new UnknownValue(`changed:${value.key}`, value.reason));
  }
  return after;
}

/**
 * The values a stack resource's `Parameters` pass to its child, known or not. A value only AWS
 * knows becomes an unknown of the child's, keyed by what the parent computes: the parent's
 * resources mean nothing in the child (a `Ref` to the parent's `Bucket` is not the child's).
 */
export function passedParameters(properties: Value): Map<string, Value> {
  const passed = new Map<string, Value>();
  const parameters = propertyOf(properties, 'Parameters');
  if (!isValueObject(parameters)) return passed;
  for (const [name, value] of Object.entries(parameters)) {
    const plain = value === null || typeof value !== 'object';
    passed.set(name, plain ? value : new UnknownValue(compactKey(`parent:${valueKey(value)}`), 'a value the parent stack passes, known at deploy time'));
  }
  return passed;
}

/** A template in S3 or on the web, which the engine cannot read (package has already run). */
export function isRemote(url: string): boolean {
  return /^(https?|s3):\/\//i.test(url);
}

/** Whether a template names a type that nests a stack: a cheap test before parsing or reading anything. */
export function mayNestStacks(text: string): boolean {
  return text.includes(STACK_TYPE) || text.includes(SAM_APPLICATION_TYPE);
}

/** The folder part of a `/`-separated path, empty for a bare file name. */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** `relative` read from `folder`, normalised (`.` and `..` resolved as far as the path allows), with `/` separators. */
export function joinPath(folder: string, relative: string): string {
  const written = relative.replace(/\\/g, '/');
  const segments = written.startsWith('/') ? [] : folder.split('/').filter((s) => s !== '');
  for (const segment of written.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else segments.push(segment);
  }
  return (written.startsWith('/') ? '/' : '') + segments.join('/');
}

/**
 * The child templates a template names as written (`TemplateURL` a literal local path,
 * or a SAM application's `Location`, which the transform turns into one), each
 * resolved against the template's own `path`: what a caller reads ahead for `NestedTemplates`
 * when it cannot read on demand (the language server's worker does no I/O). A `TemplateURL`
 * computed by a function is not known before evaluation and is left out.
 */
export function writtenChildPaths(text: string, path: string): string[] {
  const model = readTemplateModel(parseTemplate(text));
  const paths: string[] = [];
  for (const decl of model.resources.values()) {
    const property = decl.type === STACK_TYPE ? 'TemplateURL' : decl.type === SAM_APPLICATION_TYPE ? 'Location' : undefined;
    if (property === undefined || decl.properties?.kind !== 'map') continue;
    const url = decl.properties.entries.find((e) => e.key === property)?.value;
    if (url?.kind !== 'scalar' || typeof url.value !== 'string' || isRemote(url.value)) continue;
    paths.push(joinPath(folderOf(path), url.value));
  }
  return paths;
}
