/**
 * A function pasted into a SAM template or deleted from it, for an expansion that starts from the
 * last one (reexpand.ts). The function is translated in a template of its own, as an edited one
 * is, and what it generates takes its place; the other functions keep their translations. What it
 * can change besides is the order SAM goes through the functions in (the implicit API plugins',
 * the translation's), which decides the order of the events in the APIs' definitions: the other
 * functions must keep theirs (passedThrough.ts's `samVisitsKept`), and the new one's place in each
 * is read from SAM's steps taken again with the new keys (resourceOrder.ts).
 */
import type { MapEntry } from '../template/ast';
import { nodeAtPath } from '../template/tree';
import type { ApiReplay } from './api/apiReplay';
import { slice } from './movedRecords';
import { conditionIsAString, type VisitsNow } from './passedThrough';
import { writtenType } from './placement';
import type { SourceIndex } from './sourceIndex';

const FUNCTION = 'AWS::Serverless::Function';

/** Whether an entry is a SAM function as written. */
export function isFunctionEntry(entry: MapEntry): boolean {
  return writtenType(entry.value) === FUNCTION;
}

/**
 * Whether a function's entry may be added or taken away alone: a map with an id SAM takes (its
 * logical ids must be alphanumeric), no embedded connectors, no YAML anchor that could carry its
 * text elsewhere, and a `Condition`, if any, that is a string.
 */
export function isFunctionAlone(entry: MapEntry, text: string, index: SourceIndex): boolean {
  if (entry.value.kind !== 'map' || !isFunctionEntry(entry) || !/^[A-Za-z0-9]+$/.test(entry.key)) return false;
  if (entry.value.entries.some((e) => e.key === 'Connectors')) return false;
  return conditionIsAString(entry, index) && !slice(text, entry).includes('&');
}

/** Whether a function's entry has an event the implicit API plugins read (`Api`, `HttpApi`), or one whose type is not plain text. */
export function hasApiEvents(entry: MapEntry): boolean {
  const events = nodeAtPath(entry.value, ['Properties', 'Events']);
  if (events === undefined) return false;
  if (events.kind !== 'map') return true;
  return events.entries.some((event) => {
    const type = nodeAtPath(event.value, ['Type']);
    return type?.kind !== 'scalar' || typeof type.value !== 'string' || type.value === 'Api' || type.value === 'HttpApi';
  });
}

/** The orders SAM goes through the functions in: translating them, and, when the APIs are kept for a replay, in each implicit API plugin. */
export interface FunctionOrders {
  translationOrder: readonly string[];
  pluginOrders?: ApiReplay['pluginOrders'];
}

/**
 * The orders SAM goes through the functions in, with `added` among them and without `removed`
 * (`translationOrder`: the last expansion's translation order; `pluginOrders`: its plugins', when
 * kept): what the named visits go through now (`visits`), or the order written. Undefined when a
 * visit was not kept.
 */
export function functionOrdersAfter(
  translationOrder: readonly string[],
  pluginOrders: ApiReplay['pluginOrders'] | undefined,
  visits: VisitsNow,
  entriesNow: readonly MapEntry[],
  change: { added?: string | undefined; removed?: string | undefined },
): FunctionOrders | undefined {
  const { added, removed } = change;
  if (visits === 'written') {
    const position = new Map(entriesNow.map((entry, i) => [entry.key, i]));
    const after = (order: readonly string[]) => {
      const ids = order.filter((id) => id !== removed);
      if (added === undefined) return ids;
      const at = position.get(added)!;
      const next = ids.findIndex((id) => (position.get(id) ?? -1) > at);
      ids.splice(next < 0 ? ids.length : next, 0, added);
      return ids;
    };
    return { translationOrder: after(translationOrder), ...(pluginOrders ? { pluginOrders: { rest: after(pluginOrders.rest), http: after(pluginOrders.http) } } : {}) };
  }
  const functions = new Set(translationOrder);
  if (removed !== undefined) functions.delete(removed);
  if (added !== undefined) functions.add(added);
  const [rest, http, translation] = (['rest', 'http', 'translation'] as const).map((visit) => visits.get(visit)?.filter((id) => functions.has(id)));
  if (translation === undefined || (pluginOrders && (rest === undefined || http === undefined))) return undefined;
  return { translationOrder: translation, ...(pluginOrders ? { pluginOrders: { rest: rest!, http: http! } } : {}) };
}

/** Whether a function renamed from `before` to `now` stands at the same place in each of SAM's orders of functions as it did. */
export function keepsItsPlace(last: Pick<ApiReplay, 'pluginOrders' | 'translationOrder'>, next: Pick<ApiReplay, 'pluginOrders' | 'translationOrder'>, before: string, now: string): boolean {
  const samePlace = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.indexOf(before) === b.indexOf(now);
  return samePlace(last.pluginOrders.rest, next.pluginOrders.rest) && samePlace(last.pluginOrders.http, next.pluginOrders.http) && samePlace(last.translationOrder, next.translationOrder);
}
