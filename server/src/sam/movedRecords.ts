/**
 * The last expansion's processed resources, moved to where their text now stands: each kept as a
 * record of what placed it (`PlacedRecord`), its ranges moved span by span (`Mover`), by copying
 * the nodes or, for a record that alone holds its ranges, in place (`PendingMoves`).
 */
import type { MapEntry, MapNode, Range, SeqNode, TemplateNode } from '../template/ast';
import type { GeneratedResource, Origin } from './generated';
import type { SamSource } from './sourceMap';

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
  /** Where the resource's maps and lists stand, relative to its producer's entry (backing.ts), when known. */
  backing?: string | undefined;
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
  readonly backing: string | undefined;
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
    this.backing = parts.backing;
    this.own = parts.own ?? false;
    this.owned = parts.owned;
  }

  /** The same record at another place: its entry, ranges and sources replaced. */
  movedTo(place: Pick<PlacedParts, 'entry' | 'range' | 'extent' | 'source' | 'properties' | 'owned'>): PlacedRecord {
    return new PlacedRecord({ key: this.key, producer: this.producer, resource: this.resource, attributedTo: this.attributedTo, backing: this.backing, own: this.own, ...place });
  }

  /** The same record standing for another generated resource, one like its own (`GeneratedResource.isLike`). */
  standingFor(resource: GeneratedResource): PlacedRecord {
    return resource === this.resource ? this : new PlacedRecord({ key: this.key, producer: this.producer, range: this.range, entry: this.entry, extent: this.extent, source: this.source, properties: this.properties, resource, attributedTo: this.attributedTo, backing: this.backing, own: this.own, owned: this.owned });
  }

  /** This record without its claim to own its ranges (an expansion its caller keeps shares them). */
  unowned(): PlacedRecord {
    return this.owned === undefined ? this : this.movedTo({ entry: this.entry, range: this.range, extent: this.extent, source: this.source, properties: this.properties });
  }
}

/** A span of the earlier text whose text is unchanged, and how far it moved. */
export interface Span {
  start: number;
  end: number;
  delta: number;
}

/**
 * Moves ranges of the earlier text to where the same text now stands. An owning mover copies every
 * range it is given, moved or not, so that the record it copies holds its ranges alone and the
 * next expansion can move them in place (`PendingMoves`).
 */
export class Mover {
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

  /** How far a range moved, when it lies within one span (its text unchanged); undefined otherwise. */
  deltaWithin(range: Range): number | undefined {
    return this.spanOf(range)?.delta;
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
export class PendingMoves {
  private readonly ranges: Range[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Records whose ranges all lie in one span, with how far it moved: each of their ranges moves as far. */
  private readonly shifted: PlacedRecord[] = [];
  private readonly deltas: number[] = [];
  /** The records taken. */
  records = 0;

  /** Finds a place now for each range a record owns, and for its extent; false when one has none (then none of them is taken). */
  take(record: PlacedRecord, owned: readonly Range[], mover: Mover): boolean {
    // Most records lie in the text of one entry (their SAM resource's): then every range they own
    // does, and moves as far as the entry, without being looked up one by one.
    const delta = mover.deltaWithin(record.extent);
    if (delta !== undefined) {
      if (delta !== 0) {
        this.shifted.push(record);
        this.deltas.push(delta);
      }
      this.records++;
      return true;
    }
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
    // A record's owned ranges are distinct objects (an owning mover makes each), so none moves twice.
    for (let i = 0; i < this.shifted.length; i++) {
      const record = this.shifted[i]!;
      const delta = this.deltas[i]!;
      for (const range of record.owned!) {
        range.start += delta;
        range.end += delta;
      }
      record.extent.start += delta;
      record.extent.end += delta;
    }
  }
}

/**
 * A record of the last expansion where its text now stands: itself when nothing it covers comes at
 * or after `unchangedUpTo`, its ranges moved in place when it owns them, else a copy (which owns
 * its ranges when the mover does); undefined when one of its ranges has no place now.
 */
export function moveRecord(record: PlacedRecord, mover: Mover, pending: PendingMoves, inPlace: boolean, unchangedUpTo: number): PlacedRecord | undefined {
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

/** The text of an entry, its key to the end of its value. */
export const slice = (text: string, entry: MapEntry) => text.slice(entry.keyRange.start, entry.value.range.end);

/** Whether neither text of an entry holds a YAML anchor, which could carry an edit into entries whose text did not change. */
export function withoutAnchors(before: MapEntry, now: MapEntry, earlierText: string, text: string): boolean {
  return !slice(earlierText, before).includes('&') && !slice(text, now).includes('&');
}

/** The span of an entry whose text is the same in both texts, and how far it moved. */
export const spanOf = (before: MapEntry, now: MapEntry): Span => ({ start: before.keyRange.start, end: before.value.range.end, delta: now.keyRange.start - before.keyRange.start });

/** The span of an entry's key alone (the Resources section's, whose entries are matched one by one), and how far it moved. */
export const keySpanOf = (before: MapEntry, now: MapEntry): Span => ({ start: before.keyRange.start, end: before.keyRange.end, delta: now.keyRange.start - before.keyRange.start });
