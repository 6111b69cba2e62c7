/**
 * Plain template values as the transform handles them (what SAM's Python handles as dicts, lists
 * and scalars), and the intrinsic functions it writes into generated resources.
 */

import { setEntry } from '../../template/tree';

/** A JSON-like map read from the template or built by the transform. */
export type PlainMap = Record<string, unknown>;

/** Whether a value is a map (not a list, not null). */
export function isMap(value: unknown): value is PlainMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is a list. */
export function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

/** SAM's `is_intrinsic`: a map with one key that is `Ref`, `Condition` or starts with `Fn::`. */
export function isIntrinsic(value: unknown): boolean {
  if (!isMap(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const key = keys[0]!;
  return key === 'Ref' || key === 'Condition' || key.startsWith('Fn::');
}

/** SAM's `_is_intrinsic_function` for property validation: any map with exactly one key. */
export function isSingleKeyMap(value: unknown): boolean {
  return isMap(value) && Object.keys(value).length === 1;
}

/** `{"Fn::If": [...]}`. */
export function isIntrinsicIf(value: unknown): value is { 'Fn::If': unknown[] } {
  return isMap(value) && Object.keys(value).length === 1 && Array.isArray(value['Fn::If']);
}

/** `{"Ref": "AWS::NoValue"}`. */
export function isNoValue(value: unknown): boolean {
  return isMap(value) && Object.keys(value).length === 1 && value.Ref === 'AWS::NoValue';
}

/** Python's truthiness of a template value. */
export function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

/** `{"Ref": name}`. */
export function ref(name: unknown): PlainMap {
  return { Ref: name };
}

/** `{"Fn::GetAtt": [logicalId, attribute]}`. */
export function getAtt(logicalId: string, attribute: string): PlainMap {
  return { 'Fn::GetAtt': [logicalId, attribute] };
}

/** `{"Fn::Sub": text}` or `{"Fn::Sub": [text, variables]}`. */
export function sub(text: unknown, variables?: PlainMap): PlainMap {
  return variables === undefined ? { 'Fn::Sub': text } : { 'Fn::Sub': [text, variables] };
}

/** `{"Fn::If": [condition, then, else]}`; the else branch is `AWS::NoValue` unless given. */
export function makeConditional(condition: unknown, then: unknown, otherwise: unknown = ref('AWS::NoValue')): PlainMap {
  return { 'Fn::If': [condition, then, otherwise] };
}

/**
 * SAM's `make_shorthand`: `${Resource}` for a Ref, `${Resource.Attribute}` for a GetAtt, for use
 * inside `Fn::Sub`.
 */
export function shorthand(intrinsic: PlainMap): string {
  if ('Ref' in intrinsic) return `\${${String(intrinsic.Ref)}}`;
  const getAtt = intrinsic['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return `\${${getAtt.map(String).join('.')}}`;
  throw new TypeError('Unsupported intrinsic for a Fn::Sub shorthand');
}

/** A deep copy of a plain value. */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (isMap(value)) {
    const copy: PlainMap = {};
    for (const key of Object.keys(value)) setEntry(copy, key, deepCopy(value[key]));
    return copy as T;
  }
  return value;
}


/** Structural equality of plain values (Python's `==` on dicts and lists). */
export function plainEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => plainEqual(item, b[i]));
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && plainEqual(a[key], b[key]));
  }
  return false;
}

/**
 * Equality of plain values with each map's keys in the same order (as a processed template shows
 * them); an object of any other kind (a Python dict of SAM's) equals only itself.
 */
export function sameInOrder(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameInOrder(a[i], b[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== otherKeys[i] || !sameInOrder((a as PlainMap)[key], (b as PlainMap)[key])) return false;
  }
  return true;
}

/** SAM's `get_tag_list`: a map of tags as a CloudFormation list of `{Key, Value}`. */
export function tagList(tags: unknown): PlainMap[] {
  if (!isMap(tags)) return [];
  return Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));
}
