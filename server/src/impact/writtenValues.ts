/**
 * Reading the values of resource attributes and properties as CloudFormation reads them: a number
 * or a boolean may be written as text (YAML and JSON templates write both), a name as a `Ref`.
 */
import { isValueObject, ResourceRef, type Value } from '../evaluate/value';

/** A resource's property (or any map's entry) by name; undefined when the value is not a map (a symbol, a list) or has no such entry. */
export function propertyOf(properties: Value | undefined, name: string): Value | undefined {
  return isValueObject(properties) ? properties[name] : undefined;
}

/** A whole number written as a number or as its digits; undefined otherwise. */
export function wholeNumber(value: Value | undefined): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
  return number !== undefined && Number.isInteger(number) ? number : undefined;
}

/** Whether a boolean is written true (`true` or `"true"`, as CloudFormation accepts it). */
export function isTrue(value: Value | undefined): boolean {
  return flag(value) === true;
}

/**
 * A boolean as written: true (`true`, `"true"`), false (`false`, `"false"`, absent), or undefined
 * when this analysis cannot tell (a value known only at deploy time, `yes` and the like, which
 * YAML 1.1 readers take for true). A rule that would call an update a failure on a false flag
 * must not do so on an undefined one.
 */
export function flag(value: Value | undefined): boolean | undefined {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  if (typeof value === 'string') {
    const text = value.toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return undefined;
}

/** A name as a person finds it in the template: the logical id a `Ref` names, or the name written. */
export function nameOf(value: Value | undefined): string | undefined {
  if (value instanceof ResourceRef) return value.logicalId;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The object without its undefined entries, so that data compares and prints as written. */
export function withoutAbsent<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}
