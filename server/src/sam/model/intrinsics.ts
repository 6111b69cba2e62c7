/**
 * The few intrinsic functions the transform resolves itself (samtranslator/intrinsics): template
 * parameters with a known value inside `Ref` and `Fn::Sub` (for the properties whose value decides
 * a generated logical id, such as `AutoPublishAlias` and a function's code), `Fn::FindInMap` for
 * a deployment preference, and the references to what the transform generates or renames:
 * `!Ref MyFunction.Alias`, `!GetAtt MyApi.Stage...`, `${MyLayer}` after the layer's id changed.
 * Every function here returns its input itself when nothing in it changes.
 */
import { isMap, type PlainMap } from './values';

/** `${Name}` or `${Name.Attribute}` or `${AWS::Pseudo}` inside a `Fn::Sub` string. */
const SUB_REFERENCE = /\$\{([A-Za-z0-9.]+|AWS::[A-Z][A-Za-z]*)\}/g;

/**
 * Rewrites every value bottom-up, each single-key map whose key is one of `functions` first
 * through `rewrite`; copies only what changes.
 */
function traverse(value: unknown, functions: ReadonlySet<string>, rewrite: (map: PlainMap, key: string) => unknown, depth = 0): unknown {
  // Templates nest at most 256 levels (the parser's cap); this bound keeps a built value bounded too.
  if (depth > 512) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = traverse(item, functions, rewrite, depth + 1);
      if (next !== item) (copy ??= [...value])[i] = next;
    }
    return copy ?? value;
  }
  if (!isMap(value)) return value;
  const key = singleKey(value);
  if (key !== undefined && functions.has(key)) {
    const rewritten = rewrite(value, key);
    if (rewritten !== value) return traverse(rewritten, functions, rewrite, depth + 1);
  }
  let copy: PlainMap | undefined;
  for (const name in value) {
    const item = value[name];
    const next = traverse(item, functions, rewrite, depth + 1);
    if (next !== item) (copy ??= { ...value })[name] = next;
  }
  return copy ?? value;
}

/** The key of a map with exactly one key (counted without building the key list: maps are walked often). */
function singleKey(map: PlainMap): string | undefined {
  let found: string | undefined;
  for (const key in map) {
    if (found !== undefined) return undefined;
    found = key;
  }
  return found;
}

const REF_AND_SUB = new Set(['Ref', 'Fn::Sub']);
const FIND_IN_MAP = new Set(['Fn::FindInMap']);
const REFERENCES = new Set(['Ref', 'Fn::GetAtt', 'Fn::Sub']);

/** Replaces the `${...}` references of a `Fn::Sub` (its string, or the string of its list form) with `replace`'s answer. */
function rewriteSub(map: PlainMap, replace: (whole: string, name: string) => string): unknown {
  const value = map['Fn::Sub'];
  const substitute = (text: string): string => text.replace(SUB_REFERENCE, (whole: string, name: string) => replace(whole, name));
  if (typeof value === 'string') {
    const next = substitute(value);
    return next === value ? map : { 'Fn::Sub': next };
  }
  if (Array.isArray(value) && typeof value[0] === 'string') {
    const next = substitute(value[0]);
    return next === value[0] ? map : { 'Fn::Sub': [next, ...value.slice(1)] };
  }
  return map;
}

/**
 * The value of a parameter the template declares with no `Default` and the caller gave no value
 * for (parameterValues, translate.ts). CloudFormation passes every parameter's value to the
 * transform, so SAM never meets one; here it is a value not at hand, which stays a reference
 * wherever SAM resolves parameters, and which the properties that need a string to name what
 * they generate take as a stand-in (`parameterWithoutValue`).
 */
export class ParameterWithoutValue {
  constructor(readonly name: string) {}
}

/**
 * The parameter with no value at hand that `value` (parameters with a value already resolved)
 * waits for, when its value would make `value` what SAM resolves: a `Ref` to it; a `Fn::Sub`
 * string whose every `${Name}` left is one; with `findInMap`, for the properties where SAM
 * resolves `Fn::FindInMap` too, a `Fn::FindInMap` whose arguments are strings or such `Ref`s.
 * Undefined for anything else, which SAM does not resolve whatever the parameters' values.
 */
export function parameterWithoutValue(value: unknown, parameters: ReadonlyMap<string, unknown>, { findInMap = false } = {}): string | undefined {
  if (!isMap(value)) return undefined;
  const key = singleKey(value);
  const without = (name: unknown): name is string => typeof name === 'string' && parameters.get(name) instanceof ParameterWithoutValue;
  if (key === 'Ref') return without(value.Ref) ? value.Ref : undefined;
  if (key === 'Fn::Sub' && typeof value['Fn::Sub'] === 'string') {
    const names = [...value['Fn::Sub'].matchAll(SUB_REFERENCE)].map((match) => match[1]);
    return names.length > 0 && names.every(without) ? names[0] : undefined;
  }
  const args = value['Fn::FindInMap'];
  if (findInMap && key === 'Fn::FindInMap' && Array.isArray(args) && args.length === 3) {
    const refs = args.map((arg) => (typeof arg === 'string' ? null : parameterWithoutValue(arg, parameters)));
    return refs.every((ref) => ref !== undefined) ? (refs.find((ref) => ref !== null) ?? undefined) : undefined;
  }
  return undefined;
}

/** The text that stands in for a value `parameterWithoutValue` names a parameter of: each parameter's name in its value's place. */
export function standInText(value: unknown): string {
  if (!isMap(value)) return String(value);
  // A pseudo parameter's name stands in without its colons (`AWSRegion`), so generated logical ids stay alphanumeric.
  const bare = (name: string) => name.replace(/::/g, '');
  if (typeof value.Ref === 'string') return bare(value.Ref);
  const sub = value['Fn::Sub'];
  return typeof sub === 'string' ? sub.replace(SUB_REFERENCE, (_whole: string, name: string) => bare(name)) : '';
}

/** SAM's `resolve_parameter_refs`: `Ref` to a parameter with a value, and `${Parameter}` in `Fn::Sub` strings. */
export function resolveParameterRefs(value: unknown, parameters: ReadonlyMap<string, unknown>): unknown {
  return traverse(value, REF_AND_SUB, (map, key) => {
    if (key === 'Ref') {
      const name = map.Ref;
      if (typeof name !== 'string' || !parameters.has(name)) return map;
      const resolved = parameters.get(name);
      return resolved instanceof ParameterWithoutValue ? map : resolved;
    }
    if (key === 'Fn::Sub') {
      return rewriteSub(map, (whole, name) => {
        const resolved = parameters.get(name);
        return resolved === undefined || resolved instanceof ParameterWithoutValue ? whole : String(resolved);
      });
    }
    return map;
  });
}

/** SAM's FindInMap resolution over the template's Mappings, where map, top and second keys are all plain strings. */
export function resolveFindInMap(value: unknown, mappings: unknown): unknown {
  return traverse(value, FIND_IN_MAP, (map) => {
    const args = map['Fn::FindInMap'];
    if (!Array.isArray(args) || args.length !== 3 || !args.every((a) => typeof a === 'string')) return map;
    const [name, top, second] = args as string[];
    const level1 = isMap(mappings) ? mappings[name!] : undefined;
    const level2 = isMap(level1) ? level1[top!] : undefined;
    return isMap(level2) && second! in level2 ? level2[second!] : map;
  });
}

/** What `LogicalId.Property` refers to after the transform: `MyFunction.Alias` is `MyFunctionAliaslive`. */
export class ResourceReferences {
  private readonly refs = new Map<string, Map<string, string>>();
  private readonly properties = new Set<string>();
  /** Whether the transform itself wrote a `LogicalId.Property` reference (as SAM does for a domain's stage). */
  private written = false;

  add(logicalId: string, property: string, generatedId: string): void {
    let byProperty = this.refs.get(logicalId);
    if (!byProperty) this.refs.set(logicalId, (byProperty = new Map()));
    byProperty.set(property, generatedId);
    this.properties.add(property);
  }

  /** `Ref: LogicalId.Property`, as SAM writes a reference to what another part of the transform generates. */
  ref(logicalId: string, property: string): { Ref: string } {
    this.written = true;
    return { Ref: `${logicalId}.${property}` };
  }

  /**
   * Whether a template with this text may hold a reference to resolve: one written by the
   * transform, or `.Alias` or `Alias.` (for `[Fn, Alias.Arn]`) and the like in the text. Walking a
   * large template for nothing is what this spares.
   */
  mayBeIn(text: string): boolean {
    if (this.refs.size === 0) return false;
    if (this.written) return true;
    for (const property of this.properties) if (text.includes(`.${property}`) || text.includes(`${property}.`)) return true;
    return false;
  }

  get(logicalId: string, property: string): string | undefined {
    return this.refs.get(logicalId)?.get(property);
  }

  /** A copy to add to, this one left as it is. */
  copy(): ResourceReferences {
    const copy = new ResourceReferences();
    for (const [logicalId, byProperty] of this.refs) for (const [property, generatedId] of byProperty) copy.add(logicalId, property, generatedId);
    copy.written = this.written;
    return copy;
  }

  /** The references to what one resource generated: each property and the generated id, in the order added. */
  entriesOf(logicalId: string): [string, string][] {
    return [...(this.refs.get(logicalId) ?? [])];
  }

  /** The references to what one resource generated, as `property → generated id` text in the order added. */
  textOf(logicalId: string): string {
    return JSON.stringify(this.entriesOf(logicalId));
  }
}

/**
 * SAM's `resolve_sam_resource_refs`: `Ref: Fn.Alias`, `Fn::GetAtt: [Fn.Alias, Arn]` (or
 * `[Fn, Alias.Arn]`) and `${Fn.Alias}` / `${Fn.Alias.Arn}` become references to the generated resource.
 */
export function resolveResourceRefs(value: unknown, refs: ResourceReferences): unknown {
  const split = (text: string): [string, string, string | undefined] | undefined => {
    const parts = text.split('.');
    if (parts.length < 2) return undefined;
    return [parts[0]!, parts[1]!, parts.length > 2 ? parts.slice(2).join('.') : undefined];
  };
  return traverse(value, REFERENCES, (map, key) => {
    if (key === 'Ref' && typeof map.Ref === 'string') {
      const parts = split(map.Ref);
      const target = parts && parts[2] === undefined ? refs.get(parts[0], parts[1]) : undefined;
      return target === undefined ? map : { Ref: target };
    }
    if (key === 'Fn::GetAtt' && Array.isArray(map['Fn::GetAtt']) && map['Fn::GetAtt'].every((p) => typeof p === 'string')) {
      const joined = (map['Fn::GetAtt'] as string[]).join('.');
      const parts = split(joined);
      const target = parts && parts[2] !== undefined ? refs.get(parts[0], parts[1]) : undefined;
      return target === undefined ? map : { 'Fn::GetAtt': [target, parts![2]!] };
    }
    if (key === 'Fn::Sub') {
      return rewriteSub(map, (whole, name) => {
        const parts = split(name);
        const target = parts ? refs.get(parts[0], parts[1]) : undefined;
        if (target === undefined) return whole;
        return parts![2] === undefined ? `\${${target}}` : `\${${target}.${parts![2]}}`;
      });
    }
    return map;
  });
}

/** A resource entry whose `DependsOn` names resources the transform renamed, with the new names. */
export function renameDependsOn(entry: unknown, changed: ReadonlyMap<string, string>): unknown {
  if (changed.size === 0 || !isMap(entry) || entry.DependsOn === undefined) return entry;
  const rename = (id: unknown) => (typeof id === 'string' ? (changed.get(id) ?? id) : id);
  const dependsOn = Array.isArray(entry.DependsOn) ? entry.DependsOn.map(rename) : rename(entry.DependsOn);
  const same = Array.isArray(dependsOn) ? dependsOn.every((id, i) => id === (entry.DependsOn as unknown[])[i]) : dependsOn === entry.DependsOn;
  return same ? entry : { ...entry, DependsOn: dependsOn };
}

/** SAM's `resolve_sam_resource_id_refs`: references to a resource whose logical id the transform changed. */
export function resolveChangedLogicalIds(value: unknown, changed: ReadonlyMap<string, string>): unknown {
  if (changed.size === 0) return value;
  return traverse(value, REFERENCES, (map, key) => {
    if (key === 'Ref' && typeof map.Ref === 'string') {
      const target = changed.get(map.Ref);
      return target === undefined ? map : { Ref: target };
    }
    if (key === 'Fn::GetAtt' && Array.isArray(map['Fn::GetAtt']) && typeof map['Fn::GetAtt'][0] === 'string') {
      const target = changed.get(map['Fn::GetAtt'][0]);
      return target === undefined ? map : { 'Fn::GetAtt': [target, ...map['Fn::GetAtt'].slice(1)] };
    }
    if (key === 'Fn::Sub') {
      return rewriteSub(map, (whole, name) => {
        const dot = name.indexOf('.');
        const head = dot < 0 ? name : name.slice(0, dot);
        const target = changed.get(head);
        return target === undefined ? whole : `\${${target}${dot < 0 ? '' : name.slice(dot)}}`;
      });
    }
    return map;
  });
}
