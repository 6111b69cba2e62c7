/**
 * The implicit REST API (implicit_api_plugin.py, implicit_rest_api_plugin.py): `Api` events
 * without a `RestApiId` belong to `ServerlessRestApi`, an `AWS::Serverless::Api` with stage `Prod`
 * whose definition SAM writes from the events. This plugin adds it, adds every event's path and
 * method to the definition of the API it names (when SAM manages that definition), gives the
 * implicit API the condition, DeletionPolicy and UpdateReplacePolicy its functions share, wraps a
 * path in the condition its methods share, and removes the implicit API when no event uses it.
 */
import { invalidEvent, invalidResource, SamError } from '../model/errors';
import { PyUnicode, type PyDict } from '../python/py27Dict';
import { isMap, type PlainMap } from '../model/values';
import { restApiIdString } from '../resources/api/apiEvent';
import { addApiToDefinition, addTagsToImplicitApi, runImplicitApiPlugin, type ImplicitApiKind, type ImplicitApiState, type PluginTemplate } from './implicitApi';
import { isValidSwagger, swaggerSkeleton, SwaggerEditor } from '../resources/api/swaggerEditor';

export const IMPLICIT_REST_API = 'ServerlessRestApi';

/** The REST plugin's part: `Api` events, `RestApiId`, `AWS::Serverless::Api` with stage `Prod`. */
export const REST_KIND: ImplicitApiKind = {
  logicalId: IMPLICIT_REST_API,
  conditionName: 'ServerlessRestApiCondition',
  eventType: 'Api',
  apiType: 'AWS::Serverless::Api',
  apiIdProperty: 'RestApiId',
  implicitResource: () => ({ Type: 'AWS::Serverless::Api', Properties: { StageName: 'Prod', DefinitionBody: swaggerSkeleton(), __MANAGE_SWAGGER: true } }),
  isValidDefinition: (body) => isValidSwagger(body as never),
  editor: (body) => {
    const editor = new SwaggerEditor(body as PyDict);
    return {
      addPath: (path, method) => editor.addPath(path, method),
      iterOnPath: () => editor.iterOnPath(),
      makePathConditional: (path, condition) => editor.makePathConditional(path, condition),
      definition: () => editor.swagger,
    };
  },
};

/** Runs the plugin; the errors are the resources whose events it rejects. */
export function implicitRestApiPlugin(template: PluginTemplate): SamError[] {
  return runImplicitApiPlugin(template, REST_KIND, (logicalId, resource, eventId, event, state) => processEvent(template, logicalId, resource, eventId, event, state));
}

function processEvent(template: PluginTemplate, logicalId: string, resource: PlainMap, eventId: string, event: PlainMap, state: ImplicitApiState): SamError | undefined {
  const fail = (error: SamError) => invalidResource(logicalId, error.wording, ['Properties', 'Events', eventId, ...error.path]);
  const properties = event.Properties;
  if (properties === undefined || properties === null || (isMap(properties) && Object.keys(properties).length === 0)) return undefined;
  if (!isMap(properties)) return fail(invalidEvent(eventId, 'Properties should be a map.'));
  addTagsToImplicitApi(template, REST_KIND, resource, properties);
  const implicit = !('RestApiId' in properties);
  if (implicit) {
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
  state.record(apiId, path, method, resource);
  const api = template.ctx.resources[apiId];
  if (!isMap(api) || api.Type === 'AWS::Serverless::HttpApi') {
    return fail(invalidEvent(eventId, "RestApiId must be a valid reference to an 'AWS::Serverless::Api' resource in same template."));
  }
  try {
    addApiToDefinition(template.ctx, REST_KIND, apiId, new PyUnicode(path), new PyUnicode(method));
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
  return undefined;
}
