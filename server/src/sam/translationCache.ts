/**
 * A cache of SAM resource translations that the caller owns and passes in (the engine keeps no
 * state between calls): an edit to one function re-translates that function, and the others are
 * taken from the cache.
 *
 * A translation is kept only when it read nothing but its own entry (after Globals), parameter
 * values and the pseudo parameters, and when what it did to the shared translation context can be
 * replayed: references to its generated resources, notes, and shared steps (an Api or HttpApi event,
 * which edits the definition of the API it names: it runs again on a hit, in SAM's order, so the
 * implicit APIs come out as without a cache). A translation that touches anything else the context
 * holds (another resource's entry, conditions, deployment preferences...) is not kept, and is
 * translated again next time. The parameter values it looked up are kept with it, so that an
 * edit to another parameter (its default, say) leaves it usable: most translations look none up,
 * since SAM resolves parameters in only a few properties (an alias name, a code location...).
 */
import type { Range } from '../template/ast';
import type { KeptImplicitApi } from './api/keptImplicitApi';
import type { ExpansionRecord } from './reexpand';
import { runStep, type SamNote, type SharedStep, type TranslationContext } from './context';
import type { SamError } from './errors';
import { generatedSoFar, type GeneratedResource } from './generated';
import { ParameterWithoutValue } from './intrinsics';

/** What one kept translation replays on a hit. */
export interface KeptTranslation {
  /** The resource's entry the translation read, whose maps and lists the generated resources may hold; a hit walks it beside the current one. */
  entry: unknown;
  /** What the translation read besides its entry, its text and parameters: region, partition, Python 2.7 order, the local artifacts found, and its type's section of Globals. */
  sharedKey: string;
  /** The parameter values (pseudo parameters included) it looked up. */
  parameters: ParameterReads;
  generated: readonly GeneratedResource[];
  /** What the translation did to what resources share, in order, with note ranges relative to the start of the resource's text. */
  effects: readonly KeptEffect[];
}

/** One thing a kept translation does again on a hit. */
export type KeptEffect =
  | { kind: 'reference'; logicalId: string; property: string; generatedId: string }
  | { kind: 'note'; note: SamNote; offset?: { start: number; end: number } }
  /**
   * A shared step, run again; what it generates replaces what it generated when kept, which began
   * at index `at` of the kept translation's resources (a step may generate none one time and some
   * the next: an `HttpApi` event's permission, which the `$default` route's covers).
   */
  | { kind: 'step'; step: SharedStep; fail: (error: SamError) => SamError; generated: readonly GeneratedResource[]; at: number };

/** A shared step as a translation records it: where its resources go is known once the translation is done (`madeBefore`). */
export type RecordedStep = Omit<Extract<KeptEffect, { kind: 'step' }>, 'at'> & { madeBefore: number };

/**
 * The parameter values a translation looked up: each name with the text of its value
 * (`stableText`), or `ABSENT` when it had none; or the text of all of them, when the translation
 * went through them all.
 */
export type ParameterReads = { readonly names: ReadonlyMap<string, string> } | { readonly all: string };

/** The text of a parameter that has no value. */
const ABSENT = '\u0000absent';

/** The text `ParameterReads` holds for a parameter's value now: `ABSENT`, or undefined for a value no text vouches for. */
function parameterText(parameters: ReadonlyMap<string, unknown>, name: string): string | undefined {
  return parameters.has(name) ? stableText(parameters.get(name)) : ABSENT;
}

/** Whether the parameter values `reads` holds are the values now; `allText` is the text of them all now. */
export function sameParameterReads(reads: ParameterReads, parameters: ReadonlyMap<string, unknown>, allText: string): boolean {
  if ('all' in reads) {
    // What is taken depends on them all, and so does what takes it.
    if (parameters instanceof RecordedParameters) parameters.lookUpAll();
    return reads.all === allText;
  }
  for (const [name, text] of reads.names) if (parameterText(parameters, name) !== text) return false;
  return true;
}

/**
 * What several look-ups looked up together, each name with the text of its value in `parameters`
 * (the values now, which each name's value is known to be unchanged in); undefined when one is
 * not known or a value has no text. `allText` is the text of them all.
 */
export function joinedParameterReads(reads: readonly (ParameterReads | undefined)[], parameters: ReadonlyMap<string, unknown>, allText: string): ParameterReads | undefined {
  const names = new Map<string, string>();
  for (const read of reads) {
    if (read === undefined) return undefined;
    if ('all' in read) return { all: allText };
    if (!addTexts(read.names.keys(), parameters, names)) return undefined;
  }
  return { names };
}

/** Adds each name with the text of its value to `texts`; false when a value has no text. */
function addTexts(names: Iterable<string>, parameters: ReadonlyMap<string, unknown>, texts: Map<string, string>): boolean {
  for (const name of names) {
    const text = parameterText(parameters, name);
    if (text === undefined) return false;
    texts.set(name, text);
  }
  return true;
}

/** Parameter values that record the names looked up, and whether they were gone through as a whole. */
export class RecordedParameters implements ReadonlyMap<string, unknown> {
  readonly names = new Set<string>();
  all = false;

  constructor(private readonly known: ReadonlyMap<string, unknown>) {}

  get size(): number {
    this.all = true;
    return this.known.size;
  }

  has(name: string): boolean {
    this.names.add(name);
    return this.known.has(name);
  }

  get(name: string): unknown {
    this.names.add(name);
    return this.known.get(name);
  }

  forEach(callback: (value: unknown, key: string, map: ReadonlyMap<string, unknown>) => void, thisArg?: unknown): void {
    this.all = true;
    this.known.forEach((value, key) => callback.call(thisArg, value, key, this));
  }

  entries(): MapIterator<[string, unknown]> {
    this.all = true;
    return this.known.entries();
  }

  keys(): MapIterator<string> {
    this.all = true;
    return this.known.keys();
  }

  values(): MapIterator<unknown> {
    this.all = true;
    return this.known.values();
  }

  [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.entries();
  }

  /** Records that all values were looked up, here and in the values this view records for. */
  lookUpAll(): void {
    this.all = true;
    if (this.known instanceof RecordedParameters) this.known.lookUpAll();
  }

  /** What was looked up, with the values' texts; undefined when a value has none. */
  reads(allText: string): ParameterReads | undefined {
    if (this.all) return { all: allText };
    const names = new Map<string, string>();
    return addTexts(this.names, this.known, names) ? { names } : undefined;
  }
}

/**
 * Whether what a translation looked up of these parameter values may be kept for another text:
 * not when a value is a list or a map, which stands for the text it was read from, and which a
 * later text's nodes do not know (its place in the processed template would be lost).
 */
export function keepableParameters(parameters: ReadonlyMap<string, unknown>): boolean {
  for (const value of parameters.values()) if (typeof value === 'object' && value !== null && !(value instanceof ParameterWithoutValue)) return false;
  return true;
}

/** The default number of translations a cache keeps. */
export const DEFAULT_SAM_CACHE_SIZE = 2000;

/** A bounded store of translations, least recently used evicted first; counts its hits and misses. */
export class SamTranslationCache {
  private readonly kept = new Map<string, KeptTranslation>();
  hits = 0;
  misses = 0;
  /** The implicit REST API's translation, with what it was made from (api/keptImplicitApi.ts). */
  implicitApi?: KeptImplicitApi;
  /** Expansions that took the implicit REST API from the cache. */
  implicitApiHits = 0;
  /** The last expansion, when the next may start from it (reexpand.ts). */
  lastExpansion?: ExpansionRecord;
  /** Expansions that started from the previous one. */
  reexpansions = 0;
  /** Of those, the ones that rebuilt the APIs from their parts (api/apiReplay.ts). */
  apiRebuilds = 0;
  /** Of those, the ones that renamed an event's path or method in its API's definition without SAM's fold (api/renamedRoute.ts). */
  routeRenames = 0;
  /** Of those, the ones that put an added event's path in its API's definition, or took a removed one's out, without SAM's fold (api/addedRoute.ts). */
  routesAddedOrRemoved = 0;
  /** Of those, the ones whose edit to a function left its routes and so its APIs as they were (api/sameRoutes.ts). */
  apisUnchanged = 0;
  /** Of those, the ones whose edit to a function left its routes as they were but for the FunctionName a REST API's deployment hashes, named anew without SAM's fold (api/sameRoutes.ts). */
  deploymentsRenamed = 0;
  /** Of those, the ones whose edit to a function changed only items of paths its events alone are on, put in the definition without SAM's fold (api/changedItems.ts). */
  pathItemsChanged = 0;
  /** Lambda functions those expansions made again with the values a Globals edit changed, rather than translating their functions again (globalsEdit.ts). */
  functionsPatched = 0;
  /** Processed resources those expansions moved in place rather than copied. */
  recordsMovedInPlace = 0;
  /** Processed resources expansions in full took from the last expansion instead of building them. */
  recordsCarried = 0;

  /**
   * Whether an expansion may move the last one's ranges in place instead of copying what moved
   * (reexpand.ts): for an owner that reads each expansion only until the next one through this
   * cache, unless it says it keeps it (`TranslationOptions.kept`), as the language server's worker
   * does, which sends each analysis away before the next.
   */
  readonly movesInPlace: boolean;
  /** The most translations kept. */
  readonly maxEntries: number;

  constructor({ maxEntries = DEFAULT_SAM_CACHE_SIZE, movesInPlace = false }: { maxEntries?: number; movesInPlace?: boolean } = {}) {
    this.maxEntries = maxEntries;
    this.movesInPlace = movesInPlace;
  }

  /** The number of translations kept. */
  get size(): number {
    return this.kept.size;
  }

  /** The translation kept under a key when `usable` accepts it (a hit, marked as most recently used); else a miss. */
  take(key: string, usable: (kept: KeptTranslation) => boolean): KeptTranslation | undefined {
    const found = this.kept.get(key);
    if (found === undefined || !usable(found)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.kept.delete(key);
    this.kept.set(key, found);
    return found;
  }

  /** Keeps a translation, evicting the least recently used past the bound. */
  set(key: string, translation: KeptTranslation): void {
    this.kept.delete(key);
    this.kept.set(key, translation);
    while (this.kept.size > this.maxEntries) {
      const oldest = this.kept.keys().next().value as string;
      this.kept.delete(oldest);
    }
  }

}

/**
 * JSON-like text of a value read from the template, with its map keys in order, so that equal
 * values give equal text; nothing for a value the transform built (a Python string or dict), which
 * such text could not vouch for.
 */
export function stableText(value: unknown): string | undefined {
  let out = '';
  const write = (v: unknown): boolean => {
    if (typeof v === 'string') {
      out += quoted(v);
      return true;
    }
    if (v === null || typeof v !== 'object') {
      out += v === undefined ? 'u' : JSON.stringify(v);
      return true;
    }
    if (v instanceof ParameterWithoutValue) {
      // Unlike any text a value has: a parameter given a value, or declared no more, reads otherwise.
      out += '\u0000without value';
      return true;
    }
    if (Array.isArray(v)) {
      out += '[';
      for (const item of v) {
        if (!write(item)) return false;
        out += ',';
      }
      out += ']';
      return true;
    }
    const prototype = Object.getPrototypeOf(v) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return false;
    out += '{';
    const map = v as Record<string, unknown>;
    for (const key of Object.keys(map)) {
      out += `${quoted(key)}:`;
      if (!write(map[key])) return false;
      out += ',';
    }
    out += '}';
    return true;
  };
  return write(value) ? out : undefined;
}

/** Printable ASCII but the double quote and the backslash: what JSON quotes as it is (most of a template's strings). */
const VERBATIM = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string as JSON writes it; the common case without `JSON.stringify` (this runs over every entry a kept translation read, twice). */
function quoted(text: string): string {
  return VERBATIM.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * A view of the translation context for one resource that records what the translation does to
 * what resources share, and notes when it reads or changes something a kept translation could not
 * replay (`tainted`).
 */
export class RecordingContext {
  tainted = false;
  /** What the translation did to what resources share, note ranges as written. */
  readonly effects: (Exclude<KeptEffect, { kind: 'note' } | { kind: 'step' }> | RecordedStep | { kind: 'note'; note: SamNote; range?: Range })[] = [];
  readonly context: TranslationContext;
  private readonly parameters: RecordedParameters;

  /** `readable` names what the translation may read without being tainted, besides its own entry and the values every key holds. */
  constructor(shared: TranslationContext, ownId: string, readable: readonly ('functionNames' | 'implicitApis')[] = []) {
    const taint = <T>(value: T): T => {
      this.tainted = true;
      return value;
    };
    const read = <T>(name: 'functionNames' | 'implicitApis', value: T): T => (readable.includes(name) ? value : taint(value));
    const resources = new Proxy(shared.resources, {
      get: (target, key, receiver) => (key === ownId ? Reflect.get(target, key, receiver) : taint(Reflect.get(target, key, receiver))),
      has: (target, key) => taint(Reflect.has(target, key)),
      ownKeys: (target) => taint(Reflect.ownKeys(target)),
      set: (target, key, value) => taint(Reflect.set(target, key, value)),
      deleteProperty: (target, key) => taint(Reflect.deleteProperty(target, key)),
      getOwnPropertyDescriptor: (target, key) => taint(Reflect.getOwnPropertyDescriptor(target, key)),
    });
    const references = shared.references;
    const recordedReferences = {
      add: (logicalId: string, property: string, generatedId: string) => {
        this.effects.push({ kind: 'reference', logicalId, property, generatedId });
        references.add(logicalId, property, generatedId);
      },
      ref: (logicalId: string, property: string) => taint(references.ref(logicalId, property)),
      get: (logicalId: string, property: string) => taint(references.get(logicalId, property)),
      mayBeIn: (text: string) => taint(references.mayBeIn(text)),
    };
    const effects = this.effects;
    const parameters = (this.parameters = new RecordedParameters(shared.parameters));
    this.context = {
      parameters,
      region: shared.region,
      partition: shared.partition,
      py27: shared.py27,
      // Part of the key every kept translation is kept under (translate.ts).
      ...(shared.artifacts ? { artifacts: shared.artifacts } : {}),
      // Decided before any resource is translated: an event's step leaves those definitions alone.
      ...(shared.keptDefinitions ? { keptDefinitions: shared.keptDefinitions } : {}),
      // What a REST API hashed, told to a rebuild that keeps it: written, never read, by the translation.
      ...(shared.renamableDefinitions ? { renamableDefinitions: shared.renamableDefinitions } : {}),
      resources,
      references: recordedReferences as unknown as TranslationContext['references'],
      note(note: SamNote, range?: Range) {
        effects.push(range === undefined ? { kind: 'note', note } : { kind: 'note', note, range });
        shared.note(note, range);
      },
      sharedStep(step: SharedStep, fail: (error: SamError) => SamError) {
        // The step runs over the shared context: what it reads and edits there, it reads and edits again on a hit.
        const madeBefore = generatedSoFar();
        const result = runStep(shared, step);
        effects.push({ kind: 'step', step, fail, generated: Array.isArray(result) ? [...result] : [], madeBefore });
        return result;
      },
      get mappings() {
        return taint(shared.mappings);
      },
      get conditions() {
        return taint(shared.conditions);
      },
      get changedIds() {
        return taint(shared.changedIds);
      },
      get deploymentPreferences() {
        return taint(shared.deploymentPreferences);
      },
      get functionNames() {
        return read('functionNames', shared.functionNames);
      },
      get notes() {
        return taint(shared.notes);
      },
      get edited() {
        return taint(shared.edited);
      },
      get route53RecordSetGroups() {
        return taint(shared.route53RecordSetGroups);
      },
      get sharedUsagePlan() {
        return taint(shared.sharedUsagePlan);
      },
      get implicitApis() {
        return read('implicitApis', shared.implicitApis);
      },
      get applicationTemplates() {
        return taint(shared.applicationTemplates);
      },
    };
  }

  /** The parameter values the translation looked up so far; `allText` is the text of them all. Undefined when one has no text. */
  parameterReads(allText: string): ParameterReads | undefined {
    return this.parameters.reads(allText);
  }
}
