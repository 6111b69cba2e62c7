/**
 * Resources the transform passes through as written (a queue, a table, a bucket), edited, added,
 * taken out or renamed, for an expansion that starts from the last one (reexpand.ts); and what any
 * resource added or taken out, a function too (addedFunctions.ts), does to SAM's order.
 *
 * SAM reads nothing of such a resource but whether its type is one of its own (plugins, the
 * order of translation), whether it has embedded `Connectors` (connector/embedded.ts) and whether
 * its `Condition` is a string (document.ts), unless a translation read it, which the caller rules
 * out (every translation read nothing but its own entry, and no shared step looked the resource
 * up). What it can change besides is order: in a template SAM converts for Python 2.7, the
 * Resources section is a Python 2.7 dict, and a key added or taken away can reorder the others,
 * which decides the order of the events in the APIs' definitions and the implicit APIs' origin.
 * The steps SAM took on that dict are kept (resourceOrder.ts) and taken again with the new keys.
 */
import type { MapEntry } from '../template/ast';
import { conditionError } from './document';
import { slice } from './movedRecords';
import { writtenType } from './placement';
import { visitsKept, type OrderStep, type OrderVisit } from './resourceOrder';
import type { SourceIndex } from './sourceIndex';
import { SERVERLESS_TYPE_PREFIX } from '../template/readModel';

/**
 * The Resources sections of the last text and this one matched entry by entry, in order: the
 * same keys, but for at most one entry added, one taken out, or one whose key changed (a
 * logical id typed), at the same place.
 */
export interface AlignedResources {
  pairs: { before: MapEntry; now: MapEntry }[];
  /** The entry this text has that the last did not. */
  added?: MapEntry;
  /** The entry the last text had that this one has not. */
  removed?: MapEntry;
  /** Where in the last text the first entry that is not matched stood, or where the added one goes. */
  changedAt: number;
  /** The key of the entry after the added one, in this text; undefined when it is the last. */
  addedBefore?: string;
}

/** The two sections' entries matched, or undefined when more than one entry differs in its key. */
export function alignedResources(before: readonly MapEntry[], now: readonly MapEntry[], sectionStart: number): AlignedResources | undefined {
  let at = 0;
  const pairs: AlignedResources['pairs'] = [];
  for (; at < before.length && at < now.length && before[at]!.key === now[at]!.key; at++) pairs.push({ before: before[at]!, now: now[at]! });
  const changedAt = at < before.length ? before[at]!.keyRange.start : at > 0 ? before[at - 1]!.value.range.end : sectionStart;
  if (at === before.length && at === now.length) return { pairs, changedAt };
  const extra = now.length - before.length;
  if (extra < -1 || extra > 1) return undefined;
  const added = extra >= 0 ? now[at] : undefined;
  const removed = extra <= 0 ? before[at] : undefined;
  for (let i = at + (removed ? 1 : 0), j = at + (added ? 1 : 0); i < before.length; i++, j++) {
    if (before[i]!.key !== now[j]!.key) return undefined;
    pairs.push({ before: before[i]!, now: now[j]! });
  }
  const next = added ? now[at + 1]?.key : undefined;
  return { pairs, changedAt, ...(added ? { added } : {}), ...(removed ? { removed } : {}), ...(next !== undefined ? { addedBefore: next } : {}) };
}

/**
 * Whether an entry is a resource the transform passes through as written, with no YAML anchor
 * that could carry its text elsewhere: a map, of a type not SAM's, with no embedded connectors,
 * whose `Condition`, if any, is a string (SAM rejects the whole template otherwise).
 */
export function passesThrough(entry: MapEntry, text: string, index: SourceIndex): boolean {
  if (entry.value.kind !== 'map') return false;
  const type = writtenType(entry.value);
  if (typeof type === 'string' && type.startsWith(SERVERLESS_TYPE_PREFIX)) return false;
  if (entry.value.entries.some((e) => e.key === 'Connectors')) return false;
  return conditionIsAString(entry, index) && !slice(text, entry).includes('&');
}

/**
 * Whether an edit is to a resource the transform passes through as written, and passes through
 * still (its type typed over another that is not SAM's either), with no YAML anchor that could
 * carry it elsewhere.
 */
export function isPassedThroughEdit(before: MapEntry, now: MapEntry, earlierText: string, text: string, index: SourceIndex): boolean {
  return passesThrough(before, earlierText, index) && passesThrough(now, text, index);
}

/** Whether a resource's `Condition`, if it has one, is a string: SAM rejects the whole template otherwise (document.ts). */
export function conditionIsAString(entry: MapEntry, index: SourceIndex): boolean {
  const condition = entry.value.kind === 'map' ? entry.value.entries.find((e) => e.key === 'Condition')?.value : undefined;
  return condition === undefined || conditionError(entry.key, { Condition: index.read(condition) }) === undefined;
}

/** What SAM's visits of the Resources section go through after an edit: the keys at each named visit, or the order written. */
export type VisitsNow = ReadonlyMap<OrderVisit, readonly string[]> | 'written';

/**
 * What SAM's visits go through with the keys of `now`, when they meet its own resources in the
 * same order as with those of `before` (`steps`: what SAM did to a Python 2.7 Resources section;
 * a section in written order keeps the others' order whatever is added or taken out); undefined
 * otherwise. `leftOut`: the resources not compared (those SAM passes through as written, and the
 * one added or taken out).
 */
export function samVisitsKept(steps: readonly OrderStep[] | undefined, py27: boolean, before: readonly MapEntry[], now: readonly MapEntry[], leftOut: (id: string) => boolean): VisitsNow | undefined {
  if (!py27) return 'written';
  if (steps === undefined) return undefined;
  return visitsKept(steps, transformKeys(before), transformKeys(now), (id) => !leftOut(id));
}

/** The keys of a Resources section as the transform reads them: a JavaScript object's order, which puts integer-like keys first. */
function transformKeys(entries: readonly MapEntry[]): string[] {
  const keys = entries.map((entry) => entry.key);
  return keys.some((key) => INTEGER_LIKE.test(key)) ? Object.keys(Object.fromEntries(keys.map((key) => [key, true]))) : keys;
}

const INTEGER_LIKE = /^(?:0|[1-9][0-9]*)$/;
