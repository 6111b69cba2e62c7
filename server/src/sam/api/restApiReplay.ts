/**
 * The REST APIs SAM builds from functions' `Api` events (the implicit `ServerlessRestApi`, and
 * each `AWS::Serverless::Api` of the template) rebuilt without translating the template again:
 * what they are made of, kept from the last expansion function by function (each `Api` event's
 * API, path and method as the plugin met them, the FunctionName each adds to its API's deployment
 * hash, and the integration steps of each function's kept translation), is done again in SAM's
 * order, with the edited functions' parts in place of theirs before, and the APIs are translated
 * from it. A keystroke in an event's path thus costs the definitions' fold and the APIs'
 * translations, not the template's (reexpand.ts).
 *
 * The plugins' order is kept: an explicit API's entry, read from the text now, takes SAM's
 * skeleton when it gives no definition, then the events' paths, then the path conditions, then
 * Globals (which merge after the plugins), then the functions' integrations. It is kept only for
 * a template whose APIs are REST APIs made of function events alone, with no function condition
 * on their events, no tags propagated to the implicit one, and APIs whose translations generated
 * what they generated before, read nothing but their own entries, the function names and the
 * implicit APIs, and gave no note.
 */
import type { MapNode } from '../../template/ast';
import { SamResource, type TranslationContext } from '../context';
import { SamError } from '../errors';
import type { GeneratedResource, Origin } from '../generated';
import { Globals, mergeGlobals } from '../globals';
import { PyUnicode } from '../python/py27Dict';
import { ResourceOrder } from '../resourceOrder';
import { RecordedParameters, RecordingContext, stableText, type KeptEffect, type ParameterReads } from '../translationCache';
import type { ContextSeed, Translation } from '../translate';
import { isMap, sortedEntries, type PlainMap } from '../values';
import { addApiToDefinition, addImplicitApiAttributes, addPathConditions, ImplicitApiState } from './implicitApi';
import { IMPLICIT_REST_API, REST_KIND } from './implicitRestApi';
import { defaultDefinitionBodies } from './managedDefinitions';
import { translateRestApi } from './restApi';

const REST_API = 'AWS::Serverless::Api';

/** What a REST API's translation may read besides its own entry and still be rebuilt by a replay. */
export const REPLAYED_API_READS = ['functionNames', 'implicitApis'] as const;

/** An `Api` event as the plugin met it. */
export interface LoggedApiEvent {
  /** The API it names: `ServerlessRestApi` when it names none. */
  apiId: string;
  functionId: string;
  eventId: string;
  path: string;
  method: string;
  /** The function's attributes the plugin reads (`_update_resource_attributes_from_api_event`). */
  condition: unknown;
  deletionPolicy: unknown;
  updateReplacePolicy: unknown;
}

/** What the transform met of the REST APIs' making, in the order it met it. */
export class RestApiLog {
  /** Functions in the order the REST plugin went through the resources. */
  pluginOrder: readonly string[] = [];
  readonly events: LoggedApiEvent[] = [];
  /** FunctionName values the functions add to the deployment hash of the API their events name, in translation order. */
  readonly functionNames: { apiId: string; functionId: string; text: string }[] = [];
  /** Set when the plugin met what a replay does not do: a state machine's event, tags propagated to the implicit API. */
  unreplayable = false;
}

/** One function's part of the REST APIs. */
export interface FunctionApiPart {
  events: readonly LoggedApiEvent[];
  functionNames: readonly { apiId: string; text: string }[];
  /** The shared steps of the function's kept translation (its events' integrations), in order. */
  steps: readonly KeptEffect[];
}

/** A REST API of the last expansion: its logical id, and the types of what it generated, in order. */
export interface ReplayedApi {
  id: string;
  generatedTypes: readonly string[];
}

/** What rebuilding the REST APIs needs of the last expansion. */
export interface RestApiReplay {
  /** Functions in the REST plugin's order, and in translation order (other plugins' ids may reorder a Python 2.7 table in between). */
  pluginOrder: readonly string[];
  translationOrder: readonly string[];
  parts: ReadonlyMap<string, FunctionApiPart>;
  /** The values every translation reads (parameters, region, partition, Python 2.7 order, Mappings, Conditions). */
  context: ContextSeed;
  /** The APIs in translation order: a rebuilt API that generates other types is not taken. */
  apis: readonly ReplayedApi[];
}

/** The functions' parts of the REST APIs, from a translation's log and kept effects; undefined when one is missing. */
export function functionApiParts(log: RestApiLog, functions: Iterable<string>, keptEffects: ReadonlyMap<string, readonly KeptEffect[]>): Map<string, FunctionApiPart> | undefined {
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

/** The REST APIs rebuilt: what each generates, the event the implicit one is attributed to, and the references their translations add. */
export interface RebuiltApis {
  generated: ReadonlyMap<string, GeneratedResource[]>;
  /** The event the implicit API is attributed to, when it is one of them. */
  origin: Origin | undefined;
  references: readonly { logicalId: string; property: string; generatedId: string }[];
  /** The parameter values the rebuild looked up; undefined when one has no text. */
  parameterReads: ParameterReads | undefined;
}

/** An explicit API's entry as the template now writes it (read from the text, so that its values stand for its nodes), with its node. */
export interface WrittenApi {
  entry: PlainMap;
  node: MapNode;
}

/**
 * The REST APIs made again from the functions' parts: each explicit API's entry as `written`
 * now, each event's path and method added to its API's definition in the plugin's order, the
 * implicit API's attributes and the path conditions, Globals, each function's integration steps
 * in translation order, then the APIs translated. Undefined when a step fails, an API is missing,
 * the implicit API has no event left, or an API generates other types than before or reads more
 * than a replay gives it (the caller expands in full).
 */
export function rebuildRestApis(replay: RestApiReplay, written: ReadonlyMap<string, WrittenApi>, globals: unknown, newContext: (seed: ContextSeed) => TranslationContext): RebuiltApis | undefined {
  const { parts } = replay;
  const ctx = newContext(replay.context);
  const lookedUp = new RecordedParameters(ctx.parameters);
  ctx.parameters = lookedUp;
  const explicit = replay.apis.filter((api) => api.id !== IMPLICIT_REST_API).map((api) => api.id);
  for (const id of explicit) {
    const api = written.get(id);
    if (api === undefined) return undefined;
    ctx.resources[id] = api.entry;
  }
  const order = new ResourceOrder(explicit, ctx.py27);
  defaultDefinitionBodies(ctx, order);
  let origin: Origin | undefined;
  if (replay.apis.some((api) => api.id === IMPLICIT_REST_API)) {
    const first = replay.pluginOrder.flatMap((id) => parts.get(id)?.events ?? []).find((event) => event.apiId === IMPLICIT_REST_API);
    if (first === undefined) return undefined;
    origin = { logicalId: first.functionId, property: `Events.${first.eventId}` };
    ctx.resources[IMPLICIT_REST_API] = REST_KIND.implicitResource();
    ctx.implicitApis.set(IMPLICIT_REST_API, origin);
    order.set(IMPLICIT_REST_API);
  }
  const state = new ImplicitApiState();
  try {
    for (const id of replay.pluginOrder) {
      for (const event of parts.get(id)?.events ?? []) {
        state.record(event.apiId, event.path, event.method, { Condition: event.condition, DeletionPolicy: event.deletionPolicy, UpdateReplacePolicy: event.updateReplacePolicy });
        addApiToDefinition(ctx, REST_KIND, event.apiId, new PyUnicode(event.path), new PyUnicode(event.method));
      }
    }
    if (origin) addImplicitApiAttributes(ctx, REST_KIND, state);
    addPathConditions(ctx, order, REST_KIND, state.conditions);
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
    for (const effect of part.steps) if (effect.kind === 'step' && effect.step(ctx) instanceof SamError) return undefined;
  }
  for (const [apiId, text] of names) ctx.functionNames.set(apiId, text);
  const generated = new Map<string, GeneratedResource[]>();
  const references: RebuiltApis['references'][number][] = [];
  for (const { id, generatedTypes } of replay.apis) {
    const entry = ctx.resources[id];
    if (!isMap(entry)) return undefined;
    // What an API's translation did besides generating, which a replay must not leave out.
    const recording = new RecordingContext(ctx, id, REPLAYED_API_READS);
    const result = translateRestApi(recording.context, new SamResource(id, REST_API, entry, written.get(id)?.node));
    if (recording.tainted || !Array.isArray(result) || result.map((resource) => resource.type).join() !== generatedTypes.join()) return undefined;
    for (const effect of recording.effects) {
      if (effect.kind !== 'reference') return undefined;
      references.push({ logicalId: effect.logicalId, property: effect.property, generatedId: effect.generatedId });
    }
    generated.set(id, result);
  }
  const allText = stableText(sortedEntries(replay.context.parameters));
  return { generated, origin, references, parameterReads: allText === undefined ? undefined : lookedUp.reads(allText) };
}

/** SAM types whose translation a replay of the REST APIs does not account for. */
const NOT_REPLAYED = new Set(['AWS::Serverless::HttpApi', 'AWS::Serverless::WebSocketApi', 'AWS::Serverless::StateMachine', 'AWS::Serverless::Connector']);

/**
 * What a later expansion needs to rebuild the REST APIs of this translation, or undefined when
 * the translation is not one the replay makes again (see the module's comment).
 */
export function restApiReplayOf(translation: Translation, template: PlainMap): RestApiReplay | undefined {
  const log = translation.restApiLog;
  if (log === undefined || log.unreplayable || translation.seed === undefined) return undefined;
  if ([...translation.implicitApis.keys()].some((id) => id !== IMPLICIT_REST_API)) return undefined;
  const resources = isMap(template.Resources) ? template.Resources : {};
  if (Object.values(resources).some((entry) => isMap(entry) && NOT_REPLAYED.has(entry.Type as string))) return undefined;
  const apis: ReplayedApi[] = [];
  // Generated in translation order.
  for (const [id, generated] of translation.generated) {
    const entry = resources[id];
    if (id !== IMPLICIT_REST_API && !(isMap(entry) && entry.Type === REST_API)) continue;
    if (translation.notes.some((note) => note.logicalId === id)) return undefined;
    apis.push({ id, generatedTypes: generated.map((resource) => resource.type) });
  }
  if (apis.length === 0) return undefined;
  const parts = functionApiParts(log, translation.functionOrder, translation.keptEffects);
  if (parts === undefined || !replayable(parts.values())) return undefined;
  return { pluginOrder: log.pluginOrder, translationOrder: translation.functionOrder, parts, context: translation.seed, apis };
}

/** Whether functions' parts are ones a replay makes: no event of a function with a condition (SAM makes conditions of them). */
export function replayable(parts: Iterable<FunctionApiPart>): boolean {
  for (const part of parts) if (part.events.some((event) => event.condition !== undefined)) return false;
  return true;
}
