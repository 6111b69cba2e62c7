/**
 * An edit of a function that changes nothing of its APIs' definitions but the items of its events'
 * paths, answered without SAM's fold: a method beside the preflight CORS adds
 * (whose allowed methods name it), a method beside another of the function's events on the same
 * path, a setting of an event SAM writes under its method (its integration's timeout). An edit
 * after which SAM's editors make another number of deep copies, or leave a dict still reordered
 * by them (an authorizer of the event's own beside the API's default one), is rebuilt.
 *
 * Each dict's Python 2.7 order follows from its own adds and deletes and the deep copies between
 * them (python/py27Dict.ts). The function's part of the APIs, made alone before the edit and after
 * it (`rebuildAlone`), must give definitions alike but for those items, with as many deep copies:
 * the fold then adds as many copies as before, so the paths table keeps its history and its order,
 * and every other dict its table. An item is the one the part makes alone now, when the folds
 * settled (`FoldEnd.settled`: no dict was still reordered by copies), so more copies leave it as
 * it is. Where other functions' events are on the function's paths (a `get` and a `post` of one
 * path in two functions, as CRUD APIs have them), their parts, which the edit left as they were,
 * are made alone with it, in SAM's order: each item then has all the adds it has in the fold, in
 * the same order, and only more copies between them there. A REST API's definition is then
 * printed from the kept texts of the other items and hashed for its deployment's id.
 */
import { pyStr } from '../python/pyRepr';
import { PyDict } from '../python/py27Dict';
import { isMap, sameInOrder, type PlainMap } from '../values';
import { bodyItemOf, pathsTablesOf, sameResourcesBesidesBody } from './addedRoute';
import type { ApisAlone, FunctionApiPart, LoggedApiEvent, RebuiltApis } from './apiReplay';
import { bodyWithItem, remade, remadeResources, sameEventBesidesRoute, textElsewhere, withPrintedItem, type RenamablePaths } from './renamedRoute';

/**
 * The APIs after an edit of one function that changed only items of its events' paths, in one
 * API: that API with the items the function's part makes now, alone or with the parts of the functions sharing its paths, and what the next
 * rename or add starts from; undefined for any other edit, or when it cannot be answered without the fold.
 */
export function changedItemsApis(
  paths: RenamablePaths | undefined,
  functionId: { before: string; now: string },
  parts: { before: ReadonlyMap<string, FunctionApiPart>; now: ReadonlyMap<string, FunctionApiPart> },
  alone: (parts: ReadonlyMap<string, FunctionApiPart>) => ApisAlone | undefined,
): { rebuilt: RebuiltApis; paths: RenamablePaths } | undefined {
  const before = parts.before.get(functionId.before);
  const now = parts.now.get(functionId.now);
  if (paths === undefined || before === undefined || now === undefined || before.events.length !== now.events.length || !sameInOrder(before.functionNames, now.functionNames)) return undefined;
  // The same events on the same APIs and paths (of a function renamed, under its new id); a method may be another.
  const underNewId = (event: LoggedApiEvent): LoggedApiEvent => (event.functionId === functionId.before ? { ...event, functionId: functionId.now } : event);
  if (before.events.some((event, i) => !sameEventBesidesRoute(underNewId(event), now.events[i]!) || event.path !== now.events[i]!.path)) return undefined;
  // An implicit API attributed to the function's event under its old id would be attributed anew.
  if (functionId.before !== functionId.now && [...paths.origins.values()].some((origin) => origin.logicalId === functionId.before)) return undefined;
  // The functions whose events share its paths add to the same items: they are made alone with it, in their order (not for a function renamed, whose old id has no place in the orders now).
  const sharing = functionId.before === functionId.now ? sharingPaths(parts.now, functionId.now, now) : [];
  if (sharing.some((id) => parts.before.get(id) !== parts.now.get(id))) return undefined;
  const aloneBefore = alone(new Map([[functionId.before, before], ...sharing.map((id) => [id, parts.now.get(id)!] as const)]));
  const aloneNow = alone(new Map([[functionId.now, now], ...sharing.map((id) => [id, parts.now.get(id)!] as const)]));
  if (aloneBefore === undefined || aloneNow === undefined || aloneBefore.definitions.size !== aloneNow.definitions.size) return undefined;
  let apiId: string | undefined;
  for (const [id, definition] of aloneNow.definitions) {
    const other = aloneBefore.definitions.get(id);
    if (other === undefined) return undefined;
    if (pyStr(other.definition) === pyStr(definition.definition)) continue;
    if (apiId !== undefined) return undefined;
    apiId = id;
  }
  if (apiId === undefined) return undefined;
  for (const [id, generated] of aloneNow.rebuilt.generated) {
    const other = aloneBefore.rebuilt.generated.get(id);
    if (other === undefined || !sameResourcesBesidesBody(generated, other)) return undefined;
  }
  const definitionBefore = aloneBefore.definitions.get(apiId)!;
  const definitionNow = aloneNow.definitions.get(apiId)!;
  const foldBefore = definitionBefore.definition.foldEnd;
  const foldNow = definitionNow.definition.foldEnd;
  if (!foldBefore?.settled || !foldNow?.settled || foldBefore.copies !== foldNow.copies || definitionBefore.copies !== definitionNow.copies) return undefined;
  const changed = changedItems(definitionBefore.definition, definitionNow.definition);
  if (changed === undefined) return undefined;
  // No function made apart from them adds to those items.
  const together = new Set([functionId.now, ...sharing]);
  for (const [id, part] of parts.now) if (!together.has(id) && part.events.some((event) => event.apiId === apiId && changed.has(event.path))) return undefined;
  const api = paths.apis.get(apiId);
  if (api === undefined || api.fold === undefined || !api.fold.settled) return undefined;
  let table = api.paths;
  let deployment = api.deployment;
  const bodyItems = new Map<string, PlainMap>();
  for (const [path, item] of changed) {
    const last = table.get(path);
    const bodyItem = bodyItemOf(aloneNow.rebuilt.generated.get(apiId) ?? [], apiId, path);
    if (!(last instanceof PyDict) || !isMap(bodyItem)) return undefined;
    table = table.withValue(path, item);
    deployment = withPrintedItem(deployment, last, item);
    bodyItems.set(path, bodyItem);
  }
  const definition = api.definition.withValue('paths', table);
  const body = (bodyBefore: unknown): PlainMap | undefined => {
    let made = isMap(bodyBefore) ? bodyBefore : undefined;
    for (const [path, item] of bodyItems) made = made && bodyWithItem(made, path, () => item);
    return made;
  };
  const renamed = remadeResources(api, apiId, deployment, definition, body);
  if (renamed === undefined) return undefined;
  const next = { ...api, definition, paths: table, ...(deployment ? { deployment } : {}), generated: renamed.resources };
  return remade(paths, apiId, renamed, { ...next, elsewhere: textElsewhere(next) });
}

/** The other functions with an event on an API and path one of `part`'s events is on, the same before and after the edit. */
function sharingPaths(parts: ReadonlyMap<string, FunctionApiPart>, functionId: string, part: FunctionApiPart): string[] {
  const routes = new Set(part.events.map((event) => `${event.apiId} ${event.path}`));
  const sharing: string[] = [];
  for (const [id, other] of parts) if (id !== functionId && other.events.some((event) => routes.has(`${event.apiId} ${event.path}`))) sharing.push(id);
  return sharing;
}

/** The items of the paths table that differ between two definitions alike but for them (the same keys in order, the same values elsewhere), each as `now` holds it; undefined when they differ otherwise or in none. */
function changedItems(before: PyDict, now: PyDict): Map<string, PyDict> | undefined {
  const tables = pathsTablesOf(before, now);
  if (tables === undefined) return undefined;
  const [a, b] = tables;
  if (a.keys().join('\u0000') !== b.keys().join('\u0000')) return undefined;
  const changed = new Map<string, PyDict>();
  for (const path of b.keys()) {
    const item = b.get(path)!;
    if (pyStr(item) === pyStr(a.get(path)!)) continue;
    if (!(item instanceof PyDict)) return undefined;
    changed.set(path, item);
  }
  return changed.size > 0 ? changed : undefined;
}
