/**
 * The implicit HTTP API (implicit_http_api_plugin.py): `HttpApi` events without an `ApiId` belong
 * to `ServerlessHttpApi`, an `AWS::Serverless::HttpApi` whose OpenAPI body SAM writes from the
 * events. An event with neither `Path` nor `Method` is the API's `$default` route for any method,
 * and an event's `RouteSettings` join the API's own for its route.
 */
import { invalidEvent, invalidResource, SamError } from '../model/errors';
import type { PyDict } from '../python/py27Dict';
import { isMap, type PlainMap } from '../model/values';
import { X_ANY_METHOD } from '../resources/api/baseEditor';
import { addApiToDefinition, addTagsToImplicitApi, runImplicitApiPlugin, type ImplicitApiKind, type ImplicitApiState, type PluginTemplate } from './implicitApi';
import { DEFAULT_PATH, isValidOpenApi, OpenApiEditor, openApiSkeleton } from '../resources/api/openApiEditor';
import { markDefaultRoute, routeStrings } from '../resources/api/httpRoutes';

export const IMPLICIT_HTTP_API = 'ServerlessHttpApi';

/** The HTTP plugin's part: `HttpApi` events, `ApiId`, `AWS::Serverless::HttpApi`. */
export const HTTP_KIND: ImplicitApiKind = {
  logicalId: IMPLICIT_HTTP_API,
  conditionName: 'ServerlessHttpApiCondition',
  eventType: 'HttpApi',
  apiType: 'AWS::Serverless::HttpApi',
  apiIdProperty: 'ApiId',
  implicitResource: () => ({ Type: 'AWS::Serverless::HttpApi', Properties: { DefinitionBody: openApiSkeleton(), __MANAGE_SWAGGER: true } }),
  isValidDefinition: (body) => isValidOpenApi(body),
  editor: (body) => {
    const editor = new OpenApiEditor(body as PyDict);
    return {
      addPath: (path, method) => editor.addPath(path, method),
      iterOnPath: () => editor.iterOnPath(),
      makePathConditional: (path, condition) => editor.makePathConditional(path, condition),
      definition: () => editor.openapi,
    };
  },
};

/** Runs the plugin; the errors are the resources whose events it rejects. */
export function implicitHttpApiPlugin(template: PluginTemplate): SamError[] {
  return runImplicitApiPlugin(template, HTTP_KIND, (logicalId, resource, eventId, event, state) => processEvent(template, logicalId, resource, eventId, event, state));
}

function processEvent(template: PluginTemplate, logicalId: string, resource: PlainMap, eventId: string, event: PlainMap, state: ImplicitApiState): SamError | undefined {
  const fail = (error: SamError) => invalidResource(logicalId, error.wording, ['Properties', 'Events', eventId, ...error.path]);
  const properties = 'Properties' in event ? event.Properties : {};
  if (!isMap(properties)) return fail(invalidEvent(eventId, 'Properties should be a map.'));
  event.Properties = properties;
  addTagsToImplicitApi(template, HTTP_KIND, resource, properties);
  if (!('ApiId' in properties)) {
    properties.ApiId = { Ref: IMPLICIT_HTTP_API };
    if (!template.ctx.implicitApis.has(IMPLICIT_HTTP_API)) template.ctx.implicitApis.set(IMPLICIT_HTTP_API, { logicalId, property: `Events.${eventId}` });
  }
  if (!properties.Path && !properties.Method) {
    properties.Path = DEFAULT_PATH;
    properties.Method = X_ANY_METHOD;
    markDefaultRoute(properties);
  }
  const apiId = isMap(properties.ApiId) && 'Ref' in properties.ApiId ? properties.ApiId.Ref : properties.ApiId;
  const path = properties.Path;
  const method = properties.Method;
  if (!path) return fail(invalidEvent(eventId, "Property 'Path' is required.", ['Properties', 'Path']));
  if (!method) return fail(invalidEvent(eventId, "Property 'Method' is required.", ['Properties', 'Method']));
  if (typeof path !== 'string') return fail(invalidEvent(eventId, "Property 'Path' should be a string.", ['Properties', 'Path']));
  if (typeof method !== 'string') return fail(invalidEvent(eventId, "Property 'Method' should be a string.", ['Properties', 'Method']));
  if (typeof apiId !== 'string') return fail(invalidEvent(eventId, "Property 'ApiId' should be a string.", ['Properties', 'ApiId']));
  state.record(apiId, path, method, resource);
  const api = template.ctx.resources[apiId];
  // SAM accepts any resource of the template here, a REST API included (its OpenAPI body then gets the route).
  if (!isMap(api)) {
    return fail(invalidEvent(eventId, "ApiId must be a valid reference to an 'AWS::Serverless::HttpApi' resource in same template."));
  }
  // Route settings edit the API's entry; SAM's own strings for the `$default` route it chose.
  try {
    const route = routeStrings(properties, path, method);
    addApiToDefinition(template.ctx, HTTP_KIND, apiId, route.path, route.method);
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
  if ('RouteSettings' in properties) return addRouteSettings(logicalId, resource, eventId, properties, api, apiId, path, method);
  return undefined;
}

/** `_add_route_settings_to_api`: the event's route settings (in its function's condition) merged into the API's. */
function addRouteSettings(logicalId: string, resource: PlainMap, eventId: string, properties: PlainMap, api: PlainMap, apiId: string, path: string, method: string): SamError | undefined {
  const route = method === X_ANY_METHOD ? path : `${method.toUpperCase()} ${path}`;
  const apiProperties = isMap(api.Properties) ? api.Properties : (api.Properties = {});
  const apiSettings = apiProperties.RouteSettings ?? {};
  if (!isMap(apiSettings)) return invalidResource(apiId, "Property 'RouteSettings' should be a map.", ['Properties', 'RouteSettings']);
  const own = properties.RouteSettings;
  const eventSettings = resource.Condition !== undefined ? { 'Fn::If': [resource.Condition, own, { Ref: 'AWS::NoValue' }] } : own;
  if (!isMap(eventSettings)) {
    return invalidResource(logicalId, `Event with id [${eventId}] is invalid. Property 'RouteSettings' should be a map.`, ['Properties', 'Events', eventId, 'Properties', 'RouteSettings']);
  }
  const existing = isMap(apiSettings[route]) ? apiSettings[route] : {};
  apiSettings[route] = { ...existing, ...eventSettings };
  apiProperties.RouteSettings = apiSettings;
  return undefined;
}
