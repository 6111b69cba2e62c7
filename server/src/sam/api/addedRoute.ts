/**
 * An `Api` or `HttpApi` event added to a function, or removed from it, answered without SAM's
 * fold (api/apiReplay.ts does the fold again: every event's path and integration added to the
 * definition, with deep copies around each, then `str()` and SHA-1 of it for a REST API).
 *
 * Python 2.7's key order of each dict in the definition follows from its own adds and deletes and
 * from the deep copies between them (python/py27Dict.ts). An event adds one path to the paths
 * table and makes that path's item; besides, it only adds deep copies of the whole document, two
 * for each editor that takes it. So what the fold gives with the event is known without it when:
 *
 * - the paths table's order is made again from the history of its adds, with the event's path
 *   added (or taken out) in its place and the adds after it two copies later (`KeyHistory`);
 * - no other dict is one those copies change: the fold noted that every dict that keeps no
 *   history came to a table the copies leave as it is before each add or delete of its keys, and
 *   before the fold's end (`FoldEnd.settled`), so a copy more or less between two editors leaves
 *   each of them the table it had;
 * - the event's item is what the function's part alone, with the event and without it, makes of
 *   it: the function's part is rebuilt alone both ways (`rebuildAlone`), in which its own dicts
 *   settle the same way, and the two must differ in nothing but the path's item (what SAM writes
 *   from a path elsewhere, a resource policy's statements, would differ) and the deployment's id.
 *   Without its only event on an implicit API, the function's part alone makes that API with no
 *   event, attributed as with it (`EmptyImplicitApi`); the function's policies would join the
 *   implicit API's, so a function with one is rebuilt.
 *
 * The definition is then the last one with the item put in or taken out and the paths in their
 * new order; a REST API's is printed from the kept texts of the other items and hashed. Any other
 * edit, or a template where this does not hold, is rebuilt (apiReplay.ts). A function whose
 * logical id was typed, which moved it in SAM's orders, is answered as its deletion and then its
 * pasting (`movedFunctionApis`).
 */
import { setEntry } from '../../template/tree';
import type { GeneratedResource } from '../generated';
import { PyDict, PyUnicode, textOf, type KeyAdded, type PyStr, type PyValue } from '../python/py27Dict';
import { pyStr } from '../python/pyRepr';
import { isMap, sameInOrder, type PlainMap } from '../values';
import type { ApiLog, ApiReplay, ApisAlone, EmptyImplicitApi, FunctionApiPart, LoggedApiEvent, RebuiltApis } from './apiReplay';
import { IMPLICIT_HTTP_API } from './implicitHttpApi';
import { IMPLICIT_REST_API } from './implicitRestApi';
import { remade, remadeResources, replayedPaths, sameEventBesidesRoute, textElsewhere, withPaths, withPrintedItem, type RenamableApi, type RenamablePaths } from './renamedRoute';

/**
 * The APIs after an edit of one function that added one `Api` or `HttpApi` event to it or removed
 * one, and changed no other event, answered from the last expansion in full, rebuild or rename
 * (`paths`), with what the next one starts from; undefined for any other edit, or when it cannot
 * be answered without the fold. `alone` rebuilds a part of the function alone.
 */
export function addedRouteApis(
  paths: RenamablePaths | undefined,
  functionId: string,
  parts: { before: ReadonlyMap<string, FunctionApiPart>; now: ReadonlyMap<string, FunctionApiPart> },
  pluginOrders: { before: ApiLog['pluginOrders']; now: ApiLog['pluginOrders'] },
  alone: (part: FunctionApiPart, empty?: EmptyImplicitApi) => ApisAlone | undefined,
): { rebuilt: RebuiltApis; paths: RenamablePaths } | undefined {
  if (paths === undefined) return undefined;
  // A function pasted had no part before, and a function deleted has none now.
  const before = parts.before.get(functionId) ?? NO_PART;
  const now = parts.now.get(functionId) ?? NO_PART;
  if (!sameInOrder(before.functionNames, now.functionNames)) return undefined;
  const added = now.events.length === before.events.length + 1;
  if (!added && now.events.length !== before.events.length - 1) return undefined;
  const [withEvent, withoutEvent] = added ? [now, before] : [before, now];
  const event = oneMore(withEvent.events, withoutEvent.events);
  if (event === undefined || event.samStrings) return undefined;
  const api = paths.apis.get(event.apiId);
  if (api === undefined || api.fold === undefined || !api.fold.settled) return undefined;
  // The function's only event on the API: its policies would join those the implicit API takes from its events' functions.
  const only = !withoutEvent.events.some((other) => other.kind === event.kind && other.apiId === event.apiId);
  if (only && (event.deletionPolicy !== undefined || event.updateReplacePolicy !== undefined)) return undefined;
  // The API's events in its plugin's order, with the event and without it.
  const eventsWith = added ? apiEvents(parts.now, pluginOrders.now, event) : apiEvents(parts.before, pluginOrders.before, event);
  const eventsWithout = added ? apiEvents(parts.before, pluginOrders.before, event) : apiEvents(parts.now, pluginOrders.now, event);
  const at = eventsWith.indexOf(event);
  // The first event names the implicit API's origin; the fold's first copy takes a document just made.
  if (at < 1 || eventsWith.filter((other) => other.path === event.path).length !== 1) return undefined;
  // The history of the paths table must be the one the events make: each new path added between the two copies of its event's editor.
  const historyWith = pathsHistory(eventsWith);
  const historyWithout = pathsHistory(eventsWithout);
  if (!sameHistory(added ? historyWithout : historyWith, api.history.added)) return undefined;
  const itemsWith = alone(withEvent);
  // Without its only event there, the function's part alone makes no implicit API: it is made with no event, attributed as with it.
  const implicit = only && (event.apiId === IMPLICIT_REST_API || event.apiId === IMPLICIT_HTTP_API);
  const itemsWithout = alone(withoutEvent, implicit ? { apiId: event.apiId, origin: { logicalId: event.functionId, property: `Events.${event.eventId}` } } : undefined);
  const definitionWith = itemsWith?.definitions.get(event.apiId);
  const definitionWithout = itemsWithout?.definitions.get(event.apiId);
  const generatedWith = itemsWith?.rebuilt.generated.get(event.apiId);
  const generatedWithout = itemsWithout?.rebuilt.generated.get(event.apiId);
  if (definitionWith === undefined || definitionWithout === undefined || generatedWith === undefined || generatedWithout === undefined) return undefined;
  const foldWith = definitionWith.definition.foldEnd;
  const foldWithout = definitionWithout.definition.foldEnd;
  if (foldWith === undefined || foldWithout === undefined || !foldWith.settled || !foldWithout.settled) return undefined;
  // The copies the event's editors make, in the fold and in all.
  const eventCopies = foldWith.copies - foldWithout.copies;
  if (eventCopies < 2 || definitionWith.copies - definitionWithout.copies !== eventCopies) return undefined;
  const item = itemOf(definitionWith.definition, event.path);
  if (item === undefined || !sameBesidesPath(definitionWith.definition, definitionWithout.definition, event.path) || !sameResourcesBesidesBody(generatedWith, generatedWithout)) return undefined;
  const bodyItem = bodyItemOf(generatedWith, event.apiId, event.path);
  if (bodyItem === undefined) return undefined;
  const shift = added ? eventCopies : -eventCopies;
  const history = added ? historyWith : historyWithout;
  const answered = withPathsReplayed(api, event.apiId, history, api.copies + shift, added ? { path: event.path, item, bodyItem } : { path: event.path });
  if (answered === undefined) return undefined;
  const { rebuilt, paths: next } = remade(paths, event.apiId, answered.renamed, { ...answered.next, fold: { copies: api.fold.copies + shift, settled: true } });
  // What the event's integration looked up: the parameters and resources its part reads now.
  const reads = added ? itemsWith!.rebuilt : itemsWithout!.rebuilt;
  return { rebuilt: { ...rebuilt, stepReads: reads.stepReads, parameterReads: reads.parameterReads }, paths: next };
}

/**
 * The APIs after a function was renamed from `before` to `now`, answered as its deletion then its
 * pasting, through the template that has neither: undefined when either
 * cannot be answered without SAM's fold.
 */
export function movedFunctionApis(
  last: Pick<ApiReplay, 'renamable' | 'parts' | 'pluginOrders'>,
  next: Pick<ApiReplay, 'parts' | 'pluginOrders'>,
  before: string,
  now: string,
  aloneOf: (id: string) => (part: FunctionApiPart, empty?: EmptyImplicitApi) => ApisAlone | undefined,
): { rebuilt: RebuiltApis; paths: RenamablePaths } | undefined {
  const partsBetween = new Map(next.parts);
  partsBetween.delete(now);
  const without = (order: readonly string[]) => order.filter((id) => id !== now);
  const ordersBetween = { rest: without(next.pluginOrders.rest), http: without(next.pluginOrders.http) };
  const out = addedRouteApis(last.renamable, before, { before: last.parts, now: partsBetween }, { before: last.pluginOrders, now: ordersBetween }, aloneOf(before));
  return out && addedRouteApis(out.paths, now, { before: partsBetween, now: next.parts }, { before: ordersBetween, now: next.pluginOrders }, aloneOf(now));
}

/** The part of a function that is not in the template. */
const NO_PART: FunctionApiPart = { events: [], functionNames: [], steps: [] };

/** The one event `longer` has more than `shorter`, the others the same in order; undefined otherwise. */
function oneMore(longer: readonly LoggedApiEvent[], shorter: readonly LoggedApiEvent[]): LoggedApiEvent | undefined {
  let extra: LoggedApiEvent | undefined;
  for (let i = 0, j = 0; i < longer.length; i++) {
    const a = longer[i]!;
    const b = shorter[j];
    if (b !== undefined && sameEventBesidesRoute(a, b) && a.path === b.path && a.method === b.method) {
      j++;
      continue;
    }
    if (extra !== undefined) return undefined;
    extra = a;
  }
  return extra;
}

/** The events of `event`'s kind on its API, in the order its plugin meets them (the functions in the plugin's order, each one's events in its own). */
function apiEvents(parts: ReadonlyMap<string, FunctionApiPart>, pluginOrders: ApiLog['pluginOrders'], event: LoggedApiEvent): LoggedApiEvent[] {
  const out: LoggedApiEvent[] = [];
  for (const id of pluginOrders[event.kind]) for (const other of parts.get(id)?.events ?? []) if (other.kind === event.kind && other.apiId === event.apiId) out.push(other);
  return out;
}

/** The adds the paths table goes through as the events' editors add their paths: a path at its first event, the `n`th editor's two copies around its add. */
function pathsHistory(events: readonly LoggedApiEvent[]): KeyAdded[] {
  const seen = new Set<string>();
  const history: KeyAdded[] = [];
  for (const [n, { path }] of events.entries()) {
    if (seen.has(path)) continue;
    seen.add(path);
    history.push({ key: path, copies: 2 * n + 1 });
  }
  return history;
}

/** Whether two histories of a paths table hold the same adds, each after as many copies. */
function sameHistory(a: readonly KeyAdded[], b: readonly KeyAdded[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.key !== b[i]!.key || a[i]!.copies !== b[i]!.copies) return false;
  return true;
}

/** The item of `path` in a definition's paths table. */
function itemOf(definition: PyDict, path: string): PyDict | undefined {
  const paths = definition.get('paths');
  const item = paths instanceof PyDict ? paths.get(path) : undefined;
  return item instanceof PyDict ? item : undefined;
}

/** Whether two definitions print alike but for `path`'s item, which only the first holds: the same top-level keys in order, the same values, the same other items. */
function sameBesidesPath(withPath: PyDict, without: PyDict, path: string): boolean {
  const tables = pathsTablesOf(withPath, without);
  if (tables === undefined) return false;
  const [a, b] = tables;
  if (a.size !== b.size + 1 || b.has(path)) return false;
  for (const text of b.keys()) if (!a.has(text) || pyStr(a.get(text)!) !== pyStr(b.get(text)!)) return false;
  return true;
}

/** The paths tables of two definitions that print alike but for them (the same top-level keys in order, the same other values); undefined otherwise. */
export function pathsTablesOf(a: PyDict, b: PyDict): [PyDict, PyDict] | undefined {
  const keys = a.keys();
  if (keys.join('\u0000') !== b.keys().join('\u0000')) return undefined;
  for (const key of keys) if (key !== 'paths' && pyStr(a.get(key)!) !== pyStr(b.get(key)!)) return undefined;
  const tableA = a.get('paths');
  const tableB = b.get('paths');
  return tableA instanceof PyDict && tableB instanceof PyDict ? [tableA, tableB] : undefined;
}

/** Whether an API's resources made with an event and without it differ in nothing but the definition (`Body`) and the deployment a REST API names by its hash. */
export function sameResourcesBesidesBody(a: readonly GeneratedResource[], b: readonly GeneratedResource[]): boolean {
  if (a.length !== b.length) return false;
  const deploymentIds = new Map<string, string>();
  for (let i = 0; i < a.length; i++) if (a[i]!.type === 'AWS::ApiGateway::Deployment') deploymentIds.set(a[i]!.logicalId, b[i]!.logicalId);
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.type !== y.type || x.origin.logicalId !== y.origin.logicalId || x.origin.property !== y.origin.property || !sameInOrder(x.attributes, y.attributes)) return false;
    if (x.type !== 'AWS::ApiGateway::Deployment' && x.logicalId !== y.logicalId) return false;
    const names = Object.keys(x.properties);
    if (names.join('\u0000') !== Object.keys(y.properties).join('\u0000')) return false;
    for (const name of names) {
      const valueX = x.properties[name];
      const valueY = y.properties[name];
      if (name === 'Body' || (name === 'Description' && x.type === 'AWS::ApiGateway::Deployment')) continue;
      const namesDeployment = isMap(valueX) && isMap(valueY) && typeof valueX.Ref === 'string' && deploymentIds.get(valueX.Ref) === valueY.Ref;
      if (!namesDeployment && !sameInOrder(valueX, valueY)) return false;
    }
  }
  return true;
}

/** The item of `path` in the `Body` an API's resources give it. */
export function bodyItemOf(resources: readonly GeneratedResource[], apiId: string, path: string): unknown {
  const api = resources.find((resource) => resource.logicalId === apiId && (resource.type === 'AWS::ApiGateway::RestApi' || resource.type === 'AWS::ApiGatewayV2::Api'));
  const body = api?.get('Body');
  return isMap(body) && isMap(body.paths) && Object.hasOwn(body.paths, path) ? body.paths[path] : undefined;
}

/**
 * `api` with its paths table made again from `history` after `copies` deep copies: `change.path`'s
 * item put in (with its `Body` form) or taken out, every other item as it was; the API's resources
 * with the new `Body` (and a REST API's deployment named by the new hash), and what the next
 * rename or add starts from, but its fold.
 */
function withPathsReplayed(
  api: RenamableApi,
  apiId: string,
  history: readonly KeyAdded[],
  copies: number,
  change: { path: string; item?: PyDict; bodyItem?: unknown },
): { renamed: { resources: GeneratedResource[]; deploymentId?: string | undefined }; next: Omit<RenamableApi, 'fold'> } | undefined {
  const changedAt = history.findIndex((added) => added.key === change.path);
  const firstChanged = changedAt >= 0 ? changedAt : api.history.added.findIndex((added) => added.key === change.path);
  if (firstChanged < 0) return undefined;
  const entries = new Map<string, { key: PyStr; value: PyValue }>();
  for (const [key, value] of api.paths.items()) if (textOf(key) !== change.path) entries.set(textOf(key), { key, value });
  // An event's path is template text (events whose path is SAM's own are not added this way).
  if (change.item) entries.set(change.path, { key: new PyUnicode(change.path), value: change.item });
  const { table, definition, checkpoints } = replayedPaths(api, { added: [...history] }, copies, firstChanged, (key) => key, entries);
  const deployment = withPrintedItem(api.deployment, api.paths.get(change.path), change.item);
  const renamed = remadeResources(api, apiId, deployment, definition, (bodyBefore) => bodyWithChange(bodyBefore, table, change.path, change.bodyItem));
  if (renamed === undefined) return undefined;
  const next = { ...api, definition, paths: table, history: { added: [...history] }, copies, ...(deployment ? { deployment } : {}), generated: renamed.resources, checkpoints };
  return { renamed, next: { ...next, elsewhere: textElsewhere(next) } };
}

/** A `Body` with its paths in the table's order: `path`'s item `item` when given, the others as they were; undefined when it does not hold the paths the table does. */
function bodyWithChange(body: unknown, table: PyDict, path: string, item: unknown): PlainMap | undefined {
  if (!isMap(body) || !isMap(body.paths)) return undefined;
  const itemsBefore = body.paths;
  const items: PlainMap = {};
  for (const text of table.keys()) {
    if (text === path) {
      if (item === undefined) return undefined;
      setEntry<unknown>(items, text, item);
    } else if (Object.hasOwn(itemsBefore, text)) setEntry(items, text, itemsBefore[text]);
    else return undefined;
  }
  return withPaths(body, items);
}
