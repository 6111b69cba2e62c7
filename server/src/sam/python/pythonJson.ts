/**
 * `json.dumps(value, separators=(",", ":"), sort_keys=True)`, the string SAM hashes for most
 * generated logical ids (logical_id_generator.py): keys sorted by code point, no spaces, every
 * character outside ASCII written as `\uXXXX` (surrogate pairs for astral characters).
 */
import { isIntegralFloat } from './integralFloats';
import { PyDict, PyFloat, PyUnicode, textOf, type PyStr, type PyValue } from './py27Dict';
import { pyFloat, pyNumber } from './pyRepr';

/** Python's compact, key-sorted JSON of a plain value. */
export function pythonJsonDumps(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: unknown, out: string[], float = false): void {
  if (float && typeof value === 'number') out.push(pyFloat(value));
  else if (value === null || value === undefined) out.push('null');
  else if (value === true) out.push('true');
  else if (value === false) out.push('false');
  else if (typeof value === 'number') out.push(Number.isFinite(value) ? pyNumber(value) : Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity');
  else if (typeof value === 'string') out.push(jsonString(value));
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out, isIntegralFloat(value, i));
    });
    out.push(']');
  } else if (typeof value === 'object') {
    const keys = Object.keys(value).sort(byCodePoint);
    out.push('{');
    keys.forEach((key, i) => {
      if (i > 0) out.push(',');
      out.push(jsonString(key), ':');
      write((value as Record<string, unknown>)[key], out, isIntegralFloat(value, key));
    });
    out.push('}');
  } else out.push(jsonString(String(value)));
}

/** Python compares strings by code point; UTF-16 order differs only around astral characters. */
export function byCodePoint(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (an astral character) sorts after every BMP character, including U+E000 and above.
    const xAstral = x >= 0xd800 && x <= 0xdfff;
    const yAstral = y >= 0xd800 && y <= 0xdfff;
    if (xAstral !== yAstral && (xAstral ? y : x) >= 0xe000) return xAstral ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function jsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/**
 * `json.dumps(value)` with Python's default separators (`, ` and `: `) and the dicts' own order
 * (a Python 2.7 dict's for a `PyDict`), as SAM writes a custom domain into a deployment's hash.
 */
export function pythonJsonDumpsUnsorted(value: PyValue | undefined): string {
  const parts: string[] = [];
  writeUnsorted(value, parts);
  return parts.join('');
}

function writeUnsorted(value: PyValue | undefined, out: string[]): void {
  if (value === null || value === undefined) out.push('null');
  else if (value === true) out.push('true');
  else if (value === false) out.push('false');
  else if (typeof value === 'number') out.push(pyNumber(value));
  else if (typeof value === 'string') out.push(jsonString(value));
  else if (value instanceof PyUnicode) out.push(jsonString(value.text));
  else if (value instanceof PyFloat) out.push(pyFloat(value.value));
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(', ');
      writeUnsorted(item, out);
    });
    out.push(']');
  } else {
    const items: [PyStr, PyValue][] = value instanceof PyDict ? value.items() : Object.entries(value);
    out.push('{');
    items.forEach(([key, item], i) => {
      if (i > 0) out.push(', ');
      out.push(jsonString(textOf(key)), ': ');
      writeUnsorted(item, out);
    });
    out.push('}');
  }
}

/**
 * `json.dumps(value, sort_keys=True, indent=indent, separators=(",", ": "))`, with `replace`
 * asked first about every value below the top (a state machine definition's intrinsics become
 * substitution keys this way, in the order the keys sort).
 */
export function pythonJsonDumpsIndented(value: unknown, indent: number, replace: (value: unknown) => string | undefined): string {
  const parts: string[] = [];
  writeIndented(value, parts, 0, indent, replace, false);
  return parts.join('');
}

function writeIndented(value: unknown, out: string[], depth: number, indent: number, replace: (value: unknown) => string | undefined, float: boolean): void {
  const isContainer = Array.isArray(value) || (typeof value === 'object' && value !== null);
  if (!isContainer) {
    write(value, out, float);
    return;
  }
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.keys(value as object)
        .sort(byCodePoint)
        .map((key) => [key, (value as Record<string, unknown>)[key]]);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    out.push(open, close);
    return;
  }
  const inner = '\n' + ' '.repeat((depth + 1) * indent);
  out.push(open);
  entries.forEach(([key, item], i) => {
    out.push(i > 0 ? ',' + inner : inner);
    if (typeof key === 'string') out.push(jsonString(key), ': ');
    const replaced = replace(item);
    if (replaced !== undefined) out.push(jsonString(replaced));
    else writeIndented(item, out, depth + 1, indent, replace, isIntegralFloat(value, key));
  });
  out.push('\n' + ' '.repeat(depth * indent), close);
}
