/**
 * Classification of one modified resource: which of its properties changed, how CloudFormation
 * will update each, and what that means for the resource as a whole.
 */
import type { EvaluatedResource } from '../evaluate/types';
import { isSymbolic, type Value } from '../evaluate/value';
import { expressionInputs, renderValue } from '../evaluate';
import type { PropertyBehavior, ResourceSpec, UpdateBehavior } from '../spec/types';
import type { ResourceDecl, TemplateModel } from '../template/model';
import { samePlainValue } from '../template';
import { deepestNodeAt } from './locate';
import type { ChangeDetail, ChangeScope, Impact, Replacement, RequiresRecreation, ResourceChange } from './types';
import type { PathSegment, ValueDifference } from './valueDiff';

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
  /** The new template's model, to find what an expression reads. */
  afterModel: TemplateModel;
  /** NoEcho parameters: values computed from them are never shown. */
  secretParameters: ReadonlySet<string>;
  /** Parameters whose resolved value differs between the two sides. */
  changedParameters: ReadonlySet<string>;
  /** The replacement chain of a resource classified earlier, cause first. */
  replacementChainOf(logicalId: string): string[] | undefined;
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
  const behaviors: PropertyBehavior[] = [];

  for (const diff of resource.propertyDiffs) {
    const behavior = propertyBehavior(ctx.spec, type, diff.path);
    behaviors.push(behavior);
    details.push(propertyDetail(resource, diff, behavior, ctx));
  }
  for (const diff of resource.metadataDiffs) {
    behaviors.push({ behavior: 'no-interruption', source: 'spec', decidedAt: [] });
    details.push(metadataDetail(resource, diff, ctx));
  }

  const scope = [...new Set(details.map((d) => d.target.attribute))] as ChangeScope[];
  const replacement = resourceReplacement(details);
  const failure = willFail(resource, details, typeInfo.notUpdatable, replacement);
  const impact: Impact = failure ? 'will-fail' : impactOf(replacement, details);
  const chain = replacement === 'True' || replacement === 'Conditional' ? replacementChain(resource, details, ctx) : undefined;
  return {
    logicalId: resource.logicalId,
    resourceType: type,
    action: 'Modify',
    replacement,
    scope,
    details,
    impact,
    reason: failure ?? modifyReason(resource, details, impact, replacement),
    replacementCause: chain,
    range: resource.afterDecl.keyRange,
    rangeIn: 'new',
  };
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

function requiresRecreation(behavior: UpdateBehavior): RequiresRecreation {
  if (behavior === 'replacement') return 'Always';
  if (behavior === 'conditional-replacement' || behavior === 'unknown') return 'Conditionally';
  return 'Never';
}

function pathString(prefix: string, path: readonly PathSegment[]): string {
  return [prefix, ...path.map(String)].join('/');
}

function propertyDetail(resource: ModifiedResource, diff: ValueDifference, behavior: PropertyBehavior, ctx: ClassifyContext): ChangeDetail {
  const name = String(diff.path[0]);
  const afterNode = deepestNodeAt(resource.afterDecl.properties, diff.path);
  const source = changeSource(resource, diff, name, ctx);
  return {
    target: {
      attribute: name === 'Tags' ? 'Tags' : 'Properties',
      name,
      path: pathString('/Properties', diff.path),
      requiresRecreation: requiresRecreation(behavior.behavior),
    },
    evaluation: diff.evaluation,
    changeSource: source.changeSource,
    causingEntity: source.causingEntity,
    behavior: behavior.behavior,
    range: afterNode?.range ?? deepestNodeAt(resource.beforeDecl.properties, diff.path)?.range,
    rangeIn: afterNode ? 'new' : 'old',
    ...renderedValues(diff, readsSecret(resource, name, ctx)),
  };
}

/** The values before and after, for people; `****` for anything computed from a NoEcho parameter. */
function renderedValues(diff: ValueDifference, secret: boolean): Pick<ChangeDetail, 'before' | 'after'> {
  const render = (v: Value | undefined) => (v === undefined ? undefined : secret ? '****' : renderValue(v));
  return { before: render(diff.before), after: render(diff.after) };
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
  const source = changeSource(resource, diff, undefined, ctx);
  return {
    target: { attribute: 'Metadata', path: pathString('/Metadata', diff.path), requiresRecreation: 'Never' },
    evaluation: diff.evaluation,
    changeSource: source.changeSource,
    causingEntity: source.causingEntity,
    behavior: 'no-interruption',
    range: afterNode?.range ?? resource.afterDecl.keyRange,
    rangeIn: 'new',
    ...renderedValues(diff, readsSecret(resource, undefined, ctx)),
  };
}

/**
 * Why a value changed: a referenced resource's new physical id or attribute, a parameter whose
 * value changed under an unchanged expression, or an edit of the expression itself.
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
  }
  return { changeSource: 'DirectModification' };
}

function propertyNode(decl: ResourceDecl, name: string) {
  const props = decl.properties;
  return props?.kind === 'map' ? props.entries.find((e) => e.key === name)?.value : undefined;
}

function resourceReplacement(details: ChangeDetail[]): Replacement {
  let replacement: Replacement = 'False';
  for (const d of details) {
    if (d.target.requiresRecreation === 'Always' && d.evaluation === 'Static') return 'True';
    if (d.target.requiresRecreation !== 'Never') replacement = 'Conditional';
  }
  return replacement;
}

function impactOf(replacement: Replacement, details: ChangeDetail[]): Impact {
  if (replacement === 'True') return 'replacement';
  if (replacement === 'Conditional') return 'conditional-replacement';
  return details.some((d) => d.behavior === 'some-interruption') ? 'some-interruption' : 'no-interruption';
}

/** The reason CloudFormation will accept this update and then fail it, if it will. */
function willFail(resource: ModifiedResource, details: ChangeDetail[], typeNotUpdatable: boolean, replacement: Replacement): string | undefined {
  const type = resource.after.type;
  if (typeNotUpdatable) return `Update to resource type ${type} is not supported.`;
  const custom = details.find((d) => d.behavior === 'not-updatable' && d.evaluation === 'Static');
  if (custom) {
    if (custom.target.name === 'ServiceToken') return 'Modifying service token is not allowed.';
    return `${custom.target.name} of ${type} cannot be updated.`;
  }
  if (replacement === 'True') {
    const named = customPhysicalName(resource);
    if (named !== undefined) {
      return `CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${named.value} and update the stack again (${named.property} is set explicitly and unchanged).`;
    }
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
  const before = propertyValue(resource.before.properties, nameProperty);
  const after = propertyValue(resource.after.properties, nameProperty);
  if (after === undefined || isSymbolic(after) || typeof after === 'object') return undefined;
  return before !== undefined && String(before) === String(after) ? { property: nameProperty, value: String(after) } : undefined;
}

function propertyValue(properties: Value, name: string): Value | undefined {
  return properties && typeof properties === 'object' && !Array.isArray(properties) && !isSymbolic(properties)
    ? properties[name]
    : undefined;
}

function describeCause(d: ChangeDetail): string {
  const what = d.target.name ?? 'Metadata';
  if (d.changeSource === 'ParameterReference') return `${what} changed (parameter ${d.causingEntity})`;
  if (d.changeSource === 'ResourceReference') return `${d.causingEntity} is replaced`;
  if (d.changeSource === 'ResourceAttribute') return `${d.causingEntity} changes`;
  return `${what} changed`;
}

function decidingDetail(details: ChangeDetail[]): ChangeDetail {
  let best = details[0];
  for (const d of details) {
    const rank = BEHAVIOR_RANK[d.behavior] * 2 + (d.evaluation === 'Static' ? 1 : 0);
    const bestRank = BEHAVIOR_RANK[best.behavior] * 2 + (best.evaluation === 'Static' ? 1 : 0);
    if (rank > bestRank) best = d;
  }
  return best;
}

function modifyReason(resource: ModifiedResource, details: ChangeDetail[], impact: Impact, replacement: Replacement): string {
  const names = [...new Set(details.map((d) => d.target.name ?? 'Metadata'))];
  const listed = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
  if (replacement === 'True' || replacement === 'Conditional') {
    const d = decidingDetail(details);
    const what = d.target.name ?? 'Metadata';
    if (d.behavior === 'unknown') return `may be replaced: the update behaviour of ${what} is unknown (${resource.after.type} is not in the resource specification)`;
    if (resource.after.type.startsWith('Custom::') || resource.after.type === 'AWS::CloudFormation::CustomResource') {
      return `may be replaced: ${describeCause(d)} and the custom resource provider decides whether that replaces it`;
    }
    const requirement = d.behavior === 'replacement' ? 'requires replacement' : 'may require replacement';
    if (d.changeSource === 'ResourceReference') {
      return `${replacement === 'True' ? 'replaced' : 'may be replaced'} because ${d.causingEntity} is ${d.evaluation === 'Static' ? '' : 'possibly '}replaced and ${what} ${requirement}`;
    }
    if (d.changeSource === 'ResourceAttribute') {
      return `${replacement === 'True' ? 'replaced' : 'may be replaced'} because ${d.causingEntity} ${d.evaluation === 'Static' ? 'changes' : 'may change'} and ${what} ${requirement}`;
    }
    return `${replacement === 'True' ? 'replaced' : 'may be replaced'} because ${describeCause(d)}, which ${requirement === 'requires replacement' ? 'requires' : 'may require'} replacement`;
  }
  if (impact === 'some-interruption') return `updated with some interruption: ${listed} changed`;
  if (details.every((d) => d.evaluation === 'Dynamic')) return `may be updated in place if ${details[0].causingEntity} changes`;
  return `updated in place: ${listed} changed`;
}

/** The chain of replacements leading here, cause first: root edit, then each replaced resource. */
function replacementChain(resource: ModifiedResource, details: ChangeDetail[], ctx: ClassifyContext): string[] {
  const d = decidingDetail(details);
  if ((d.changeSource === 'ResourceReference' || d.changeSource === 'ResourceAttribute') && d.causingEntity) {
    const upstream = ctx.replacementChainOf(d.causingEntity.split('.')[0]);
    if (upstream) return [...upstream, resource.logicalId];
  }
  return [describeCause(d), resource.logicalId];
}
