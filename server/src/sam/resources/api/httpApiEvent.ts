/**
 * The `HttpApi` event of a function (push.py, `HttpApi`): a permission for API Gateway to invoke
 * the function on its route (none when the function already serves the API's `$default` route),
 * and the route's `aws_proxy` integration in the API's OpenAPI body, with its authorizer, timeout,
 * path parameters and payload format version.
 */
import { invalidEvent, invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { IS_DICT, IS_INT, IS_STR, typed, type PropertySpec } from '../../model/properties';
import { pyMessageText } from '../../python/pyRepr';
import { isMap, type PlainMap } from '../../model/values';
import { checkEventProperties, permission, type EventInput, type EventTarget } from '../events/eventSource';
import { integrationUri } from './apiEvent';
import { X_ANY_METHOD } from './baseEditor';
import { routeStrings } from './httpRoutes';
import { DEFAULT_PATH, OpenApiEditor, pathWithoutTrailingSlash } from './openApiEditor';
import { fromTemplate, isPyMap } from '../../model/pyValues';

const HTTP_API_EVENT: Record<string, PropertySpec> = {
  Path: typed(IS_STR),
  Method: typed(IS_STR),
  ApiId: typed(IS_STR),
  Stage: typed(IS_STR),
  Auth: typed(IS_DICT),
  TimeoutInMillis: typed(IS_INT),
  RouteSettings: typed(IS_DICT),
  PayloadFormatVersion: typed(IS_STR),
};

/** The permission and the integration of an `HttpApi` event. */
export function httpApiEvent(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'HttpApi', HTTP_API_EVENT);
  if (invalid) return invalid;
  const p = input.properties;
  const apiId = isMap(p.ApiId) && 'Ref' in p.ApiId ? p.ApiId.Ref : p.ApiId;
  const resource = typeof apiId === 'string' ? input.ctx.resources[apiId] : undefined;
  if (!isMap(resource)) return invalidEvent(input.eventId, "ApiId must be a valid reference to an 'AWS::Serverless::HttpApi' resource in same template.");
  const api = isMap(resource.Properties) ? resource.Properties : {};
  const path = String(p.Path);
  const method = String(p.Method).toLowerCase();
  try {
    const resources: GeneratedResource[] = [];
    const routePermission = httpApiPermission(input, target, api, apiId as string, path, method);
    if (routePermission) resources.push(routePermission);
    const error = addOpenApiIntegration(input, target, api, apiId as string, path, method);
    if (error) return error;
    return resources;
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
}

/** `_get_permission`: the route's permission for all stages. */
function httpApiPermission(input: EventInput, target: EventTarget, api: PlainMap, apiId: string, eventPath: string, method: string): GeneratedResource | undefined {
  let path = eventPath.replace(/^(.+)\/$/, '$1');
  let editor: OpenApiEditor | undefined;
  if (api.DefinitionBody) {
    try {
      editor = new OpenApiEditor(api.DefinitionBody);
    } catch (error) {
      if (error instanceof SamError && error.kind === 'document') throw invalidResource(apiId, error.wording);
      throw error;
    }
  }
  if (path === DEFAULT_PATH) path = '';
  else if (editor?.isIntegrationFunctionLogicalIdMatch(DEFAULT_PATH, X_ANY_METHOD, target.functionLogicalId)) {
    // The function serves the `$default` route, whose permission covers this route too.
    return undefined;
  }
  path = pathWithoutTrailingSlash(path);
  const verb = method === 'any' || method === X_ANY_METHOD ? '*' : method.toUpperCase();
  const route = method === 'any' && path === `/${DEFAULT_PATH}` ? path : `/${verb}${path}`;
  const sourceArn = {
    'Fn::Sub': [`arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${__ApiId__}/\${__Stage__}${route}`, { __ApiId__: input.properties.ApiId, __Stage__: '*' }],
  };
  return permission(input, target, { principal: 'apigateway.amazonaws.com', sourceArn });
}

/** `_add_openapi_integration`: the integration in the API's body, when it has one. */
function addOpenApiIntegration(input: EventInput, target: EventTarget, api: PlainMap, apiId: string, path: string, method: string): SamError | undefined {
  const body = api.DefinitionBody;
  if (body === undefined || body === null) return undefined;
  const p = input.properties;
  const uri = integrationUri(target, '${AWS::Partition}');
  const editor = new OpenApiEditor(body);
  const { path: pathValue, method: methodValue } = routeStrings(input.properties, path, method);
  if (api.__MANAGE_SWAGGER && editor.hasIntegration(pathValue, methodValue)) {
    return invalidEvent(input.eventId, `API method '${method}' defined multiple times for path '${path}'.`);
  }
  const condition = target.condition !== undefined ? fromTemplate(target.condition) : undefined;
  editor.addLambdaIntegration(pathValue, methodValue, uri, condition);
  if (p.Auth) {
    const error = addAuth(input, editor, api, apiId, p.Auth as PlainMap, path, method);
    if (error) return error;
  }
  if (p.TimeoutInMillis) editor.addTimeoutToMethod(pathValue, methodValue, fromTemplate(p.TimeoutInMillis));
  const parameters = pathParameters(path);
  if (parameters.length > 0) editor.addPathParametersToMethod(pathValue, methodValue, parameters);
  if (p.PayloadFormatVersion) editor.addPayloadFormatVersionToMethod(pathValue, methodValue, fromTemplate(p.PayloadFormatVersion));
  api.DefinitionBody = editor.openapi;
  return undefined;
}

/** `_add_auth_to_openapi_integration`: the method's authorizer, checked against the API's. */
function addAuth(input: EventInput, editor: OpenApiEditor, api: PlainMap, apiId: string, auth: PlainMap, path: string, method: string): SamError | undefined {
  // SAM reads `api.get("Auth", {})`: an Auth written with no value is not a map.
  const apiAuth = api.Auth === undefined ? {} : api.Auth;
  if (!isMap(apiAuth)) return invalidResource(apiId, "Property 'Auth' should be a map.", ['Properties', 'Auth']);
  let authorizer = auth.Authorizer;
  if (!authorizer) {
    if (!apiAuth.DefaultAuthorizer) {
      return invalidEvent(input.eventId, "'Auth' section requires either an explicit 'Authorizer' set or a 'DefaultAuthorizer' configured on the HttpApi.");
    }
    auth.Authorizer = authorizer = apiAuth.DefaultAuthorizer;
  }
  // SAM reads `api_auth and api_auth.get("Authorizers")`: an empty Auth stands for no authorizers.
  const authorizers = Object.keys(apiAuth).length === 0 ? apiAuth : apiAuth.Authorizers;
  const iamEnabled = apiAuth.EnableIamAuthorizer === true;
  const at = `on API method [${method}] for path [${path}]`;
  if (authorizer !== 'NONE' && !(authorizer === 'AWS_IAM' && iamEnabled) && (typeof authorizer !== 'string' || !isMap(authorizers))) {
    return invalidEvent(
      input.eventId,
      `Unable to set Authorizer [${pyMessageText(authorizer)}] ${at}. The method authorizer must be a string with a corresponding dict entry in the api authorizer.`,
    );
  }
  if (authorizer === 'NONE') {
    if (!apiAuth.DefaultAuthorizer) return invalidEvent(input.eventId, `Unable to set Authorizer ${at} because 'NONE' is only a valid value when a DefaultAuthorizer on the API is specified.`);
  } else if (authorizer !== 'AWS_IAM' || !iamEnabled) {
    if (!isMap(authorizers) || Object.keys(authorizers).length === 0) {
      return invalidEvent(input.eventId, `Unable to set Authorizer [${pyMessageText(authorizer)}] ${at} because the related API does not define any Authorizers.`);
    }
    if (!authorizers[authorizer as string]) {
      return invalidEvent(input.eventId, `Unable to set Authorizer [${pyMessageText(authorizer)}] ${at} because it wasn't defined in the API's Authorizers.`);
    }
  }
  if (auth.AuthorizationScopes && !Array.isArray(auth.AuthorizationScopes)) {
    return invalidEvent(input.eventId, `Unable to set Authorizer ${at} because 'AuthorizationScopes' must be a list of strings.`);
  }
  const methodAuth = fromTemplate(auth);
  const route = routeStrings(input.properties, path, method);
  if (isPyMap(methodAuth)) editor.addAuthToMethod(route.path, route.method, methodAuth, authorizers === undefined ? undefined : fromTemplate(authorizers));
  return undefined;
}

/** The names of a path's `{name}` segments, which an HTTP API's method declares as its path parameters. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(.*?)\}/g)].map((m) => m[1]!);
}
