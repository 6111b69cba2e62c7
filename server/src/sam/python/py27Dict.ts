/**
 * Python 2.7's dictionary order, as SAM reproduces it. The logical id of a REST API's deployment
 * is a SHA-1 of `str(swagger)` (restApi.ts), and SAM keeps that string what Python 2.7 printed:
 * the swagger's dictionaries iterate in the order of a Python 2.7 hash table (slot order, which
 * depends on each key's hash and on the history of inserts, deletes and resizes), and strings read
 * from the template print as unicode (`u'...'`). This module is that table: a dictionary whose
 * keys iterate as SAM's `Py27Dict` makes them iterate (samtranslator/utils/py27hash_fix.py, which
 * follows CPython 2.7's Objects/dictobject.c).
 */

/** A string read from the template, which Python 2.7 held as `unicode` and prints as `u'...'`. */
export class PyUnicode {
  constructor(readonly text: string) {}
}

/** A number the template wrote as a float with an integral value (`2.0`), which Python prints as `2.0`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A string as Python holds it: a plain `str` (SAM's own literals) or template text. */
export type PyStr = string | PyUnicode;

/** The text of a Python string. */
export function textOf(value: PyStr): string {
  return typeof value === 'string' ? value : value.text;
}

/** Python values as the swagger holds them; a plain object is a Python 3 dict (insertion order). */
export type PyValue = PyStr | number | PyFloat | boolean | null | PyValue[] | PyDict | PlainPyDict;

/** A Python 3 dict: iterates in insertion order (SAM builds intrinsics such as `{"Fn::Sub": ...}` this way). */
export interface PlainPyDict {
  [key: string]: PyValue;
}

const MIN_SIZE = 8;
const PERTURB_SHIFT = 5n;
const LARGE_DICT_SIZE = 50000;
const MASK_64 = (1n << 64n) - 1n;
/** Marks a slot whose key was deleted; lookups walk past it. */
const DUMMY = Symbol('dummy');

const hashCache = new Map<string, bigint>();

/** Python 2.7's string hash as SAM computes it (third_party/py27hash/hash.py), unsigned 64-bit. */
export function py27StringHash(text: string): bigint {
  const cached = hashCache.get(text);
  if (cached !== undefined) return cached;
  let x = 0n;
  let length = 0;
  for (const ch of text) {
    const code = BigInt(ch.codePointAt(0)!);
    if (length === 0) x = (code << 7n) & MASK_64;
    x = ((1000003n * x) & MASK_64) ^ code;
    length++;
  }
  x = length === 0 ? 0n : (x ^ BigInt(length)) & MASK_64;
  // The cache is bounded: templates are bounded, but a long-lived worker sees many of them.
  if (hashCache.size > 100000) hashCache.clear();
  hashCache.set(text, x);
  return x;
}

/** The key order of a Python 2.7 dict (SAM's `Py27Keys`). */
class Py27Keys {
  private slots: (string | typeof DUMMY | undefined)[] = new Array(MIN_SIZE);
  private mask = MIN_SIZE - 1;
  private size = 0;
  private fill = 0;

  private indexOf(key: string): number {
    const h = py27StringHash(key);
    let i = Number(h & BigInt(this.mask));
    const slots = this.slots;
    if (slots[i] === undefined || slots[i] === key) return i;
    let free: number | undefined = slots[i] === DUMMY ? i : undefined;
    // Only the low bits of the walker decide the slot, so it is kept modulo 2^32.
    let walker = i;
    let perturb = h;
    while (slots[i] !== undefined && slots[i] !== key) {
      walker = (walker * 5 + Number(perturb & 0xffffffffn) + 1) % 0x100000000;
      i = walker & this.mask;
      if (slots[i] === undefined) return free === undefined ? i : free;
      if (slots[i] === key) return i;
      if (free === undefined && slots[i] === DUMMY) free = i;
      perturb >>= PERTURB_SHIFT;
    }
    return i;
  }

  private resize(request: number): void {
    let newSize = MIN_SIZE;
    while (newSize <= request) newSize *= 2;
    const old = this.slots;
    this.slots = new Array(newSize);
    this.mask = newSize - 1;
    this.fill = 0;
    this.size = 0;
    for (const key of old) if (key !== undefined && key !== DUMMY) this.add(key);
  }

  add(key: string): void {
    const startSize = this.size;
    const i = this.indexOf(key);
    const current = this.slots[i];
    if (current === undefined) {
      this.size++;
      this.fill++;
      this.slots[i] = key;
    } else {
      if (current === DUMMY) this.size++;
      this.slots[i] = key;
    }
    if (this.size > startSize && this.fill * 3 >= (this.mask + 1) * 2) this.resize(this.size * (this.size > LARGE_DICT_SIZE ? 2 : 4));
  }

  remove(key: string): void {
    const i = this.indexOf(key);
    const current = this.slots[i];
    if (current !== undefined && current !== DUMMY) {
      this.slots[i] = DUMMY;
      this.size--;
    }
  }

  /** `PyDict_Merge`: room for both is made at once before the keys are added. */
  merge(keys: readonly string[]): void {
    if (keys.length === 0) return;
    if ((this.fill + keys.length) * 3 >= (this.mask + 1) * 2) this.resize((this.size + keys.length) * 2);
    for (const key of keys) this.add(key);
  }

  keys(): string[] {
    const out: string[] = [];
    for (const key of this.slots) if (key !== undefined && key !== DUMMY) out.push(key);
    return out;
  }
}

/** SAM's `Py27Dict`: a dict whose keys iterate in Python 2.7's order. */
export class PyDict {
  private readonly values = new Map<string, { key: PyStr; value: PyValue }>();
  private keylist = new Py27Keys();

  /** `Py27Dict(other)`: an empty dict updated with `other`'s items. */
  static from(other: PyDict | PlainPyDict): PyDict {
    const dict = new PyDict();
    dict.update(other);
    return dict;
  }

  get size(): number {
    return this.values.size;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  get(key: string): PyValue | undefined {
    return this.values.get(key)?.value;
  }

  /** `d[key] = value`; an existing key keeps the string object it was first inserted with. */
  set(key: PyStr, value: PyValue): void {
    const text = textOf(key);
    const existing = this.values.get(text);
    if (existing) existing.value = value;
    else this.values.set(text, { key, value });
    this.keylist.add(text);
  }

  setdefault(key: PyStr, value: PyValue): PyValue {
    const text = textOf(key);
    if (!this.values.has(text)) this.set(key, value);
    return this.values.get(text)!.value;
  }

  delete(key: string): void {
    if (!this.values.delete(key)) return;
    this.keylist.remove(key);
  }

  /** `d.update(other)`: a dict's keys are merged first (room made for all), then each item is set. */
  update(other: PyDict | PlainPyDict): void {
    const items: [PyStr, PyValue][] = other instanceof PyDict ? other.items() : Object.entries(other);
    this.keylist.merge(items.map(([k]) => textOf(k)));
    for (const [key, value] of items) this.set(key, value);
  }

  /** `d.copy()`: the key list is copied by merging, then the items are set. */
  copy(): PyDict {
    const dict = new PyDict();
    const items = this.items();
    dict.keylist.merge(items.map(([k]) => textOf(k)));
    for (const [key, value] of items) dict.set(key, value);
    return dict;
  }

  /** The keys (their texts), in Python 2.7's order. */
  keys(): string[] {
    return this.keylist.keys();
  }

  /** The keys as inserted (plain or unicode), with their values, in Python 2.7's order. */
  items(): [PyStr, PyValue][] {
    return this.keylist.keys().map((text) => {
      const entry = this.values.get(text)!;
      return [entry.key, entry.value];
    });
  }

  /** `copy.deepcopy(d)`: keys re-added in iteration order into a new table, values deep-copied. */
  deepCopy(): PyDict {
    const dict = new PyDict();
    for (const [key, value] of this.items()) {
      dict.values.set(textOf(key), { key, value: pyDeepCopy(value) });
      dict.keylist.add(textOf(key));
    }
    return dict;
  }
}

/** `copy.deepcopy` of a swagger value. */
export function pyDeepCopy(value: PyValue): PyValue {
  if (value instanceof PyDict) return value.deepCopy();
  if (Array.isArray(value)) return value.map(pyDeepCopy);
  if (value !== null && typeof value === 'object' && !(value instanceof PyUnicode) && !(value instanceof PyFloat)) {
    const copy: PlainPyDict = {};
    for (const [key, item] of Object.entries(value)) copy[key] = pyDeepCopy(item);
    return copy;
  }
  return value;
}

/** The order in which a Python 2.7 dict built by inserting `keys` one by one iterates them. */
export function py27KeyOrder(keys: readonly string[]): string[] {
  const keylist = new Py27Keys();
  for (const key of keys) keylist.add(key);
  return keylist.keys();
}
