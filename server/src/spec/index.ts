/**
 * Lookups over the compiled specification index: what a resource type is, and how CloudFormation
 * updates it when one property (possibly deep inside a nested object) changes.
 */
import { behaviorRank } from './behavior-order';
import type { CompiledProperty, CompiledResourceType, CompiledSpecIndex, CompiledTypeDefinition, StatedBehavior } from './compiled-index';
import { propertyUrl, resourceTypeUrl } from './docs-urls';
import type { PropertyBehavior, RequiresRecreation, ResourceSpec, ResourceTypeInfo } from './types';

export type { PropertyBehavior, RequiresRecreation, ResourceSpec, ResourceTypeInfo, UpdateBehavior } from './types';
export type { CompiledSpecIndex } from './compiled-index';
export { SPEC_INDEX_FORMAT_VERSION, decodeSpecIndex } from './compiled-index';
export { behaviorRank, worseBehavior } from './behavior-order';

const CUSTOM_RESOURCE_TYPE = 'AWS::CloudFormation::CustomResource';

/** Whether a type is a custom resource, whose provider (not CloudFormation) decides how it updates. */
export function isCustomResourceType(type: string): boolean {
  return type === CUSTOM_RESOURCE_TYPE || type.startsWith('Custom::');
}

/** One level of a property path resolved against the spec. */
interface ResolvedLevel {
  property: CompiledProperty;
  /** Name of the type definition that holds the property; undefined at the top level. */
  definitionName?: string;
}

/**
 * Builds the lookups over a decoded index; per-type data is parsed on first use and kept.
 * The ResourceTypeInfo objects it returns are shared between callers and must not be mutated.
 */
export function createResourceSpec(index: CompiledSpecIndex): ResourceSpec {
  const { header, body } = index;
  const decoder = new TextDecoder();
  const parsedTypes = new Map<string, CompiledResourceType | undefined>();
  const parsedDefinitions: Array<CompiledTypeDefinition | undefined> = new Array(header.typeDefinitions.length / 2);
  const typeInfos = new Map<string, ResourceTypeInfo>();

  function parseSpan<T>(start: number, end: number): T {
    return JSON.parse(decoder.decode(body.subarray(start, end))) as T;
  }

  function compiledType(type: string): CompiledResourceType | undefined {
    if (parsedTypes.has(type)) return parsedTypes.get(type);
    // Own-property check: a template may name a type such as `constructor` or `__proto__`.
    const span = Object.prototype.hasOwnProperty.call(header.types, type) ? header.types[type] : undefined;
    const parsed = span === undefined ? undefined : parseSpan<CompiledResourceType>(span[0], span[1]);
    parsedTypes.set(type, parsed);
    return parsed;
  }

  function definition(position: number): CompiledTypeDefinition {
    let parsed = parsedDefinitions[position];
    if (parsed === undefined) {
      parsed = parseSpan<CompiledTypeDefinition>(header.typeDefinitions[2 * position], header.typeDefinitions[2 * position + 1]);
      parsedDefinitions[position] = parsed;
    }
    return parsed;
  }

  function ownProperty(properties: Record<string, CompiledProperty>, name: string): CompiledProperty | undefined {
    return Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : undefined;
  }

  /**
   * A nested property name inside the definitions a property refers to. A property whose type is
   * a union may refer to several definitions; when more than one has the name, the one with the
   * worst stated behaviour answers, so the union can only err on the side of caution.
   */
  function nestedProperty(definitions: readonly number[], name: string): ResolvedLevel | undefined {
    let found: ResolvedLevel | undefined;
    for (const position of definitions) {
      const holder = definition(position);
      const property = ownProperty(holder.p, name);
      if (property === undefined) continue;
      if (found === undefined || statedRank(property) > statedRank(found.property)) {
        found = { property, definitionName: holder.n };
      }
    }
    return found;
  }

  /** Resolves as much of `path` as the spec knows; the result is empty when the top-level property is unknown. */
  function resolve(type: CompiledResourceType, path: readonly string[]): ResolvedLevel[] {
    const levels: ResolvedLevel[] = [];
    const top = path.length > 0 ? ownProperty(type.p, path[0]) : undefined;
    if (top === undefined) return levels;
    levels.push({ property: top });
    for (let depth = 1; depth < path.length; depth++) {
      const definitions = levels[depth - 1].property.t;
      const next = definitions === undefined ? undefined : nestedProperty(definitions, path[depth]);
      if (next === undefined) break;
      levels.push(next);
    }
    return levels;
  }

  function typeInfo(type: string): ResourceTypeInfo {
    let info = typeInfos.get(type);
    if (info !== undefined) return info;
    const custom = isCustomResourceType(type);
    const compiled = compiledType(custom ? CUSTOM_RESOURCE_TYPE : type);
    if (compiled === undefined) {
      info = { type, known: false, notUpdatable: false, attributes: [], properties: [], custom };
    } else {
      info = {
        type,
        // Custom types stay unknown: their provider defines the attributes and further properties.
        known: !custom,
        notUpdatable: compiled.u === 1,
        documentationUrl: resourceTypeUrl(custom ? CUSTOM_RESOURCE_TYPE : type),
        attributes: custom ? [] : compiled.a,
        properties: Object.keys(compiled.p),
        custom,
      };
      if (compiled.d !== undefined) info.description = compiled.d;
      if (compiled.x !== undefined) info.transform = compiled.x;
      if (compiled.e !== undefined && !custom) info.propertyEchoes = compiled.e;
    }
    typeInfos.set(type, info);
    return info;
  }

  function propertyBehavior(type: string, path: readonly string[]): PropertyBehavior {
    if (isCustomResourceType(type)) return customResourceBehavior(path);
    const compiled = compiledType(type);
    if (compiled === undefined) return { behavior: 'unknown', requiresRecreation: 'Conditionally', source: 'unknown-type', decidedAt: [] };
    const levels = resolve(compiled, path);
    if (levels.length === 0) return { behavior: 'unknown', requiresRecreation: 'Conditionally', source: 'unknown-property', decidedAt: [] };
    // Change sets follow the specification's own statements; the overlay only refines the behaviour.
    const requiresRecreation = recreationOf(decide(levels, path, compiled.r, (p) => (p.o === 1 ? p.s : p.b)).behavior);
    if (compiled.u === 1) {
      return { behavior: 'not-updatable', requiresRecreation, source: 'docs', decidedAt: [path[0]], documentationUrl: resourceTypeUrl(type) };
    }
    const decision = decide(levels, path, compiled.r, (p) => p.b);
    const decidingLevel = levels[decision.depth] as ResolvedLevel | undefined;
    return {
      behavior: decision.behavior,
      requiresRecreation,
      source: !decision.listed && decidingLevel?.property.o === 1 ? 'docs' : 'spec',
      decidedAt: path.slice(0, decision.depth + 1),
      documentationUrl: decidingLevel
        ? propertyUrl(type, decidingLevel.definitionName, path[decision.depth])
        : resourceTypeUrl(type),
    };
  }

  function propertyDocs(type: string, path: readonly string[]): { description?: string; documentationUrl?: string } | undefined {
    const custom = isCustomResourceType(type);
    // Only the properties CloudFormation itself reads are documented for custom resources.
    if (custom && path.length !== 1) return undefined;
    const specType = custom ? CUSTOM_RESOURCE_TYPE : type;
    const compiled = compiledType(specType);
    if (compiled === undefined) return undefined;
    const levels = resolve(compiled, path);
    if (levels.length === 0 || levels.length < path.length) return undefined;
    const last = levels[levels.length - 1];
    const docs: { description?: string; documentationUrl?: string } = {
      documentationUrl: propertyUrl(specType, last.definitionName, path[path.length - 1]),
    };
    if (last.property.d !== undefined) docs.description = last.property.d;
    return docs;
  }

  return { typeInfo, propertyBehavior, propertyDocs };
}

/**
 * Custom resources: CloudFormation forwards a property change to the provider, and the provider
 * decides whether that replaces the resource (by answering with a new physical id), so statically
 * every change is a conditional replacement. Changing the ServiceToken is not supported at all.
 */
function customResourceBehavior(path: readonly string[]): PropertyBehavior {
  const documentationUrl = resourceTypeUrl(CUSTOM_RESOURCE_TYPE);
  if (path.length === 0) return { behavior: 'unknown', requiresRecreation: 'Conditionally', source: 'unknown-property', decidedAt: [] };
  if (path[0] === 'ServiceToken') {
    return { behavior: 'not-updatable', requiresRecreation: 'Never', source: 'custom-resource', decidedAt: ['ServiceToken'], documentationUrl };
  }
  return { behavior: 'conditional-replacement', requiresRecreation: 'Conditionally', source: 'custom-resource', decidedAt: [path[0]], documentationUrl };
}

/** The behaviour a walk down a property path settles on, and the level that decided it. */
interface Decision {
  behavior: StatedBehavior;
  /** Index in the path of the level that decided. */
  depth: number;
  /** Whether the decision came from the type's list of extra replacement paths rather than a property. */
  listed: boolean;
}

/**
 * Walks down a resolved path with `statedOf` telling what a level states. The top-level property
 * always speaks (the spec's default there is "updatable without interruption"). A nested level
 * speaks only when a source stated something about it: the CDK spec leaves nested properties
 * unmarked unless they require replacement on their own, so an unmarked nested property says
 * nothing. A stated nested level can make the answer worse (e.g. Ebs/KmsKeyId replaces an instance
 * whose BlockDeviceMappings otherwise only interrupt it), but it cannot make a replacement milder:
 * when a whole object is create-only, a change anywhere in it replaces the resource. The exception
 * is "conditional-replacement": it means "depends on what changed", and a stated nested level is
 * exactly the more precise answer to that question.
 */
function decide(
  levels: readonly ResolvedLevel[],
  path: readonly string[],
  replacementPaths: readonly string[] | undefined,
  statedOf: (property: CompiledProperty) => StatedBehavior | undefined,
): Decision {
  let decision: Decision = { behavior: statedOf(levels[0].property) ?? 'no-interruption', depth: 0, listed: false };
  if (replacementPaths?.includes(path[0])) decision = { behavior: 'replacement', depth: 0, listed: true };
  let prefix = path[0];
  for (let depth = 1; depth < path.length; depth++) {
    prefix += `/${path[depth]}`;
    const level = levels[depth] as ResolvedLevel | undefined;
    // Paths the spec lists as replacing may end inside a built-in type (tags) it does not describe further.
    const listed = replacementPaths?.includes(prefix) === true;
    const stated = listed ? 'replacement' : level ? statedOf(level.property) : undefined;
    if (stated !== undefined && (decision.behavior === 'conditional-replacement' || behaviorRank(stated) > behaviorRank(decision.behavior))) {
      decision = { behavior: stated, depth, listed };
    }
    if (level === undefined && !replacementPaths?.some((p) => p.startsWith(`${prefix}/`))) break;
  }
  return decision;
}

/** A stated behaviour in change-set words: only the replacement statements recreate the resource. */
function recreationOf(behavior: StatedBehavior): RequiresRecreation {
  if (behavior === 'replacement') return 'Always';
  if (behavior === 'conditional-replacement') return 'Conditionally';
  return 'Never';
}

/** Rank of what a source stated about a property; unstated ranks below every statement. */
function statedRank(property: CompiledProperty): number {
  return property.b === undefined ? -1 : behaviorRank(property.b);
}
