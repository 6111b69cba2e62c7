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
    if (this.fill * 3 >= (this.mask + 1) * 2) this.resize(this.size * (this.size > LARGE_DICT_SIZE ? 2 : 4));
  }

  remove(key: string): void {
    const hash = keyHash(key);
    const i = this.indexOf(key, hash.low, hash.high);
    if (this.slots[i]! >= 0) {
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

  /**
   * One deep copy made in this table itself: whether it changed. A replay (`PyDict.replayedOrder`)
   * copies one table a few times between adds and needs none of the tables between: the scratch
   * table becomes this one's, and its old slots the scratch.
   */
  reinsertInPlace(): boolean {
    const copy = this.reinsertedInScratch();
    if (copy === undefined) return false;
    const old = this.slots;
    scratchTables.set(copy.table.length, old.length === copy.table.length ? old : new Array<number>(copy.table.length));
    this.slots = copy.table;
    this.mask = copy.table.length - 1;
    this.size = this.fill = copy.count;
    return true;
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

  /** Whether a delete left slots that lookups walk past. */
  get hasDeletedSlots(): boolean {
    return this.fill !== this.size;
  }

  /** A copy of this table, to be added to apart from it. */
  cloned(): Py27Keys {
    const copy = new Py27Keys(this.store, this.slots.slice(), this.size);
    copy.fill = this.fill;
    return copy;
  }

  /** How many keys its store holds, this table's and the tables' made from it. */
  get storeSize(): number {
    return this.store.texts.length;
  }

  /** Whether two tables of one store hold the same keys in the same slots. */
  sameAs(other: Py27Keys): boolean {
    return this.size === other.size && sameSlots(this.slots, other.slots, this.store.texts);
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
  /**
   * While copies are recorded: whether a key was added to or removed from a dict that keeps no
   * history of its keys while deep copies were still changing its table (the last one changed it):
   * a copy more or less before the add would have left it another table.
   */
  unsettled = false;
  /** What the fold left when its API's translation began (`PyDict.foldEnds`). */
  fold: FoldEnd | undefined;

  /** Whether no dict that keeps no history of its keys is one the last deep copy changed (the next may change it again). */
  settled(): boolean {
    for (const dict of this.pending) if (!dict.settledForCopies) return false;
    return true;
  }
}

/**
 * An API definition's document as SAM's fold (its events' paths, their integrations) left it: the
 * deep copies by then, and whether each dict that keeps no history of its keys came to a table
 * the copies leave as it is before every add or delete of its keys, and before the fold's end.
 * Then a deep copy more or less anywhere in the fold changes no such dict: the copies after a
 * change of its keys bring it to the same table, however many they are (api/addedRoute.ts).
 */
export interface FoldEnd {
  copies: number;
  settled: boolean;
}

/**
 * A replay's table just before one of its adds (`PyDict.replayedOrder`), from which a later
 * replay of a history whose adds before it are the same may go on.
 */
export interface ReplayCheckpoint {
  /** The index of the add it was taken before. */
  readonly at: number;
  /** The deep copies of the document then. */
  readonly copies: number;
  /** The table then (a `Py27Keys`), undefined before any key. */
  readonly table: object | undefined;
}

/** A replay's store may grow to this many keys past its history's before a checkpoint is dropped: each replay that goes on from it adds the keys after it again. */
const CHECKPOINT_STORE_SLACK = 20000;

/** A replay makes up to this many copies between two adds in the table itself, keeping none of the tables between (`Py27Keys.reinsertInPlace`). */
const IN_PLACE_COPIES = 4;

/**
 * Whether a history's checkpoint is taken before its add at `at`: every 8 adds up to 256, then
 * every 16 up to 512, and so on (a replay goes on from the last one before the add it changes,
 * and a table of twice the keys costs twice to copy, so the checkpoints' memory stays a few times
 * the table's own).
 */
export function checkpointBefore(at: number): boolean {
  if (at <= 0) return false;
  const spacing = Math.max(8, 2 ** Math.floor(Math.log2(at)) / 16);
  return at % spacing === 0;
}

/** One key added to a dict whose history is kept, with the deep copies its document had had then. */
export interface KeyAdded {
  key: string;
  copies: number;
}

/**
 * The keys added to a dict, in order, each with the count of its document's deep copies before
 * it: with the count at the end, what decides the dict's key order. Broken when the dict went
 * through anything else (a delete, an update, another document), which it does not record.
 */
export interface KeyHistory {
  readonly added: KeyAdded[];
  broken: boolean;
  /**
   * The table before some of its adds (`checkpointBefore`), and just before the first add of a key the record
   * names (`CopyRecord.checkpointKeys`), as a replay would have it: in the order of their adds.
   */
  readonly checkpoints: ReplayCheckpoint[];
}

/**
 * What an expansion that keeps its API definitions for a later rename notes of its deep copies
 * (api/renamedRoute.ts): whether one came between two turns of a loop over a definition's paths
 * (api/baseEditor.ts).
 */
export class CopyRecord {
  copiedBetweenPathTurns = false;

  /** `checkpointKeys`: the keys a replay of a dict's history is likeliest to rename next (the paths an edit just typed in). */
  constructor(readonly checkpointKeys: ReadonlySet<string> = new Set()) {}
}

/** A set or delete of one dict's key, with what the key held before. */
interface JournalEntry {
  dict: PyDict;
  text: string;
  key: PyStr;
  had: boolean;
  value: PyValue | undefined;
}

/** How many of a dict's successive deep-copied tables are kept to find a cycle among them. */
const MAX_COPIES_KEPT = 16;

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
  /** The keys added to it, while a `CopyRecord` is kept and the dict was asked to keep them (`keepHistory`). */
  private history?: KeyHistory;
  /** Counts the sets and deletes of this dict's own keys, so that a check of its values can be kept until they change. */
  revision = 0;
  /** The key of the last set, undefined after a delete: a check kept at the revision before need only look at its value. */
  lastSetKey: string | undefined;
  /** Counts the `Fn::If` keys set in any dict: a dict that becomes a condition changes what holds it without a set there. */
  static conditionalKeysSet = 0;
  /** The sets and deletes made while a step that may be undone runs (`undoneOnError`). */
  private static journal: JournalEntry[] | undefined;
  /** Set while a rebuild records what its deep copies did (`recordingCopies`). */
  private static copyRecord: CopyRecord | undefined;

  /** Runs `work` noting in `record` what its deep copies did, the dicts asked to keep the history of their keys (`keepHistory`). */
  static recordingCopies<T>(record: CopyRecord, work: () => T): T {
    const outer = PyDict.copyRecord;
    PyDict.copyRecord = record;
    try {
      return work();
    } finally {
      PyDict.copyRecord = outer;
    }
  }

  /** The record of the deep copies being made, while one is kept. */
  static get copiesRecorded(): CopyRecord | undefined {
    return PyDict.copyRecord;
  }

  /** Has `dict` keep the history of its keys from now on, while copies are recorded. */
  static keepHistory(dict: PyDict): void {
    if (PyDict.copyRecord !== undefined && dict.table === undefined) dict.history = { added: [], broken: false, checkpoints: [] };
  }

  /** The history of its keys, when it kept one. */
  get keyHistory(): Readonly<KeyHistory> | undefined {
    return this.history;
  }

  /** The deep copies of the document this dict is part of so far. */
  get documentCopies(): number {
    return this.tables?.copies ?? 0;
  }

  /**
   * The key order a dict with `history` has after `copies` deep copies of its document in all,
   * each key renamed by `rename`: the table made again, key after key, copy after copy, without
   * the rest of the document (a deep copy reorders each dict by its own table alone). Its values
   * are all None. The replay goes on from `resume` when given (the adds before it the same; not
   * when its keys' store grew too large), and takes a checkpoint before the adds `checkpointBefore` names
   * and before the add at `checkpointAt`; `start` says the add it began with.
   */
  static replayedOrder(
    history: Pick<KeyHistory, 'added'>,
    copies: number,
    rename: (key: string) => string,
    { resume, checkpointAt }: { resume?: ReplayCheckpoint; checkpointAt?: number } = {},
  ): { order: PyDict; checkpoints: ReplayCheckpoint[]; start: number } {
    const dict = new PyDict();
    const tables = new DocumentTables();
    dict.tables = tables;
    let start = 0;
    const resumed = resume?.table as Py27Keys | undefined;
    if (resume !== undefined && (resumed === undefined || resumed.storeSize <= history.added.length + CHECKPOINT_STORE_SLACK)) {
      start = resume.at;
      tables.copies = resume.copies;
      if (resumed !== undefined) {
        dict.table = resumed.cloned();
        for (const text of resumed.keys()) dict.values.set(text, { key: text, value: null });
        // The copies before the checkpoint may have left the table still changing: a copy after it (no add between, as after a last add taken out) makes it again.
        tables.pending.add(dict);
      }
    }
    const checkpoints: ReplayCheckpoint[] = [];
    const copyUpTo = (count: number) => {
      // A few copies between two adds are made in the table itself; a longer run keeps the tables
      // it goes through (`reinsertKeys`), to find the cycle large tables come to.
      const inPlace = count - tables.copies <= IN_PLACE_COPIES;
      for (; tables.copies < count; tables.copies++) {
        // A table a copy leaves as it is stays so until a key changes: the copies left change nothing.
        if (!tables.pending.delete(dict)) {
          tables.copies = count;
          return;
        }
        if (!inPlace) dict.reinsertKeys();
        else if (dict.table?.reinsertInPlace()) tables.pending.add(dict);
      }
    };
    const added = history.added;
    for (let i = start; i < added.length; i++) {
      copyUpTo(added[i]!.copies);
      // The add resets what the copies before it left (`keysChanged`): the table and the count are the state.
      if (i === checkpointAt || checkpointBefore(i)) checkpoints.push({ at: i, copies: tables.copies, table: dict.table?.cloned() });
      dict.set(rename(added[i]!.key), null);
    }
    copyUpTo(copies);
    return { order: dict, checkpoints, start };
  }

  /** A dict with the key order of `order`, which it takes over (`order` is not used again), and for each of its keys the key and value `entries` give. */
  static rekeyed(order: PyDict, entries: ReadonlyMap<string, { key: PyStr; value: PyValue }>): PyDict {
    const dict = new PyDict();
    dict.table = order.table;
    for (const text of order.keys()) {
      const entry = entries.get(text);
      if (entry === undefined) throw new Error(`no value for the key ${text}`);
      dict.values.set(text, { key: entry.key, value: entry.value });
    }
    return dict;
  }

  /** A copy of this dict (the same key order) with the value of `key`, which it holds, replaced. */
  withValue(key: string, value: PyValue): PyDict {
    const dict = new PyDict();
    dict.table = this.table?.cloned();
    for (const [text, entry] of this.values) dict.values.set(text, text === key ? { key: entry.key, value } : { key: entry.key, value: entry.value });
    return dict;
  }

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
      // Its history counted another document's copies.
      if (value.tables !== undefined && value.history) value.history.broken = true;
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

  /** Notes that `root`'s fold ended, its API's translation beginning, while copies are recorded. */
  static foldEnds(root: PyDict): void {
    const tables = root.tables;
    if (PyDict.copyRecord === undefined || tables === undefined || tables.fold !== undefined) return;
    tables.fold = { copies: tables.copies, settled: !tables.unsettled && tables.settled() };
  }

  /** What the fold left of the document this dict is part of, when it was noted (`foldEnds`). */
  get foldEnd(): FoldEnd | undefined {
    return this.tables?.fold;
  }

  /** Whether this dict is not one the last deep copy changed, or keeps the history of its keys. */
  get settledForCopies(): boolean {
    return this.history !== undefined || !this.changedByCopy;
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
    if (copies.length >= MAX_COPIES_KEPT) copies.shift();
    copies.push(reinserted);
    this.table = reinserted;
  }

  /** A key was added or removed: the table's deep copies are no longer known. */
  private keysChanged(): void {
    if (this.changedByCopy && this.history === undefined && PyDict.copyRecord !== undefined && this.tables) this.tables.unsettled = true;
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
      const history = this.history;
      if (history !== undefined) {
        const at = history.added.length;
        if (checkpointBefore(at) || PyDict.copyRecord?.checkpointKeys.has(text)) history.checkpoints.push({ at, copies: this.tables?.copies ?? 0, table: this.table?.cloned() });
      }
      this.values.set(text, { key, value });
      (this.table ??= new Py27Keys()).add(text);
      history?.added.push({ key: text, copies: this.tables?.copies ?? 0 });
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
    if (this.history) this.history.broken = true;
    this.keysChanged();
  }

  /** `d.update(other)`: a dict's keys are merged first (room made for all), then each item is set. */
  update(other: PyDict | PlainPyDict): void {
    const items: [PyStr, PyValue][] = other instanceof PyDict ? other.items() : plainItems(other);
    // A merge makes room for all the keys at once, which a history of adds does not tell.
    if (this.history && items.length > 0) this.history.broken = true;
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
