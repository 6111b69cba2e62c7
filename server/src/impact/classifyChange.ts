/**
 * Classification of one modified resource: which of its properties changed, how CloudFormation
 * will update each, and what that means for the resource as a whole.
 */
import type { EvaluatedResource } from '../evaluate/types';
import { isSymbolic, type Value } from '../evaluate/value';
import { expressionInputs, renderValue } from '../evaluate';
import type { PropertyBehavior, ResourceSpec, ResourceTypeInfo, UpdateBehavior } from '../spec/types';
import type { Range } from '../template/ast';
import type { ResourceDecl, TemplateModel } from '../template/model';
import { samePlainValue } from '../template';
import { firstChangedLine } from './decodedText';
import { deepestNodeAt } from './locate';
import { behaviorUnderUpdatePolicy } from './policyBehaviors';
import { replacementConflict } from './replacementConflicts';
import { indexVerdict, INDEXES, TABLE, type IndexVerdict } from './secondaryIndexes';
import { serviceRefusal } from './serviceRefusals';
import type { AttributeChangeType, ChangeDetail, ChangeScope, ChangeTarget, Impact, PolicyAction, Replacement, ReplacementCause, RequiresRecreation, ResourceChange, UpdateFailure } from './types';
import { propertyOf } from './writtenValues';
import { isIdentityAttribute, type ChangeSetPlan, type PathSegment, type ResourceFate, type ValueDifference } from './valueDiff';

export interface ModifiedResource {
  logicalId: string;
  before: EvaluatedResource;
  after: EvaluatedResource;
  beforeDecl: ResourceDecl;
  afterDecl: ResourceDecl;
  propertyDiffs: ValueDifference[];
  metadataDiffs: ValueDifference[];
}

export interface ClassifyContext {
  spec: ResourceSpec;
  /** The deployed template's model, to tell a newly introduced parameter. */
  beforeModel: TemplateModel;
  /** The new template's model, to find what an expression reads. */
  afterModel: TemplateModel;
  /** NoEcho parameters: values computed from them are never shown. */
  secretParameters: ReadonlySet<string>;
  /** Parameters whose resolved value differs between the two sides. */
  changedParameters: ReadonlySet<string>;
  /** The replacement chain of a resource classified earlier, cause first. */
  replacementCauseOf(logicalId: string): ReplacementCause | undefined;
}

const BEHAVIOR_RANK: Record<UpdateBehavior, number> = {
  'no-interruption': 0,
  'some-interruption': 1,
  'conditional-replacement': 2,
  unknown: 2,
  replacement: 3,
  'not-updatable': 4,
};

/** Classifies a resource present on both sides whose evaluated Properties or Metadata differ. */
export function classifyChange(resource: ModifiedResource, ctx: ClassifyContext): ResourceChange {
  const type = resource.after.type;
  const typeInfo = ctx.spec.typeInfo(type);
  const details: ChangeDetail[] = [];
  const record = (detail: ChangeDetail) => {
    details.push(detail);
    if (detail.changeSource === 'ParameterReference') details.push(companionDetail(detail));
  };
  const updatePolicy = resource.after.attributes.UpdatePolicy;
  const behaviors = resource.propertyDiffs.map((diff) => behaviorUnderUpdatePolicy(type, diff.path, updatePolicy, propertyBehavior(ctx.spec, type, diff.path)));
  const indexes = type === TABLE ? tableIndexVerdict(resource, behaviors, ctx.spec) : undefined;
  resource.propertyDiffs.forEach((diff, i) => {
    // Indexes are compared by name: every change under them takes the verdict on them all.
    const behavior = indexes && diff.path[0] === INDEXES ? { ...behaviors[i]!, behavior: indexes.behavior } : behaviors[i]!;
    record(propertyDetail(resource, diff, behavior, ctx));
  });
  for (const diff of resource.metadataDiffs) record(metadataDetail(resource, diff, ctx));

  const scope = [...new Set(details.map(scopeOf))];
  // The change set's Replacement counts every detail; what happens counts only values that change.
  const replacement = changeSetReplacement(details);
  const changing = details.filter((d) => !d.keepsValue);
  const base = {
    logicalId: resource.logicalId,
    resourceType: type,
    action: 'Modify' as const,
    replacement,
    ...(replacement === 'True' ? { policyAction: replacePolicyAction(resource.after) } : {}),
    scope,
    details,
  };
  const range = { range: resource.afterDecl.keyRange, rangeIn: 'new' as const };
  if (changing.length === 0) return { ...base, impact: 'none', ...range };

  const planned = impactOf(changing);
  // A replacement makes a new resource, which its service creates as the template says: only an update in place can be refused.
  const inPlace = planned !== 'replacement' && planned !== 'conditional-replacement';
  const failure =
    indexes?.failure ??
    willFail(resource, changing, typeInfo.notUpdatable, planned) ??
    (inPlace ? serviceRefusal(type, resource.before, resource.after, changing) : planned === 'replacement' ? replacementConflict(type, resource.before, resource.after, changing) : undefined);
  const decidedBy = details.indexOf(decidingDetail(changing));
  const change: ResourceChange = { ...base, impact: failure ? 'will-fail' : planned, decidedBy, ...range };
  if (failure) change.failure = failure;
  if (planned === 'replacement' || planned === 'conditional-replacement') change.replacementCause = replacementCause(resource, details[decidedBy], ctx);
  return change;
}

/**
 * The verdict on a table's global secondary indexes, from its Properties on both sides
 * (secondaryIndexes.ts), for a table updated in place: a table another change replaces is created
 * with all its indexes at once, and its index changes are judged where they stand.
 */
function tableIndexVerdict(resource: ModifiedResource, behaviors: readonly PropertyBehavior[], spec: ResourceSpec): IndexVerdict | undefined {
  const diffs = resource.propertyDiffs;
  if (!diffs.some((diff) => diff.path[0] === INDEXES)) return undefined;
  const replaced = diffs.some((diff, i) => diff.path[0] !== INDEXES && !diff.keepsValue && recreationOf(behaviors[i]!.behavior) !== 'Never');
  if (replaced) return undefined;
  return indexVerdict(propertyOf(resource.before.properties, INDEXES), propertyOf(resource.after.properties, INDEXES), spec);
}

/**
 * CloudFormation writes each value read from a changed parameter twice: the `Static`
 * `ParameterReference` detail that names the parameter, and a `Dynamic` `DirectModification`
 * companion with the same target ("Resources that reference a changed parameter value always
 * result in two changes", UserGuide, Example change sets). The companion adds nothing.
 */
function companionDetail(detail: ChangeDetail): ChangeDetail {
  const { target, behavior, range, rangeIn } = detail;
  return { target, evaluation: 'Dynamic', changeSource: 'DirectModification', behavior, ...(range ? { range } : {}), rangeIn };
}

/**
 * What happens to the references of a changed resource, for the resources classified after it.
 * The plan is the change set's; what is kept is this analysis's. A resource that changes nothing
 * keeps everything. A resource updated in place keeps its physical id, its identity attributes
 * and the attributes that echo a property that did not change (`propertyEchoes`: create-only
 * properties, which an update in place cannot change). A custom or unknown type keeps only its id.
 */
export function fateOfChange(change: ResourceChange, typeInfo: ResourceTypeInfo): ResourceFate {
  const plan: ChangeSetPlan =
    change.replacement === 'True'
      ? 'replaced'
      : change.replacement === 'Conditional'
        ? 'conditionally-replaced'
        : typeInfo.known && !typeInfo.custom
          ? 'modified'
          : 'modified-opaque';
  if (change.impact === 'none') return { plan, keeps: () => true };
  if (change.impact !== 'no-interruption' && change.impact !== 'some-interruption') return { plan, keeps: () => false };
  const described = typeInfo.known && !typeInfo.custom;
  const changed = new Set(change.details.filter((d) => !d.keepsValue).map((d) => propertyNameOf(d.target)));
  const echoes = new Set(typeInfo.propertyEchoes ?? []);
  return {
    plan,
    keeps: (attribute) =>
      attribute === undefined || (described && (isIdentityAttribute(attribute) || (echoes.has(attribute) && !changed.has(attribute)))),
  };
}

/** The top-level property a target names (`Tags` included), or undefined for Metadata. */
function propertyNameOf(target: ChangeTarget): string | undefined {
  if (target.attribute === 'Metadata') return undefined;
  return target.name ?? target.attribute;
}

/** How a person names a target: its property, `Tags` or `Metadata`. */
function targetName(target: ChangeTarget): string {
  return target.name ?? target.attribute;
}

/**
 * Looks up a changed value's update behaviour at its nested property path. List indexes are
 * skipped; a path that runs past what the spec describes (keys of a map or JSON property) is
 * decided by the deepest property the spec knows.
 */
function propertyBehavior(spec: ResourceSpec, type: string, path: readonly PathSegment[]): PropertyBehavior {
  const names = path.filter((s): s is string => typeof s === 'string');
  let answer = spec.propertyBehavior(type, names);
  for (let length = names.length - 1; answer.source === 'unknown-property' && length >= 1; length--) {
    const shorter = spec.propertyBehavior(type, names.slice(0, length));
    if (shorter.source !== 'unknown-property') answer = shorter;
  }
  return answer;
}

/**
 * What a behaviour means for this analysis's verdict. It differs from the change set's
 * RequiresRecreation where the documentation refined the spec: a "maybe" that only interrupts.
 */
/** The part of a resource a detail changes, as a change set's Scope names it: a tag change is the Tags scope. */
function scopeOf(detail: ChangeDetail): ChangeScope {
  return detail.target.name === 'Tags' ? 'Tags' : detail.target.attribute;
}

function recreationOf(behavior: UpdateBehavior): RequiresRecreation {
  if (behavior === 'replacement') return 'Always';
  if (behavior === 'conditional-replacement' || behavior === 'unknown') return 'Conditionally';
  return 'Never';
}

/** A JSON pointer as RFC 6901 writes it: a key's `~` as `~0` and its `/` as `~1` (`/Properties/Body/paths/~1hello`). */
function pathString(prefix: string, path: readonly PathSegment[]): string {
  return [prefix, ...path.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1'))].join('/');
}

function propertyDetail(resource: ModifiedResource, diff: ValueDifference, behavior: PropertyBehavior, ctx: ClassifyContext): ChangeDetail {
  const name = String(diff.path[0]);
  const afterNode = deepestNodeAt(resource.afterDecl.properties, diff.path);
  const secret = readsSecret(resource, name, ctx);
  // Change sets recorded against AWS name a tag change as the property Tags (attribute
  // Properties, name Tags); the User Guide's older samples print attribute Tags. The resource's
  // scope still says Tags (see `scopeOf`).
  const target: ChangeTarget = {
    attribute: 'Properties',
    name,
    path: pathString('/Properties', diff.path),
    requiresRecreation: behavior.requiresRecreation,
    attributeChangeType: attributeChangeType(diff),
    ...renderedValues(diff, secret),
  };
  const changedLine = secret ? undefined : firstChangedLine(diff.path, diff.before, diff.after);
  if (changedLine) target.changedLine = changedLine;
  const range = afterNode?.range ?? deepestNodeAt(resource.beforeDecl.properties, diff.path)?.range;
  return detailOf(target, diff, changeSource(resource, diff, name, ctx), behavior.behavior, range, afterNode ? 'new' : 'old');
}

/** A detail with its fields in the order a change set prints them, then this analysis's own. */
function detailOf(
  target: ChangeTarget,
  diff: ValueDifference,
  source: Pick<ChangeDetail, 'changeSource' | 'causingEntity'>,
  behavior: UpdateBehavior,
  range: Range | undefined,
  rangeIn: 'new' | 'old',
): ChangeDetail {
  return {
    target,
    evaluation: diff.evaluation,
    changeSource: source.changeSource,
    ...(source.causingEntity !== undefined ? { causingEntity: source.causingEntity } : {}),
    behavior,
    ...(diff.keepsValue ? { keepsValue: true as const } : {}),
    ...(range ? { range } : {}),
    rangeIn,
    ...(diff.when ? { when: diff.when } : {}),
  };
}

/** AttributeChangeType: a value that appears, disappears or changes. */
function attributeChangeType(diff: ValueDifference): AttributeChangeType {
  if (diff.before === undefined) return 'Add';
  if (diff.after === undefined) return 'Remove';
  return 'Modify';
}

/** The values before and after, for people; `****` for anything computed from a NoEcho parameter. */
function renderedValues(diff: ValueDifference, secret: boolean): Pick<ChangeTarget, 'beforeValue' | 'afterValue'> {
  const render = (v: Value | undefined) => (v === undefined ? undefined : secret ? '****' : renderValue(v));
  const values: Pick<ChangeTarget, 'beforeValue' | 'afterValue'> = {};
  const before = render(diff.before);
  const after = render(diff.after);
  if (before !== undefined) values.beforeValue = before;
  if (after !== undefined) values.afterValue = after;
  return values;
}

/** Whether a property (or Metadata, for `undefined`) reads a NoEcho parameter on either side. */
function readsSecret(resource: ModifiedResource, propertyName: string | undefined, ctx: ClassifyContext): boolean {
  if (ctx.secretParameters.size === 0) return false;
  for (const decl of [resource.beforeDecl, resource.afterDecl]) {
    const node = propertyName === undefined ? decl.metadata : propertyNode(decl, propertyName);
    if (node && expressionInputs(node, ctx.afterModel).parameters.some((p) => ctx.secretParameters.has(p))) return true;
  }
  return false;
}

function metadataDetail(resource: ModifiedResource, diff: ValueDifference, ctx: ClassifyContext): ChangeDetail {
  const afterNode = deepestNodeAt(resource.afterDecl.metadata, diff.path);
  const target: ChangeTarget = {
    attribute: 'Metadata',
    path: pathString('/Metadata', diff.path),
    requiresRecreation: 'Never',
    attributeChangeType: attributeChangeType(diff),
    ...renderedValues(diff, readsSecret(resource, undefined, ctx)),
  };
  return detailOf(target, diff, changeSource(resource, diff, undefined, ctx), 'no-interruption', afterNode?.range ?? resource.afterDecl.keyRange, 'new');
}

/**
 * Why a value changed: a referenced resource's new physical id or attribute, a parameter whose
 * value changed under an unchanged expression, a parameter the deployed template did not declare
 * (its value is new whatever the expression around it), or an edit of the expression itself.
 */
function changeSource(
  resource: ModifiedResource,
  diff: ValueDifference,
  propertyName: string | undefined,
  ctx: ClassifyContext,
): Pick<ChangeDetail, 'changeSource' | 'causingEntity'> {
  if (diff.cause) {
    return diff.cause.attribute
      ? { changeSource: 'ResourceAttribute', causingEntity: `${diff.cause.logicalId}.${diff.cause.attribute}` }
      : { changeSource: 'ResourceReference', causingEntity: diff.cause.logicalId };
  }
  const beforeNode = propertyName === undefined ? resource.beforeDecl.metadata : propertyNode(resource.beforeDecl, propertyName);
  const afterNode = propertyName === undefined ? resource.afterDecl.metadata : propertyNode(resource.afterDecl, propertyName);
  // When the expression is written the same on both sides (long and short forms alike), a parameter it reads changed its value.
  if (beforeNode && afterNode && samePlainValue(beforeNode, afterNode)) {
    const parameter = expressionInputs(afterNode, ctx.afterModel).parameters.find((n) => ctx.changedParameters.has(n));
    if (parameter) return { changeSource: 'ParameterReference', causingEntity: parameter };
    return { changeSource: 'DirectModification' };
  }
  // The expression that produced this value, as deep as the source follows the path.
  const valueNode = propertyName === undefined ? deepestNodeAt(resource.afterDecl.metadata, diff.path) : deepestNodeAt(resource.afterDecl.properties, diff.path);
  if (valueNode) {
    const introduced = expressionInputs(valueNode, ctx.afterModel).parameters.find((n) => ctx.changedParameters.has(n) && !ctx.beforeModel.parameters.has(n));
    if (introduced) return { changeSource: 'ParameterReference', causingEntity: introduced };
  }
  return { changeSource: 'DirectModification' };
}

function propertyNode(decl: ResourceDecl, name: string) {
  const props = decl.properties;
  return props?.kind === 'map' ? props.entries.find((e) => e.key === name)?.value : undefined;
}

/**
 * The change set's Replacement: `True` when a `Static` detail always recreates, `Conditional`
 * when any detail may (RequiresRecreation `Conditionally`, or `Always` but `Dynamic`), else `False`
 * (API reference, ResourceChange: Replacement).
 */
function changeSetReplacement(details: ChangeDetail[]): Replacement {
  let replacement: Replacement = 'False';
  for (const d of details) {
    if (d.target.requiresRecreation === 'Always' && d.evaluation === 'Static') return 'True';
    if (d.target.requiresRecreation !== 'Never') replacement = 'Conditional';
  }
  return replacement;
}

/** This analysis's verdict over the values that change, by the same rule over their update behaviours. */
function impactOf(details: ChangeDetail[]): Impact {
  let conditional = false;
  for (const d of details) {
    const recreation = recreationOf(d.behavior);
    if (recreation === 'Always' && d.evaluation === 'Static') return 'replacement';
    if (recreation !== 'Never') conditional = true;
  }
  if (conditional) return 'conditional-replacement';
  return details.some((d) => d.behavior === 'some-interruption') ? 'some-interruption' : 'no-interruption';
}

/** PolicyAction of a replacement: what the new template's UpdateReplacePolicy does with the old resource. */
function replacePolicyAction(resource: EvaluatedResource): PolicyAction {
  const policy = resource.attributes.UpdateReplacePolicy;
  if (policy === 'Retain') return 'ReplaceAndRetain';
  if (policy === 'Snapshot') return 'ReplaceAndSnapshot';
  return 'ReplaceAndDelete';
}

/** Why CloudFormation will accept this update and then fail it, if it will. */
function willFail(resource: ModifiedResource, details: ChangeDetail[], typeNotUpdatable: boolean, planned: Impact): UpdateFailure | undefined {
  if (typeNotUpdatable) return { kind: 'type-not-updatable' };
  const notUpdatable = details.find((d) => d.behavior === 'not-updatable' && d.evaluation === 'Static');
  if (notUpdatable) {
    if (notUpdatable.target.name === 'ServiceToken') return { kind: 'service-token' };
    return { kind: 'property-not-updatable', property: targetName(notUpdatable.target) };
  }
  if (planned === 'replacement') {
    const named = customPhysicalName(resource);
    if (named !== undefined) return { kind: 'custom-name-replacement', property: named.property, name: named.value };
  }
  return undefined;
}

/**
 * The unchanged explicit name of a resource about to be replaced. The replacement is created
 * before the old resource is deleted, so two resources would need the same name.
 */
function customPhysicalName(resource: ModifiedResource): { property: string; value: string } | undefined {
  const typeName = resource.after.type.split('::').pop();
  if (!typeName) return undefined;
  const nameProperty = `${typeName}Name`;
  const before = propertyOf(resource.before.properties, nameProperty);
  const after = propertyOf(resource.after.properties, nameProperty);
  if (after === undefined || isSymbolic(after) || typeof after === 'object') return undefined;
  return before !== undefined && String(before) === String(after) ? { property: nameProperty, value: String(after) } : undefined;
}

/** The detail that decides a change's impact: the worst behaviour, a Static one before a Dynamic one. */
function decidingDetail(details: ChangeDetail[]): ChangeDetail {
  let best = details[0];
  for (const d of details) {
    const rank = BEHAVIOR_RANK[d.behavior] * 2 + (d.evaluation === 'Static' ? 1 : 0);
    const bestRank = BEHAVIOR_RANK[best.behavior] * 2 + (best.evaluation === 'Static' ? 1 : 0);
    if (rank > bestRank) best = d;
  }
  return best;
}

/** The replacements leading here: the upstream resource's cause when a replaced reference decides, else this edit. */
function replacementCause(resource: ModifiedResource, deciding: ChangeDetail, ctx: ClassifyContext): ReplacementCause {
  if ((deciding.changeSource === 'ResourceReference' || deciding.changeSource === 'ResourceAttribute') && deciding.causingEntity) {
    const upstream = ctx.replacementCauseOf(deciding.causingEntity.split('.')[0]);
    if (upstream) return { root: upstream.root, chain: [...upstream.chain, resource.logicalId] };
  }
  const root: ReplacementCause['root'] = { property: targetName(deciding.target), changeSource: deciding.changeSource };
  if (deciding.causingEntity !== undefined) root.causingEntity = deciding.causingEntity;
  return { root, chain: [resource.logicalId] };
}
