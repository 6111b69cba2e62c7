/**
 * The property checks SAM makes when it reads a resource or an event (Resource.from_dict and
 * validate_properties): an unknown property, a missing required one, a value of the wrong type.
 * A map with a single key counts as an intrinsic function and passes, where the property allows
 * intrinsics.
 */
import { invalidResource, type SamError } from './errors';
import { isList, isMap, isSingleKeyMap } from './values';

/** Whether a value is acceptable for a property. */
export type Check = (value: unknown) => boolean;

export const IS_STR: Check = (v) => typeof v === 'string';
export const IS_DICT: Check = (v) => isMap(v);
export const IS_BOOL: Check = (v) => typeof v === 'boolean';
/** Python's `isinstance(v, int)`: booleans are ints too. */
export const IS_INT: Check = (v) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean';
export const IS_LIST: Check = (v) => isList(v);
export const ANY: Check = () => true;

export function oneOf(...checks: Check[]): Check {
  return (v) => checks.some((check) => check(v));
}

export function listOf(check: Check): Check {
  return (v) => isList(v) && v.every(check);
}

export function dictOf(keyCheck: Check, valueCheck: Check): Check {
  return (v) => isMap(v) && Object.entries(v).every(([key, value]) => keyCheck(key) && valueCheck(value));
}

/** How SAM declares one property. */
export interface PropertySpec {
  required?: boolean;
  check?: Check;
  /** False for SAM's `Property` and `PassThroughProperty`: an intrinsic is checked like any value. */
  intrinsics?: boolean;
}

/** A property of any value that SAM passes through (`PassThroughProperty`). */
export const PASS_THROUGH: PropertySpec = { check: ANY, intrinsics: false };
export const REQUIRED_PASS_THROUGH: PropertySpec = { required: true, check: ANY, intrinsics: false };

/** `PropertyType(required, check)`. */
export function typed(check: Check, required = false): PropertySpec {
  return { check, required };
}

/** `Property(required, check)`: no intrinsic accepted. */
export function strict(check: Check, required = false): PropertySpec {
  return { check, required, intrinsics: false };
}

/** The wording of the expected type SAM gives for a check, when it has one. */
function expectedType(check: Check | undefined): string | undefined {
  if (check === IS_DICT) return 'map';
  if (check === IS_STR) return 'string';
  return undefined;
}

/** Each declared property's place in declaration order, and the required ones, per spec table. */
const declarations = new WeakMap<Record<string, PropertySpec>, { order: Map<string, number>; required: string[] }>();

function declarationsOf(specs: Record<string, PropertySpec>): { order: Map<string, number>; required: string[] } {
  let found = declarations.get(specs);
  if (!found) {
    const names = Object.keys(specs);
    found = { order: new Map(names.map((name, i) => [name, i])), required: names.filter((name) => specs[name]!.required) };
    declarations.set(specs, found);
  }
  return found;
}

/**
 * Checks properties as SAM's `from_dict` does: an unknown property first, then each declared
 * property in declaration order (only the present and the required ones can fail, so only they
 * are looked at, and the first failure in declaration order is the one reported). `subject` is
 * the id the error names; `pathPrefix` locates the properties below the resource entry.
 */
export function checkProperties(
  subject: string,
  type: string,
  properties: Record<string, unknown>,
  specs: Record<string, PropertySpec>,
  pathPrefix: readonly (string | number)[] = ['Properties'],
  makeError: (subject: string, detail: string, path: readonly (string | number)[]) => SamError = invalidResource,
): SamError | undefined {
  const present = Object.keys(properties);
  for (const name of present) {
    if (!(name in specs)) return makeError(subject, `property ${name} not defined for resource of type ${type}`, [...pathPrefix, name]);
  }
  const { order, required } = declarationsOf(specs);
  let first: { index: number; error: () => SamError } | undefined;
  const fail = (name: string, error: () => SamError) => {
    const index = order.get(name)!;
    if (first === undefined || index < first.index) first = { index, error };
  };
  for (const name of required) {
    if (!(name in properties)) fail(name, () => makeError(subject, `Missing required property '${name}'.`, pathPrefix));
  }
  for (const name of present) {
    const spec = specs[name]!;
    const value = properties[name];
    if (spec.intrinsics !== false && isSingleKeyMap(value)) continue;
    if (value === undefined || value === null) {
      if (spec.required) fail(name, () => makeError(subject, `Missing required property '${name}'.`, pathPrefix));
      continue;
    }
    if (spec.check && !spec.check(value)) {
      const expected = expectedType(spec.check);
      const detail = expected ? `Property '${name}' should be a ${expected}.` : `Type of property '${name}' is invalid.`;
      fail(name, () => makeError(subject, detail, [...pathPrefix, name]));
    }
  }
  return first?.error();
}
