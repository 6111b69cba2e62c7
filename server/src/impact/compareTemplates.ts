/**
 * The stack verdict: compares two evaluated templates the way CloudFormation plans an update.
 */
import type { EvaluatedResource, EvaluatedTemplate } from '../evaluate/types';
import { isValueObject, UnknownValue, type Value } from '../evaluate/value';
import type { ResourceSpec } from '../spec/types';
import type { Range } from '../template/ast';
import type { ResourceDecl, TemplateModel } from '../template/model';
import { undeployedApiChanges } from './apiDeployments';
import { changeRisks } from './changeRisks';
import { classifyChange, fateOfChange, type ModifiedResource } from './classifyChange';
import { effectiveDeletionPolicy } from './dataHolding';
import { unpublishedFunctionChanges } from './lambdaVersions';
import { exportRisks, type PlacedStackRisk } from './exportRisks';
import { dependencyOrder } from './dependencyOrder';
import { synchronousRejections } from './rejections';
import { rolloutOf } from './rollouts';
import { dynamicReferencesIn } from './dynamicReferences';
import type { ImpactDiagnostic, ImpactReport, ReplacementCause, ReportNote, ResourceChange, StackRisk } from './types';
import { diffValues, UNCHANGED, valuesEqual, type ResourceFate } from './valueDiff';

export interface CompareOptions {
  spec: ResourceSpec;
  /**
   * For each export of the deployed stack, the stacks that import it (`ListImports`), when the
   * caller read them: a changed export then is a risk only when imported, and fails the update.
   */
  crossStack?: { importsByExport?: ReadonlyMap<string, readonly string[]> };
  /** The deployed stack's status, when known: an update is rejected in most states. */
  stackStatus?: string;
  /** The stack's name or id, for CloudFormation-worded messages. */
  stackName?: string;
  /**
   * For each nested stack resource whose child template was analysed: whether the child's plan
   * updates it, and the child's outputs that change. Its readers (`Fn::GetAtt Stack.Outputs.X`)
   * are then listed whenever the nested stack is updated (as a change set lists them, Dynamic) and
   * change exactly when X does.
   */
  nestedOutputs?: ReadonlyMap<string, NestedOutputs>;
}

/** What a nested stack's child plan says of its outputs. */
export interface NestedOutputs {
  /** The child's plan updates the nested stack (its template or values change something). */
  updated: boolean;
  /** The child's outputs whose value changes. */
  changed: ReadonlySet<string>;
}

/** Compares the deployed (`before`) and the new (`after`) template into CloudFormation's plan. */
export function compareTemplates(before: EvaluatedTemplate, after: EvaluatedTemplate, options: CompareOptions): ImpactReport {
  const diagnostics = collectDiagnostics(before, after);
  reportUnknownTypes(after, options.spec, diagnostics);
  const currentValues = currentValueNote(after);
  if (currentValues) diagnostics.push(currentValues);
  const notes = collectNotes(before, after);
  const rejections = synchronousRejections(before, after, options);
  diagnostics.push(...rejections);
  const rejection = diagnostics.find((d) => d.severity === 'error' && d.rangeIn === 'new');
  // Rejections are template errors, in CloudFormation's words.
  if (rejection) return { status: 'error', message: rejection.message, changes: [], diagnostics, notes };

  const { changes, fateOf } = planChanges(before, after, options.spec, diagnostics, options.nestedOutputs);
  addChangeRisks(changes, before, after, diagnostics);
  for (const change of changes) {
    const rollout = rolloutOf(change, after);
    if (rollout) change.rollout = rollout;
    // A resource updated for any reason resolves its dynamic references anew; one not updated does not.
    const updated = change.action === 'Modify' && change.impact !== 'none' ? after.resources.get(change.logicalId) : undefined;
    const references = updated ? dynamicReferencesIn(updated.properties) : [];
    if (references.length > 0) change.dynamicReferences = references;
  }
  diagnostics.push(...undeployedApiChanges(changes, before, after), ...unpublishedFunctionChanges(changes, after));
  // Outputs alone never make an update (docs/update-rules.md#template-sections): exports change only with one.
  if (changes.length === 0) return { status: 'noop', message: NO_UPDATES, changes, diagnostics, notes };
  const risks = placeStackRisks(exportRisks(before, after, fateOf, options.crossStack?.importsByExport), after, diagnostics);
  return { status: 'update', changes, ...(risks.length > 0 ? { risks } : {}), diagnostics, notes };
}

/** CloudFormation's answer to an update that changes nothing (a synchronous 400). */
export const NO_UPDATES = 'No updates are to be performed.';

function planChanges(
  before: EvaluatedTemplate,
  after: EvaluatedTemplate,
  spec: ResourceSpec,
  diagnostics: ImpactDiagnostic[],
  nestedOutputs: ReadonlyMap<string, NestedOutputs> = new Map(),
): { changes: ResourceChange[]; fateOf: (logicalId: string) => ResourceFate } {
  const changedParameters = new Set<string>();
  for (const [name, p] of after.parameters) {
    const old = before.parameters.get(name);
    if (!old || !valuesEqual(old.value, p.value)) changedParameters.add(name);
  }

  const secretParameters = new Set<string>();
  for (const model of [before.model, after.model]) {
    for (const p of model.parameters.values()) if (p.noEcho) secretParameters.add(p.name);
  }

  const fates = new Map<string, ResourceFate>();
  const causes = new Map<string, ReplacementCause>();
  const fateOf = (id: string): ResourceFate => fates.get(id) ?? UNCHANGED;
  const modified = new Map<string, ResourceChange>();
  const added = new Map<string, ResourceChange>();

  for (const logicalId of dependencyOrder(after.resources)) {
    const next = after.resources.get(logicalId)!;
    const prev = before.resources.get(logicalId);
    if (!next.active) continue;
    const afterDecl = after.model.resources.get(logicalId)!;
    if (!prev || !prev.active) {
      added.set(logicalId, addition(next, afterDecl, prev));
      continue;
    }
    const condition = next.undecidedCondition?.name ?? prev.undecidedCondition?.name;
    if (existenceKey(prev) !== existenceKey(next)) diagnostics.push(existenceMayChange(next, afterDecl, condition!));
    const propertyDiffs = diffValues(prev.properties, next.properties, fateOf);
    const metadataDiffs = diffValues(emptyAsAbsent(prev.metadata), emptyAsAbsent(next.metadata), fateOf);
    const childOutputs = nestedOutputs.get(logicalId);
    if (propertyDiffs.length === 0 && metadataDiffs.length === 0) {
      // Only its child changes: the nested stack is updated, and so are the outputs that change.
      if (childOutputs?.updated) fates.set(logicalId, nestedStackFate('modified', childOutputs.changed));
      continue;
    }
    const resource: ModifiedResource = {
      logicalId,
      before: prev,
      after: next,
      beforeDecl: before.model.resources.get(logicalId)!,
      afterDecl,
      propertyDiffs,
      metadataDiffs,
    };
    const change = classifyChange(resource, {
      spec,
      beforeModel: before.model,
      afterModel: after.model,
      secretParameters,
      changedParameters,
      replacementCauseOf: (id) => causes.get(id),
    });
    if (condition !== undefined) change.condition = condition;
    if (change.replacementCause) causes.set(logicalId, change.replacementCause);
    const fate = fateOfChange(change, spec.typeInfo(change.resourceType));
    fates.set(logicalId, childOutputs ? nestedStackFate(fate.plan, childOutputs.changed) : fate);
    modified.set(logicalId, change);
  }

  const removed: ResourceChange[] = [];
  for (const [logicalId, prev] of before.resources) {
    if (!prev.active) continue;
    const next = after.resources.get(logicalId);
    if (next?.active) continue;
    const change = removal(prev, before.model.resources.get(logicalId)!, next ? after.model.resources.get(logicalId) : undefined);
    if (prev.undecidedCondition) change.condition = prev.undecidedCondition.name;
    removed.push(change);
  }

  // Present changes in the order a person reads the new template, removals last.
  const inOrder: ResourceChange[] = [];
  for (const logicalId of after.model.resources.keys()) {
    const change = modified.get(logicalId) ?? added.get(logicalId);
    if (change) inOrder.push(change);
  }
  return { changes: [...inOrder, ...removed], fateOf };
}

/**
 * The fate of a nested stack whose child was analysed: its readers keep their value unless they
 * read an output the child's plan changes (its `Ref`, the stack's id, never changes in an update).
 */
function nestedStackFate(plan: ResourceFate['plan'], changedOutputs: ReadonlySet<string>): ResourceFate {
  return { plan, keeps: (attribute) => attribute === undefined || !attribute.startsWith('Outputs.') || !changedOutputs.has(attribute.slice('Outputs.'.length)) };
}

/**
 * The outputs of a template that an update changes: those added or removed, and those whose
 * value differs or reads something the plan changes (the same reading of values as the plan's
 * own readers). `changes` are the plan's, whose fates are rebuilt from them.
 */
export function changedOutputs(before: EvaluatedTemplate, after: EvaluatedTemplate, changes: readonly ResourceChange[], spec: ResourceSpec): Set<string> {
  const fates = new Map<string, ResourceFate>();
  for (const change of changes) if (change.action === 'Modify') fates.set(change.logicalId, fateOfChange(change, spec.typeInfo(change.resourceType)));
  const fateOf = (id: string): ResourceFate => fates.get(id) ?? UNCHANGED;
  const changed = new Set<string>();
  for (const name of new Set([...before.outputs.keys(), ...after.outputs.keys()])) {
    const old = before.outputs.get(name);
    const next = after.outputs.get(name);
    if (old === undefined || next === undefined || diffValues(old, next, fateOf).some((d) => !d.keepsValue)) changed.add(name);
  }
  return changed;
}

/**
 * The stack's risks, each also a diagnostic at the export: an export in use is an error (the
 * update will fail), a changed export a warning. A removed export is pointed at the new template's
 * Outputs key, or its first line.
 */
function placeStackRisks(placed: readonly PlacedStackRisk[], after: EvaluatedTemplate, diagnostics: ImpactDiagnostic[]): StackRisk[] {
  const root = after.model.parsed.root;
  const outputsKey = root?.kind === 'map' ? root.entries.find((e) => e.key === 'Outputs')?.keyRange : undefined;
  for (const { risk, range, rangeIn } of placed) {
    diagnostics.push({
      severity: risk.kind === 'export-in-use' ? 'error' : 'warning',
      finding: risk,
      code: risk.kind,
      range: rangeIn === 'new' ? range : outputsKey,
      rangeIn: 'new',
    });
  }
  return placed.map((p) => p.risk);
}

/**
 * What a resource's existence depends on: `true` (it exists), or the key of the undecided
 * condition it exists under. Two sides with the same key agree on whether it exists.
 */
function existenceKey(resource: EvaluatedResource): string {
  return resource.undecidedCondition?.key ?? 'true';
}

/** The resource exists on both sides under conditions only AWS decides, and they differ: it may be created or deleted. */
function existenceMayChange(next: EvaluatedResource, decl: ResourceDecl, condition: string): ImpactDiagnostic {
  return {
    severity: 'warning',
    finding: { kind: 'condition-may-change', logicalId: next.logicalId, condition },
    code: 'condition-may-change',
    range: decl.conditionRange ?? decl.keyRange,
    rangeIn: 'new',
    logicalId: next.logicalId,
  };
}

function addition(next: EvaluatedResource, decl: ResourceDecl, prev: EvaluatedResource | undefined): ResourceChange {
  const change: ResourceChange = {
    logicalId: next.logicalId,
    resourceType: next.type,
    action: 'Add',
    scope: [],
    details: [],
    impact: 'create',
    range: decl.keyRange,
    rangeIn: 'new',
  };
  if (next.undecidedCondition) change.condition = next.undecidedCondition.name;
  else if (prev && decl.condition) change.conditionTurned = decl.condition;
  return change;
}

function removal(prev: EvaluatedResource, decl: ResourceDecl, inactiveDecl: ResourceDecl | undefined): ResourceChange {
  const { policy, defaulted } = effectiveDeletionPolicy(prev.type, scalarAttribute(prev.attributes.DeletionPolicy), prev.properties);
  const change: ResourceChange = {
    logicalId: prev.logicalId,
    resourceType: prev.type,
    action: 'Remove',
    policyAction: policy,
    ...(defaulted && policy !== 'Delete' ? { policyDefaulted: true as const } : {}),
    scope: [],
    details: [],
    impact: 'delete',
    range: decl.keyRange,
    rangeIn: 'old',
  };
  if (prev.undecidedCondition) change.condition = prev.undecidedCondition.name;
  else if (inactiveDecl?.condition) change.conditionTurned = inactiveDecl.condition;
  return change;
}

/**
 * Adds to each replacement and removal what it puts at risk (changeRisks.ts), and a warning per
 * risk: at the resource, or for a removal at the new template's Resources key.
 */
function addChangeRisks(changes: ResourceChange[], before: EvaluatedTemplate, after: EvaluatedTemplate, diagnostics: ImpactDiagnostic[]): void {
  const root = after.model.parsed.root;
  const resourcesKey = root?.kind === 'map' ? root.entries.find((e) => e.key === 'Resources')?.keyRange : undefined;
  for (const change of changes) {
    const prev = before.resources.get(change.logicalId);
    if (!prev) continue;
    const risks = changeRisks(change, prev, after.resources.get(change.logicalId));
    if (risks.length === 0) continue;
    change.risks = risks;
    for (const risk of risks) {
      diagnostics.push({
        // Data kept or snapshotted is information; data lost, and a cleanup that fails, are warnings.
        severity: risk.kind === 'data-kept' || risk.kind === 'data-snapshot' ? 'info' : 'warning',
        finding: { kind: 'change-risk', logicalId: change.logicalId, resourceType: change.resourceType, action: change.action, risk },
        code: risk.kind,
        range: change.rangeIn === 'new' ? change.range : resourcesKey,
        rangeIn: 'new',
        logicalId: change.logicalId,
      });
    }
  }
}

/** An empty Metadata map says nothing, like an empty Properties map: both compare as absent. */
function emptyAsAbsent(value: Value | undefined): Value | undefined {
  return isValueObject(value) && Object.keys(value).length === 0 ? undefined : value;
}

function scalarAttribute(value: Value | undefined): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

function collectDiagnostics(before: EvaluatedTemplate, after: EvaluatedTemplate): ImpactDiagnostic[] {
  const out: ImpactDiagnostic[] = [];
  for (const e of [...after.model.errors, ...after.errors]) {
    out.push({ severity: e.severity, message: e.message, code: e.code, range: e.range, rangeIn: 'new' });
  }
  // A file that is not a template at all (empty, a scalar, package.json) has no structural errors
  // of its own, because the template module does not judge other files; an update needs a template.
  const notTemplate = out.some((d) => d.severity === 'error') ? undefined : whyNotATemplate(after.model);
  if (notTemplate) out.push({ severity: 'error', ...notTemplate, code: 'not-a-template', rangeIn: 'new' });
  const baselineNotTemplate = whyNotATemplate(before.model);
  if (baselineNotTemplate && before.model.errors.length === 0) {
    out.push({ severity: 'warning', finding: { kind: 'baseline-not-a-template', reason: baselineNotTemplate.message }, code: 'baseline-not-a-template', range: baselineNotTemplate.range, rangeIn: 'old' });
  }
  const baselineErrors = [...before.model.errors, ...before.errors].filter((e) => e.severity === 'error');
  if (baselineErrors.length > 0) {
    const first = baselineErrors[0];
    out.push({
      severity: 'warning',
      finding: { kind: 'baseline-invalid', errors: baselineErrors.length, first: first.message },
      code: 'baseline-invalid',
      range: first.range,
      rangeIn: 'old',
    });
  }
  return out;
}

/**
 * Types CloudFormation accepts that the resource specification does not list: `AWS::CDK::Metadata`,
 * the version report every CDK app's stacks carry (in the Regions its `CDKMetadataAvailable`
 * condition names), which CloudFormation accepts.
 */
const UNLISTED_ACCEPTED_TYPES = new Set(['AWS::CDK::Metadata']);

/** A warning per AWS type the spec does not list: CloudFormation rejects unrecognized types, unless the spec is older than the type. */
function reportUnknownTypes(after: EvaluatedTemplate, spec: ResourceSpec, out: ImpactDiagnostic[]): void {
  for (const decl of after.model.resources.values()) {
    const type = decl.type;
    if (type === undefined || !type.startsWith('AWS::') || UNLISTED_ACCEPTED_TYPES.has(type) || spec.typeInfo(type).known || spec.typeInfo(type).custom) continue;
    out.push({
      severity: 'warning',
      finding: { kind: 'unknown-resource-type', resourceType: type },
      code: 'unknown-resource-type',
      range: decl.typeRange ?? decl.keyRange,
      rangeIn: 'new',
      logicalId: decl.logicalId,
    });
  }
}

/** Why a parsed file cannot be deployed as a template, or undefined when it looks like one. */
function whyNotATemplate(model: TemplateModel): { message: string; range: Range } | undefined {
  if (model.isCloudFormation) return undefined;
  const root = model.parsed.root;
  if (root === undefined) return { message: 'The template is empty: CloudFormation needs at least one resource', range: { start: 0, end: 0 } };
  if (root.kind !== 'map') return { message: 'Template format error: unsupported structure. A template is a map of sections such as Resources', range: root.range };
  return {
    message: 'Not a CloudFormation template: it has no AWSTemplateFormatVersion and no resource of an AWS::, Custom:: or registry type',
    range: root.entries[0]?.keyRange ?? root.range,
  };
}

/**
 * The one note about parameters that have no value here and so are compared as the stack's
 * current value (what `UsePreviousValue` means), at the new template's Parameters key.
 */
function currentValueNote(after: EvaluatedTemplate): ImpactDiagnostic | undefined {
  const parameters: string[] = [];
  for (const p of after.parameters.values()) if (p.source === 'previous' && isCurrentValue(p.value)) parameters.push(p.name);
  if (parameters.length === 0) return undefined;
  const section = after.model.parsed.root?.kind === 'map' ? after.model.parsed.root.entries.find((e) => e.key === 'Parameters') : undefined;
  return { severity: 'info', finding: { kind: 'parameters-current-value', parameters }, code: 'parameters-current-value', range: section?.keyRange, rangeIn: 'new' };
}

/** Whether a parameter's value is the deployed stack's, unknown here (see `currentValueOf`). */
function isCurrentValue(value: Value): boolean {
  return value instanceof UnknownValue && value.key.startsWith('param:');
}

/** Qualifications of the verdict that a person must know to trust it. */
function collectNotes(before: EvaluatedTemplate, after: EvaluatedTemplate): ReportNote[] {
  const notes: ReportNote[] = [...after.notes];
  for (const p of after.parameters.values()) {
    if (p.value instanceof UnknownValue && !isCurrentValue(p.value)) notes.push({ kind: 'parameter-resolved-by-aws', parameter: p.name, value: p.value.reason });
    const decl = after.model.parameters.get(p.name);
    const old = before.parameters.get(p.name);
    if (decl?.type?.startsWith('AWS::') && !decl.type.startsWith('AWS::SSM::') && old && !valuesEqual(old.value, p.value)) {
      notes.push({ kind: 'parameter-validated-late', parameter: p.name, type: decl.type });
    }
  }
  return notes;
}
