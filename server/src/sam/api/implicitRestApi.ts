/**
 * The implicit REST API (implicit_api_plugin.py, implicit_rest_api_plugin.py): `Api` events
 * without a `RestApiId` belong to `ServerlessRestApi`, an `AWS::Serverless::Api` with stage `Prod`
 * whose definition SAM writes from the events. This plugin adds it, adds every event's path and
 * method to the definition of the API it names (when SAM manages that definition), gives the
 * implicit API the condition, DeletionPolicy and UpdateReplacePolicy its functions share, wraps a
 * path in the condition its methods share, and removes the implicit API when no event uses it.
 */
import { makeCombinedCondition } from '../conditions';
import type { TranslationContext } from '../context';
import { invalidEvent, invalidResource, SamError } from '../errors';
import { PyUnicode, textOf, type PyStr } from '../python/py27Dict';
import { pyItems } from '../pyOrder';
import type { ResourceOrder } from '../resourceOrder';
import { deepCopy, isMap, type PlainMap } from '../values';
import { restApiIdString } from './apiEvent';
import { isValidSwagger, swaggerSkeleton, SwaggerEditor } from './swaggerEditor';

export const IMPLICIT_REST_API = 'ServerlessRestApi';
const IMPLICIT_REST_API_CONDITION = 'ServerlessRestApiCondition';
const SERVERLESS_API = 'AWS::Serverless::Api';

/** What the plugins edit: the Resources section (SAM form) and its order. */
export interface PluginTemplate {
  ctx: TranslationContext;
  order: ResourceOrder;
}

type MethodConditions = Map<string, Map<string, unknown>>;

/** Runs the plugin; the errors are the resources whose events it rejects. */
export function implicitRestApiPlugin(template: PluginTemplate): SamError[] {
  const { ctx, order } = template;
  const resources = ctx.resources;
  const existing = resources[IMPLICIT_REST_API] === undefined ? undefined : deepCopy(resources[IMPLICIT_REST_API]);
  resources[IMPLICIT_REST_API] = { Type: SERVERLESS_API, Properties: { StageName: 'Prod', DefinitionBody: swaggerSkeleton(), __MANAGE_SWAGGER: true } };
  order.set(IMPLICIT_REST_API);
  const conditions = new Map<string, MethodConditions>();
  const deletionPolicies = new Map<string, Set<unknown>>();
  const replacePolicies = new Map<string, Set<unknown>>();
  const errors: SamError[] = [];

  for (const logicalId of order.keys()) {
    const resource = resources[logicalId];
    if (!isMap(resource) || (resource.Type !== 'AWS::Serverless::Function' && resource.Type !== 'AWS::Serverless::StateMachine')) continue;
    const properties = resource.Properties;
    if (!isMap(properties) || !isMap(properties.Events)) continue;
    const events = pyItems(ctx, properties.Events).filter(([, e]) => isMap(e) && e.Type === 'Api');
    for (const [eventId, event] of events) {
      const result = processEvent(template, logicalId, resource, eventId, event as PlainMap, conditions, deletionPolicies, replacePolicies);
      if (result) {
        errors.push(result);
        break;
      }
    }
  }

  addImplicitApiAttributes(ctx, conditions, deletionPolicies, replacePolicies);
  try {
    addPathConditions(ctx, order, conditions);
  } catch (error) {
    if (!(error instanceof SamError)) throw error;
    errors.push(error);
  }
  const implicit = resources[IMPLICIT_REST_API] as PlainMap;
  const body = (implicit.Properties as PlainMap).DefinitionBody;
  const paths = isValidSwagger(body as never) ? (body as { get(key: string): unknown }).get('paths') : undefined;
  if (!paths || (paths as { size: number }).size === 0) {
    ctx.implicitApis.delete(IMPLICIT_REST_API);
    if (existing !== undefined) resources[IMPLICIT_REST_API] = existing;
    else {
      delete resources[IMPLICIT_REST_API];
      order.delete(IMPLICIT_REST_API);
    }
  }
  return errors;
}

function processEvent(
  template: PluginTemplate,
  logicalId: string,
  resource: PlainMap,
  eventId: string,
  event: PlainMap,
  conditions: Map<string, MethodConditions>,
  deletionPolicies: Map<string, Set<unknown>>,
  replacePolicies: Map<string, Set<unknown>>,
): SamError | undefined {
  const fail = (error: SamError) => invalidResource(logicalId, error.wording, ['Properties', 'Events', eventId, ...error.path]);
  const properties = event.Properties;
  if (properties === undefined || properties === null || (isMap(properties) && Object.keys(properties).length === 0)) return undefined;
  if (!isMap(properties)) return fail(invalidEvent(eventId, 'Properties should be a map.'));
  if (!('RestApiId' in properties)) {
    properties.RestApiId = { Ref: IMPLICIT_REST_API };
    if (!template.ctx.implicitApis.has(IMPLICIT_REST_API)) template.ctx.implicitApis.set(IMPLICIT_REST_API, { logicalId, property: `Events.${eventId}` });
  }
  const apiId = restApiIdString(properties.RestApiId);
  const path = properties.Path;
  const method = properties.Method;
  if (path === undefined || path === null) return fail(invalidEvent(eventId, "Property 'Path' is required.", ['Properties', 'Path']));
  if (method === undefined || method === null) return fail(invalidEvent(eventId, "Property 'Method' is required.", ['Properties', 'Method']));
  if (typeof apiId !== 'string') return fail(invalidEvent(eventId, "Property 'RestApiId' should be a string.", ['Properties', 'RestApiId']));
  if (typeof path !== 'string') return fail(invalidEvent(eventId, "Property 'Path' should be a string.", ['Properties', 'Path']));
  if (typeof method !== 'string') return fail(invalidEvent(eventId, "Property 'Method' should be a string.", ['Properties', 'Method']));
  let byPath = conditions.get(apiId);
  if (!byPath) conditions.set(apiId, (byPath = new Map()));
  let byMethod = byPath.get(path);
  if (!byMethod) byPath.set(path, (byMethod = new Map()));
  byMethod.set(method, resource.Condition);
  if (!deletionPolicies.has(apiId)) deletionPolicies.set(apiId, new Set());
  deletionPolicies.get(apiId)!.add(resource.DeletionPolicy);
  if (!replacePolicies.has(apiId)) replacePolicies.set(apiId, new Set());
  replacePolicies.get(apiId)!.add(resource.UpdateReplacePolicy);

  const api = template.ctx.resources[apiId];
  if (!isMap(api) || api.Type === 'AWS::Serverless::HttpApi') {
    return fail(invalidEvent(eventId, "RestApiId must be a valid reference to an 'AWS::Serverless::Api' resource in same template."));
  }
  const apiProperties = api.Properties;
  if (!isMap(apiProperties) || !isValidSwagger(apiProperties.DefinitionBody as never) || !apiProperties.__MANAGE_SWAGGER) return undefined;
  try {
    const editor = new SwaggerEditor(apiProperties.DefinitionBody as never);
    editor.addPath(new PyUnicode(path), new PyUnicode(method));
    apiProperties.DefinitionBody = editor.swagger;
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
  return undefined;
}

function addImplicitApiAttributes(ctx: TranslationContext, conditions: Map<string, MethodConditions>, deletionPolicies: Map<string, Set<unknown>>, replacePolicies: Map<string, Set<unknown>>): void {
  const implicit = ctx.resources[IMPLICIT_REST_API] as PlainMap;
  const methodConditions = conditions.get(IMPLICIT_REST_API);
  if (methodConditions && methodConditions.size > 0) {
    const all = new Set<unknown>();
    for (const byMethod of methodConditions.values()) for (const c of byMethod.values()) all.add(c);
    if (all.size > 0 && !all.has(undefined)) {
      if (all.size === 1) implicit.Condition = [...all][0];
      else {
        implicit.Condition = IMPLICIT_REST_API_CONDITION;
        Object.assign(ctx.conditions, makeCombinedCondition([...all].map(String).sort(), IMPLICIT_REST_API_CONDITION));
      }
    }
  }
  const deletion = deletionPolicies.get(IMPLICIT_REST_API);
  if (deletion && [...deletion].some(Boolean)) {
    if (deletion.has('Retain')) implicit.DeletionPolicy = 'Retain';
    else if (deletion.has('Delete')) implicit.DeletionPolicy = 'Delete';
  }
  const replace = replacePolicies.get(IMPLICIT_REST_API);
  if (replace && [...replace].some(Boolean)) {
    if (replace.has('Retain')) implicit.UpdateReplacePolicy = 'Retain';
    else if (replace.has('Snapshot')) implicit.UpdateReplacePolicy = 'Snapshot';
    else if (replace.has('Delete')) implicit.UpdateReplacePolicy = 'Delete';
  }
}

/** `_maybe_add_conditions_to_implicit_api_paths`, for every API whose definition SAM manages. */
function addPathConditions(ctx: TranslationContext, order: ResourceOrder, conditions: Map<string, MethodConditions>): void {
  for (const apiId of order.keys()) {
    const api = ctx.resources[apiId];
    if (!isMap(api) || api.Type !== SERVERLESS_API || !isMap(api.Properties) || !api.Properties.__MANAGE_SWAGGER) continue;
    const editor = new SwaggerEditor(api.Properties.DefinitionBody as never);
    for (const path of editor.iterOnPath()) {
      const byMethod = conditions.get(apiId)?.get(textOf(path));
      const all = new Set<unknown>(byMethod ? byMethod.values() : []);
      if (all.size === 0 || all.has(undefined)) continue;
      if (all.size === 1) editor.makePathConditional(path, conditionValue([...all][0]));
      else {
        const name = `${apiId}${textOf(path).replace(/\//g, 'SLASH').replace(/\{/g, 'OB').replace(/\}/g, 'CB')}PathCondition`;
        Object.assign(ctx.conditions, makeCombinedCondition([...all].map(String).sort(), name));
        editor.makePathConditional(path, name);
      }
    }
    api.Properties.DefinitionBody = editor.swagger;
  }
}

/** A function's condition as SAM holds it in the swagger: template text. */
function conditionValue(condition: unknown): PyStr {
  return new PyUnicode(String(condition));
}
