/**
 * What an update does to changes made outside CloudFormation, from the stack's last drift
 * detection (docs/update-rules.md#drift). CloudFormation's normal update compares the old
 * template with the new one and never looks at live state, so:
 *
 * - a drifted property the new template changes is overwritten: the live value goes;
 * - a drifted property of a resource updated for another property may be written back to the
 *   template's value, as the resource type's update handler decides;
 * - a drifted resource that is not updated keeps its drift; one that is replaced comes back as
 *   the template says; one deleted outside CloudFormation fails the update that modifies it.
 *
 * A drift-aware change set in `REVERT_DRIFT` mode (`revert`) sets every drifted property back
 * to the template's value, untouched resources included, except what it leaves by design: tag
 * keys the template does not name, properties an update cannot change (create-only), and
 * properties AWS manages; a property the new template sets to the live value only has its drift
 * reset (`SyncWithActual`). A detection older than the resource's last update is stale and not
 * used; a resource never checked is "not checked", never "in sync".
 */
import { isStale, type PropertyDrift, type ResourceDrift, type StackDrift } from '../cloudformation/drift';
import { renderValue } from '../evaluate/render';
import { isSymbolic } from '../evaluate/value';
import type { EvaluatedTemplate } from '../evaluate/types';
import type { Value } from '../evaluate/value';
import type { ResourceSpec } from '../spec/types';
import { nodeAtPath, pointerSegments, type Range, type TemplateModel } from '../template';
import { changesSomething } from './claims';
import type { ChangeDetail, DriftEffect, ImpactDiagnostic, ImpactReport, ReportNote, ResourceChange } from './types';

export interface DriftOptions {
  spec: ResourceSpec;
  /** A REVERT_DRIFT preview instead of the normal mode. */
  revert: boolean;
}

/** The report with what the update does to each drifted property: effects on changes, problems at the properties, and in a REVERT_DRIFT preview the changes that set drift back. */
export function withDrift(report: ImpactReport, drift: StackDrift, after: EvaluatedTemplate, options: DriftOptions): ImpactReport {
  const changes = new Map(report.changes.map((c) => [c.logicalId, c]));
  const diagnostics: ImpactDiagnostic[] = [];
  const notes: ReportNote[] = [];
  const added: ResourceChange[] = [];
  const model = after.model;
  if (options.revert && drift.status === 'NOT_CHECKED') notes.push({ kind: 'drift-never-checked' });
  const notChecked: string[] = [];
  for (const resource of drift.resources.values()) {
    const change = changes.get(resource.logicalId);
    const declared = model.resources.get(resource.logicalId);
    if (!declared) continue;
    if (resource.status === 'NOT_CHECKED') {
      if (change && changesSomething(change)) notChecked.push(resource.logicalId);
      continue;
    }
    if (resource.status === 'IN_SYNC') continue;
    if (isStale(resource)) {
      diagnostics.push({ severity: 'info', code: 'drift-stale', finding: { kind: 'drift-stale', logicalId: resource.logicalId, checkedAt: resource.checkedAt!, lastUpdated: resource.lastUpdated! }, range: declared.keyRange, rangeIn: 'new', logicalId: resource.logicalId });
      continue;
    }
    if (resource.status === 'DELETED') {
      deletedOutside(resource, change, declared.keyRange, diagnostics);
      continue;
    }
    const evaluated = after.resources.get(resource.logicalId);
    const type = evaluated?.type ?? declared.type ?? '';
    const effects = resource.differences.map((difference) => effectOf(difference, resource, change, evaluated?.properties, type, model, options));
    if (effects.length === 0) continue;
    const revertDetails = options.revert ? effects.filter((e) => e.kind === 'reverted' || e.kind === 'synced').map((e) => revertDetail(e, type, options.spec, model, resource.logicalId)) : [];
    if (change) {
      change.drift = effects;
      if (revertDetails.length > 0) mergeRevertDetails(change, revertDetails);
    } else if (revertDetails.length > 0) {
      added.push(revertChange(resource.logicalId, type, declared.keyRange, revertDetails, effects));
    }
    for (const effect of effects) {
      diagnostics.push({
        severity: effectSeverity(effect),
        code: 'drift',
        finding: { kind: 'drift', logicalId: resource.logicalId, effect, ...(options.revert ? { revert: true as const } : {}) },
        range: propertyRange(model, resource.logicalId, effect.path) ?? declared.keyRange,
        rangeIn: 'new',
        logicalId: resource.logicalId,
      });
    }
  }
  if (options.revert && notChecked.length > 0 && drift.status !== 'NOT_CHECKED') notes.push({ kind: 'drift-not-checked', logicalIds: notChecked });
  if (diagnostics.length === 0 && added.length === 0 && notes.length === 0) return report;
  const allChanges = [...report.changes, ...added].sort((a, b) => (a.rangeIn === b.rangeIn ? a.range.start - b.range.start : a.rangeIn === 'new' ? -1 : 1));
  const updates = added.some((c) => changesSomething(c));
  const status = report.status === 'noop' && updates ? 'update' : report.status;
  const next: ImpactReport = { ...report, status, changes: allChanges, diagnostics: [...report.diagnostics, ...diagnostics], notes: [...report.notes, ...notes] };
  // An edit outside the resources whose change overwrites drift says so at the edit.
  for (const site of next.editSites ?? []) {
    for (const effect of site.effects) {
      const overwritten = (changes.get(effect.generated?.logicalId ?? effect.logicalId)?.drift ?? []).filter((e) => e.kind === 'overwritten').map((e) => e.path.slice(1));
      if (overwritten.length > 0) effect.overwritesDrift = overwritten;
    }
  }
  if (status === 'update' && report.status === 'noop') delete next.message;
  return next;
}

/** A resource deleted outside CloudFormation: the update that modifies it fails; left alone, the stack still lists it. */
function deletedOutside(resource: ResourceDrift, change: ResourceChange | undefined, range: Range, diagnostics: ImpactDiagnostic[]): void {
  const checkedAt = resource.checkedAt;
  if (change && change.action === 'Modify' && change.impact !== 'replacement' && changesSomething(change)) {
    change.impact = 'will-fail';
    change.failure = { kind: 'deleted-outside', ...(checkedAt !== undefined ? { checkedAt } : {}) };
    return;
  }
  if (!change) diagnostics.push({ severity: 'info', code: 'drift-deleted', finding: { kind: 'drift-deleted', logicalId: resource.logicalId, ...(checkedAt !== undefined ? { checkedAt } : {}) }, range, rangeIn: 'new', logicalId: resource.logicalId });
}

/** What the update does to one drifted property. */
function effectOf(difference: PropertyDrift, resource: ResourceDrift, change: ResourceChange | undefined, properties: Value | undefined, type: string, model: TemplateModel, options: DriftOptions): DriftEffect {
  const nextValue = valueAt(properties, difference.path);
  const base: DriftEffect = {
    kind: 'stays',
    path: difference.path,
    ...(difference.actual !== undefined ? { live: difference.actual } : {}),
    ...(difference.expected !== undefined ? { previous: difference.expected } : {}),
    ...(nextValue !== undefined ? { next: renderValue(nextValue) } : {}),
    ...(resource.checkedAt !== undefined ? { checkedAt: resource.checkedAt } : {}),
  };
  if (change?.action === 'Remove') return { ...base, kind: 'stays' };
  if (change && (change.impact === 'replacement' || (change.impact === 'will-fail' && change.replacement === 'True'))) return { ...base, kind: 'discarded' };
  const touched = change !== undefined && changesSomething(change) && change.details.some((d) => overlaps(d.target.path, difference.path));
  if (options.revert) {
    const kept = keptByRevert(difference, type, resource.logicalId, model, options.spec);
    if (kept) return { ...base, kind: touched ? 'overwritten' : 'kept', ...(touched ? {} : { why: kept }) };
    if (nextValue !== undefined && difference.actual !== undefined && sameDriftValue(renderValue(nextValue), difference.actual)) return { ...base, kind: 'synced' };
    return { ...base, kind: touched ? 'overwritten' : 'reverted' };
  }
  if (touched) return { ...base, kind: 'overwritten' };
  if (change !== undefined && changesSomething(change)) return { ...base, kind: 'may-revert' };
  return base;
}

/** Whether a change set path (`/Properties/MemorySize`) and a drift path (`/MemorySize`) name the same value, or one holds the other. */
function overlaps(changePath: string, driftPath: string): boolean {
  const inProperties = changePath.startsWith('/Properties') ? changePath.slice('/Properties'.length) : undefined;
  if (inProperties === undefined) return false;
  if (inProperties === '') return true;
  return inProperties === driftPath || driftPath.startsWith(`${inProperties}/`) || inProperties.startsWith(`${driftPath}/`);
}

/**
 * Why REVERT_DRIFT leaves a drifted property as it is: a tag key the template does not name,
 * a property no update can change (the specification: it requires replacement), or one AWS
 * manages (AWS_MANAGED).
 */
function keptByRevert(difference: PropertyDrift, type: string, logicalId: string, model: TemplateModel, spec: ResourceSpec): DriftEffect['why'] | undefined {
  if (difference.difference === 'ADD' && /^\/Tags\//.test(difference.path)) return 'external-tag';
  const behavior = spec.propertyBehavior(type, pathSegments(difference.path).filter((s): s is string => typeof s === 'string')).behavior;
  if (behavior === 'replacement' || behavior === 'not-updatable') return 'create-only';
  if (AWS_MANAGED.some((rule) => rule.type === type && rule.path.test(difference.path) && rule.when(model, logicalId))) return 'aws-managed';
  return undefined;
}

/**
 * Properties AWS changes by itself and drift-aware change sets leave alone (a change set's
 * `MANAGED_BY_AWS`): counts a scaling policy drives, and an engine's minor version that
 * automatic minor upgrades move (docs/update-rules.md#drift).
 */
const AWS_MANAGED: { type: string; path: RegExp; when: (model: TemplateModel, logicalId: string) => boolean }[] = [
  { type: 'AWS::ECS::Service', path: /^\/DesiredCount$/, when: (model) => declares(model, 'AWS::ApplicationAutoScaling::ScalableTarget') },
  { type: 'AWS::DynamoDB::Table', path: /^\/(?:GlobalSecondaryIndexes\/\d+\/)?ProvisionedThroughput(?:\/|$)/, when: (model) => declares(model, 'AWS::ApplicationAutoScaling::ScalableTarget') },
  { type: 'AWS::AutoScaling::AutoScalingGroup', path: /^\/DesiredCapacity$/, when: (model) => declares(model, 'AWS::AutoScaling::ScalingPolicy') },
  { type: 'AWS::RDS::DBInstance', path: /^\/EngineVersion$/, when: (model, logicalId) => writtenScalar(model, logicalId, 'AutoMinorVersionUpgrade') !== false },
];

function declares(model: TemplateModel, type: string): boolean {
  for (const resource of model.resources.values()) if (resource.type === type) return true;
  return false;
}

function writtenScalar(model: TemplateModel, logicalId: string, property: string): unknown {
  const properties = model.resources.get(logicalId)?.properties;
  const node = properties ? nodeAtPath(properties, [property]) : undefined;
  return node?.kind === 'scalar' ? (node.value === 'false' ? false : node.value) : undefined;
}

/** The detail a REVERT_DRIFT preview adds for a drifted property: from the live value to the template's, or its drift reset. */
function revertDetail(effect: DriftEffect, type: string, spec: ResourceSpec, model: TemplateModel, logicalId: string): ChangeDetail {
  const segments = pathSegments(effect.path);
  const behavior = spec.propertyBehavior(type, segments.filter((s): s is string => typeof s === 'string'));
  const range = propertyRange(model, logicalId, effect.path);
  return {
    target: {
      attribute: segments[0] === 'Tags' ? 'Tags' : 'Properties',
      ...(segments[0] !== 'Tags' ? { name: String(segments[0]) } : {}),
      path: `/Properties${effect.path}`,
      requiresRecreation: behavior.requiresRecreation,
      attributeChangeType: effect.kind === 'synced' ? 'SyncWithActual' : effect.next === undefined ? 'Remove' : 'Modify',
      ...(effect.live !== undefined ? { beforeValue: effect.live } : {}),
      ...(effect.next !== undefined ? { afterValue: effect.next } : {}),
      beforeValueFrom: 'ACTUAL_STATE',
    },
    evaluation: 'Static',
    changeSource: 'DirectModification',
    behavior: effect.kind === 'synced' ? 'no-interruption' : behavior.behavior,
    ...(effect.kind === 'synced' ? { keepsValue: true as const } : {}),
    ...(range ? { range } : {}),
    rangeIn: 'new',
  };
}

/**
 * A drifted property the template changes too is compared three ways: its before value is the
 * live one, and where the template now says the live value, only its drift status is reset.
 */
function mergeRevertDetails(change: ResourceChange, details: ChangeDetail[]): void {
  for (const detail of details) {
    // A parameter's change is two details on one target (Static and its Dynamic companion): both start from the live value.
    const same = change.details.filter((d) => d.target.path === detail.target.path);
    if (same.length === 0) {
      change.details.push(detail);
      continue;
    }
    for (const existing of same) {
      if (detail.target.beforeValue !== undefined) existing.target.beforeValue = detail.target.beforeValue;
      existing.target.beforeValueFrom = 'ACTUAL_STATE';
      if (detail.target.attributeChangeType === 'SyncWithActual') {
        existing.target.attributeChangeType = 'SyncWithActual';
        existing.keepsValue = true;
      }
    }
  }
  // A resource whose every changed value only has its drift reset is not modified.
  if (change.action === 'Modify' && change.details.every((d) => d.target.attributeChangeType === 'SyncWithActual')) {
    change.impact = 'none';
    change.syncWithActual = true;
    delete change.decidedBy;
  }
}

/** A resource the template leaves alone, changed by a REVERT_DRIFT preview to set its drift back (or only its drift status reset). */
function revertChange(logicalId: string, resourceType: string, range: Range, details: ChangeDetail[], drift: DriftEffect[]): ResourceChange {
  const changing = details.filter((d) => d.target.attributeChangeType !== 'SyncWithActual');
  const worst = changing.map((d) => d.behavior).includes('some-interruption') ? 'some-interruption' : 'no-interruption';
  return {
    logicalId,
    resourceType,
    action: 'Modify',
    replacement: 'False',
    scope: [...new Set(details.map((d) => d.target.attribute))],
    details,
    impact: changing.length === 0 ? 'none' : worst,
    ...(changing.length > 0 ? { decidedBy: details.indexOf(changing[0]!) } : {}),
    range,
    rangeIn: 'new',
    drift,
    ...(changing.length === 0 ? { syncWithActual: true as const } : {}),
  };
}

function effectSeverity(effect: DriftEffect): 'warning' | 'info' {
  return effect.kind === 'overwritten' || effect.kind === 'may-revert' || effect.kind === 'reverted' ? 'warning' : 'info';
}

/** `/Tags/1/Value` → `['Tags', 1, 'Value']`: drift detection's property path (a JSON pointer), list indexes as numbers. */
function pathSegments(path: string): (string | number)[] {
  return pointerSegments(path).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

function valueAt(properties: Value | undefined, path: string): Value | undefined {
  let value: Value | undefined = properties;
  for (const segment of pathSegments(path)) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    if (Array.isArray(value)) value = typeof segment === 'number' ? value[segment] : undefined;
    else if (isSymbolic(value)) return undefined;
    else value = (value as Record<string, Value>)[String(segment)];
  }
  return value;
}

/** Where the new template writes the property, when it does. */
function propertyRange(model: TemplateModel, logicalId: string, path: string): Range | undefined {
  const properties = model.resources.get(logicalId)?.properties;
  if (!properties) return undefined;
  return nodeAtPath(properties, pathSegments(path))?.range;
}

/**
 * Whether two JSON texts hold the same value, as drift detection compares a property with the
 * template (and as a drift-aware change set writes live values): a scalar by its text, so a parameter's `"512"` (parameters are strings) is the live
 * `512` of an integer property.
 */
export function sameDriftValue(a: string, b: string): boolean {
  try {
    return JSON.stringify(normalized(JSON.parse(a))) === JSON.stringify(normalized(JSON.parse(b)));
  } catch {
    return a === b;
  }
}

function normalized(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalized);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, normalized(entry)]));
  return value === null ? null : String(value);
}
