/**
 * An expansion that starts from the previous one of the same document: when the text changed only
 * inside functions, and only where no API reads (code, memory, environment, policies...), in the
 * sections the transform passes through (Description, Metadata, Outputs), in resources it passes
 * through as written (a queue, a table: of the same type, when every SAM resource's translation
 * read nothing but its own entry), or between resources, the functions edited are translated
 * again, the resources as written are this text's own, and everything else is the previous
 * processed template, its ranges moved to where the text now puts them.
 *
 * The previous expansion is remembered (in the caller's translation cache) only when nothing in
 * it depends on more than each resource's own text: no SAM error, nothing left as written, no
 * renamed ids or references to resolve, no resource edited by another, nothing shared (CodeDeploy),
 * no connectors. An edited function is translated in a template of its own with the template's
 * Parameters, Mappings, Conditions and Globals (and SAM's Python 2.7 order of the whole); the
 * result is taken only when it says the same about the others as before: no error, nothing
 * shared or edited, no new condition, the same references to what it generates, as many notes,
 * and ids no other resource uses. Otherwise the caller expands the template in full.
 *
 * A cache that moves in place (`SamTranslationCache.movesInPlace`, for an owner that reads each
 * expansion only until the next) copies a record the first time it moves into range objects the
 * copy alone holds, and moves those in place afterwards: the nodes stay the same objects.
 */
import type { MapEntry, MapNode, Range, SeqNode, TemplateNode } from '../template/ast';
import type { TemplateModel } from '../template/model';
import { textTheApiReads } from './api/keptImplicitApi';
import type { SamNote } from './context';
import type { SamExpansion } from './expand';
import type { GeneratedResource, Origin } from './generated';
import type { ResourceReferences } from './intrinsics';
import { NodeBuilder } from './output';
import { WrittenResources } from './placement';
import { SourceIndex } from './sourceIndex';
import type { SamSource } from './sourceMap';
import { SERVERLESS_PREFIX, translate, type Translation, type TranslationOptions } from './translate';
import type { SamTranslationCache } from './translationCache';
import { isMap, sortedEntries, type PlainMap } from './values';

/** What a placed record is made of. */
export interface PlacedParts {
  key: string;
  /** The template resource whose place it takes, or `''` for what resources share. */
  producer: string;
  /** The range it was built at, where nothing better was known. */
  range: Range;
  entry: MapEntry;
  /** The first and last character any range of the entry or its sources covers. */
  extent: Range;
  /** The SAM resource and properties it comes from (the expansion's source map for it). */
  source?: SamSource | undefined;
  properties?: ReadonlyMap<string, SamSource> | undefined;
  resource?: GeneratedResource | undefined;
  attributedTo?: Origin | undefined;
  /** Whether the entry is the template's own resource, as written (its own node). */
  own?: boolean;
  /**
   * The range objects of the entry and its sources, when only this record holds them, so that the
   * next expansion may move them in place (a cache that moves in place, an expansion not kept).
   */
  owned?: Range[] | undefined;
}

/**
 * One entry of the processed Resources section, with what placed it there. A class, so that every
 * record has one shape: the next keystroke walks a thousand of them.
 */
export class PlacedRecord {
  readonly key: string;
  readonly producer: string;
  readonly range: Range;
  readonly entry: MapEntry;
  readonly extent: Range;
  readonly source: SamSource | undefined;
  readonly properties: ReadonlyMap<string, SamSource> | undefined;
  readonly resource: GeneratedResource | undefined;
  readonly attributedTo: Origin | undefined;
  readonly own: boolean;
  readonly owned: Range[] | undefined;

  constructor(parts: PlacedParts) {
    this.key = parts.key;
    this.producer = parts.producer;
    this.range = parts.range;
    this.entry = parts.entry;
    this.extent = parts.extent;
    this.source = parts.source;
    this.properties = parts.properties;
    this.resource = parts.resource;
    this.attributedTo = parts.attributedTo;
    this.own = parts.own ?? false;
    this.owned = parts.owned;
  }

  /** The same record at another place: its entry, ranges and sources replaced. */
  movedTo(place: Pick<PlacedParts, 'entry' | 'range' | 'extent' | 'source' | 'properties' | 'owned'>): PlacedRecord {
    return new PlacedRecord({ key: this.key, producer: this.producer, resource: this.resource, attributedTo: this.attributedTo, own: this.own, ...place });
  }

  /** This record without its claim to own its ranges (an expansion its caller keeps shares them). */
  unowned(): PlacedRecord {
    return this.owned === undefined ? this : this.movedTo({ entry: this.entry, range: this.range, extent: this.extent, source: this.source, properties: this.properties });
  }
}

/** An expansion remembered for the next one. */
export interface ExpansionRecord {
  optionsKey: string;
  text: string;
  root: MapNode;
  py27: boolean;
  placed: readonly PlacedRecord[];
  /** The processed template's root entries. */
  rootEntries: readonly MapEntry[];
  expansion: SamExpansion;
  references: ResourceReferences;
  /**
   * Whether every SAM resource's translation read nothing but its own entry (translate.ts's
   * `kept`): then none read a resource the transform passes through as written.
   */
  allKept: boolean;
}

/** What the expansion remembers. */
export interface Remembered {
  model: TemplateModel;
  options: TranslationOptions;
  py27: boolean;
  placed: readonly PlacedRecord[];
  rootEntries: readonly MapEntry[];
  expansion: SamExpansion;
  references: ResourceReferences;
  /**
   * Whether every SAM resource's translation read nothing but its own entry (translate.ts's
   * `kept`): then none read a resource the transform passes through as written.
   */
  allKept: boolean;
}

const FUNCTION = 'AWS::Serverless::Function';
/**
 * Sections the transform passes through as written (it reads none of them, and with no reference
 * to resolve it changes none): whatever their text, they are this text's own nodes.
 */
const PASSED_THROUGH = new Set(['AWSTemplateFormatVersion', 'Description', 'Metadata', 'Outputs']);
/** The sections an edited function's translation reads besides its own entry. */
const CONTEXT_SECTIONS = ['AWSTemplateFormatVersion', 'Transform', 'Parameters', 'Mappings', 'Conditions', 'Globals'];

/** The options as text: an expansion starts from another only under the same. */
function optionsKey(options: TranslationOptions): string | undefined {
  try {
    return JSON.stringify([sortedEntries(options.parameters), options.region, options.partition, sortedEntries(options.artifacts ?? [])]);
  } catch {
    return undefined;
  }
}

/** Remembers an expansion for the next one, or forgets the last when this one cannot be started from. */
export function rememberExpansion(cache: SamTranslationCache, remembered: Remembered | undefined): void {
  const key = remembered && optionsKey(remembered.options);
  cache.lastExpansion =
    remembered && key !== undefined && remembered.model.root
      ? {
          optionsKey: key,
          text: remembered.model.parsed.text,
          root: remembered.model.root,
          py27: remembered.py27,
          placed: remembered.placed,
          rootEntries: remembered.rootEntries,
          expansion: remembered.expansion,
          references: remembered.references,
          allKept: remembered.allKept,
        }
      : undefined;
}

/** A span of the earlier text whose text is unchanged, and how far it moved. */
interface Span {
  start: number;
  end: number;
  delta: number;
}

/**
 * Moves ranges of the earlier text to where the same text now stands. An owning mover copies every
 * range it is given, moved or not, so that the record it copies holds its ranges alone and the
 * next expansion can move them in place (`PendingMoves`).
 */
class Mover {
  private readonly spans: Span[];
  private lastHit = 0;
  /** Ranges that do not move with a span but are known anew: by start, their end and new range. */
  readonly exact = new Map<number, { end: number; now: Range }>();
  /** Where `locate` found a range now. */
  nowStart = 0;
  nowEnd = 0;
  /** The ranges made for the record being copied, by an owning mover. */
  private made?: Range[];

  constructor(
    spans: Span[],
    private readonly owning: boolean,
  ) {
    this.spans = spans.sort((a, b) => a.start - b.start);
  }

  /** Starts copying a record: its extent, and the ranges it will own. */
  beginRecord(): void {
    this.resetExtent();
    if (!this.owning) return;
    this.made = [];
    // A range made for another record must not be shared with this one: each moves its own.
    this.lastRange = undefined;
    this.lastMoved = undefined;
  }

  /** The ranges made since `beginRecord`, which the record copied owns; undefined unless owning. */
  endRecord(): Range[] | undefined {
    const made = this.made;
    this.made = undefined;
    if (this.owning) {
      this.lastRange = undefined;
      this.lastMoved = undefined;
    }
    return made;
  }

  private lastRange?: Range;
  private lastMoved?: Range;

  private minStart = Infinity;
  private maxEnd = -Infinity;

  /** The extent of the ranges moved since `beginRecord`. */
  get extent(): Range {
    return { start: this.minStart, end: this.maxEnd };
  }

  private resetExtent(): void {
    this.minStart = Infinity;
    this.maxEnd = -Infinity;
  }

  /** The range now, or undefined when its text is not known to be the same. */
  range(range: Range): Range | undefined {
    const moved = this.rangeNow(range);
    if (moved !== undefined) {
      if (moved.start < this.minStart) this.minStart = moved.start;
      if (moved.end > this.maxEnd) this.maxEnd = moved.end;
    }
    return moved;
  }

  private rangeNow(range: Range): Range | undefined {
    // What the transform built shares one range object (its SAM property's) across many nodes.
    if (range === this.lastRange) return this.lastMoved;
    let moved: Range | undefined;
    if (this.locate(range)) {
      if (this.owning) {
        moved = { start: this.nowStart, end: this.nowEnd };
        this.made?.push(moved);
      } else moved = this.nowStart === range.start && this.nowEnd === range.end ? range : { start: this.nowStart, end: this.nowEnd };
    }
    this.lastRange = range;
    this.lastMoved = moved;
    return moved;
  }

  /** Finds where a range is now (in `nowStart` and `nowEnd`); false when its text is not known to be the same. */
  locate(range: Range): boolean {
    const span = this.spanOf(range);
    if (span) {
      this.nowStart = range.start + span.delta;
      this.nowEnd = range.end + span.delta;
      return true;
    }
    const known = this.exact.get(range.start);
    if (known === undefined || known.end !== range.end) return false;
    this.nowStart = known.now.start;
    this.nowEnd = known.now.end;
    return true;
  }

  private spanOf(range: Range): Span | undefined {
    // Ranges come entry by entry, so the span of the last one is tried first.
    const recent = this.spans[this.lastHit];
    if (recent !== undefined && range.start >= recent.start && range.end <= recent.end) return recent;
    let low = 0;
    let high = this.spans.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const span = this.spans[middle]!;
      if (range.start < span.start) high = middle - 1;
      else if (range.start >= span.end) low = middle + 1;
      else {
        if (range.end > span.end) return undefined;
        this.lastHit = middle;
        return span;
      }
    }
    return undefined;
  }

  /** A node with its ranges moved (itself when none moved), or undefined. */
  node(node: TemplateNode): TemplateNode | undefined {
    const range = this.range(node.range);
    if (range === undefined) return undefined;
    if (node.kind === 'scalar') return range === node.range ? node : { kind: 'scalar', range, value: node.value };
    if (range !== node.range) return this.copied(node, range);
    if (node.kind === 'seq') {
      const items = node.items;
      let moved: TemplateNode[] | undefined;
      for (let i = 0; i < items.length; i++) {
        const item = items[i]!;
        const now = this.node(item);
        if (now === undefined) return undefined;
        if (now !== item && moved === undefined) moved = items.slice(0, i);
        moved?.push(now);
      }
      return moved === undefined && range === node.range ? node : { kind: 'seq', range, items: moved ?? items };
    }
    const entries = node.entries;
    let moved: MapEntry[] | undefined;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const now = this.entry(entry);
      if (now === undefined) return undefined;
      if (now !== entry && moved === undefined) moved = entries.slice(0, i);
      moved?.push(now);
    }
    if (moved === undefined && range === node.range) return node;
    const map: MapNode = { kind: 'map', range, entries: moved ?? entries };
    if (node.shortForm !== undefined) map.shortForm = node.shortForm;
    return map;
  }

  /** A node that moved, copied with its children moved (most moved with it), without comparing them. */
  private copied(node: MapNode | SeqNode, range: Range): TemplateNode | undefined {
    // Arrays built by pushing stay packed, which the next keystroke's walk of them relies on.
    if (node.kind === 'seq') {
      const items: TemplateNode[] = [];
      for (const item of node.items) {
        const moved = this.node(item);
        if (moved === undefined) return undefined;
        items.push(moved);
      }
      return { kind: 'seq', range, items };
    }
    const entries: MapEntry[] = [];
    for (const entry of node.entries) {
      const moved = this.entry(entry);
      if (moved === undefined) return undefined;
      entries.push(moved);
    }
    const map: MapNode = { kind: 'map', range, entries };
    if (node.shortForm !== undefined) map.shortForm = node.shortForm;
    return map;
  }

  entry(entry: MapEntry): MapEntry | undefined {
    const keyRange = this.range(entry.keyRange);
    if (keyRange === undefined) return undefined;
    const value = this.node(entry.value);
    if (value === undefined) return undefined;
    return keyRange === entry.keyRange && value === entry.value ? entry : { key: entry.key, keyRange, value };
  }

  source(source: SamSource): SamSource | undefined {
    const range = this.range(source.range);
    if (range === undefined) return undefined;
    return range === source.range ? source : { ...source, range };
  }
}

/**
 * Ranges moved in place, the cheap way to move a record whose ranges only it holds: each range's
 * place now is found first, for every record, and only when all have one are they moved, so that
 * an expansion that falls back to the full one has changed nothing.
 */
class PendingMoves {
  private readonly ranges: Range[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** The records taken. */
  records = 0;

  /** Finds a place now for each range a record owns, and for its extent; false when one has none (then none of them is taken). */
  take(record: PlacedRecord, owned: readonly Range[], mover: Mover): boolean {
    let start = Infinity;
    let end = -Infinity;
    const taken = this.ranges.length;
    for (const range of owned) {
      if (!mover.locate(range)) {
        this.ranges.length = this.starts.length = this.ends.length = taken;
        return false;
      }
      if (mover.nowStart < start) start = mover.nowStart;
      if (mover.nowEnd > end) end = mover.nowEnd;
      if (mover.nowStart !== range.start || mover.nowEnd !== range.end) this.add(range, mover.nowStart, mover.nowEnd);
    }
    if (start !== record.extent.start || end !== record.extent.end) this.add(record.extent, start, end);
    this.records++;
    return true;
  }

  private add(range: Range, start: number, end: number): void {
    this.ranges.push(range);
    this.starts.push(start);
    this.ends.push(end);
  }

  /** Moves every range taken. */
  apply(): void {
    for (let i = 0; i < this.ranges.length; i++) {
      const range = this.ranges[i]!;
      range.start = this.starts[i]!;
      range.end = this.ends[i]!;
    }
  }
}

/**
 * A record of the last expansion where its text now stands: itself when nothing it covers comes at
 * or after `unchangedUpTo`, its ranges moved in place when it owns them, else a copy (which owns
 * its ranges when the mover does); undefined when one of its ranges has no place now.
 */
function moveRecord(record: PlacedRecord, mover: Mover, pending: PendingMoves, inPlace: boolean, unchangedUpTo: number): PlacedRecord | undefined {
  if (record.extent.end <= unchangedUpTo) return inPlace ? record : record.unowned();
  const owned = inPlace ? record.owned : undefined;
  if (owned) return pending.take(record, owned, mover) ? record : undefined;
  mover.beginRecord();
  const copy = copyRecord(record, mover);
  const made = mover.endRecord();
  return copy && record.movedTo({ ...copy, owned: made });
}

/** A record's entry and sources copied with their ranges moved, or undefined when one has no place now. */
function copyRecord(record: PlacedRecord, mover: Mover): Pick<PlacedParts, 'entry' | 'range' | 'extent' | 'source' | 'properties'> | undefined {
  const entry = mover.entry(record.entry);
  if (entry === undefined) return undefined;
  const { source, properties } = record;
  const movedSource = source && mover.source(source);
  if (source !== undefined && movedSource === undefined) return undefined;
  let movedProperties = properties;
  if (properties) {
    const moved = new Map<string, SamSource>();
    for (const [name, property] of properties) {
      const now = mover.source(property);
      if (now === undefined) return undefined;
      moved.set(name, now);
    }
    movedProperties = moved;
  }
  const range = mover.range(record.range) ?? record.range;
  return { entry, range, extent: mover.extent, source: movedSource, properties: movedProperties };
}

/** The extent of an entry's ranges and its sources'. */
export function extentOf(entry: MapEntry, sources: { source?: SamSource; properties?: ReadonlyMap<string, SamSource> }): Range {
  const extent = { start: Infinity, end: -Infinity };
  const add = (range: Range) => {
    if (range.start < extent.start) extent.start = range.start;
    if (range.end > extent.end) extent.end = range.end;
  };
  const walk = (node: TemplateNode): void => {
    add(node.range);
    if (node.kind === 'seq') for (const item of node.items) walk(item);
    else if (node.kind === 'map')
      for (const child of node.entries) {
        add(child.keyRange);
        walk(child.value);
      }
  };
  add(entry.keyRange);
  walk(entry.value);
  if (sources.source) add(sources.source.range);
  for (const property of sources.properties?.values() ?? []) add(property.range);
  return extent;
}

const slice = (text: string, entry: MapEntry) => text.slice(entry.keyRange.start, entry.value.range.end);

const spanOf = (before: MapEntry, now: MapEntry): Span => ({ start: before.keyRange.start, end: before.value.range.end, delta: now.keyRange.start - before.keyRange.start });

/** The `Type` a resource entry writes, when it is a scalar. */
function typeOf(node: TemplateNode): unknown {
  const type = node.kind === 'map' ? node.entries.find((e) => e.key === 'Type')?.value : undefined;
  return type?.kind === 'scalar' ? type.value : undefined;
}

/** Whether an edit is to a function, where no API reads, with no YAML anchor that could carry it elsewhere. */
function isFunctionEditTheApiDoesNotRead(before: MapEntry, now: MapEntry, earlierText: string, text: string): boolean {
  if (typeOf(before.value) !== FUNCTION || typeOf(now.value) !== FUNCTION) return false;
  if (slice(earlierText, before).includes('&') || slice(text, now).includes('&')) return false;
  const nodeBefore = before.value.kind === 'map' ? before.value : undefined;
  const nodeNow = now.value.kind === 'map' ? now.value : undefined;
  return textTheApiReads({ text: earlierText }, nodeBefore, true) === textTheApiReads({ text }, nodeNow, true);
}

/**
 * Whether an edit is to a resource that is not SAM's, of the same type, with no YAML anchor that
 * could carry it elsewhere: the transform passes such a resource through as written, and reads
 * nothing of it but its type (plugins) unless a translation read it, which the caller rules out.
 */
function isPassedThroughEdit(before: MapEntry, now: MapEntry, earlierText: string, text: string): boolean {
  const type = typeOf(now.value);
  if (typeof type !== 'string' || type.startsWith(SERVERLESS_PREFIX) || typeOf(before.value) !== type) return false;
  return !slice(earlierText, before).includes('&') && !slice(text, now).includes('&');
}

/** The expansion of `model` started from the cache's last one, or undefined when it must be done in full. */
export function reexpand(model: TemplateModel, options: TranslationOptions, cache: SamTranslationCache): SamExpansion | undefined {
  const last = cache.lastExpansion;
  const root = model.root;
  if (last === undefined || root === undefined || optionsKey(options) !== last.optionsKey) return undefined;
  const text = model.parsed.text;
  if (root.entries.length !== last.root.entries.length) return undefined;
  const spans: Span[] = [];
  let resourcesBefore: MapNode | undefined;
  let resourcesNow: MapEntry | undefined;
  for (let i = 0; i < root.entries.length; i++) {
    const before = last.root.entries[i]!;
    const now = root.entries[i]!;
    if (before.key !== now.key) return undefined;
    if (now.key === 'Resources') {
      if (before.value.kind !== 'map' || now.value.kind !== 'map') return undefined;
      resourcesBefore = before.value;
      resourcesNow = now;
      spans.push({ start: before.keyRange.start, end: before.keyRange.end, delta: now.keyRange.start - before.keyRange.start });
      continue;
    }
    const same = slice(last.text, before) === slice(text, now);
    // A YAML anchor there could carry the edit into resources whose text did not change.
    if (PASSED_THROUGH.has(now.key) && (same || (!slice(last.text, before).includes('&') && !slice(text, now).includes('&')))) continue;
    if (!same) return undefined;
    spans.push(spanOf(before, now));
  }
  if (resourcesBefore === undefined || resourcesNow === undefined || resourcesNow.value.kind !== 'map') return undefined;
  const entriesNow = resourcesNow.value.entries;
  if (entriesNow.length !== resourcesBefore.entries.length) return undefined;
  const edited = new Map<string, { before: MapEntry; now: MapEntry }>();
  // Resources the transform passed through as written, whose edit is theirs alone when no translation read them.
  const ownKeys = new Set<string>();
  for (const record of last.placed) if (record.own) ownKeys.add(record.key);
  const passedThroughEdits: MapEntry[] = [];
  for (let i = 0; i < entriesNow.length; i++) {
    const before = resourcesBefore.entries[i]!;
    const now = entriesNow[i]!;
    if (before.key !== now.key) return undefined;
    if (slice(last.text, before) === slice(text, now)) spans.push(spanOf(before, now));
    else if (isFunctionEditTheApiDoesNotRead(before, now, last.text, text)) edited.set(now.key, { before, now });
    else if (last.allKept && ownKeys.has(now.key) && isPassedThroughEdit(before, now, last.text, text)) passedThroughEdits.push(before);
    else return undefined;
  }
  // A cache that moves in place moves records it alone holds without copying them, unless the
  // caller keeps this expansion beyond the next (which would then move what it holds).
  const inPlace = cache.movesInPlace && options.kept !== true;
  const mover = new Mover(spans, inPlace);
  const pending = new PendingMoves();
  if (last.references.mayBeIn(text)) return undefined;

  // The edited functions, translated in a template of their own.
  const index = new SourceIndex(text);
  const translation = edited.size === 0 ? undefined : translateAlone(root, text, edited, index, options, last);
  if (translation === null) return undefined;

  // Each edited function's place takes what it generates now; an implicit API attributed to one
  // of its events is placed again; everything else moves with its text.
  const written = new WrittenResources(root, resourcesNow.keyRange);
  const builder = new NodeBuilder(index);
  for (const { before, now } of edited.values()) mover.exact.set(before.keyRange.start, { end: before.keyRange.end, now: now.keyRange });
  const placed: PlacedRecord[] = [];
  const entries: MapEntry[] = [];
  const sources = new Map<string, SamSource>();
  const propertySources = new Map<string, ReadonlyMap<string, SamSource>>();
  const entriesNowById = new Map(entriesNow.map((e) => [e.key, e]));
  const generatedNow = new Set<string>();
  const placedAgain = new Set<string>();
  // Ranges point into entries only (never into what lies between them): up to the first entry
  // that changed or moved, every range is where it was.
  let unchangedUpTo = Infinity;
  for (const span of spans) if (span.delta !== 0 && span.start < unchangedUpTo) unchangedUpTo = span.start;
  for (const { before } of edited.values()) if (before.keyRange.start < unchangedUpTo) unchangedUpTo = before.keyRange.start;
  for (const before of passedThroughEdits) if (before.keyRange.start < unchangedUpTo) unchangedUpTo = before.keyRange.start;
  for (let i = 0; i < last.placed.length; ) {
    const record = last.placed[i]!;
    if (edited.has(record.producer)) {
      placedAgain.add(record.producer);
      const generatedBefore = new Set<string>();
      for (; i < last.placed.length && last.placed[i]!.producer === record.producer; i++) generatedBefore.add(last.placed[i]!.key);
      for (const resource of translation?.generated.get(record.producer) ?? []) {
        // An id another resource has or generates would take its place (SAM's DuplicateLogicalIdException, or an overwrite).
        const id = resource.logicalId;
        const another = (id !== record.producer && entriesNowById.has(id)) || (last.expansion.sourceMap.resources.has(id) && !generatedBefore.has(id)) || generatedNow.has(id);
        if (another) return undefined;
        generatedNow.add(id);
        const placement = written.place(resource);
        const entry: MapEntry = { key: id, keyRange: placement.keyRange, value: builder.build(resource.toEntry(), placement.range) };
        entries.push(entry);
        sources.set(id, placement.source);
        propertySources.set(id, placement.properties);
        placed.push(new PlacedRecord({ key: id, producer: record.producer, range: placement.range, entry, resource, extent: extentOf(entry, placement), source: placement.source, properties: placement.properties }));
      }
      continue;
    }
    i++;
    // A resource the transform left as written is the template's own node, in this text too.
    const now = record.own ? entriesNowById.get(record.key) : undefined;
    if (now) {
      const own: MapEntry = { key: now.key, keyRange: now.keyRange, value: now.value };
      entries.push(own);
      placed.push(record.movedTo({ entry: own, range: now.value.range, extent: { start: now.keyRange.start, end: now.value.range.end }, source: undefined, properties: undefined, owned: undefined }));
      continue;
    }
    const attributedToEdited = record.attributedTo !== undefined && edited.has(record.attributedTo.logicalId);
    if (attributedToEdited && record.resource) {
      const placement = written.place(record.resource, record.attributedTo);
      mover.exact.set(record.range.start, { end: record.range.end, now: placement.range });
    }
    // Before the first character that changed, everything is where it was; what is attributed to an edited function may not be.
    const moved = moveRecord(record, mover, pending, inPlace, attributedToEdited ? -Infinity : unchangedUpTo);
    if (moved === undefined) return undefined;
    entries.push(moved.entry);
    if (moved.source) sources.set(record.key, moved.source);
    if (moved.properties) propertySources.set(record.key, moved.properties);
    placed.push(moved);
  }

  // An edited function that generated nothing before has no place to take.
  if (placedAgain.size !== edited.size) return undefined;

  // The notes: the edited functions' in place of theirs before, the others moved.
  const fresh = new Map<string, SamNote[]>();
  for (const note of translation?.notes ?? []) if (edited.has(note.logicalId)) fresh.set(note.logicalId, [...(fresh.get(note.logicalId) ?? []), note]);
  const notes: SamNote[] = [];
  for (const note of last.expansion.notes) {
    if (edited.has(note.logicalId)) {
      const next = fresh.get(note.logicalId)?.shift();
      if (next === undefined) return undefined;
      notes.push(next);
      continue;
    }
    const range = note.range && mover.range(note.range);
    if (note.range && range === undefined) return undefined;
    notes.push(range === note.range ? note : { ...note, range: range! });
  }
  if ([...fresh.values()].some((left) => left.length > 0)) return undefined;

  const rootEntries: MapEntry[] = [];
  for (const entry of last.rootEntries) {
    if (entry.key === 'Resources') {
      rootEntries.push({ key: 'Resources', keyRange: resourcesNow.keyRange, value: { kind: 'map', range: resourcesNow.value.range, entries } });
      continue;
    }
    const own = PASSED_THROUGH.has(entry.key) ? root.entries.find((e) => e.key === entry.key) : undefined;
    if (own) {
      rootEntries.push({ key: own.key, keyRange: own.keyRange, value: own.value });
      continue;
    }
    const moved = mover.entry(entry);
    if (moved === undefined) return undefined;
    rootEntries.push(moved);
  }
  // Everything has a place now: the records moved in place move.
  pending.apply();
  cache.recordsMovedInPlace += pending.records;
  const expansion: SamExpansion = {
    parsed: { text, format: model.parsed.format, root: { kind: 'map', range: root.range, entries: rootEntries }, errors: [...model.parsed.errors] },
    sourceMap: { resources: sources, properties: propertySources },
    notes,
  };
  cache.reexpansions++;
  rememberExpansion(cache, { model, options, py27: last.py27, placed, rootEntries, expansion, references: last.references, allKept: last.allKept });
  return expansion;
}

/**
 * What an expansion in full may take from the last one instead of building it again: a generated
 * resource that is the very object the last expansion placed (its translation taken from the
 * cache), produced by the same resource and attributed alike, where its text now stands.
 */
export class RecordCarrier {
  private readonly byKey: Map<string, PlacedRecord>;
  private readonly pending = new PendingMoves();

  constructor(
    last: ExpansionRecord,
    private readonly mover: Mover,
    private readonly inPlace: boolean,
    private readonly unchangedUpTo: number,
  ) {
    this.byKey = new Map(last.placed.map((record) => [record.key, record]));
  }

  /** The last expansion's record of `resource`, where its text now stands, or undefined when it is to be built. */
  take(resource: GeneratedResource, producer: string, attributedTo: Origin | undefined): PlacedRecord | undefined {
    const record = this.byKey.get(resource.logicalId);
    if (record === undefined || record.resource !== resource || record.producer !== producer) return undefined;
    if (record.attributedTo?.logicalId !== attributedTo?.logicalId || record.attributedTo?.property !== attributedTo?.property) return undefined;
    const moved = moveRecord(record, this.mover, this.pending, this.inPlace, this.unchangedUpTo);
    if (moved) this.taken++;
    return moved;
  }

  private taken = 0;

  /** Moves what was taken in place: once the expansion is built, as nothing may fail after. */
  finish(cache: SamTranslationCache): void {
    this.pending.apply();
    cache.recordsMovedInPlace += this.pending.records;
    cache.recordsCarried += this.taken;
  }
}

/**
 * A carrier of the last expansion's records into an expansion in full of `model`, or undefined when
 * there is none to take from under these options. Entries are matched by key: those whose text is
 * the same move with it; ranges anywhere else have no place.
 */
export function recordCarrier(model: TemplateModel, options: TranslationOptions, cache: SamTranslationCache): RecordCarrier | undefined {
  const last = cache.lastExpansion;
  const root = model.root;
  if (last === undefined || root === undefined || optionsKey(options) !== last.optionsKey) return undefined;
  const text = model.parsed.text;
  const spans: Span[] = [];
  let unchangedUpTo = Infinity;
  const match = (before: readonly MapEntry[], now: readonly MapEntry[]) => {
    const nowByKey = new Map(now.map((entry) => [entry.key, entry]));
    for (const entry of before) {
      const same = nowByKey.get(entry.key);
      const span = entry.key === 'Resources' && before === last.root.entries && same ? { start: entry.keyRange.start, end: entry.keyRange.end, delta: same.keyRange.start - entry.keyRange.start } : undefined;
      if (span === undefined && (same === undefined || slice(last.text, entry) !== slice(text, same))) {
        unchangedUpTo = Math.min(unchangedUpTo, entry.keyRange.start);
        continue;
      }
      const moved = span ?? spanOf(entry, same!);
      spans.push(moved);
      if (moved.delta !== 0) unchangedUpTo = Math.min(unchangedUpTo, moved.start);
    }
  };
  match(last.root.entries, root.entries);
  const resourcesBefore = last.root.entries.find((entry) => entry.key === 'Resources')?.value;
  const resourcesNow = root.entries.find((entry) => entry.key === 'Resources')?.value;
  if (resourcesBefore?.kind === 'map' && resourcesNow?.kind === 'map') match(resourcesBefore.entries, resourcesNow.entries);
  const inPlace = cache.movesInPlace && options.kept !== true;
  return new RecordCarrier(last, new Mover(spans, inPlace), inPlace, unchangedUpTo);
}

/**
 * The edited functions translated in a template of their own (with the sections their translation
 * reads), or null when that translation may differ from theirs in the whole template.
 */
function translateAlone(root: MapNode, text: string, edited: ReadonlyMap<string, { before: MapEntry; now: MapEntry }>, index: SourceIndex, options: TranslationOptions, last: ExpansionRecord): Translation | null {
  const alone: PlainMap = {};
  for (const entry of root.entries) if (CONTEXT_SECTIONS.includes(entry.key)) alone[entry.key] = index.read(entry.value);
  const resources: PlainMap = {};
  for (const [id, { now }] of edited) resources[id] = index.read(now.value);
  alone.Resources = resources;
  const editedNode: MapNode = { kind: 'map', range: root.range, entries: [...edited.values()].map(({ now }) => now) };
  const globalsNode = root.entries.find((e) => e.key === 'Globals')?.value;
  const globalsText = globalsNode ? text.slice(globalsNode.range.start, globalsNode.range.end) : '';
  const conditionsBefore = isMap(alone.Conditions) ? Object.keys(alone.Conditions).length : 0;
  const translation = translate(alone, editedNode, options, { text, index, globalsText }, 'part', last.py27);
  if (translation === 'redo' || translation.errors.length > 0 || translation.notCovered.size > 0 || translation.changedIds.size > 0) return null;
  if (translation.edited.size > 0 || translation.shared.length > 0 || translation.embeddedConnectors.size > 0) return null;
  if (Object.keys(translation.conditions).length !== conditionsBefore) return null;
  for (const id of edited.keys()) {
    // A translation that read another resource (an SNS event reads its topic) saw none here.
    if (!translation.kept.has(id) || translation.references.textOf(id) !== last.references.textOf(id)) return null;
  }
  return translation;
}
