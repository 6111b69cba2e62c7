/**
 * The path and method of an `HttpApi` event as SAM holds them. The implicit HTTP API plugin gives
 * an event with neither `Path` nor `Method` the API's `$default` route; the event's translation
 * then reads the route the plugin chose.
 */
import { PyUnicode, type PyStr } from '../../python/py27Dict';
import type { PlainMap } from '../../model/values';

/**
 * Event properties whose `$default` route the plugin chose: SAM writes that path and method as
 * its own strings (Python `str`), not as template text (`unicode`), which shows in the printed
 * document a REST API's deployment is named by.
 */
const defaultRoutes = new WeakSet<PlainMap>();

/** The event's path and method as SAM holds them: its own strings for a route it chose, else template text. */
export function routeStrings(properties: PlainMap, path: string, method: string): { path: PyStr; method: PyStr } {
  if (defaultRoutes.has(properties)) return { path, method };
  return { path: new PyUnicode(path), method: new PyUnicode(method) };
}

/** Notes that the plugin chose the `$default` route for these event properties. */
export function markDefaultRoute(properties: PlainMap): void {
  defaultRoutes.add(properties);
}
