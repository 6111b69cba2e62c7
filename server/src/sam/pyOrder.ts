/**
 * The order in which SAM iterates the maps of a template it converted for Python 2.7 (a template
 * with a REST API: py27Dict.ts). Resources, events, authorizers and the other maps SAM reads from
 * such a template iterate in Python 2.7's order of their keys as written; other templates keep
 * the order as written.
 */
import type { TranslationContext } from './context';
import { py27KeyOrder } from './python/py27Dict';
import type { PlainMap } from './values';

/** The entries of a template map in the order SAM iterates them. */
export function pyItems(ctx: Pick<TranslationContext, 'py27'>, map: PlainMap): [string, unknown][] {
  const keys = Object.keys(map);
  if (!ctx.py27 || keys.length < 2) return keys.map((key) => [key, map[key]]);
  return py27KeyOrder(keys).map((key) => [key, map[key]]);
}
