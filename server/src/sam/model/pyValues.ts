/**
 * Crossing between template values and the swagger document's Python values (python/py27Dict.ts):
 * what the template says enters as SAM's `_convert_to_py27_type` makes it (maps become Python 2.7
 * dicts in the order written, strings become unicode), and the finished document leaves as plain
 * values for the expanded template.
 */
import { isIntegralFloat } from '../python/integralFloats';
import { PyDict, PyFloat, PyUnicode, type PlainPyDict, type PyValue } from '../python/py27Dict';
import { isMap, type PlainMap } from './values';
import { setEntry } from '../../template/tree';

/** A template value as SAM holds it in a converted template: unicode strings, Python 2.7 dicts. */
export function fromTemplate(value: unknown): PyValue {
  if (value instanceof PyDict || value instanceof PyUnicode || value instanceof PyFloat) return value;
  if (typeof value === 'string') return new PyUnicode(value);
  if (Array.isArray(value)) return value.map((item, i) => (isIntegralFloat(value, i) ? new PyFloat(item as number) : fromTemplate(item)));
  if (isMap(value)) {
    const dict = new PyDict();
    for (const key of Object.keys(value)) dict.set(new PyUnicode(key), isIntegralFloat(value, key) ? new PyFloat(value[key] as number) : fromTemplate(value[key]));
    return dict;
  }
  if (value === undefined) return null;
  return value as number | boolean | null;
}

/** `fromTemplate` of `container[key]`, a number written as an integral float (`29000.0`) staying a float, as Python reads it. */
export function fromTemplateEntry(container: PlainMap, key: string): PyValue {
  return isIntegralFloat(container, key) ? new PyFloat(container[key] as number) : fromTemplate(container[key]);
}

/** The plain value of a swagger value, for the expanded template. */
export function toPlain(value: PyValue | undefined): unknown {
  if (value === undefined || value === null) return value === undefined ? undefined : null;
  if (value instanceof PyUnicode) return value.text;
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof PyDict) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value.items()) setEntry(out, typeof key === 'string' ? key : key.text, toPlain(item));
    return out;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) setEntry(out, key, toPlain(item));
    return out;
  }
  return value;
}


/** The text of a string value, plain or unicode; undefined for anything else. */
export function pyText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value instanceof PyUnicode) return value.text;
  return undefined;
}

/** Whether a swagger value is a dict of either kind. */
export function isPyMap(value: unknown): value is PyDict | PlainPyDict {
  return value instanceof PyDict || (isMap(value) && !(value instanceof PyUnicode) && !(value instanceof PyFloat));
}

/** `d.get(key)` on either kind of dict. */
export function pyGet(dict: PyDict | PlainPyDict, key: string): PyValue | undefined {
  return dict instanceof PyDict ? dict.get(key) : dict[key];
}

/** `key in d` on either kind of dict. */
export function pyHas(dict: PyDict | PlainPyDict, key: string): boolean {
  return dict instanceof PyDict ? dict.has(key) : Object.prototype.hasOwnProperty.call(dict, key);
}

/** `len(d)` on either kind of dict. */
export function pySize(dict: PyDict | PlainPyDict): number {
  return dict instanceof PyDict ? dict.size : Object.keys(dict).length;
}

/** The keys of either kind of dict, in iteration order. */
export function pyKeys(dict: PyDict | PlainPyDict): string[] {
  return dict instanceof PyDict ? dict.keys() : Object.keys(dict);
}

/** Python's truthiness of a swagger value. */
export function pyTruthy(value: PyValue | undefined): boolean {
  if (value === undefined || value === null || value === false || value === 0) return false;
  if (typeof value === 'string') return value !== '';
  if (value instanceof PyUnicode) return value.text !== '';
  if (value instanceof PyFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof PyDict) return value.size > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
