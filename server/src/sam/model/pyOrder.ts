/**
 * The order in which SAM iterates the maps of a template it converted for Python 2.7 (a template
 * with a REST API: py27Dict.ts). Resources, events, authorizers and the other maps SAM reads from
 * such a template iterate in Python 2.7's order of their keys as written; other templates keep
 * the order as written.
 */
import type { TranslationContext } from './context';
import { PyDict, py27KeyOrder } from '../python/py27Dict';
import { isMap, type PlainMap } from './values';

/** The entries of a template map in the order SAM iterates them. */
export function pyItems(ctx: Pick<TranslationContext, 'py27'>, map: PlainMap): [string, unknown][] {
  const keys = Object.keys(map);
  if (!ctx.py27 || keys.length < 2) return keys.map((key) => [key, map[key]]);
  return py27KeyOrder(keys).map((key) => [key, map[key]]);
}

/** The implicit API plugins, in the order SAM runs them, by the event type each reads. */
export const IMPLICIT_API_EVENT_TYPES: readonly string[] = ['Api', 'HttpApi'];

/**
 * The entries of a function's or state machine's `Events` in the order SAM iterates them after the
 * implicit API plugins named by `updatedBy` ran. Each plugin that found events of its type writes
 * them back with `Events.update(...)`, and in a template converted for Python 2.7 that update makes
 * room for all of them at once, which can resize the table and so change the order of every event
 * read afterwards (by the next plugin, and when the events are translated).
 */
export function eventItems(ctx: Pick<TranslationContext, 'py27'>, events: PlainMap, updatedBy: readonly string[]): [string, unknown][] {
  const keys = Object.keys(events);
  if (!ctx.py27 || keys.length < 2) return keys.map((key) => [key, events[key]]);
  const table = new PyDict();
  for (const key of keys) table.set(key, null);
  for (const type of updatedBy) {
    const updated = new PyDict();
    for (const key of table.keys()) if (isMap(events[key]) && events[key].Type === type) updated.set(key, null);
    if (updated.size > 0) table.update(updated);
  }
  return table.keys().map((key) => [key, events[key]]);
}
