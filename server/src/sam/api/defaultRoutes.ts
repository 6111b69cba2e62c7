/**
 * The functions that serve an HTTP API's `$default` route through an `HttpApi` event, by API. An
 * `HttpApi` event has no permission of its own when the `$default` route's integration is its
 * function's at the time the event is translated (httpApiEvent.ts). A definition the template
 * writes keeps the first function's `$default` integration when a second one serves the route,
 * without complaint, so which one holds it, and so which events have permissions, depends on the
 * order the functions are translated in: a function translated alone (reexpand.ts) would see
 * only its own. That is the one thing a step reads of what other functions' steps did to an API
 * (the alone translation is given the API's entry as written): a step that read more of an
 * API's definition would need this check widened, or the entry as it stood at its turn.
 */
import { isMap } from '../values';
import { restApiIdString } from './apiEvent';
import { IMPLICIT_HTTP_API } from './implicitHttpApi';

/** For each API, the functions with an `HttpApi` event on its `$default` route. */
export type DefaultRouteServers = ReadonlyMap<string, ReadonlySet<string>>;

const DEFAULT_ROUTE = '$default';

/**
 * The APIs whose `$default` route a function's entry serves: an `HttpApi` event with no path or
 * the path `$default`, on the API its `ApiId` names (`{Ref: id}` or the id), or the implicit one.
 */
export function defaultRoutesServed(entry: unknown): Set<string> {
  const apis = new Set<string>();
  const events = isMap(entry) && isMap(entry.Properties) ? entry.Properties.Events : undefined;
  for (const event of isMap(events) ? Object.values(events) : []) {
    if (!isMap(event) || event.Type !== 'HttpApi') continue;
    const properties = isMap(event.Properties) ? event.Properties : {};
    if (properties.Path !== undefined && properties.Path !== DEFAULT_ROUTE) continue;
    const named = properties.ApiId === undefined ? IMPLICIT_HTTP_API : restApiIdString(properties.ApiId);
    if (typeof named === 'string') apis.add(named);
  }
  return apis;
}

/** The servers of each API's `$default` route among the functions of a Resources section. */
export function defaultRouteServers(resources: unknown): Map<string, Set<string>> {
  const servers = new Map<string, Set<string>>();
  for (const [id, entry] of isMap(resources) ? Object.entries(resources) : []) {
    if (!isMap(entry) || entry.Type !== 'AWS::Serverless::Function') continue;
    for (const api of defaultRoutesServed(entry)) {
      let functions = servers.get(api);
      if (functions === undefined) servers.set(api, (functions = new Set()));
      functions.add(id);
    }
  }
  return servers;
}

/** The servers after the functions `now` names were edited into what they now are (each its entry's APIs). */
export function serversAfter(last: DefaultRouteServers, now: ReadonlyMap<string, ReadonlySet<string>>): Map<string, Set<string>> {
  const servers = new Map<string, Set<string>>();
  for (const [api, functions] of last) servers.set(api, new Set([...functions].filter((id) => !now.has(id))));
  for (const [id, apis] of now) {
    for (const api of apis) {
      let functions = servers.get(api);
      if (functions === undefined) servers.set(api, (functions = new Set()));
      functions.add(id);
    }
  }
  return servers;
}

/**
 * Whether a function's edit could change whose integration the `$default` route of an API holds
 * when an event is translated: it serves that route, before the edit or after it, beside another
 * function. (The first function translated takes the route, and a written integration keeps it;
 * a function that does not serve it is never covered by it, whoever holds it.)
 */
export function sharedDefaultRoute(before: DefaultRouteServers, after: DefaultRouteServers, functionId: string): boolean {
  for (const servers of [before, after]) {
    for (const functions of servers.values()) if (functions.size >= 2 && functions.has(functionId)) return true;
  }
  return false;
}
