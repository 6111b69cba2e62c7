/**
 * What the two implicit API plugins share (implicit_api_plugin.py): the implicit API is added
 * before the functions' events are read and removed again when no event uses it; each event's
 * path and method is added to the definition of the API it names when SAM manages that
 * definition; the implicit API takes the condition, DeletionPolicy and UpdateReplacePolicy its
 * functions share, and the tags of functions that propagate theirs; a path whose methods all
 * have conditions is wrapped in their combination.
 */
import { makeCombinedCondition } from '../model/conditions';
import type { TranslationContext } from '../model/context';
import { SamError } from '../model/errors';
import { PyUnicode, textOf, type PyDict, type PyStr } from '../python/py27Dict';
import { eventItems, IMPLICIT_API_EVENT_TYPES, pyItems } from '../model/pyOrder';
import type { ResourceOrder } from '../model/resourceOrder';
import { deepCopy, isMap, type PlainMap } from '../model/values';

/** What the plugins edit: the Resources section (SAM form), its order, and the template's Globals. */
export interface PluginTemplate {
  ctx: TranslationContext;
  order: ResourceOrder;
  globals: unknown;
}

/** The editor calls the shared steps make (the swagger editor's or the OpenAPI editor's). */
export interface DefinitionEditor {
  addPath(path: PyStr, method: PyStr): void;
  iterOnPath(): Iterable<PyStr>;
  makePathConditional(path: PyStr, condition: PyStr): void;
  /** The document as SAM's editor gives it back. */
  definition(): PyDict;
}

/** What distinguishes the REST plugin from the HTTP one. */
export interface ImplicitApiKind {
  /** `ServerlessRestApi` or `ServerlessHttpApi`. */
  logicalId: string;
  /** The condition the implicit API gets when its functions' conditions differ. */
  conditionName: string;
  /** The event type whose events the plugin reads: `Api` or `HttpApi`. */
  eventType: string;
  /** The SAM type of the APIs such events name. */
  apiType: string;
  /** The event property naming the API: `RestApiId` or `ApiId`. */
  apiIdProperty: string;
  /** The implicit API's entry, with SAM's skeleton definition. */
  implicitResource(): PlainMap;
  isValidDefinition(body: unknown): boolean;
  editor(body: unknown): DefinitionEditor;
}

/** For each API, path and method: the condition of the function whose event added it. */
export type ApiConditions = Map<string, Map<string, Map<string, unknown>>>;

/** What the plugin gathers from the events: conditions, and the policies of the functions using each API. */
export class ImplicitApiState {
  readonly conditions: ApiConditions = new Map();
  readonly deletionPolicies = new Map<string, Set<unknown>>();
  readonly replacePolicies = new Map<string, Set<unknown>>();

  /** `_update_resource_attributes_from_api_event`. */
  record(apiId: string, path: string, method: string, resource: PlainMap): void {
    let byPath = this.conditions.get(apiId);
    if (!byPath) this.conditions.set(apiId, (byPath = new Map()));
    let byMethod = byPath.get(path);
    if (!byMethod) byPath.set(path, (byMethod = new Map()));
    byMethod.set(method, resource.Condition);
    if (!this.deletionPolicies.has(apiId)) this.deletionPolicies.set(apiId, new Set());
    this.deletionPolicies.get(apiId)!.add(resource.DeletionPolicy);
    if (!this.replacePolicies.has(apiId)) this.replacePolicies.set(apiId, new Set());
    this.replacePolicies.get(apiId)!.add(resource.UpdateReplacePolicy);
  }
}

/** Handles one event of a function; an error stops that function's remaining events. */
export type EventProcessor = (logicalId: string, resource: PlainMap, eventId: string, event: PlainMap, state: ImplicitApiState) => SamError | undefined;

/**
 * Runs a plugin: the implicit API in, every event processed, the implicit API's attributes set, or
 * the API out again.
 */
export function runImplicitApiPlugin(template: PluginTemplate, kind: ImplicitApiKind, processEvent: EventProcessor): SamError[] {
  const { ctx, order } = template;
  const resources = ctx.resources;
  const existing = resources[kind.logicalId] === undefined ? undefined : deepCopy(resources[kind.logicalId]);
  resources[kind.logicalId] = kind.implicitResource();
  order.set(kind.logicalId);
  const state = new ImplicitApiState();
  const errors: SamError[] = [];

  for (const logicalId of order.keys()) {
    const resource = resources[logicalId];
    if (!isMap(resource) || (resource.Type !== 'AWS::Serverless::Function' && resource.Type !== 'AWS::Serverless::StateMachine')) continue;
    const properties = resource.Properties;
    if (!isMap(properties) || !isMap(properties.Events)) continue;
    // The plugins that ran before this one may have reordered the events (pyOrder.ts); this one
    // iterates a new dict of its own events, inserted in that order (`_get_api_events`).
    const before = IMPLICIT_API_EVENT_TYPES.slice(0, IMPLICIT_API_EVENT_TYPES.indexOf(kind.eventType));
    const own = eventItems(ctx, properties.Events, before).filter(([, e]) => isMap(e) && e.Type === kind.eventType);
    const events = pyItems(ctx, Object.fromEntries(own));
    for (const [eventId, event] of events) {
      const error = processEvent(logicalId, resource, eventId, event as PlainMap, state);
      if (error) {
        errors.push(error);
        break;
      }
    }
  }

  addImplicitApiAttributes(ctx, kind, state);
  try {
    addPathConditions(ctx, order, kind, state.conditions);
  } catch (error) {
    if (!(error instanceof SamError)) throw error;
    errors.push(error);
  }
  const implicit = resources[kind.logicalId] as PlainMap;
  const body = (implicit.Properties as PlainMap).DefinitionBody;
  const paths = kind.isValidDefinition(body) ? (body as PyDict).get('paths') : undefined;
  if (!paths || (paths as PyDict).size === 0) {
    ctx.implicitApis.delete(kind.logicalId);
    if (existing !== undefined) resources[kind.logicalId] = existing;
    else {
      delete resources[kind.logicalId];
      order.delete(kind.logicalId);
    }
  }
  return errors;
}

/** `_add_api_to_swagger`: the path and method in the definition of the API the event names, when SAM manages it. */
export function addApiToDefinition(ctx: TranslationContext, kind: ImplicitApiKind, apiId: string, path: PyStr, method: PyStr): void {
  const api = ctx.resources[apiId];
  if (!isMap(api) || !isMap(api.Properties) || !kind.isValidDefinition(api.Properties.DefinitionBody) || !api.Properties.__MANAGE_SWAGGER) return;
  const editor = kind.editor(api.Properties.DefinitionBody);
  editor.addPath(path, method);
  api.Properties.DefinitionBody = editor.definition();
}

/**
 * `_add_tags_to_implicit_api_if_necessary`: an event on the implicit API of a function that
 * propagates its tags (itself or through Globals) gives the implicit API those tags, Globals'
 * first, and has it propagate them too.
 */
export function addTagsToImplicitApi(template: PluginTemplate, kind: ImplicitApiKind, resource: PlainMap, eventProperties: PlainMap): void {
  if (kind.apiIdProperty in eventProperties) return;
  const properties = isMap(resource.Properties) ? resource.Properties : {};
  const section = resource.Type === 'AWS::Serverless::StateMachine' ? 'StateMachine' : 'Function';
  const globals = isMap(template.globals) && isMap(template.globals[section]) ? template.globals[section] : {};
  const propagate = properties.PropagateTags ?? globals.PropagateTags;
  const tags = { ...(isMap(globals.Tags) ? globals.Tags : {}), ...(isMap(properties.Tags) ? properties.Tags : {}) };
  if (propagate !== true || Object.keys(tags).length === 0) return;
  const implicit = template.ctx.resources[kind.logicalId];
  if (!isMap(implicit) || !isMap(implicit.Properties)) return;
  implicit.Properties.Tags = { ...(isMap(implicit.Properties.Tags) ? implicit.Properties.Tags : {}), ...tags };
  implicit.Properties.PropagateTags = true;
}

/** The implicit API's condition (one, or the combination of its functions' conditions) and policies. */
export function addImplicitApiAttributes(ctx: TranslationContext, kind: ImplicitApiKind, state: ImplicitApiState): void {
  const implicit = ctx.resources[kind.logicalId] as PlainMap;
  const methodConditions = state.conditions.get(kind.logicalId);
  if (methodConditions && methodConditions.size > 0) {
    const all = new Set<unknown>();
    for (const byMethod of methodConditions.values()) for (const c of byMethod.values()) all.add(c);
    if (all.size > 0 && !all.has(undefined)) {
      if (all.size === 1) implicit.Condition = [...all][0];
      else {
        implicit.Condition = kind.conditionName;
        Object.assign(ctx.conditions, makeCombinedCondition([...all].map(String).sort(), kind.conditionName));
      }
    }
  }
  const deletion = state.deletionPolicies.get(kind.logicalId);
  if (deletion && [...deletion].some(Boolean)) {
    if (deletion.has('Retain')) implicit.DeletionPolicy = 'Retain';
    else if (deletion.has('Delete')) implicit.DeletionPolicy = 'Delete';
  }
  const replace = state.replacePolicies.get(kind.logicalId);
  if (replace && [...replace].some(Boolean)) {
    if (replace.has('Retain')) implicit.UpdateReplacePolicy = 'Retain';
    else if (replace.has('Snapshot')) implicit.UpdateReplacePolicy = 'Snapshot';
    else if (replace.has('Delete')) implicit.UpdateReplacePolicy = 'Delete';
  }
}

/** `_maybe_add_conditions_to_implicit_api_paths`, for every API of the kind whose definition SAM manages. */
export function addPathConditions(ctx: TranslationContext, order: ResourceOrder, kind: ImplicitApiKind, conditions: ApiConditions): void {
  for (const apiId of order.keys()) {
    const api = ctx.resources[apiId];
    if (!isMap(api) || api.Type !== kind.apiType || !isMap(api.Properties) || !api.Properties.__MANAGE_SWAGGER) continue;
    const editor = kind.editor(api.Properties.DefinitionBody);
    for (const path of editor.iterOnPath()) {
      const byMethod = conditions.get(apiId)?.get(textOf(path));
      const all = new Set<unknown>(byMethod ? byMethod.values() : []);
      if (all.size === 0 || all.has(undefined)) continue;
      if (all.size === 1) editor.makePathConditional(path, new PyUnicode(String([...all][0])));
      else {
        const name = `${apiId}${textOf(path).replace(/\//g, 'SLASH').replace(/\{/g, 'OB').replace(/\}/g, 'CB')}PathCondition`;
        Object.assign(ctx.conditions, makeCombinedCondition([...all].map(String).sort(), name));
        editor.makePathConditional(path, name);
      }
    }
    api.Properties.DefinitionBody = editor.definition();
  }
}
