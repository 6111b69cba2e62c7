/**
 * Template evaluation: parameters, pseudo parameters, mappings, conditions and every
 * intrinsic function, to a value tree where what only AWS knows stays symbolic.
 *
 * Rules worth knowing (each mirrors what CloudFormation does, or says why it cannot):
 * - A parameter with no value at hand is the stack's current value: unknown, and the same
 *   unknown on both sides of a comparison (parameters.ts).
 * - A condition that depends on a value known only at deploy time (an SSM-typed
 *   parameter, a parameter without a value) is undecided, with a canonical key of what it
 *   computes. The resources under it are evaluated as present and marked with it, so that
 *   a change to them is compared as written and reported "if it holds", never dropped;
 *   `Fn::If` over it keeps both branches; outputs under it are left out; a note says so.
 * - Dependencies come from the branches of `Fn::If` that are taken, because
 *   CloudFormation resolves conditions before it orders the work. The other branch is
 *   still validated: a reference there to an undeclared name is an error, as it is for
 *   CloudFormation, which validates the whole template.
 * - A reference from a deployed expression to a resource whose Condition is false is
 *   the error CloudFormation raises at deployment ("Unresolved resource dependencies"),
 *   unless that Condition is undecided: then only AWS can tell, and nothing is reported.
 * - Transforms other than AWS::LanguageExtensions are not expanded; a note says so.
 * - Resources of a registry module (`::MODULE`) are not visible: references to names a module
 *   expands into are unknowns that depend on the module, and a cycle through a module is not
 *   reported (modules.ts).
 * - A function applied to a macro's output (`Fn::Transform` inside a value) is an unknown keyed
 *   by what the macro receives (macros.ts).
 */
import { LANGUAGE_EXTENSIONS_TRANSFORM, readTemplateModel } from '../template/index';
import type { ResourceDecl, TemplateModel } from '../template/model';
import { ErrorSink, unresolvedMessage } from './errors';
import { Evaluator, type Scope } from './evaluator';
import { setEntry, toPlain } from '../template/tree';
import { isCycle, stronglyConnectedComponents } from './graph';
import { expandForEach, resolveKnownIntrinsics, usesForEach, type UnknownCollection } from './languageExtensions';
import { isOpaqueType } from './modules';
import { resolveParameters } from './parameters';
import { pseudoParameterValues } from './pseudo';
import type { EvaluatedResource, EvaluatedTemplate, EvaluationContext, EvaluationNote, ExportedOutput } from './types';
import { isValueObject, UnknownValue, type Value, type ValueObject } from './value';
import type { Range } from '../template/ast';

export type { CrossStackValues, EvaluatedResource, EvaluatedTemplate, EvaluationContext, EvaluationNote, ExportedOutput, ResolvedParameter } from './types';
export * from './value';
export { renderValue, valueKey, symbolDependencies } from './render';
export { expressionInputs, type ExpressionInputs } from './inputs';
export { deployTimeValueWords, partitionOfRegion, urlSuffixOfPartition } from './pseudo';
export { MAX_EXPRESSION_DEPTH } from './evaluator';

/** How many resource names a cycle error lists before counting the rest. */
const MAX_CYCLE_NAMES = 50;

/**
 * The template as `AWS::LanguageExtensions` leaves it for a transform listed after it (the
 * Serverless transform): its `Fn::ForEach` loops expanded and each intrinsic function whose value
 * is known here resolved to that value. The transform's errors are among the template's parse
 * errors; the evaluation that follows reports the parameters' own.
 */
export function applyLanguageExtensions(model: TemplateModel, ctx: EvaluationContext): TemplateModel {
  try {
    return languageExtensionsApplied(model, ctx);
  } catch (error) {
    // A bug must not take the caller down: the template goes on as written, with an error that says so.
    const message = error instanceof Error ? error.message : String(error);
    const internal = { message: `Internal error while applying AWS::LanguageExtensions: ${message}`, range: { start: 0, end: 0 }, code: 'internal-error', severity: 'error' as const };
    return readTemplateModel({ ...model.parsed, errors: [...model.parsed.errors, internal] });
  }
}

function languageExtensionsApplied(model: TemplateModel, ctx: EvaluationContext): TemplateModel {
  if (model.root === undefined) return model;
  const sink = new ErrorSink();
  const parameters = resolveParameters(model, ctx, new ErrorSink());
  const pseudo = pseudoParameterValues(ctx);
  const looped = withLoopsExpanded(model, parameters, pseudo, ctx, sink, [], 'stand-in');
  if (looped.root === undefined) return looped;
  // The account and the stack's name are the deployed stack's; the caller's stand-ins for them are
  // not to be written into the template SAM reads.
  const deployed = new Map(pseudo);
  for (const name of ['AWS::AccountId', 'AWS::StackName', 'AWS::NotificationARNs']) deployed.set(name, new UnknownValue(`pseudo:${name}`, `${name}, the deployed stack's`));
  // Values are what the evaluation would compute; what it reports of them, it reports then.
  const evaluator = new Evaluator(looped, parameters, deployed, new ErrorSink(), [], { languageExtensions: true, crossStack: ctx.crossStack });
  evaluator.evaluateConditions();
  const scopes: Record<string, Scope> = {};
  const scopeOf = (section: string): Scope => (scopes[section] ??= { block: section === 'Outputs' ? 'Outputs' : 'Resources', live: true, deps: undefined });
  const root = resolveKnownIntrinsics(looped.root, (node, section) => {
    // A parameter's default is given as the template writes it, as SAM reads it (a `true` that
    // stays a boolean, a `10` a number), where the evaluation's value is CloudFormation's string;
    // a list parameter's value is its list.
    const name = node.entries[0]!.key === 'Ref' ? node.entries[0]!.value : undefined;
    const declared = name?.kind === 'scalar' && typeof name.value === 'string' ? looped.parameters.get(name.value) : undefined;
    const listed = declared?.type === 'CommaDelimitedList' || declared?.type?.startsWith('List<');
    if (declared?.default !== undefined && !listed && parameters.get(declared.name)?.source === 'default') return toPlain(declared.default) as Value;
    return evaluator.evaluatePresent(node, scopeOf(section));
  });
  return readTemplateModel({ ...looped.parsed, root, errors: [...looped.parsed.errors, ...sink.errors] });
}

function withLoopsExpanded(
  original: TemplateModel,
  parameters: ReturnType<typeof resolveParameters>,
  pseudo: ReturnType<typeof pseudoParameterValues>,
  ctx: EvaluationContext,
  sink: ErrorSink,
  notes: EvaluationNote[],
  unknownCollection: UnknownCollection = 'nothing',
): TemplateModel {
  if (original.root === undefined || !usesForEach(original.root)) return original;
  // Loop collections may use parameters and mappings, so they are evaluated against the template as written.
  const before = new Evaluator(original, parameters, pseudo, sink, notes, { languageExtensions: true, crossStack: ctx.crossStack });
  // Live, so that a collection's own errors are reported (no resource is known inactive yet).
  const collectionScope: Scope = { block: 'Resources', live: true, deps: undefined };
  const root = expandForEach(original.root, (node) => before.evaluatePresent(node, collectionScope), sink, unknownCollection);
  return readTemplateModel({ ...original.parsed, root });
}

/** Evaluates a template with the given parameter values and pseudo parameters. Pure; never throws on user input. */
export function evaluateTemplate(model: TemplateModel, ctx: EvaluationContext): EvaluatedTemplate {
  try {
    return evaluate(model, ctx);
  } catch (error) {
    // A bug must not take the caller down: report it as an evaluation error instead.
    const message = error instanceof Error ? error.message : String(error);
    return unevaluated(model, [{ message: `Internal error while evaluating the template: ${message}`, range: { start: 0, end: 0 }, code: 'internal-error', severity: 'error' }]);
  }
}

/** A template nothing of which was evaluated: no parameters, conditions, resources or outputs; `errors` say why. */
export function unevaluated(model: TemplateModel, errors: EvaluatedTemplate['errors'] = []): EvaluatedTemplate {
  return {
    model,
    parameters: new Map(),
    conditions: new Map(),
    undecidedConditions: new Map(),
    resources: new Map(),
    outputs: new Map(),
    exports: new Map(),
    errors,
    notes: [],
  };
}

function evaluate(original: TemplateModel, ctx: EvaluationContext): EvaluatedTemplate {
  const sink = new ErrorSink();
  const notes: EvaluationNote[] = [];
  const parameters = resolveParameters(original, ctx, sink);
  const pseudo = pseudoParameterValues(ctx);
  const languageExtensions = original.transforms.some((t) => t.name === LANGUAGE_EXTENSIONS_TRANSFORM);
  for (const t of original.transforms) {
    if (t.name !== LANGUAGE_EXTENSIONS_TRANSFORM) notes.push({ kind: 'transform-not-expanded', transform: t.name, range: t.range });
  }
  const options = { languageExtensions, crossStack: ctx.crossStack };

  const model = languageExtensions ? withLoopsExpanded(original, parameters, pseudo, ctx, sink, notes) : original;

  const evaluator = new Evaluator(model, parameters, pseudo, sink, notes, options);
  evaluator.evaluateConditions();
  const undecidedConditions = evaluator.undecidedConditions();
  for (const name of undecidedConditions.keys()) {
    evaluator.note({ kind: 'condition-undecided', condition: name }, model.conditions.get(name)?.keyRange);
  }
  const conditions = new Map<string, boolean>();
  for (const [name, state] of evaluator.conditionStates) conditions.set(name, state === true);

  for (const decl of model.resources.values()) {
    const state =
      decl.condition === undefined ? true : evaluator.conditionNamed(decl.condition, decl.conditionRange ?? decl.keyRange, 'the Resources block of the template');
    // An undecided resource may exist: it is evaluated as present and its references are live.
    evaluator.resourceActive.set(decl.logicalId, state !== false);
    if (state === 'unknown') evaluator.resourceUndecided.add(decl.logicalId);
  }

  const resources = new Map<string, EvaluatedResource>();
  for (const decl of model.resources.values()) {
    if (decl.logicalId.startsWith('Fn::ForEach::') && !languageExtensions) {
      sink.add(`Template format error: ${decl.logicalId} needs Transform: ${LANGUAGE_EXTENSIONS_TRANSFORM}`, decl.keyRange, 'foreach-without-transform');
      continue;
    }
    resources.set(decl.logicalId, evaluateResource(decl, evaluator, sink));
  }
  reportResourceCycles(model, resources, sink);
  evaluator.noteRegistryModules();

  const outputs = new Map<string, Value>();
  const exports = new Map<string, ExportedOutput>();
  for (const decl of model.outputs.values()) {
    const active = decl.condition === undefined ? true : evaluator.conditionNamed(decl.condition, decl.keyRange, 'the Outputs block of the template') === true;
    const scope: Scope = { block: 'Outputs', live: active, deps: undefined };
    let value: Value | undefined;
    let exported: { name: Value; range: Range } | undefined;
    for (const entry of decl.node.entries) {
      if (entry.key === 'Value') value = evaluator.evaluatePresent(entry.value, scope);
      else if (entry.key === 'Export') exported = { name: exportName(evaluator.evaluatePresent(entry.value, scope)), range: entry.keyRange };
      else if (entry.key === 'Description') evaluator.evaluatePresent(entry.value, scope);
    }
    if (!active || value === undefined) continue;
    outputs.set(decl.name, value);
    if (exported && typeof exported.name === 'string') exports.set(exported.name, { output: decl.name, value, range: exported.range });
  }

  return { model, parameters, conditions, undecidedConditions, resources, outputs, exports, errors: sink.errors, notes };
}

/** The `Name` of an evaluated `Export`, when there is one. */
function exportName(exported: Value | undefined): Value {
  return isValueObject(exported) ? (exported.Name ?? null) : null;
}

function evaluateResource(decl: ResourceDecl, evaluator: Evaluator, sink: ErrorSink): EvaluatedResource {
  const active = evaluator.resourceActive.get(decl.logicalId) === true;
  // A resource that exists only if an undecided condition holds reports no error that would
  // depend on that condition, like the branch of an undecided Fn::If.
  const undecided = evaluator.resourceUndecided.has(decl.logicalId);
  const live = active && !undecided;
  const deps = new Set<string>();
  for (const dep of decl.dependsOn) {
    // A resource that a registry module expands into stands for the module.
    const target = evaluator.dependencyTarget(dep.name);
    if (target === undefined) {
      sink.add(unresolvedMessage(dep.name, 'Resources'), dep.range, 'unresolved-reference');
      continue;
    }
    if (live && evaluator.resourceActive.get(target) === false) sink.add(unresolvedMessage(dep.name, 'Resources'), dep.range, 'reference-to-inactive-resource');
    deps.add(target);
  }
  const scope: Scope = { block: 'Resources', live, deps };
  let properties: Value = {};
  if (decl.properties !== undefined) properties = evaluator.evaluatePresent(decl.properties, scope) ?? {};
  const metadata = decl.metadata === undefined ? undefined : evaluator.evaluatePresent(decl.metadata, scope);
  const attributes: ValueObject = {};
  for (const name in decl.attributes) {
    const v = evaluator.evaluatePresent(decl.attributes[name], scope);
    if (v !== undefined) setEntry(attributes, name, v);
  }
  const resource: EvaluatedResource = { logicalId: decl.logicalId, type: decl.type ?? '', active, properties, metadata, dependsOn: [...deps], attributes };
  if (undecided && decl.condition !== undefined) resource.undecidedCondition = { name: decl.condition, key: evaluator.conditionKeys.get(decl.condition)! };
  return resource;
}

/** Reports every dependency cycle among the resources that will exist, without recursion. */
function reportResourceCycles(model: TemplateModel, resources: Map<string, EvaluatedResource>, sink: ErrorSink): void {
  const ids: string[] = [];
  const indexOf = new Map<string, number>();
  for (const r of resources.values()) {
    // A module stands for resources not visible here, which may depend on each other in any way, so a cycle through it is not known to exist.
    if (!r.active || isOpaqueType(r.type)) continue;
    indexOf.set(r.logicalId, ids.length);
    ids.push(r.logicalId);
  }
  const edges = ids.map((id) => {
    const out: number[] = [];
    for (const dep of resources.get(id)!.dependsOn) {
      const i = indexOf.get(dep);
      if (i !== undefined) out.push(i);
    }
    return out;
  });
  for (const component of stronglyConnectedComponents(edges)) {
    if (!isCycle(component, edges)) continue;
    const members = component.sort((a, b) => a - b).map((i) => ids[i]);
    const first = model.resources.get(members[0])!;
    // CloudFormation names every member; past a screenful the names stop helping, so the rest are counted.
    const shown = members.length > MAX_CYCLE_NAMES ? [...members.slice(0, MAX_CYCLE_NAMES), `... ${members.length - MAX_CYCLE_NAMES} more`] : members;
    sink.add(`Circular dependency between resources: [${shown.join(', ')}]`, first.keyRange, 'circular-dependency');
  }
}
