/**
 * The `Api` event of a function (push.py, `Api`): a permission for API Gateway to invoke the
 * function, and, on an API whose definition SAM manages (the implicit `ServerlessRestApi` or one
 * with `MergeDefinitions`), the path's `aws_proxy` integration with its auth, request model,
 * request parameters and validators; with `OverrideApiAuth`, the event's auth also in a definition
 * the template gives.
 */
import { invalidEvent, invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { plainDict, plainItems, PyDict, PyUnicode, type PyStr, type PyValue } from '../../python/py27Dict';
import { pyMessageText } from '../../python/pyRepr';
import { IS_DICT, IS_LIST, IS_STR, PASS_THROUGH, typed, type PropertySpec } from '../../model/properties';
import { resolveParameterRefs } from '../../model/intrinsics';
import { isMap, truthy, type PlainMap } from '../../model/values';
import { checkEventProperties, eventError, permission, type EventInput, type EventTarget } from '../events/eventSource';
import { fromTemplate, fromTemplateEntry, isPyMap, pyGet, pyText, pyTruthy } from '../../model/pyValues';
import { sourceVpcsWithoutValue } from './resourcePolicy';
import { swaggerSkeleton, SwaggerEditor } from './swaggerEditor';

const API_EVENT: Record<string, PropertySpec> = {
  Path: typed(IS_STR, true),
  Method: typed(IS_STR, true),
  RestApiId: typed(IS_STR, true),
  Stage: typed(IS_STR),
  Auth: typed(IS_DICT),
  RequestModel: typed(IS_DICT),
  RequestParameters: typed(IS_LIST),
  TimeoutInMillis: PASS_THROUGH,
  ResponseTransferMode: PASS_THROUGH,
};

const REQUEST_PARAMETER_PATTERN = /^method\.request\.(querystring|path|header)\./;

/** `get_rest_api_id_string`: the id inside `{Ref: id}`, or the value itself. */
export function restApiIdString(value: unknown): unknown {
  return isMap(value) && 'Ref' in value ? value.Ref : value;
}

/** `resources_to_link_for_rest_api`: the API an event names, and the stage suffix of its permission. */
export function linkRestApi(input: EventInput, restApiId: unknown): { api: PlainMap | undefined; apiId: unknown; stageSuffix: PyStr } | SamError {
  const id = restApiIdString(restApiId);
  if (typeof id !== 'string') return { api: undefined, apiId: id, stageSuffix: 'AllStages' };
  const resource = input.ctx.resources[id];
  if (!isMap(resource)) return invalidEvent(input.eventId, 'RestApiId property of Api event must reference a valid resource in the same template.');
  const properties = resource.Properties ?? {};
  if (!isMap(properties)) return invalidResource(id, "Attribute 'Properties' should be a map.");
  const stage = properties.StageName;
  let suffix: PyStr = 'Stage';
  if (typeof stage === 'string') {
    if (!stage) return invalidResource(id, 'StageName cannot be empty.', ['Properties', 'StageName']);
    // The implicit API's `Prod` is SAM's own string; an explicit API's stage name is template text.
    suffix = input.ctx.implicitApis.has(id) ? stage : new PyUnicode(stage);
  }
  return { api: properties, apiId: id, stageSuffix: suffix };
}

/** The API Gateway integration URI of a function (a unicode string when the function's logical id is template text). */
export function integrationUri(target: EventTarget, partition: string, streaming = false): PyDict {
  const reference = target.isAlias ? `\${${target.resource.logicalId}}` : `\${${target.resource.logicalId}.Arn}`;
  const path = streaming ? '2021-11-15/functions/' : '2015-03-31/functions/';
  const tail = streaming ? '/response-streaming-invocations' : '/invocations';
  const text = `arn:${partition}:apigateway:\${AWS::Region}:lambda:path/${path}${reference}${tail}`;
  return PyDict.from({ 'Fn::Sub': target.isAlias ? text : new PyUnicode(text) });
}

/** The permission and, where SAM manages the definition, the integration. */
export function apiEvent(input: EventInput, target: EventTarget): GeneratedResource[] | SamError {
  const invalid = checkEventProperties(input, 'Api', API_EVENT);
  if (invalid) return invalid;
  // OverrideApiAuth replaces the API's auth on this method, so the event must say what replaces it.
  const auth = input.properties.Auth;
  if (isMap(auth) && truthy(auth.OverrideApiAuth) && !truthy(auth.Authorizer) && auth.ApiKeyRequired === undefined && !truthy(auth.ResourcePolicy)) {
    return eventError(input, 'Must define one of: Authorizer, ApiKeyRequired or ResourcePolicy when using the OverrideApiAuth property.', ['Auth', 'OverrideApiAuth']);
  }
  const linked = linkRestApi(input, input.properties.RestApiId);
  if (linked instanceof SamError) return linked;
  const p = input.properties;
  const method = String(p.Method).toLowerCase();
  const path = String(p.Path).replace(/^(.+)\/$/, '$1').replace(/\{([a-zA-Z0-9._-]+|[a-zA-Z0-9._-]+\+|proxy\+)\}/g, '*');
  const resource = `\${__ApiId__}/\${__Stage__}/${method === 'any' ? '*' : method.toUpperCase()}${path}`;
  const sourceArn = { 'Fn::Sub': [`arn:${input.ctx.partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:${resource}`, { __ApiId__: p.RestApiId, __Stage__: '*' }] };
  const resources = [permission(input, target, { principal: 'apigateway.amazonaws.com', sourceArn, suffix: pyText(linked.stageSuffix)! })];
  const api = linked.api;
  if (api && (api.__MANAGE_SWAGGER || api.MergeDefinitions)) {
    const added = addSwaggerIntegration(input, target, api, linked.apiId as string, method, linked.stageSuffix);
    if (added instanceof SamError) return added;
  }
  const overridden = overrideApiAuth(input, api, linked.apiId as string, method, linked.stageSuffix);
  if (overridden instanceof SamError) return overridden;
  return resources;
}

/**
 * `OverrideApiAuth`: an event's auth written into a definition the template gives (one SAM does
 * not manage), so that it overrides the API's default authorizer there too.
 */
function overrideApiAuth(input: EventInput, api: PlainMap | undefined, apiId: string, method: string, stage: PyStr): SamError | undefined {
  const auth = input.properties.Auth;
  const body = api?.DefinitionBody;
  if (!api || !pyTruthy(fromTemplate(body ?? null)) || !isMap(auth) || !auth.OverrideApiAuth) return undefined;
  if (!(auth.Authorizer || auth.ApiKeyRequired || auth.ResourcePolicy)) {
    return invalidEvent(input.eventId, 'Must define one of: Authorizer, ApiKeyRequired or ResourcePolicy when using the OverrideApiAuth property.');
  }
  try {
    const editor = new SwaggerEditor(fromTemplate(body));
    const added = addAuth(input, editor, api, apiId, fromTemplate(auth) as PyDict, new PyUnicode(String(input.properties.Path)), new PyUnicode(method), stage);
    if (added) return added;
    api.DefinitionBody = editor.swagger;
    return undefined;
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
}

function addSwaggerIntegration(input: EventInput, target: EventTarget, api: PlainMap, apiId: string, method: string, stage: PyStr): SamError | undefined {
  const body = api.DefinitionBody;
  if (body === undefined || body === null) return undefined;
  const merge = api.MergeDefinitions;
  const p = input.properties;
  const streaming = p.ResponseTransferMode === 'RESPONSE_STREAM';
  const uri = integrationUri(target, input.ctx.partition, streaming);
  try {
    const editor = new SwaggerEditor(merge ? swaggerSkeleton() : fromTemplate(body));
    const pathValue: PyStr = new PyUnicode(String(p.Path));
    const methodValue: PyStr = new PyUnicode(method);
    if (editor.hasIntegration(pathValue, methodValue)) return invalidEvent(input.eventId, `API method "${method}" defined multiple times for path "${String(p.Path)}".`);
    const condition = target.condition !== undefined ? fromTemplate(target.condition) : undefined;
    const methodAuth = p.Auth ? fromTemplate(p.Auth) : new PyDict();
    if (!isPyMap(methodAuth)) return eventError(input, "Property 'Auth' should be a map.", ['Auth']);
    const apiAuth = api.Auth ? fromTemplate(api.Auth) : new PyDict();
    if (!isPyMap(apiAuth)) return invalidResource(apiId, "Property 'Auth' should be a map.", ['Properties', 'Auth']);
    const timeout = p.TimeoutInMillis === undefined || p.TimeoutInMillis === null ? undefined : fromTemplateEntry(p, 'TimeoutInMillis');
    // SAM puts the editor's copy back only when every check passes: a failed check leaves no integration behind.
    const failure = PyDict.undoneOnError(
      () => {
        editor.addLambdaIntegration(pathValue, methodValue, uri, methodAuth, apiAuth, condition, input.ctx.partition, { timeoutInMillis: timeout, streaming });
        return (
          (p.Auth ? addAuth(input, editor, api, apiId, methodAuth, pathValue, methodValue, stage) : undefined) ??
          (p.RequestModel ? addRequestModel(input, editor, api, method, pathValue, methodValue) : undefined) ??
          (p.RequestParameters ? addRequestParameters(input, editor, pathValue, methodValue) : undefined)
        );
      },
      (error) => error !== undefined,
    );
    if (failure) return failure;
    api.DefinitionBody = merge ? mergedDefinitions(input, apiId, body, editor, method) : editor.swagger;
    return undefined;
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
}

/** `add_auth_to_swagger`: the method's authorizer, API key requirement and resource policy, checked against the API's auth. */
export function addAuth(input: EventInput, editor: SwaggerEditor, api: PlainMap, apiId: string, auth: PyDict | Record<string, PyValue>, path: PyStr, method: PyStr, stage: PyValue): SamError | undefined {
  const methodText = pyText(method)!;
  const pathText = pyText(path)!;
  const authorizer = pyGet(auth, 'Authorizer');
  const apiAuth = resolveParameterRefs(api.Auth, input.ctx.parameters);
  const apiAuthMap = isMap(apiAuth) ? apiAuth : undefined;
  if (pyTruthy(authorizer)) {
    const authorizers = apiAuthMap?.Authorizers;
    const name = pyText(authorizer);
    if (name !== 'AWS_IAM') {
      if (name !== 'NONE') {
        if (!authorizers || (isMap(authorizers) && Object.keys(authorizers).length === 0)) {
          return invalidEvent(input.eventId, `Unable to set Authorizer [${name ?? pyMessageText(authorizer)}] on API method [${methodText}] for path [${pathText}] because the related API does not define any Authorizers.`);
        }
        if (!isMap(authorizers)) return invalidResource(apiId, "Property 'Auth.Authorizers' should be a map.", ['Properties', 'Auth', 'Authorizers']);
        if (name === undefined) {
          return invalidEvent(input.eventId, `Unable to set Authorizer [${pyMessageText(authorizer)}] on API method [${methodText}] for path [${pathText}]. The method authorizer must be a string with a corresponding dict entry in the api authorizer.`);
        }
        if (!authorizers[name]) {
          return invalidEvent(input.eventId, `Unable to set Authorizer [${name}] on API method [${methodText}] for path [${pathText}] because it wasn't defined in the API's Authorizers.`);
        }
      } else if (!apiAuthMap || !apiAuthMap.DefaultAuthorizer) {
        return invalidEvent(input.eventId, `Unable to set Authorizer on API method [${methodText}] for path [${pathText}] because 'NONE' is only a valid value when a DefaultAuthorizer on the API is specified.`);
      }
    }
  }
  const scopes = pyGet(auth, 'AuthorizationScopes');
  if (pyTruthy(scopes) && !Array.isArray(scopes)) return eventError(input, "Property 'Auth.AuthorizationScopes' should be a list.", ['Auth', 'AuthorizationScopes']);
  // Scopes narrow an authorizer's: with neither the method's nor the API's default, there is none to narrow.
  if (pyTruthy(scopes) && !pyTruthy(authorizer) && !apiAuthMap?.DefaultAuthorizer) return eventError(input, 'AuthorizationScopes works only when Authorizer is set', ['Auth', 'AuthorizationScopes']);
  const required = pyGet(auth, 'ApiKeyRequired');
  if (required !== undefined && required !== null && !pyTruthy(required) && (!apiAuthMap || !apiAuthMap.ApiKeyRequired)) {
    return invalidEvent(input.eventId, `Unable to set ApiKeyRequired [False] on API method [${methodText}] for path [${pathText}] because the related API does not specify any ApiKeyRequired.`);
  }
  if (pyTruthy(authorizer) || (required !== undefined && required !== null)) editor.addAuthToMethod(path, method, auth, PyDict.from({ Auth: fromTemplate(api.Auth) }));
  const policy = pyGet(auth, 'ResourcePolicy');
  if (pyTruthy(policy)) {
    if (!isPyMap(policy)) return eventError(input, "Property 'Auth.ResourcePolicy' should be a map.", ['Auth', 'ResourcePolicy']);
    editor.addResourcePolicy(policy, path, stage, sourceVpcsWithoutValue(input.ctx, input.sam, policy, `Events.${input.eventId}.Properties.Auth.ResourcePolicy`));
    const custom = pyGet(policy, 'CustomStatements');
    if (pyTruthy(custom)) editor.addCustomStatements(custom!);
  }
  return undefined;
}

function addRequestModel(input: EventInput, editor: SwaggerEditor, api: PlainMap, method: string, path: PyStr, methodValue: PyStr): SamError | undefined {
  const model = input.properties.RequestModel as PlainMap;
  const name = model.Model;
  if (!name) return undefined;
  const where = `on API method [${method}] for path [${String(input.properties.Path)}]`;
  const models = api.Models;
  if (!models || (isMap(models) && Object.keys(models).length === 0)) return invalidEvent(input.eventId, `Unable to set RequestModel [${pyMessageText(name)}] ${where} because the related API does not define any Models.`);
  if (!isMap(models)) return invalidEvent(input.eventId, `Unable to set RequestModel [${pyMessageText(name)}] ${where} because the related API Models defined is of invalid type.`);
  if (typeof name !== 'string') return invalidEvent(input.eventId, `Unable to set RequestModel [${pyMessageText(name)}] ${where} because the related API does not contain valid Models.`);
  if (!models[name]) return invalidEvent(input.eventId, `Unable to set RequestModel [${name}] ${where} because it wasn't defined in the API's Models.`);
  editor.addRequestModel(path, methodValue, fromTemplate(model) as PyDict);
  let body = model.ValidateBody;
  let parameters = model.ValidateParameters;
  if (body !== undefined || parameters !== undefined) {
    body ??= false;
    parameters ??= false;
    if (typeof body !== 'boolean' || typeof parameters !== 'boolean') {
      return invalidEvent(input.eventId, `Unable to set Validator to RequestModel [${name}] ${where} ValidateBody and ValidateParameters must be a boolean type, strings or intrinsics are not supported.`);
    }
    editor.addRequestValidator(path, methodValue, body, parameters);
  }
  return undefined;
}

function addRequestParameters(input: EventInput, editor: SwaggerEditor, path: PyStr, method: PyStr): SamError | undefined {
  const parameters: { name: PyStr; required: PyValue; caching: PyValue }[] = [];
  const keysMessage = "Invalid value for 'RequestParameters' property. Keys must be in the format 'method.request.[querystring|path|header].{value}', e.g 'method.request.header.Authorization'.";
  for (const parameter of input.properties.RequestParameters as unknown[]) {
    if (isMap(parameter)) {
      const [name, value] = Object.entries(parameter)[0] ?? [];
      if (name === undefined || !REQUEST_PARAMETER_PATTERN.test(name)) return invalidEvent(input.eventId, keysMessage);
      if (!isMap(value) || !Object.keys(value).every((k) => k === 'Required' || k === 'Caching')) {
        return invalidEvent(input.eventId, "Invalid value for 'RequestParameters' property. Values must be an object, e.g { Required: true, Caching: false }");
      }
      parameters.push({ name: new PyUnicode(name), required: fromTemplate(value.Required ?? false), caching: fromTemplate(value.Caching ?? false) });
    } else if (typeof parameter === 'string') {
      if (!REQUEST_PARAMETER_PATTERN.test(parameter)) return invalidEvent(input.eventId, keysMessage);
      parameters.push({ name: new PyUnicode(parameter), required: false, caching: false });
    } else return invalidEvent(input.eventId, "Invalid value for 'RequestParameters' property. Property must be either a string or an object");
  }
  editor.addRequestParameters(path, method, parameters);
  return undefined;
}

/** `_get_merged_definitions`: the generated method merged into the written definition (generated keys win). */
function mergedDefinitions(input: EventInput, apiId: string, body: unknown, editor: SwaggerEditor, method: string): PyValue | SamError {
  const merged = (fromTemplate(body) as PyDict).copy();
  const paths = merged.get('paths');
  const sourcePaths = paths instanceof PyDict ? paths : new PyDict();
  const pathText = String(input.properties.Path);
  const existingPath = sourcePaths.get(pathText);
  const existing = existingPath instanceof PyDict ? existingPath.get(method) : undefined;
  if (existing !== undefined && existing !== null && !isPyMap(existing)) {
    return invalidResource(apiId, `Property 'DefinitionBody.paths.${pathText}.${method}' should be a map.`, ['Properties', 'DefinitionBody']);
  }
  const generatedPaths = editor.swagger.get('paths') as PyDict;
  const normalized = method === 'any' ? 'x-amazon-apigateway-any-method' : method;
  const generated = (generatedPaths.get(pathText) as PyDict).get(normalized) as PyDict;
  // SAM's value wins a conflict; the key keeps the template's (unicode) string, which the deployment hash shows.
  const existingItems: [PyStr, PyValue][] = existing instanceof PyDict ? existing.items() : isPyMap(existing) ? plainItems(existing) : [];
  const result = plainDict([...existingItems, ...generated.items()]);
  if (!sourcePaths.has(pathText)) sourcePaths.set(new PyUnicode(pathText), plainDict([[new PyUnicode(method), result]]));
  const target = sourcePaths.get(pathText);
  if (target instanceof PyDict) target.set(new PyUnicode(method), result);
  else if (isPyMap(target)) (target as Record<string, PyValue>)[method] = result;
  return merged;
}
