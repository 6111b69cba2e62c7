/**
 * The APIs SAM builds from functions' events (the implicit `ServerlessRestApi` and
 * `ServerlessHttpApi`, and each `AWS::Serverless::Api` and `AWS::Serverless::HttpApi` of the
 * template) rebuilt without translating the template again: what they are made of, kept from the
 * last expansion function by function (each `Api` or `HttpApi` event's API, path and method as the
 * plugins met them, the FunctionName each adds to its REST API's deployment hash, and the
 * integration steps of each function's kept translation), is done again in SAM's order, with the
 * edited functions' parts in place of theirs before, and the APIs are translated from it. A
 * keystroke in an event's path thus costs the definitions' fold and the APIs' translations, not
 * the template's (reexpand.ts).
 *
 * The plugins' order is kept: each explicit API's entry, read from the text now, takes SAM's
 * skeleton when it gives no definition; the REST plugin adds its events' paths, then the HTTP
 * plugin its own, each with its path conditions; then Globals merge (after the plugins, as in
 * SAM), then the functions' integrations run, then the APIs are translated. It is kept only for
 * a template whose APIs are REST and HTTP APIs made of function events alone, with no function
 * condition on their events, no tags propagated to an implicit API, no route settings on an
 * event, connectors that neither name an API nor make what one generated wait for them, and APIs
 * whose translations generated what they generated before, read nothing but their own entries,
 * the function names and the implicit APIs, and gave no note.
 */
import type { MapNode } from '../../template/ast';
import { runStep, SamResource, type TranslationContext } from '../context';
import { SamError } from '../errors';
import type { GeneratedResource, Origin } from '../generated';
import { Globals, mergeGlobals } from '../globals';
import { CopyRecord, PyDict, PyUnicode } from '../python/py27Dict';
import { ResourceOrder } from '../resourceOrder';
import type { SourceIndex } from '../sourceIndex';
import { keepableParameters, RecordedParameters, RecordingContext, stableText, type KeptEffect, type ParameterReads } from '../translationCache';
import type { ContextSeed, Translation } from '../translate';
import { isMap, sortedEntries, type PlainMap } from '../values';
import { addApiToDefinition, addImplicitApiAttributes, addPathConditions, ImplicitApiState, type ImplicitApiKind } from './implicitApi';
import { HTTP_KIND, IMPLICIT_HTTP_API } from './implicitHttpApi';
import { IMPLICIT_REST_API, REST_KIND } from './implicitRestApi';
import { translateHttpApi } from './httpApi';
import { defaultDefinitionBodies } from './managedDefinitions';
import { renamablePaths, type RenamableDefinition, type RenamablePaths } from './renamedRoute';
import { translateRestApi } from './restApi';

/** What an API's translation may read besides its own entry and still be rebuilt by a replay. */
export const REPLAYED_API_READS = ['functionNames', 'implicitApis'] as const;

/** An `Api` or `HttpApi` event as its plugin met it. */
export interface LoggedApiEvent {
  kind: 'rest' | 'http';
  /** The API it names: the implicit API of its kind when it names none. */
  apiId: string;
  functionId: string;
  eventId: string;
  path: string;
  method: string;
  /** Whether the path and method are SAM's own strings (the `$default` route it chose), not template text. */
  samStrings: boolean;
  /** The function's attributes the plugin reads (`_update_resource_attributes_from_api_event`). */
  condition: unknown;
  deletionPolicy: unknown;
  updateReplacePolicy: unknown;
}

/** What the transform met of the APIs' making, in the order it met it. */
export class ApiLog {
  /** Functions in the order each plugin went through the resources (one plugin's resource may reorder a Python 2.7 table before the next). */
  readonly pluginOrders: { rest: readonly string[]; http: readonly string[] } = { rest: [], http: [] };
  readonly events: LoggedApiEvent[] = [];
  /** FunctionName values the functions add to the deployment hash of the API their events name, in translation order. */
  readonly functionNames: { apiId: string; functionId: string; text: string }[] = [];
  /** Set when a plugin met what a replay does not do: a state machine's event, tags propagated to an implicit API, route settings. */
  unreplayable = false;
}

/** One function's part of the APIs. */
export interface FunctionApiPart {
  events: readonly LoggedApiEvent[];
  functionNames: readonly { apiId: string; text: string }[];
  /** The shared steps of the function's kept translation (its events' integrations), in order. */
  steps: readonly KeptEffect[];
}

/** An API of the last expansion: its logical id and SAM type, and the types of what it generated, in order. */
export interface ReplayedApi {
  id: string;
  /** `AWS::Serverless::Api` or `AWS::Serverless::HttpApi`. */
  type: string;
  generatedTypes: readonly string[];
}

/** What rebuilding the APIs needs of the last expansion. */
export interface ApiReplay {
  /** Functions in each plugin's order, and in translation order. */
  pluginOrders: ApiLog['pluginOrders'];
  translationOrder: readonly string[];
  parts: ReadonlyMap<string, FunctionApiPart>;
  /** The values every translation reads (parameters, region, partition, Python 2.7 order, Mappings, Conditions). */
  context: ContextSeed;
  /** The APIs in translation order: a rebuilt API that generates other types is not taken. */
  apis: readonly ReplayedApi[];
  /** The REST and HTTP APIs of the last expansion in full, rebuild or rename whose path a keystroke may rename without the fold (renamedRoute.ts). */
  renamable?: RenamablePaths;
}

/** The functions' parts of the APIs, from a translation's log and kept effects; undefined when one is missing. */
export function functionApiParts(log: ApiLog, functions: Iterable<string>, keptEffects: ReadonlyMap<string, readonly KeptEffect[]>): Map<string, FunctionApiPart> | undefined {
  const parts = new Map<string, { events: LoggedApiEvent[]; functionNames: { apiId: string; text: string }[]; steps: readonly KeptEffect[] }>();
  for (const id of functions) {
    const effects = keptEffects.get(id);
    if (effects === undefined) return undefined;
    parts.set(id, { events: [], functionNames: [], steps: effects.filter((effect) => effect.kind === 'step') });
  }
  for (const event of log.events) parts.get(event.functionId)?.events.push(event);
  for (const { apiId, functionId, text } of log.functionNames) parts.get(functionId)?.functionNames.push({ apiId, text });
  return parts;
}

/** The APIs rebuilt: what each generates, the events the implicit ones are attributed to, and the references their translations add. */
export interface RebuiltApis {
  generated: ReadonlyMap<string, GeneratedResource[]>;
  /** The event each implicit API among them is attributed to. */
  origins: ReadonlyMap<string, Origin>;
  references: readonly { logicalId: string; property: string; generatedId: string }[];
  /** The parameter values the rebuild looked up; undefined when one has no text. */
  parameterReads: ParameterReads | undefined;
  /** The resources the functions' steps looked up. */
  stepReads: ReadonlySet<string>;
  /** The REST and HTTP APIs whose path a later keystroke may rename from this rebuild (renamedRoute.ts). */
  renamable?: RenamablePaths;
}

/** An explicit API's entry as the template now writes it (read from the text, so that its values stand for its nodes), with its node. */
export interface WrittenApi {
  entry: PlainMap;
  node: MapNode;
}

/** Each plugin, in the order SAM runs them, with its implicit API and the events it meets. */
const PLUGINS: readonly { kind: ImplicitApiKind; events: LoggedApiEvent['kind'] }[] = [
  { kind: REST_KIND, events: 'rest' },
  { kind: HTTP_KIND, events: 'http' },
];

/**
 * The APIs made again from the functions' parts (`index`: the text's, for what a later rename
 * keeps; `typedPaths`: the events' paths the edit changed): each explicit API's entry as `written` now,
 * each plugin's events' paths and methods added to their APIs' definitions in its order, with
 * its implicit API's attributes and the path conditions, then Globals, each function's
 * integration steps in translation order, then the APIs translated. Undefined when a step fails,
 * an API is missing, an implicit API has no event left, or an API generates other types than
 * before or reads more than a replay gives it (the caller expands in full).
 */
export function rebuildApis(
  replay: ApiReplay,
  written: ReadonlyMap<string, WrittenApi>,
  globals: unknown,
  newContext: (seed: ContextSeed) => TranslationContext,
  index: SourceIndex,
  typedPaths: ReadonlySet<string> = new Set(),
): RebuiltApis | undefined {
  // The paths the edit typed in are the likeliest to be renamed next: a replay of the paths table goes on from before them (renamedRoute.ts).
  const record = new CopyRecord(typedPaths);
  const hashed = new Map<string, RenamableDefinition>();
  const rebuilt = PyDict.recordingCopies(record, () => rebuildRecorded(replay, written, globals, newContext, hashed));
  return rebuilt && { ...rebuilt, renamable: renamablePaths(record, hashed, rebuilt, index) };
}

/** The APIs one function's part makes alone (`rebuildAlone`): what each generates, and each definition its translation made. */
export interface ApisAlone {
  rebuilt: RebuiltApis;
  definitions: ReadonlyMap<string, RenamableDefinition>;
}

/** An implicit API made with no event, attributed to `origin`: what a function's part makes of it without its only event there (api/addedRoute.ts). */
export interface EmptyImplicitApi {
  apiId: string;
  origin: Origin;
}

/**
 * The APIs made from some functions' parts alone, as `rebuildApis` makes them from all the parts:
 * what each generates, and the definition each translation made (api/addedRoute.ts compares a
 * function's part with an event and without it; api/changedItems.ts the parts of the functions
 * whose events share its paths, before an edit and after it). The functions keep their places in
 * the replay's orders; one that is not in them (pasted or deleted) comes last. An implicit API no
 * event of the parts names is not made, but `empty`. Undefined when the rebuild is.
 */
export function rebuildAlone(
  replay: ApiReplay,
  parts: ReadonlyMap<string, FunctionApiPart>,
  written: ReadonlyMap<string, WrittenApi>,
  globals: unknown,
  newContext: (seed: ContextSeed) => TranslationContext,
  empty?: EmptyImplicitApi,
): ApisAlone | undefined {
  const named = new Set([...parts.values()].flatMap((part) => part.events.map((event) => event.apiId)));
  if (empty) named.add(empty.apiId);
  const implicit = new Set([IMPLICIT_REST_API, IMPLICIT_HTTP_API]);
  const alone: ApiReplay = {
    pluginOrders: { rest: orderOf(replay.pluginOrders.rest, parts), http: orderOf(replay.pluginOrders.http, parts) },
    translationOrder: orderOf(replay.translationOrder, parts),
    parts,
    context: replay.context,
    apis: replay.apis.filter((api) => !implicit.has(api.id) || named.has(api.id)),
  };
  const definitions = new Map<string, RenamableDefinition>();
  const rebuilt = PyDict.recordingCopies(new CopyRecord(), () => rebuildRecorded(alone, written, globals, newContext, definitions, empty));
  return rebuilt && { rebuilt, definitions };
}

/** The functions of `parts` in the order `order` has them, those it does not have (pasted or deleted) after them. */
function orderOf(order: readonly string[], parts: ReadonlyMap<string, FunctionApiPart>): string[] {
  const ordered = order.filter((id) => parts.has(id));
  if (ordered.length === parts.size) return ordered;
  const placed = new Set(ordered);
  return [...ordered, ...[...parts.keys()].filter((id) => !placed.has(id))];
}

/** `rebuildApis`, noting each REST API's hashed definition in `hashed`; an implicit API no event names is made only when `empty` names it. */
function rebuildRecorded(
  replay: ApiReplay,
  written: ReadonlyMap<string, WrittenApi>,
  globals: unknown,
  newContext: (seed: ContextSeed) => TranslationContext,
  hashed: Map<string, RenamableDefinition>,
  empty?: EmptyImplicitApi,
): RebuiltApis | undefined {
  const { parts } = replay;
  const ctx = newContext(replay.context);
  ctx.renamableDefinitions = hashed;
  const lookedUp = new RecordedParameters(ctx.parameters);
  ctx.parameters = lookedUp;
  const implicit = new Set([IMPLICIT_REST_API, IMPLICIT_HTTP_API]);
  const explicit = replay.apis.filter((api) => !implicit.has(api.id)).map((api) => api.id);
  for (const id of explicit) {
    const api = written.get(id);
    if (api === undefined) return undefined;
    ctx.resources[id] = api.entry;
  }
  const order = new ResourceOrder(explicit, ctx.py27);
  defaultDefinitionBodies(ctx, order);
  const origins = new Map<string, Origin>();
  try {
    for (const { kind, events } of PLUGINS) {
      const met = replay.pluginOrders[events].flatMap((id) => parts.get(id)?.events ?? []).filter((event) => event.kind === events);
      if (replay.apis.some((api) => api.id === kind.logicalId)) {
        const first = met.find((event) => event.apiId === kind.logicalId);
        const origin = first ? { logicalId: first.functionId, property: `Events.${first.eventId}` } : empty?.apiId === kind.logicalId ? empty.origin : undefined;
        if (origin === undefined) return undefined;
        origins.set(kind.logicalId, origin);
        ctx.resources[kind.logicalId] = kind.implicitResource();
        ctx.implicitApis.set(kind.logicalId, origin);
        order.set(kind.logicalId);
      }
      const state = new ImplicitApiState();
      for (const event of met) {
        state.record(event.apiId, event.path, event.method, { Condition: event.condition, DeletionPolicy: event.deletionPolicy, UpdateReplacePolicy: event.updateReplacePolicy });
        const text = (value: string) => (event.samStrings ? value : new PyUnicode(value));
        addApiToDefinition(ctx, kind, event.apiId, text(event.path), text(event.method));
      }
      if (origins.has(kind.logicalId)) addImplicitApiAttributes(ctx, kind, state);
      addPathConditions(ctx, order, kind, state.conditions);
    }
  } catch (error) {
    if (error instanceof SamError) return undefined;
    throw error;
  }
  const read = Globals.read(globals);
  if (read instanceof SamError) return undefined;
  const errors: { error: SamError }[] = [];
  mergeGlobals(ctx, order, read, errors);
  if (errors.length > 0) return undefined;
  const names = new Map<string, string>();
  for (const id of replay.translationOrder) {
    const part = parts.get(id);
    if (part === undefined) continue;
    for (const { apiId, text } of part.functionNames) names.set(apiId, (names.get(apiId) ?? '') + text);
    for (const effect of part.steps) if (effect.kind === 'step' && runStep(ctx, effect.step) instanceof SamError) return undefined;
  }
  for (const [apiId, text] of names) ctx.functionNames.set(apiId, text);
  const generated = new Map<string, GeneratedResource[]>();
  const references: RebuiltApis['references'][number][] = [];
  for (const { id, type, generatedTypes } of replay.apis) {
    const entry = ctx.resources[id];
    if (!isMap(entry)) return undefined;
    // What an API's translation did besides generating, which a replay must not leave out.
    const recording = new RecordingContext(ctx, id, REPLAYED_API_READS);
    const sam = new SamResource(id, type, entry, written.get(id)?.node);
    const result = type === REST_KIND.apiType ? translateRestApi(recording.context, sam) : translateHttpApi(recording.context, sam);
    if (recording.tainted || !Array.isArray(result) || result.map((resource) => resource.type).join() !== generatedTypes.join()) return undefined;
    for (const effect of recording.effects) {
      if (effect.kind !== 'reference') return undefined;
      references.push({ logicalId: effect.logicalId, property: effect.property, generatedId: effect.generatedId });
    }
    generated.set(id, result);
  }
  const allText = stableText(sortedEntries(replay.context.parameters));
  return { generated, origins, references, parameterReads: allText === undefined ? undefined : lookedUp.reads(allText), stepReads: ctx.stepReads ?? new Set() };
}

/** SAM types whose translation a replay of the APIs does not account for. */
const NOT_REPLAYED = new Set(['AWS::Serverless::WebSocketApi', 'AWS::Serverless::StateMachine']);

/**
 * What a later expansion needs to rebuild the APIs of this translation, or undefined when the
 * translation is not one the replay makes again (see the module's comment).
 */
export function apiReplayOf(translation: Translation, template: PlainMap, recorded?: { copies: CopyRecord; index: SourceIndex }): ApiReplay | undefined {
  const log = translation.apiLog;
  if (log === undefined || log.unreplayable || translation.seed === undefined || !keepableParameters(translation.seed.parameters)) return undefined;
  const resources = isMap(template.Resources) ? template.Resources : {};
  if (Object.values(resources).some((entry) => isMap(entry) && NOT_REPLAYED.has(entry.Type as string))) return undefined;
  const apis: ReplayedApi[] = [];
  // Generated in translation order.
  for (const [id, generated] of translation.generated) {
    const entry = resources[id];
    const type = id === IMPLICIT_REST_API ? REST_KIND.apiType : id === IMPLICIT_HTTP_API ? HTTP_KIND.apiType : isMap(entry) ? entry.Type : undefined;
    if (type !== REST_KIND.apiType && type !== HTTP_KIND.apiType) continue;
    if (translation.notes.some((note) => note.logicalId === id)) return undefined;
    apis.push({ id, type, generatedTypes: generated.map((resource) => resource.type) });
  }
  if (apis.length === 0) return undefined;
  if (translation.connectors && !connectorsLeaveApisAlone(translation, apis)) return undefined;
  const parts = functionApiParts(log, translation.functionOrder, translation.keptEffects);
  if (parts === undefined || !replayable(parts.values())) return undefined;
  const renamable = recorded && translation.renamableDefinitions && renamablePaths(recorded.copies, translation.renamableDefinitions, { generated: translation.generated, origins: translation.implicitApis }, recorded.index);
  return { pluginOrders: log.pluginOrders, translationOrder: translation.functionOrder, parts, context: translation.seed, apis, ...(renamable ? { renamable } : {}) };
}

/**
 * Whether the template's connectors neither name an API nor made anything an API generated wait
 * for their policies: a replay rebuilds the APIs without running the connectors again.
 */
function connectorsLeaveApisAlone(translation: Translation, apis: readonly ReplayedApi[]): boolean {
  const links = translation.connectorLinks;
  if (links === undefined) return false;
  const touched = new Set<string>();
  for (const { id } of apis) {
    touched.add(id);
    for (const resource of translation.generated.get(id) ?? []) touched.add(resource.logicalId);
  }
  for (const link of links.values()) if ([...link.names, ...link.edits].some((id) => touched.has(id))) return false;
  return true;
}

/** Whether functions' parts are ones a replay makes: no event of a function with a condition (SAM makes conditions of them). */
export function replayable(parts: Iterable<FunctionApiPart>): boolean {
  for (const part of parts) if (part.events.some((event) => event.condition !== undefined)) return false;
  return true;
}
