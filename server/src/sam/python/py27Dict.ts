/**
 * Python 2.7's dictionary order, as SAM reproduces it. The logical id of a REST API's deployment
 * is a SHA-1 of `str(swagger)` (restApi.ts), and SAM keeps that string what Python 2.7 printed:
 * the swagger's dictionaries iterate in the order of a Python 2.7 hash table (slot order, which
 * depends on each key's hash and on the history of inserts, deletes and resizes), and strings read
 * from the template print as unicode (`u'...'`). This module is that table: a dictionary whose
 * keys iterate as SAM's `Py27Dict` makes them iterate (samtranslator/utils/py27hash_fix.py, which
 * follows CPython 2.7's Objects/dictobject.c).
 */

import { setEntry } from '../../template/tree';

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

/** The keys of plain dicts that SAM built from template keys, which stay template text (unicode). */
const unicodeKeys = new WeakMap<PlainPyDict, Set<string>>();

/**
 * A Python 3 dict built from `entries` in order (`{**a, **b}`, `{key: value}`): a key given twice
 * keeps the string object it came with first, so a key taken from the template stays unicode.
 */
export function plainDict(entries: Iterable<[PyStr, PyValue]>): PlainPyDict {
  const dict: PlainPyDict = {};
  const unicode = new Set<string>();
  for (const [key, value] of entries) {
    const text = textOf(key);
    if (!Object.hasOwn(dict, text) && key instanceof PyUnicode) unicode.add(text);
    setEntry(dict, text, value);
  }
  if (unicode.size > 0) unicodeKeys.set(dict, unicode);
  return dict;
}

/** The items of a plain dict in insertion order, each key as Python holds it (plain or unicode). */
export function plainItems(dict: PlainPyDict): [PyStr, PyValue][] {
  const unicode = unicodeKeys.get(dict);
  return Object.entries(dict).map(([key, value]) => [unicode?.has(key) ? new PyUnicode(key) : key, value]);
}

const MIN_SIZE = 8;
const PERTURB_SHIFT = 5;
const LARGE_DICT_SIZE = 50000;
const MASK_64 = (1n << 64n) - 1n;

/** A key's hash as two unsigned 32-bit halves, so that probing needs no bigint arithmetic. */
interface KeyHash {
  low: number;
  high: number;
}

const hashCache = new Map<string, KeyHash>();

/** Python 2.7's string hash as SAM computes it (third_party/py27hash/hash.py), unsigned 64-bit. */
export function py27StringHash(text: string): bigint {
  let x = 0n;
  let length = 0;
  for (const ch of text) {
    const code = BigInt(ch.codePointAt(0)!);
    if (length === 0) x = (code << 7n) & MASK_64;
    x = ((1000003n * x) & MASK_64) ^ code;
    length++;
  }
  return length === 0 ? 0n : (x ^ BigInt(length)) & MASK_64;
}

function keyHash(text: string): KeyHash {
  let hash = hashCache.get(text);
  if (hash === undefined) {
    const full = py27StringHash(text);
    hash = { low: Number(full & 0xffffffffn), high: Number(full >> 32n) };
    // The cache is bounded: templates are bounded, but a long-lived worker sees many of them.
    if (hashCache.size > 100000) hashCache.clear();
    hashCache.set(text, hash);
  }
  return hash;
}

const EMPTY = -1;
/** Marks a slot whose key was deleted; lookups walk past it. */
const DUMMY = -2;

/**
 * The keys a table and the tables deep-copied from it hold, each with its hash halves (so that
 * re-adding keys needs no lookup). Only appended to: a copy holds the same keys in other slots, so
 * it shares the store, and a key added later is at an index no earlier table's slots name.
 */
class KeyStore {
  readonly texts: string[] = [];
  readonly lows: number[] = [];
  readonly highs: number[] = [];
}

/**
 * The key order of a Python 2.7 dict (SAM's `Py27Keys`): CPython's open-addressing table, each
 * slot holding the index of its key in the store, or EMPTY, or DUMMY.
 */
class Py27Keys {
  // A plain array: tables are small and made often, and a typed array over 64 bytes is allocated
  // outside the heap, which costs more than all the probing a table sees.
  private slots: number[];
  private mask: number;
  private size = 0;
  private fill = 0;
  /** A hash of which key is in which slot (`fingerprint`), made when first asked for; any change of the slots drops it. */
  private print: number | undefined;

  constructor(
    private readonly store: KeyStore = new KeyStore(),
    slots?: number[],
    size = 0,
  ) {
    this.slots = slots ?? new Array<number>(MIN_SIZE).fill(EMPTY);
    this.mask = this.slots.length - 1;
    this.size = size;
    this.fill = size;
  }

  /** CPython's `lookdict`: the key's slot, or the slot it would be added in. */
  private indexOf(key: string, low: number, high: number): number {
    const slots = this.slots;
    const keyTexts = this.store.texts;
    // Masks stay below 2^31, so the low half of the hash decides the first slot.
    let i = low & this.mask;
    let slot = slots[i]!;
    if (slot === EMPTY || (slot >= 0 && keyTexts[slot] === key)) return i;
    let free = slot === DUMMY ? i : -1;
    // Only the low 32 bits of the walker and of the perturbation decide the slot.
    let walker = i;
    let perturbLow = low;
    let perturbHigh = high;
    for (;;) {
      walker = (walker * 5 + perturbLow + 1) >>> 0;
      i = walker & this.mask;
      slot = slots[i]!;
      if (slot === EMPTY) return free === -1 ? i : free;
      if (slot >= 0 && keyTexts[slot] === key) return i;
      if (free === -1 && slot === DUMMY) free = i;
      perturbLow = ((perturbLow >>> PERTURB_SHIFT) | (perturbHigh << (32 - PERTURB_SHIFT))) >>> 0;
      perturbHigh >>>= PERTURB_SHIFT;
    }
  }

  private resize(request: number): void {
    const newSize = tableSize(request);
    const old = this.slots;
    this.slots = new Array<number>(newSize).fill(EMPTY);
    this.mask = newSize - 1;
    this.print = undefined;
    // Deleted slots are dropped: the fill is the count again.
    this.size = this.fill = placeAllIn(old, this.slots, this.store);
  }

  add(key: string): void {
    const hash = keyHash(key);
    const i = this.indexOf(key, hash.low, hash.high);
    if (this.slots[i]! >= 0) return;
    const store = this.store;
    store.texts.push(key);
    store.lows.push(hash.low);
    store.highs.push(hash.high);
    this.occupy(i, store.texts.length - 1);
  }

  private occupy(i: number, index: number): void {
    this.size++;
    if (this.slots[i] === EMPTY) this.fill++;
    this.slots[i] = index;
    this.print = undefined;
    if (this.fill * 3 >= (this.mask + 1) * 2) this.resize(this.size * (this.size > LARGE_DICT_SIZE ? 2 : 4));
  }

  remove(key: string): void {
    const hash = keyHash(key);
    const i = this.indexOf(key, hash.low, hash.high);
    if (this.slots[i]! >= 0) {
      this.slots[i] = DUMMY;
      this.size--;
      this.print = undefined;
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
    const texts = this.store.texts;
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const index = slots[i]!;
      if (index >= 0) out.push(texts[index]!);
    }
    return out;
  }

  /**
   * The table `copy.deepcopy` gives: the keys re-added, in iteration order, to an empty table (of
   * the same store); undefined when that is this table itself, which has no deleted slots. A
   * deep copy of a document re-adds every table that changed, most of them into what they were,
   * so the re-adding is done in scratch tables and a table is made only when it differs.
   */
  reinserted(): Py27Keys | undefined {
    const copy = this.reinsertedInScratch();
    return copy && new Py27Keys(this.store, copy.table.slice(), copy.count);
  }

  /** The keys re-added in iteration order to scratch tables, the last of which holds them (valid until the next scratch of its size), with their count; undefined when it is this table. */
  private reinsertedInScratch(): { table: number[]; count: number } | undefined {
    const store = this.store;
    const slots = this.slots;
    let table = scratchTable(MIN_SIZE);
    let mask = MIN_SIZE - 1;
    let count = 0;
    for (let i = 0; i < slots.length; i++) {
      const index = slots[i]!;
      if (index < 0) continue;
      // A fresh table has no deleted slots and each key comes once.
      placeCleanIn(table, mask, store, index);
      count++;
      if (count * 3 < (mask + 1) * 2) continue;
      const size = tableSize(count * (count > LARGE_DICT_SIZE ? 2 : 4));
      const old = table;
      table = scratchTable(size);
      mask = size - 1;
      placeAllIn(old, table, store);
    }
    if (this.fill === this.size && table.length === slots.length && sameKeysIn(slots, table)) return undefined;
    return { table, count };
  }

  /** How many slots the table has. */
  get capacity(): number {
    return this.slots.length;
  }

  /** Whether a delete left slots that lookups walk past. */
  get hasDeletedSlots(): boolean {
    return this.fill !== this.size;
  }

  /** Whether two tables of one store hold the same keys in the same slots. */
  sameAs(other: Py27Keys): boolean {
    return this.size === other.size && this.fingerprint() === other.fingerprint() && sameSlots(this.slots, other.slots, this.store.texts);
  }

  /**
   * A hash of the key in each slot (by the key's hash, so that a key removed and added again,
   * which has a second place in the store, counts as the same key; a deleted slot as an empty
   * one). A large table's deep copies can go through many tables before they repeat: comparing
   * each new one with those seen, key by key, made expanding an API of 800 paths quadratic.
   */
  private fingerprint(): number {
    if (this.print !== undefined) return this.print;
    const slots = this.slots;
    const lows = this.store.lows;
    let hash = 0x811c9dc5;
    for (let i = 0; i < slots.length; i++) {
      const index = slots[i]!;
      hash = Math.imul(hash ^ (index < 0 ? 0 : lows[index]! | 1), 0x01000193);
    }
    return (this.print = hash);
  }
}

/**
 * Whether two slot arrays of one store hold the same keys in the same slots; a deleted slot is as
 * good as an empty one. A key removed and added again has a second index in the store, so the
 * texts decide between two indices.
 */
function sameSlots(a: readonly number[], b: readonly number[], texts: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y || (x < 0 && y < 0)) continue;
    if (x < 0 || y < 0 || texts[x] !== texts[y]) return false;
  }
  return true;
}

/** CPython's table size for a request: the least power of two above it, at least `MIN_SIZE`. */
function tableSize(request: number): number {
  let size = MIN_SIZE;
  while (size <= request) size *= 2;
  return size;
}

/** Scratch tables by size, for the tables a deep copy goes through. */
const scratchTables = new Map<number, number[]>();

/** An empty scratch table of `size` slots; valid until the next call for that size. */
function scratchTable(size: number): number[] {
  let table = scratchTables.get(size);
  if (table === undefined) {
    table = new Array<number>(size);
    scratchTables.set(size, table);
  }
  return table.fill(EMPTY);
}

/**
 * Whether a table re-added into `table` (as many slots, as many keys, the same store indices) has
 * each key where `slots` has it: then it holds them all there, and nothing else.
 */
function sameKeysIn(slots: readonly number[], table: readonly number[]): boolean {
  for (let i = 0; i < slots.length; i++) {
    const index = slots[i]!;
    if (index >= 0 && table[i] !== index) return false;
  }
  return true;
}

/** CPython's `dictresize`: the keys of `old` placed again, in its slot order, into the empty `table`; their count. */
function placeAllIn(old: readonly number[], table: number[], store: KeyStore): number {
  const mask = table.length - 1;
  let count = 0;
  for (let i = 0; i < old.length; i++) {
    const index = old[i]!;
    if (index < 0) continue;
    placeCleanIn(table, mask, store, index);
    count++;
  }
  return count;
}

/**
 * CPython's `insertdict_clean`: adds the key at `index` of the store to a table that has no
 * deleted slots and does not hold it, so the first empty slot of its probe is its place.
 */
function placeCleanIn(slots: number[], mask: number, store: KeyStore, index: number): void {
  const low = store.lows[index]!;
  let i = low & mask;
  if (slots[i] !== EMPTY) {
    let walker = i;
    let perturbLow = low;
    let perturbHigh = store.highs[index]!;
    do {
      walker = (walker * 5 + perturbLow + 1) >>> 0;
      i = walker & mask;
      perturbLow = ((perturbLow >>> PERTURB_SHIFT) | (perturbHigh << (32 - PERTURB_SHIFT))) >>> 0;
      perturbHigh >>>= PERTURB_SHIFT;
    } while (slots[i] !== EMPTY);
  }
  slots[i] = index;
}

/**
 * The Python 2.7 dicts of one swagger document, and those among them whose key table a
 * `copy.deepcopy` of the document may still change. SAM deep-copies the whole document every time
 * an editor takes it and gives it back, which reorders every dict whose table differs from the
 * table its keys make when re-added in order; a dict whose table is such a fixed point keeps it.
 * Only the dicts that changed since (or are not fixed points yet) are re-added, in place: SAM
 * drops the old copy each time, so the document is edited where it is.
 */
class DocumentTables {
  readonly pending = new Set<PyDict>();
  /** The deep copies of the document so far. */
  copies = 0;
}

/** A set or delete of one dict's key, with what the key held before. */
interface JournalEntry {
  dict: PyDict;
  text: string;
  key: PyStr;
  had: boolean;
  value: PyValue | undefined;
}

/**
 * How many of a dict's successive deep-copied tables are kept to find a cycle among them, and how
 * many slots they may hold in all. A table's copies come back to one seen before after a few
 * copies when small, and after up to 60 for the 800-path table of an API with 800 events: a
 * cycle not found leaves every later copy to re-add all its keys.
 */
const MAX_COPIES_KEPT = 256;
const MAX_SLOTS_KEPT = 1 << 21;

/** SAM's `Py27Dict`: a dict whose keys iterate in Python 2.7's order. */
export class PyDict {
  private readonly values = new Map<string, { key: PyStr; value: PyValue }>();
  /** The key table, made at the first key: many of the dicts SAM makes (an editor's defaults) stay empty. */
  private table?: Py27Keys;
  /**
   * The tables this dict went through, one deep copy after another, since a key was last added or
   * removed; once a deep copy gives back one of them, the tables cycle (as large dicts' tables
   * do, after a few copies) and each later copy is the next table of the cycle, at no cost.
   */
  private copies?: Py27Keys[];
  private cycle?: { tables: Py27Keys[]; position: number };
  /** Whether the last deep copy changed the table (the next may change it again), until a copy leaves it as it is or its keys change. */
  private changedByCopy = false;
  /** The document this dict is part of, once an editor took the document (deep copies reorder it). */
  private tables?: DocumentTables;
  /** Counts the sets and deletes of this dict's own keys, so that a check of its values can be kept until they change. */
  revision = 0;
  /** The key of the last set, undefined after a delete: a check kept at the revision before need only look at its value. */
  lastSetKey: string | undefined;
  /** Counts the `Fn::If` keys set in any dict: a dict that becomes a condition changes what holds it without a set there. */
  static conditionalKeysSet = 0;
  /** The sets and deletes made while a step that may be undone runs (`undoneOnError`). */
  private static journal: JournalEntry[] | undefined;
  /**
   * Runs a step that edits dicts, undoing its sets and deletes when `failed` says its result is a
   * failure or it throws. SAM edits a document in an editor's deep copy and puts the copy back only
   * when the step succeeds; here the document is edited in place, so a failed step's edits (an
   * event's integration, added before a check of its request model failed) are taken back, and a
   * later step finds the document as SAM's would be.
   */
  static undoneOnError<T>(step: () => T, failed: (result: T) => boolean): T {
    const outer = PyDict.journal;
    const journal: JournalEntry[] = [];
    PyDict.journal = journal;
    let result: T;
    try {
      result = step();
    } catch (error) {
      PyDict.journal = outer;
      PyDict.undo(journal);
      throw error;
    }
    PyDict.journal = outer;
    if (failed(result)) PyDict.undo(journal);
    else outer?.push(...journal);
    return result;
  }

  /** Takes back the journal's sets and deletes, the last first. */
  private static undo(journal: readonly JournalEntry[]): void {
    for (let i = journal.length - 1; i >= 0; i--) {
      const { dict, text, key, had, value } = journal[i]!;
      if (had) dict.set(key, value!);
      else dict.delete(text);
    }
  }

  /** Makes this dict, and every dict in `value`, part of a document's deep copies. */
  private static adopt(value: PyValue, tables: DocumentTables, depth = 0): void {
    if (depth > 512) return;
    if (value instanceof PyDict) {
      // Already part of this document: so is everything in it (what is added later is adopted by `set`).
      if (value.tables === tables) return;
      value.tables = tables;
      tables.pending.add(value);
      for (const entry of value.values.values()) PyDict.adopt(entry.value, tables, depth + 1);
    } else if (Array.isArray(value)) {
      for (const item of value) PyDict.adopt(item, tables, depth + 1);
    } else if (value !== null && typeof value === 'object' && !(value instanceof PyUnicode) && !(value instanceof PyFloat)) {
      for (const item of Object.values(value)) PyDict.adopt(item, tables, depth + 1);
    }
  }

  /**
   * `copy.deepcopy` of a whole document, as far as key order goes, done in place: every dict's
   * table is re-added in iteration order (SAM's `Py27Keys.__deepcopy__`). The caller drops any
   * other reference to the document, as SAM drops the copied original.
   */
  static deepCopyInPlace(root: PyDict): void {
    if (!root.tables) PyDict.adopt(root, new DocumentTables());
    const tables = root.tables!;
    tables.copies++;
    const pending = [...tables.pending];
    tables.pending.clear();
    for (const dict of pending) if (dict.tables === tables) dict.reinsertKeys();
  }

  /** One deep copy of this dict's table; the dict stays pending while its table keeps changing. */
  private reinsertKeys(): void {
    // An empty table is its own copy.
    if (this.table === undefined) return;
    const pending = this.tables!.pending;
    if (this.cycle) {
      this.changedByCopy = true;
      this.cycle.position = (this.cycle.position + 1) % this.cycle.tables.length;
      this.table = this.cycle.tables[this.cycle.position]!;
      pending.add(this);
      return;
    }
    const current = this.table;
    const reinserted = current.reinserted();
    // A table that re-adding left as it was is a fixed point: later deep copies keep it too.
    if (reinserted === undefined) {
      this.changedByCopy = false;
      return;
    }
    // Without deleted slots, a table `reinserted` gave is one that differs (it gives none otherwise).
    if (current.hasDeletedSlots && reinserted.sameAs(current)) {
      // The copy, not the original: slots a delete left are empty in it, as in Python's copy,
      // and so later inserts resize the table when Python's would.
      this.table = reinserted;
      this.changedByCopy = false;
      return;
    }
    // One that changed changes again at the next deep copy, unless it came back to a table already seen.
    pending.add(this);
    this.changedByCopy = true;
    const copies = (this.copies ??= [current]);
    const seen = copies.findIndex((table) => table.sameAs(reinserted));
    if (seen >= 0) {
      this.cycle = { tables: copies.slice(seen), position: 0 };
      this.copies = undefined;
      this.table = this.cycle.tables[0]!;
      return;
    }
    if (copies.length >= Math.min(MAX_COPIES_KEPT, Math.max(2, Math.floor(MAX_SLOTS_KEPT / current.capacity)))) copies.shift();
    copies.push(reinserted);
    this.table = reinserted;
  }

  /** A key was added or removed: the table's deep copies are no longer known. */
  private keysChanged(): void {
    this.changedByCopy = false;
    this.copies = undefined;
    this.cycle = undefined;
    this.tables?.pending.add(this);
  }

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
    this.revision++;
    this.lastSetKey = text;
    if (text === 'Fn::If') PyDict.conditionalKeysSet++;
    const existing = this.values.get(text);
    PyDict.journal?.push({ dict: this, text, key: existing?.key ?? key, had: existing !== undefined, value: existing?.value });
    if (existing) existing.value = value;
    else {
      this.values.set(text, { key, value });
      (this.table ??= new Py27Keys()).add(text);
      this.keysChanged();
    }
    if (this.tables) PyDict.adopt(value, this.tables);
  }

  setdefault(key: PyStr, value: PyValue): PyValue {
    const text = textOf(key);
    if (!this.values.has(text)) this.set(key, value);
    return this.values.get(text)!.value;
  }

  delete(key: string): void {
    const existing = this.values.get(key);
    if (existing === undefined) return;
    PyDict.journal?.push({ dict: this, text: key, key: existing.key, had: true, value: existing.value });
    this.values.delete(key);
    this.revision++;
    this.lastSetKey = undefined;
    this.table?.remove(key);
    this.keysChanged();
  }

  /** `d.update(other)`: a dict's keys are merged first (room made for all), then each item is set. */
  update(other: PyDict | PlainPyDict): void {
    const items: [PyStr, PyValue][] = other instanceof PyDict ? other.items() : plainItems(other);
    if (items.length > 0) (this.table ??= new Py27Keys()).merge(items.map(([k]) => textOf(k)));
    this.keysChanged();
    for (const [key, value] of items) this.set(key, value);
  }

  /** `d.copy()`: the key list is copied by merging, then the items are set. */
  copy(): PyDict {
    const dict = new PyDict();
    const items = this.items();
    if (items.length > 0) (dict.table ??= new Py27Keys()).merge(items.map(([k]) => textOf(k)));
    for (const [key, value] of items) dict.set(key, value);
    return dict;
  }

  /** Whether `predicate` holds for any value, tried in no particular order. */
  anyValue(predicate: (value: PyValue) => boolean): boolean {
    for (const entry of this.values.values()) if (predicate(entry.value)) return true;
    return false;
  }

  /** The keys (their texts), in Python 2.7's order. */
  keys(): string[] {
    return this.table?.keys() ?? [];
  }

  /** The keys as inserted (plain or unicode), with their values, in Python 2.7's order. */
  items(): [PyStr, PyValue][] {
    return (this.table?.keys() ?? []).map((text) => {
      const entry = this.values.get(text)!;
      return [entry.key, entry.value];
    });
  }
}

/** The order in which a Python 2.7 dict built by inserting `keys` one by one iterates them. */
export function py27KeyOrder(keys: readonly string[]): string[] {
  const keylist = new Py27Keys();
  for (const key of keys) keylist.add(key);
  return keylist.keys();
}
