/**
 * `str()` of a swagger document as SAM's Python prints it: Python 2.7 dict order for `Py27Dict`,
 * insertion order for plain dicts, `u'...'` for template strings (SAM's `Py27UniStr.__repr__`),
 * `'...'` for SAM's own, `True`/`False`/`None`, Python number forms.
 */
import { plainDict, plainItems, PyDict, PyFloat, PyUnicode, type PyValue } from './py27Dict';

/** `str(value)` as SAM computes it for the deployment hash. */
export function pyStr(value: PyValue): string {
  return written(value, 0);
}

/**
 * `str(value)` as SAM's Python 3 gives it, in its messages and its checks (an OpenAPI version): a
 * string as it is, anything else as its repr, with template strings as plain ones (the `u'...'`
 * is Python 2.7's, for the hash).
 */
export function pyMessageText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof PyUnicode) return value.text;
  return pyStr(py3Value(value, 0));
}

/** Python 3's `type(value).__name__` for a template value (SAM's messages name it). */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof PyFloat) return 'float';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string' || value instanceof PyUnicode) return 'str';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

/** A value as Python 3 holds it: template strings plain, JSON values as their Python kin. */
function py3Value(value: unknown, depth: number): PyValue {
  if (value === undefined || value === null || depth > 64) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof PyFloat) return value;
  if (value instanceof PyUnicode) return value.text;
  if (Array.isArray(value)) return value.map((item) => py3Value(item, depth + 1));
  const items: [unknown, unknown][] = value instanceof PyDict ? value.items() : Object.entries(value as object);
  return plainDict(items.map(([key, item]) => [key instanceof PyUnicode ? key.text : String(key), py3Value(item, depth + 1)]));
}

/**
 * The text of a value, its pieces joined with `+`: a definition of 200 paths with CORS is some
 * 190,000 characters in 60,000 pieces, which V8 joins faster this way than through an array.
 */
function written(value: PyValue, depth: number): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return cachedRepr(plainReprs, value, plainRepr);
  if (value instanceof PyUnicode) return cachedRepr(unicodeReprs, value.text, unicodeRepr);
  if (value instanceof PyFloat) return pyFloat(value.value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i > 0 ? ', ' : '') + written(value[i]!, depth + 1);
    out += ']';
  } else {
    const items: [PyValue, PyValue][] = value instanceof PyDict ? value.items() : plainItems(value);
    out = '{';
    for (let i = 0; i < items.length; i++) out += (i > 0 ? ', ' : '') + written(items[i]![0], depth + 1) + ': ' + written(items[i]![1], depth + 1);
    out += '}';
  }
  return out;
}

/** Reprs of short strings already printed: a definition repeats its keys and SAM's own values in every path. */
const plainReprs = new Map<string, string>();
const unicodeReprs = new Map<string, string>();
const CACHED_LENGTH = 256;

/** `repr(text)`, from the cache when it was printed before. */
function cachedRepr(cache: Map<string, string>, text: string, repr: (text: string) => string): string {
  if (text.length > CACHED_LENGTH) return repr(text);
  let done = cache.get(text);
  if (done === undefined) {
    done = repr(text);
    // Bounded in count and (by the length above) in size: a long-lived worker prints many definitions.
    if (cache.size > 20000) cache.clear();
    cache.set(text, done);
  }
  return done;
}

/** Python's `repr(int)` for an integer, `repr(float)` for anything else. */
export function pyNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  return pyFloat(value);
}

/** Python's `repr(float)`. */
export function pyFloat(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  // The shortest round-trip digits are the same in both languages; only the layout differs.
  const [mantissa, exponentText] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const text = String(value);
  return text.includes('.') ? text : `${text}.0`;
}

/** Printable ASCII other than the quote and the backslash: text that `repr` quotes as it is (most of a definition's strings). */
const VERBATIM = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

/** Python 3's `repr(str)`. */
function plainRepr(text: string): string {
  if (VERBATIM.test(text)) return `'${text}'`;
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad) out += `\\x${hex(code, 2)}`;
    else out += ch;
  }
  return out + quote;
}

/** SAM's `Py27UniStr.__repr__`: `u` + the repr of the `unicode_escape` encoding, its doubled backslashes undone. */
function unicodeRepr(text: string): string {
  if (VERBATIM.test(text)) return `u'${text}'`;
  let escaped = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') escaped += '\\\\';
    else if (ch === '\t') escaped += '\\t';
    else if (ch === '\n') escaped += '\\n';
    else if (ch === '\r') escaped += '\\r';
    else if (code < 0x20 || (code >= 0x7f && code < 0x100)) escaped += `\\x${hex(code, 2)}`;
    else if (code < 0x7f) escaped += ch;
    else if (code < 0x10000) escaped += `\\u${hex(code, 4)}`;
    else escaped += `\\U${hex(code, 8)}`;
  }
  return `u${plainRepr(escaped).split('\\\\').join('\\')}`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** A list of names as Python prints it: `['A', 'B']`. */
export function pyList(names: readonly string[]): string {
  return `[${names.map((n) => `'${n}'`).join(', ')}]`;
}
