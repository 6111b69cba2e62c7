/**
 * A keystroke in an `Api` or `HttpApi` event's path or method, answered without SAM's fold.
 * Typing a path renames one key of its API's definition, keystroke after keystroke, and
 * rebuilding the API for each (apiReplay.ts) does SAM's whole fold again: every event's path added
 * with deep copies around each, the integrations, CORS, then, for a REST API, `str()` and SHA-1
 * of the definition. What a rename changes of the definition is known without it:
 *
 * - the key order of the paths table. Python 2.7's order depends on each key's hash and on the
 *   table's history of adds and deep copies, which the last expansion in full or rebuild
 *   recorded (py27Dict.ts, `KeyHistory`); the table is made again from it, with the new key in
 *   the old one's place.
 * - nothing else, when two things hold. First, every other dict's key order is what it was. A
 *   dict's order follows from its own adds and deletes and the deep copies between them; the
 *   order of the paths decides only the order of the edits a loop over them makes, in one
 *   editor, each to its own path's item. With no deep copy between the loop's turns (the editor
 *   notes one, `CopyRecord`), every dict's edits come between the same deep copies as before.
 *   Second, neither path is found in any key or string value of the definition outside the
 *   paths table's own keys: what SAM writes from a path (a resource policy's statements) would
 *   be found there; an item's methods and integrations do not depend on it, but for an HTTP
 *   API's path parameters (the `{name}` segments its methods declare), which must stay.
 *
 * A method is the one key of its path's item when no other event shares the path and CORS adds
 * no preflight: renamed, the paths table keeps its keys and so its order, and what SAM put under
 * the method does not depend on which it is (`renameMethod`).
 *
 * The definition is then the last one with the key renamed and the paths in their new order. A
 * REST API's is printed from the texts of its path items printed before, and hashed: its
 * resources are the last ones with the new `Body`, the deployment named by the new hash, and
 * the stage naming it. An HTTP API's are the last ones with the new `Body` (its stage deploys by
 * itself). Any other edit, or a template where these conditions do not hold, is rebuilt as
 * before.
 */
import type { MapEntry, ScalarNode, TemplateNode } from '../../template/ast';
import { nodeAtPath, setEntry } from '../../template/tree';
import type { GeneratedResource, Origin } from '../generated';
import type { SourceIndex } from '../sourceIndex';
import { PyDict, PyFloat, PyUnicode, textOf, type CopyRecord, type FoldEnd, type KeyHistory, type PyStr, type PyValue, type ReplayCheckpoint } from '../python/py27Dict';
import { pyStr } from '../python/pyRepr';
import { sha1Hex } from '../sha1';
import { isMap, sameInOrder, type PlainMap } from '../values';
import type { FunctionApiPart, LoggedApiEvent, RebuiltApis } from './apiReplay';
import { normalizeMethod } from './baseEditor';
import { pathParameters } from './httpApiEvent';
import { pathWithoutParameters } from './swaggerEditor';

/** A REST or HTTP API's definition as its translation gave it, with what a rename needs. */
export interface RenamableDefinition {
  /** The definition `Body` was made from (and, for a REST API, that the deployment's hash printed). */
  definition: PyDict;
  /** The deep copies of the definition when `Body` was made from it. */
  copies: number;
  /** A REST API's deployment: what the hash took after the definition, and the text `str()` gave each dict and list of the definition two levels down (its path items among them). */
  deployment?: DeploymentHash;
}

/** What a REST API's deployment id hashed besides `str()` of its definition, and the text of the definition's parts. */
export interface DeploymentHash {
  /** What the hash took after the definition, each joined to it with `||`: the function names of its events last, when there are any (`namesLast`). */
  hashedWith: readonly string[];
  /** Whether the last of `hashedWith` is the FunctionName values of the functions whose events name the API (api/sameRoutes.ts). */
  namesLast: boolean;
  printed: ReadonlyMap<PyValue, string>;
}

/** A REST or HTTP API as the last expansion in full, rebuild or rename left it, with what renaming one of its paths needs. */
export interface RenamableApi {
  definition: PyDict;
  /** Its paths table, with the history of its keys. */
  paths: PyDict;
  history: Pick<KeyHistory, 'added'>;
  /** The deep copies of the definition in all. */
  copies: number;
  /** A REST API's deployment hash; an HTTP API has none. */
  deployment?: DeploymentHash;
  generated: readonly GeneratedResource[];
  /** What a path must not be found in (`textElsewhere`); null when some of it cannot be told. */
  elsewhere: string | null;
  /** The paths table's replay at some of its adds (every few, and before the path last renamed), in order: a rename goes on from the last before its path's add. */
  checkpoints: readonly ReplayCheckpoint[];
  /** What SAM's fold left of the definition, when it was noted: an event may then be added or removed without the fold (addedRoute.ts). */
  fold?: FoldEnd | undefined;
}

/** The REST and HTTP APIs of the last expansion whose path may be renamed without the fold, and the events the implicit ones among them stand at. */
export interface RenamablePaths {
  apis: ReadonlyMap<string, RenamableApi>;
  origins: ReadonlyMap<string, Origin>;
}

/**
 * The REST and HTTP APIs of an expansion in full or a rebuild that a later rename may start from: each
 * definition whose paths table kept its whole history, when no deep copy came between two turns
 * of a loop over paths, without those that generated a value read from the template
 * (one `index` knows): placed again, such a value stands where the template writes it, and a
 * rename would place the value read from an earlier text.
 */
export function renamablePaths(
  record: CopyRecord,
  definitions: ReadonlyMap<string, RenamableDefinition>,
  made: { generated: ReadonlyMap<string, readonly GeneratedResource[]>; origins: ReadonlyMap<string, Origin> },
  index: SourceIndex,
): RenamablePaths | undefined {
  if (record.copiedBetweenPathTurns) return undefined;
  const apis = new Map<string, RenamableApi>();
  for (const [apiId, { definition, copies, deployment }] of definitions) {
    const paths = definition.get('paths');
    const history = paths instanceof PyDict ? paths.keyHistory : undefined;
    const generated = made.generated.get(apiId);
    // A deep copy after `Body` was made would have reordered the definition since.
    if (!(paths instanceof PyDict) || history === undefined || history.broken || paths.documentCopies !== copies || generated === undefined || holdsTemplateValue(generated, index)) continue;
    const api = { definition, paths, history: { added: history.added }, copies, ...(deployment ? { deployment } : {}), generated, checkpoints: history.checkpoints, fold: definition.foldEnd };
    apis.set(apiId, { ...api, elsewhere: textElsewhere(api) });
  }
  return apis.size > 0 ? { apis, origins: made.origins } : undefined;
}

/** Whether an API's resources hold a value read from the template (or one too deep to tell). */
function holdsTemplateValue(resources: readonly GeneratedResource[], index: SourceIndex): boolean {
  const holds = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    if (depth > 64 || index.nodeOf(value) !== undefined) return true;
    return (Array.isArray(value) ? value : Object.values(value)).some((item) => holds(item, depth + 1));
  };
  // `Body` is made from the definition's dicts, never a template value.
  return resources.some((resource) => holds(resource.attributes, 0) || Object.entries(resource.properties).some(([name, value]) => name !== 'Body' && holds(value, 0)));
}

/** An edit of one function, as the expansion before and the text now hold it. */
export interface FunctionEdit {
  id: string;
  before: MapEntry;
  now: MapEntry;
}

/**
 * The APIs after an edit that changed one `Api` or `HttpApi` event's `Path` or `Method` and
 * nothing else of the function's text, answered from the last expansion in full, rebuild or
 * rename (`paths`), with what the next one starts from; undefined for any other edit, or when it
 * cannot be answered without the fold.
 */
export function renamedRouteApis(
  paths: RenamablePaths | undefined,
  edit: FunctionEdit,
  texts: { before: string; now: string },
  parts: { before: ReadonlyMap<string, FunctionApiPart>; now: ReadonlyMap<string, FunctionApiPart> },
): { rebuilt: RebuiltApis; paths: RenamablePaths } | undefined {
  if (paths === undefined) return undefined;
  const changed = changedEventText(edit, texts);
  const partBefore = parts.before.get(edit.id);
  const partNow = parts.now.get(edit.id);
  if (changed === undefined || partBefore === undefined || partNow === undefined) return undefined;
  if (partBefore.steps.length !== partNow.steps.length || !sameInOrder(partBefore.functionNames, partNow.functionNames)) return undefined;
  if (partBefore.events.length !== partNow.events.length) return undefined;
  const property = changed.property === 'Path' ? 'path' : 'method';
  const other = changed.property === 'Path' ? 'method' : 'path';
  let event: LoggedApiEvent | undefined;
  for (let i = 0; i < partNow.events.length; i++) {
    const before = partBefore.events[i]!;
    const now = partNow.events[i]!;
    if (!sameEventBesidesRoute(before, now)) return undefined;
    if (before.path === now.path && before.method === now.method) continue;
    if (now.eventId !== changed.eventId || now.kind !== changed.kind || now.samStrings || event !== undefined) return undefined;
    if (before[other] !== now[other] || before[property] !== changed.from || now[property] !== changed.to) return undefined;
    event = now;
  }
  if (event === undefined) return undefined;
  const { kind, apiId } = event;
  if (changed.property === 'Method') {
    // Two events on one path share its item: each method is a key of it.
    if (eventsOnPath(parts.before, kind, apiId, event.path) !== 1 || eventsOnPath(parts.now, kind, apiId, event.path) !== 1) return undefined;
    return renameMethod(paths, apiId, event.path, changed.from, changed.to);
  }
  // An HTTP API's method declares the path's parameters: a rename keeps its item only when they stay.
  if (kind === 'http' && !sameInOrder(pathParameters(changed.from), pathParameters(changed.to))) return undefined;
  // Two events on one path share its item: a rename of one then splits or joins items.
  if (eventsOnPath(parts.before, kind, apiId, changed.from) !== 1 || eventsOnPath(parts.now, kind, apiId, changed.to) !== 1) return undefined;
  return renamePath(paths, apiId, changed.from, changed.to);
}

/** Whether two logged events are the same event on the same API, their paths and methods aside. */
export function sameEventBesidesRoute(a: LoggedApiEvent, b: LoggedApiEvent): boolean {
  return (
    a.kind === b.kind &&
    a.apiId === b.apiId &&
    a.functionId === b.functionId &&
    a.eventId === b.eventId &&
    a.samStrings === b.samStrings &&
    sameInOrder(a.condition, b.condition) &&
    sameInOrder(a.deletionPolicy, b.deletionPolicy) &&
    sameInOrder(a.updateReplacePolicy, b.updateReplacePolicy)
  );
}

/** How many events of a kind in the functions' parts add `path` to `apiId`'s definition. */
function eventsOnPath(parts: ReadonlyMap<string, FunctionApiPart>, kind: LoggedApiEvent['kind'], apiId: string, path: string): number {
  let count = 0;
  for (const part of parts.values()) for (const event of part.events) if (event.kind === kind && event.apiId === apiId && event.path === path) count++;
  return count;
}

/** The event types whose `Path` names a path of an API's definition, with the kind of event their plugin logs. */
const PATH_EVENT_KINDS = new Map<unknown, LoggedApiEvent['kind']>([
  ['Api', 'rest'],
  ['HttpApi', 'http'],
]);

/** The `Api` or `HttpApi` event whose `Path` or `Method` alone an edit changed (the function's text the same around it), with its text before and now. */
function changedEventText({ before, now }: FunctionEdit, texts: { before: string; now: string }): { eventId: string; kind: LoggedApiEvent['kind']; property: RoutePart; from: string; to: string } | undefined {
  const partsBefore = eventRouteParts(before.value);
  const partsNow = eventRouteParts(now.value);
  let changed: { eventId: string; kind: LoggedApiEvent['kind']; property: RoutePart; before: ScalarNode; now: ScalarNode } | undefined;
  for (const [eventId, routeNow] of partsNow) {
    const routeBefore = partsBefore.get(eventId);
    if (routeBefore === undefined) continue;
    for (const property of ROUTE_PARTS) {
      const nodeBefore = routeBefore[property];
      const nodeNow = routeNow[property];
      if (nodeBefore === undefined || nodeNow === undefined || nodeBefore.value === nodeNow.value) continue;
      if (changed !== undefined || routeBefore.kind !== routeNow.kind) return undefined;
      changed = { eventId, kind: routeNow.kind, property, before: nodeBefore, now: nodeNow };
    }
  }
  if (changed === undefined) return undefined;
  const same =
    texts.before.slice(before.keyRange.start, changed.before.range.start) === texts.now.slice(now.keyRange.start, changed.now.range.start) &&
    texts.before.slice(changed.before.range.end, before.value.range.end) === texts.now.slice(changed.now.range.end, now.value.range.end);
  return same ? { eventId: changed.eventId, kind: changed.kind, property: changed.property, from: changed.before.value as string, to: changed.now.value as string } : undefined;
}

/** The properties of an event that name its route. */
const ROUTE_PARTS = ['Path', 'Method'] as const;
type RoutePart = (typeof ROUTE_PARTS)[number];

/** Each `Api` and `HttpApi` event's `Path` and `Method` nodes that hold a string, with the event's kind, by event name. */
function eventRouteParts(resource: TemplateNode): Map<string, { kind: LoggedApiEvent['kind'] } & Partial<Record<RoutePart, ScalarNode>>> {
  const out = new Map<string, { kind: LoggedApiEvent['kind'] } & Partial<Record<RoutePart, ScalarNode>>>();
  const events = nodeAtPath(resource, ['Properties', 'Events']);
  if (events?.kind !== 'map') return out;
  for (const { key, value } of events.entries) {
    const type = nodeAtPath(value, ['Type']);
    const kind = type?.kind === 'scalar' ? PATH_EVENT_KINDS.get(type.value) : undefined;
    if (kind === undefined) continue;
    const route: { kind: LoggedApiEvent['kind'] } & Partial<Record<RoutePart, ScalarNode>> = { kind };
    for (const property of ROUTE_PARTS) {
      const node = nodeAtPath(value, ['Properties', property]);
      if (node?.kind === 'scalar' && typeof node.value === 'string') route[property] = node;
    }
    out.set(key, route);
  }
  return out;
}

/** `apiId`'s resources with its path `from` renamed `to`, and what the next rename starts from; undefined when the rename cannot be answered without the fold. */
function renamePath(paths: RenamablePaths, apiId: string, from: string, to: string): { rebuilt: RebuiltApis; paths: RenamablePaths } | undefined {
  const api = paths.apis.get(apiId);
  if (api === undefined || from === to || !readElsewhere(api, [from, to])) return undefined;
  let at = -1;
  for (const [i, { key }] of api.history.added.entries()) {
    if (key === to || (key === from && at >= 0)) return undefined;
    if (key === from) at = i;
  }
  if (at < 0) return undefined;
  const entries = new Map<string, { key: PyStr; value: PyValue }>();
  for (const [key, value] of api.paths.items()) {
    const text = textOf(key);
    if (text === from) entries.set(to, { key: typeof key === 'string' ? to : new PyUnicode(to), value });
    else entries.set(text, { key, value });
  }
  const { table, definition, checkpoints } = replayedPaths(api, api.history, api.copies, at, (key) => (key === from ? to : key), entries);
  const renamed = remadeResources(api, apiId, api.deployment, definition, (bodyBefore) => bodyRenamed(bodyBefore, table, from, to));
  if (renamed === undefined) return undefined;
  const history = { added: api.history.added.map((added) => (added.key === from ? { key: to, copies: added.copies } : added)) };
  return remade(paths, apiId, renamed, { ...api, definition, paths: table, history, generated: renamed.resources, checkpoints });
}

/** The methods whose key a rename may change in a path item (lower case, as SAM writes them, `any` as API Gateway's any-method extension): none that the editors treat apart (`options`, the fields of an item that are not methods). */
const RENAMABLE_METHOD = /^(?!options$|summary$|description$|parameters$)[a-z][a-z-]*$/;

/**
 * `apiId`'s resources with the method of `path`'s item renamed from `from` to `to`, and what the
 * next rename starts from; undefined when the rename cannot be answered without the fold. It is
 * answered when the item holds that method alone: the paths table keeps its keys, so its order;
 * the item's one key is its order; and what SAM put under the method (its integration, its
 * authorizer, its path's parameters) does not depend on which method it is. Anything SAM writes
 * from a method elsewhere in the definition (a resource policy's statements) holds its path too,
 * which must not be found there.
 */
function renameMethod(paths: RenamablePaths, apiId: string, path: string, from: string, to: string): { rebuilt: RebuiltApis; paths: RenamablePaths } | undefined {
  const api = paths.apis.get(apiId);
  if (api === undefined || !readElsewhere(api, [path])) return undefined;
  const keyBefore = normalizeMethod(new PyUnicode(from));
  const keyNow = normalizeMethod(new PyUnicode(to));
  const methodBefore = textOf(keyBefore);
  const methodNow = textOf(keyNow);
  if (!RENAMABLE_METHOD.test(methodBefore) || !RENAMABLE_METHOD.test(methodNow)) return undefined;
  const item = api.paths.get(path);
  if (!(item instanceof PyDict) || item.size !== 1) return undefined;
  const content = item.get(methodBefore);
  if (content === undefined) return undefined;
  const itemNow = new PyDict();
  itemNow.set(keyNow, content);
  const table = api.paths.withValue(path, itemNow);
  const definition = api.definition.withValue('paths', table);
  const body = (bodyBefore: unknown) => bodyWithItem(bodyBefore, path, (itemBefore) => (isMap(itemBefore) && Object.hasOwn(itemBefore, methodBefore) && Object.keys(itemBefore).length === 1 ? { [methodNow]: itemBefore[methodBefore] } : undefined));
  const deployment = withPrintedItem(api.deployment, item, itemNow);
  const renamed = remadeResources(api, apiId, deployment, definition, body);
  if (renamed === undefined) return undefined;
  const next = { ...api, definition, paths: table, ...(deployment ? { deployment } : {}), generated: renamed.resources };
  return remade(paths, apiId, renamed, { ...next, elsewhere: textElsewhere(next) });
}

/**
 * The paths table made again from `history` after `copies` deep copies, its keys renamed by
 * `rename` and holding the values `entries` gives them, with the definition that holds it and the
 * checkpoints a later replay goes on from. The replay goes on from the last checkpoint before the
 * add at `at`, the first that differs from `api`'s history: the adds before it are the same.
 */
export function replayedPaths(
  api: RenamableApi,
  history: Pick<KeyHistory, 'added'>,
  copies: number,
  at: number,
  rename: (key: string) => string,
  entries: ReadonlyMap<string, { key: PyStr; value: PyValue }>,
): { table: PyDict; definition: PyDict; checkpoints: ReplayCheckpoint[] } {
  let resume: ReplayCheckpoint | undefined;
  for (const checkpoint of api.checkpoints) if (checkpoint.at <= at) resume = checkpoint;
  const replayed = PyDict.replayedOrder(history, copies, rename, { ...(resume ? { resume } : {}), checkpointAt: at });
  // Those after the changed add are another history's, and those the replay went through are its
  // own (a replay from the first add, its checkpoint's store grown too large, has a store of its own).
  const checkpoints = [...api.checkpoints.filter((checkpoint) => checkpoint.at < replayed.start), ...replayed.checkpoints];
  const table = PyDict.rekeyed(replayed.order, entries);
  return { table, definition: api.definition.withValue('paths', table), checkpoints };
}

/** A REST API's deployment hash with the text of the item `before` dropped and that of `now` printed whole (the others' text is known); none for an HTTP API. */
export function withPrintedItem(deployment: DeploymentHash | undefined, before: PyValue | undefined, now: PyDict | undefined): DeploymentHash | undefined {
  if (deployment === undefined) return undefined;
  const printed = new Map(deployment.printed);
  if (before !== undefined) printed.delete(before);
  if (now !== undefined) printed.set(now, pyStr(now));
  return { ...deployment, printed };
}

/** An API's resources with the `Body` `body` makes of the last one, and for a REST API (`deployment`) its deployment named by the hash of `definition`; undefined when they cannot be made so. */
export function remadeResources(api: RenamableApi, apiId: string, deployment: DeploymentHash | undefined, definition: PyDict, body: RenamedBody): { resources: GeneratedResource[]; deploymentId?: string | undefined } | undefined {
  return deployment ? renamedRestApi(api.generated, apiId, deployment, definition, body) : renamedHttpApi(api.generated, apiId, body);
}

/** The APIs after a rename: `apiId`'s resources as it made them (only a REST API's deployment is named anew; nothing is looked up, in the parameters or among the resources), and `next` for the one after. */
export function remade(paths: RenamablePaths, apiId: string, renamed: { resources: GeneratedResource[]; deploymentId?: string | undefined }, next: RenamableApi): { rebuilt: RebuiltApis; paths: RenamablePaths } {
  const rebuilt: RebuiltApis = {
    generated: new Map([[apiId, renamed.resources]]),
    origins: paths.origins,
    references: renamed.deploymentId === undefined ? [] : [{ logicalId: apiId, property: 'Deployment', generatedId: renamed.deploymentId }],
    parameterReads: { names: new Map() },
    stepReads: new Set(),
  };
  return { rebuilt, paths: { apis: new Map([...paths.apis, [apiId, next]]), origins: paths.origins } };
}

/** Printable ASCII but the quote and the backslash: text that `str()` prints as it is, so that it is found in what it was printed in. */
const PRINTED_AS_IS = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

/**
 * Whether none of `paths` is found in the definition but as a key of its paths table, as written
 * or with its parameters as `*`. In a REST API's, a path printed as it is shows in the text
 * `str()` gave any key or string it is part of.
 */
function readElsewhere(api: RenamableApi, paths: readonly string[]): boolean {
  // A resource policy's statements write a path with its parameters as `*`.
  const forms = paths.flatMap((path) => [path, pathWithoutParameters(path)]);
  if (api.deployment && !forms.every((path) => PRINTED_AS_IS.test(path))) return false;
  const text = api.elsewhere;
  return text !== null && !forms.some((path) => text.includes(path));
}

/**
 * Every key and string of the definition but its paths table's own keys, joined: for a REST API,
 * its top-level keys and strings and the text `str()` gave its path items and its other top-level
 * values. Null when one of them was not printed, or the definition is too deep to walk. A rename
 * leaves all of them as they are.
 */
export function textElsewhere(api: Omit<RenamableApi, 'elsewhere'>): string | null {
  if (api.deployment === undefined) return textOutsidePaths(api.definition, api.paths);
  const known = api.deployment.printed;
  const texts: string[] = [];
  const printed = (value: PyValue) => (typeof value === 'object' && value !== null && !(value instanceof PyUnicode) && !(value instanceof PyFloat) ? known.get(value) : undefined);
  for (const [key, value] of api.definition.items()) {
    texts.push(textOf(key));
    if (typeof value === 'string' || value instanceof PyUnicode) texts.push(textOf(value));
    else if (value !== api.paths && value !== null && typeof value === 'object') {
      const text = printed(value);
      if (text === undefined) return null;
      texts.push(text);
    }
  }
  for (const [, item] of api.paths.items()) {
    const text = printed(item);
    if (text === undefined) return null;
    texts.push(text);
  }
  return texts.join('\u0000');
}

/** Every key and string of a definition but its paths table's own keys, joined; null when it is too deep to walk. */
function textOutsidePaths(definition: PyDict, paths: PyDict): string | null {
  const texts: string[] = [];
  const walk = (value: PyValue, depth: number): boolean => {
    if (depth > 64) return false;
    if (typeof value === 'string' || value instanceof PyUnicode) texts.push(textOf(value));
    else if (Array.isArray(value)) return value.every((item) => walk(item, depth + 1));
    else if (value instanceof PyDict) {
      for (const [key, item] of value.items()) {
        if (value !== paths) texts.push(textOf(key));
        if (!walk(item, depth + 1)) return false;
      }
    } else if (isMap(value)) {
      for (const [key, item] of Object.entries(value)) {
        texts.push(key);
        if (!walk(item as PyValue, depth + 1)) return false;
      }
    }
    return true;
  };
  return walk(definition, 0) ? texts.join('\u0000') : null;
}

/** The `Body` a rename makes of the last one; undefined when it does not hold what the rename changes. */
export type RenamedBody = (body: unknown) => PlainMap | undefined;

/** An HTTP API's resources after the rename: its `AWS::ApiGatewayV2::Api` with the new `Body` (its stage deploys it by itself). */
function renamedHttpApi(resources: readonly GeneratedResource[], apiId: string, renamedBody: RenamedBody): { resources: GeneratedResource[]; deploymentId?: undefined } | undefined {
  const api = resources.find((resource) => resource.type === 'AWS::ApiGatewayV2::Api' && resource.logicalId === apiId);
  const body = api && renamedBody(api.get('Body'));
  if (api === undefined || body === undefined) return undefined;
  return { resources: resources.map((resource) => (resource === api ? resource.withValue('Body', body) : resource)) };
}

/**
 * A REST API's resources after the rename: the RestApi with the new `Body`, the deployment under
 * the new hash of the definition, and what named the old one (its stage's `DeploymentId`) naming
 * the new one. Undefined when a resource names the deployment otherwise.
 */
export function renamedRestApi(
  resources: readonly GeneratedResource[],
  apiId: string,
  hash: DeploymentHash,
  definition: PyDict,
  renamedBody: RenamedBody,
): { resources: GeneratedResource[]; deploymentId: string } | undefined {
  const digest = sha1Hex([pyStr(definition, hash.printed), ...hash.hashedWith].join('||'));
  const restApi = resources.find((resource) => resource.type === 'AWS::ApiGateway::RestApi' && resource.logicalId === apiId);
  const deployments = resources.filter((resource) => resource.type === 'AWS::ApiGateway::Deployment');
  const prefix = `${apiId}Deployment`;
  if (restApi === undefined || deployments.length !== 1 || !deployments[0]!.logicalId.startsWith(prefix)) return undefined;
  const deployment = deployments[0]!;
  const replaced = deployment.logicalId;
  const deploymentId = `${prefix}${digest.slice(0, 10)}`;
  const body = renamedBody(restApi.get('Body'));
  if (body === undefined) return undefined;
  const out: GeneratedResource[] = [];
  for (const resource of resources) {
    if (resource === restApi) out.push(resource.withValue('Body', body));
    else if (resource === deployment) {
      const copy = resource.withValue('Description', `RestApi deployment id: ${digest}`);
      copy.logicalId = deploymentId;
      out.push(copy);
    } else {
      let copy = resource;
      if (JSON.stringify(resource.attributes).includes(JSON.stringify(replaced))) return undefined;
      for (const [name, value] of Object.entries(resource.properties)) {
        const names = isMap(value) && Object.keys(value).length === 1 && value.Ref === replaced;
        if (names) copy = copy.withValue(name, { Ref: deploymentId });
        else if (JSON.stringify(value).includes(JSON.stringify(replaced))) return undefined;
      }
      out.push(copy);
    }
  }
  return { resources: out, deploymentId };
}

/** A `Body` with its paths in the table's order, `from`'s item under `to`; undefined when it does not hold the paths the table does. */
function bodyRenamed(body: unknown, table: PyDict, from: string, to: string): PlainMap | undefined {
  if (!isMap(body) || !isMap(body.paths)) return undefined;
  const itemsBefore = body.paths;
  const items: PlainMap = {};
  for (const text of table.keys()) {
    const before = text === to ? from : text;
    if (!Object.hasOwn(itemsBefore, before)) return undefined;
    setEntry(items, text, itemsBefore[before]);
  }
  return withPaths(body, items);
}

/** A `Body` with `path`'s item made anew by `item`; undefined when it has no such item, or `item` gives none. */
export function bodyWithItem(body: unknown, path: string, item: (before: unknown) => PlainMap | undefined): PlainMap | undefined {
  if (!isMap(body) || !isMap(body.paths) || !Object.hasOwn(body.paths, path)) return undefined;
  const itemNow = item(body.paths[path]);
  if (itemNow === undefined) return undefined;
  const items: PlainMap = {};
  for (const [key, value] of Object.entries(body.paths)) setEntry(items, key, key === path ? itemNow : value);
  return withPaths(body, items);
}

/** A copy of `body` with `paths` in place of its own, its keys in their order. */
export function withPaths(body: PlainMap, paths: PlainMap): PlainMap {
  const out: PlainMap = {};
  for (const key of Object.keys(body)) setEntry(out, key, key === 'paths' ? paths : body[key]);
  return out;
}
