/**
 * The implicit REST API (`ServerlessRestApi`) rebuilt without translating the template again:
 * what it is made of, kept from the last expansion function by function (each `Api` event's path
 * and method as the plugin met them, the FunctionName each adds to the deployment's hash, and the
 * integration steps of each function's kept translation), is done again in SAM's order, with the
 * edited functions' parts in place of theirs before, and the API is translated from it. A
 * keystroke in an event's path thus costs the definition's fold and the API's translation, not
 * the template's (reexpand.ts).
 *
 * It is kept only for a template whose only API is the implicit REST API, made of function
 * events alone, with no Globals for APIs, no function condition on its events, no tags
 * propagated to it, and an API translation of its RestApi, Deployment and Stage with no note.
 */
import { SamResource, type TranslationContext } from '../context';
import { SamError } from '../errors';
import type { GeneratedResource, Origin } from '../generated';
import { PyUnicode } from '../python/py27Dict';
import { ResourceOrder } from '../resourceOrder';
import { RecordedParameters, stableText, type KeptEffect, type ParameterReads } from '../translationCache';
import type { ContextSeed, Translation } from '../translate';
import { isMap, sortedEntries, type PlainMap } from '../values';
import { addApiToDefinition, addImplicitApiAttributes, addPathConditions, ImplicitApiState } from './implicitApi';
import { IMPLICIT_REST_API, REST_KIND } from './implicitRestApi';
import { translateRestApi } from './restApi';

/** An `Api` event on the implicit REST API, as the plugin met it. */
export interface LoggedApiEvent {
  functionId: string;
  eventId: string;
  path: string;
  method: string;
  /** The function's attributes the plugin reads (`_update_resource_attributes_from_api_event`). */
  condition: unknown;
  deletionPolicy: unknown;
  updateReplacePolicy: unknown;
}

/** What the transform met of the REST API's making, in the order it met it. */
export class RestApiLog {
  /** Functions in the order the REST plugin went through the resources. */
  pluginOrder: readonly string[] = [];
  readonly events: LoggedApiEvent[] = [];
  /** FunctionName values the functions add to the implicit API's deployment hash, in translation order. */
  readonly functionNames: { functionId: string; text: string }[] = [];
  /** Set when the plugin met what a replay does not do: another API, a state machine's event, tags propagated. */
  unreplayable = false;
}

/** One function's part of the implicit API. */
export interface FunctionApiPart {
  events: readonly LoggedApiEvent[];
  functionNames: readonly string[];
  /** The shared steps of the function's kept translation (its events' integrations), in order. */
  steps: readonly KeptEffect[];
}

/** What rebuilding the implicit API needs of the last expansion. */
export interface ImplicitApiReplay {
  /** Functions in the REST plugin's order, and in translation order (other plugins' ids may reorder a Python 2.7 table in between). */
  pluginOrder: readonly string[];
  translationOrder: readonly string[];
  parts: ReadonlyMap<string, FunctionApiPart>;
  /** The values every translation reads (parameters, region, partition, Python 2.7 order, Mappings, Conditions). */
  context: ContextSeed;
  /** The types of what the API generated, in order: a rebuilt API that generates others is not taken. */
  generatedTypes: readonly string[];
}

/** The functions' parts of the implicit API, from a translation's log and kept effects; undefined when one is missing. */
export function functionApiParts(log: RestApiLog, functions: Iterable<string>, keptEffects: ReadonlyMap<string, readonly KeptEffect[]>): Map<string, FunctionApiPart> | undefined {
  const parts = new Map<string, { events: LoggedApiEvent[]; functionNames: string[]; steps: readonly KeptEffect[] }>();
  for (const id of functions) {
    const effects = keptEffects.get(id);
    if (effects === undefined) return undefined;
    parts.set(id, { events: [], functionNames: [], steps: effects.filter((effect) => effect.kind === 'step') });
  }
  for (const event of log.events) parts.get(event.functionId)?.events.push(event);
  for (const { functionId, text } of log.functionNames) parts.get(functionId)?.functionNames.push(text);
  return parts;
}

/** The implicit API rebuilt: what it generates, the event it is attributed to, and the references its translation adds. */
export interface RebuiltApi {
  generated: GeneratedResource[];
  origin: Origin;
  references: readonly { property: string; generatedId: string }[];
  /** The parameter values the rebuild looked up; undefined when one has no text. */
  parameterReads: ParameterReads | undefined;
}

/**
 * The implicit API made again from the functions' parts: each event's path and method added to
 * SAM's skeleton in the plugin's order, the API's attributes and path conditions, each function's
 * integration steps in translation order, then the API translated. Undefined when a step fails,
 * no event is left, or the API generates other types than before (the caller expands in full).
 */
export function rebuildImplicitApi(replay: ImplicitApiReplay, newContext: (seed: ContextSeed) => TranslationContext): RebuiltApi | undefined {
  const { parts } = replay;
  const ctx = newContext(replay.context);
  const lookedUp = new RecordedParameters(ctx.parameters);
  ctx.parameters = lookedUp;
  const first = replay.pluginOrder.map((id) => parts.get(id)?.events[0]).find((event) => event !== undefined);
  if (first === undefined) return undefined;
  const origin: Origin = { logicalId: first.functionId, property: `Events.${first.eventId}` };
  ctx.resources[IMPLICIT_REST_API] = REST_KIND.implicitResource();
  ctx.implicitApis.set(IMPLICIT_REST_API, origin);
  const state = new ImplicitApiState();
  try {
    for (const id of replay.pluginOrder) {
      for (const event of parts.get(id)?.events ?? []) {
        state.record(IMPLICIT_REST_API, event.path, event.method, { Condition: event.condition, DeletionPolicy: event.deletionPolicy, UpdateReplacePolicy: event.updateReplacePolicy });
        addApiToDefinition(ctx, REST_KIND, IMPLICIT_REST_API, new PyUnicode(event.path), new PyUnicode(event.method));
      }
    }
    addImplicitApiAttributes(ctx, REST_KIND, state);
    addPathConditions(ctx, new ResourceOrder([IMPLICIT_REST_API], ctx.py27), REST_KIND, state.conditions);
  } catch (error) {
    if (error instanceof SamError) return undefined;
    throw error;
  }
  let names = '';
  for (const id of replay.translationOrder) {
    const part = parts.get(id);
    if (part === undefined) continue;
    names += part.functionNames.join('');
    for (const effect of part.steps) if (effect.kind === 'step' && effect.step(ctx) instanceof SamError) return undefined;
  }
  if (names !== '') ctx.functionNames.set(IMPLICIT_REST_API, names);
  const notesBefore = ctx.notes.length;
  const generated = translateRestApi(ctx, new SamResource(IMPLICIT_REST_API, 'AWS::Serverless::Api', ctx.resources[IMPLICIT_REST_API] as PlainMap, undefined));
  if (!Array.isArray(generated) || ctx.notes.length !== notesBefore || generated.map((resource) => resource.type).join() !== replay.generatedTypes.join()) return undefined;
  const references: RebuiltApi['references'][number][] = [];
  for (const property of ['Stage', 'Deployment']) {
    const generatedId = ctx.references.get(IMPLICIT_REST_API, property);
    if (generatedId !== undefined) references.push({ property, generatedId });
  }
  const allText = stableText(sortedEntries(replay.context.parameters));
  return { generated, origin, references, parameterReads: allText === undefined ? undefined : lookedUp.reads(allText) };
}

/** SAM types whose translation a replay of the implicit REST API does not account for. */
const NOT_REPLAYED = new Set(['AWS::Serverless::Api', 'AWS::Serverless::HttpApi', 'AWS::Serverless::WebSocketApi', 'AWS::Serverless::StateMachine', 'AWS::Serverless::Connector']);

/**
 * What a later expansion needs to rebuild the implicit REST API of this translation, or undefined
 * when the translation is not one the replay makes again (see the module's comment).
 */
export function implicitApiReplayOf(translation: Translation, template: PlainMap): ImplicitApiReplay | undefined {
  const log = translation.restApiLog;
  if (log === undefined || log.unreplayable || translation.seed === undefined) return undefined;
  if (translation.implicitApis.size !== 1 || !translation.implicitApis.has(IMPLICIT_REST_API)) return undefined;
  const generated = translation.generated.get(IMPLICIT_REST_API);
  if (generated === undefined || translation.notes.some((note) => note.logicalId === IMPLICIT_REST_API)) return undefined;
  if (isMap(template.Globals) && 'Api' in template.Globals) return undefined;
  const resources = isMap(template.Resources) ? Object.values(template.Resources) : [];
  if (resources.some((entry) => isMap(entry) && NOT_REPLAYED.has(entry.Type as string))) return undefined;
  const parts = functionApiParts(log, translation.functionOrder, translation.keptEffects);
  if (parts === undefined || !replayable(parts.values())) return undefined;
  return { pluginOrder: log.pluginOrder, translationOrder: translation.functionOrder, parts, context: translation.seed, generatedTypes: generated.map((resource) => resource.type) };
}

/** Whether functions' parts are ones a replay makes: no event of a function with a condition (SAM makes conditions of them). */
export function replayable(parts: Iterable<FunctionApiPart>): boolean {
  for (const part of parts) if (part.events.some((event) => event.condition !== undefined)) return false;
  return true;
}
