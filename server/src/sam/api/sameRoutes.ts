/**
 * An edit of a function that leaves its routes as they were, answered without SAM's fold: its
 * `Api` and `HttpApi` events name the same APIs, paths and methods, and its part of the APIs,
 * rebuilt alone before the edit and after it (`rebuildAlone` in apiReplay.ts), makes the same
 * definitions, with as many deep copies, and the same resources but for a deployment's id. What
 * the function adds to SAM's fold is then what it added before, so each definition is what it
 * was (an edit to its tags, which no event propagates). A REST API's deployment hashes the
 * FunctionName values of its events' functions too, in translation order, after the definition:
 * a FunctionName typed names that deployment anew, from the kept text of the definition.
 */
import { isMap, sameInOrder } from '../values';
import { pyStr } from '../python/pyRepr';
import type { ApisAlone, FunctionApiPart, RebuiltApis } from './apiReplay';
import { sameResourcesBesidesBody } from './addedRoute';
import { remade, renamedRestApi, sameEventBesidesRoute, type RenamablePaths } from './renamedRoute';

/**
 * The APIs after an edit of one function that left its routes as they were: none changed (an empty
 * answer), or one REST API's deployment named anew by the function's new FunctionName (what the
 * rebuild would give, and what the next rename starts from); undefined for any other edit, or when
 * it cannot be answered without the fold.
 */
export function sameRoutesApis(
  paths: RenamablePaths | undefined,
  functionId: string,
  parts: { before: ReadonlyMap<string, FunctionApiPart>; now: ReadonlyMap<string, FunctionApiPart> },
  translationOrder: readonly string[],
  alone: (part: FunctionApiPart) => ApisAlone | undefined,
): { rebuilt?: RebuiltApis; paths?: RenamablePaths } | undefined {
  const before = parts.before.get(functionId);
  const now = parts.now.get(functionId);
  if (before === undefined || now === undefined || before.steps.length !== now.steps.length || before.events.length !== now.events.length) return undefined;
  if (before.events.some((event, i) => !sameEventBesidesRoute(event, now.events[i]!) || event.path !== now.events[i]!.path || event.method !== now.events[i]!.method)) return undefined;
  if (!sameApisAlone(alone(before), alone(now))) return undefined;
  if (sameInOrder(before.functionNames, now.functionNames)) return {};
  // The APIs whose deployments hash other names now: one REST API that a later rename may start from.
  const changed = [...new Set([...before.functionNames, ...now.functionNames].map((name) => name.apiId))].filter((apiId) => namesOf(parts.before, translationOrder, apiId) !== namesOf(parts.now, translationOrder, apiId));
  if (changed.length === 0) return {};
  const apiId = changed[0]!;
  const api = paths?.apis.get(apiId);
  if (changed.length !== 1 || paths === undefined || api?.deployment === undefined) return undefined;
  const names = namesOf(parts.now, translationOrder, apiId);
  const others = api.deployment.namesLast ? api.deployment.hashedWith.slice(0, -1) : api.deployment.hashedWith;
  const deployment = { ...api.deployment, hashedWith: names ? [...others, names] : others, namesLast: names !== '' };
  const renamed = renamedRestApi(api.generated, apiId, deployment, api.definition, (body) => (isMap(body) ? body : undefined));
  if (renamed === undefined) return undefined;
  return remade(paths, apiId, renamed, { ...api, deployment, generated: renamed.resources });
}

/** Whether a function's part made alone before and after the edit gave the same definitions, with as many deep copies, and the same resources but for a deployment's id. */
function sameApisAlone(before: ApisAlone | undefined, now: ApisAlone | undefined): boolean {
  if (before === undefined || now === undefined || before.definitions.size !== now.definitions.size || before.rebuilt.generated.size !== now.rebuilt.generated.size) return false;
  for (const [apiId, definition] of now.definitions) {
    const other = before.definitions.get(apiId);
    if (other === undefined || other.copies !== definition.copies || other.definition.foldEnd?.copies !== definition.definition.foldEnd?.copies || pyStr(other.definition) !== pyStr(definition.definition)) return false;
  }
  for (const [apiId, generated] of now.rebuilt.generated) {
    const other = before.rebuilt.generated.get(apiId);
    if (other === undefined || !sameResourcesBesidesBody(generated, other)) return false;
  }
  return true;
}

/** The FunctionName values an API's deployment hashes: each function's, in translation order (apiReplay.ts). */
function namesOf(parts: ReadonlyMap<string, FunctionApiPart>, translationOrder: readonly string[], apiId: string): string {
  let names = '';
  for (const id of translationOrder) for (const name of parts.get(id)?.functionNames ?? []) if (name.apiId === apiId) names += name.text;
  return names;
}
