/**
 * The swagger (OpenAPI 2 or 3) document of a REST API, edited as SAM edits it
 * (samtranslator/swagger/swagger.py and open_api/base_editor.py): every dict SAM creates in it is
 * a Python 2.7 dict, keys are inserted one by one in SAM's order, and the document is deep-copied
 * where SAM deep-copies it, because all of this decides the deployment's logical id.
 */
import { invalidDocument, SamError } from '../../model/errors';
import { PyDict, PyUnicode, textOf, type PlainPyDict, type PyStr, type PyValue } from '../../python/py27Dict';
import type { RestAuthorizer } from './authorizer';
import {
  BaseEditor,
  CONDITIONAL_IF,
  conditionalContents,
  isConditional,
  makePyConditional,
  normalizeMethod,
  OPENAPI_VERSION_3,
  pathItemError,
  X_ANY_METHOD,
  X_INTEGRATION,
  type PyMap,
} from './baseEditor';
import { pyMessageText } from '../../python/pyRepr';
import { isPyMap, pyGet, pyHas, pyKeys, pyText, pyTruthy } from '../../model/pyValues';

const OPTIONS = 'options';
const SECURITY_DEFINITIONS = 'securityDefinitions';
const X_GATEWAY_RESPONSES = 'x-amazon-apigateway-gateway-responses';
const X_POLICY = 'x-amazon-apigateway-policy';
const X_BINARY_MEDIA_TYPES = 'x-amazon-apigateway-binary-media-types';
const X_REQUEST_VALIDATORS = 'x-amazon-apigateway-request-validators';
const X_REQUEST_VALIDATOR = 'x-amazon-apigateway-request-validator';
const X_ENDPOINT_CONFIG = 'x-amazon-apigateway-endpoint-configuration';
const EXCLUDED_PATH_FIELDS = ['summary', 'description', 'parameters'];
const ALL_HTTP_METHODS = ['OPTIONS', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];
/** A path as a resource policy's statements write it (SAM's `get_path_without_trailing_slash`, its name notwithstanding): each `{parameter}`, greedy ones too, a `*`. */
export function pathWithoutParameters(path: string): string {
  return path.replace(/\{([a-zA-Z0-9._-]+|[a-zA-Z0-9._-]+\+|proxy\+)\}/g, '*');
}

/** Whether every branch of a path item is a dict (`_validate_path_item`'s test, without its error). */
function isValidPathItem(item: PyValue): boolean {
  if (item instanceof PyDict && !item.has(CONDITIONAL_IF)) return true;
  if (isConditional(item) && !Array.isArray(pyGet(item, CONDITIONAL_IF))) return false;
  return conditionalContents(item).every(isPyMap);
}

/**
 * The paths tables whose every item was found valid, with the table's revision and the count of
 * `Fn::If` keys set then: an item becomes invalid only by a set in the table or by becoming a
 * condition, so a table unchanged since is not walked again (an API's events take its document
 * one by one, so walking it every time costs the square of its paths).
 */
const validPaths = new WeakMap<PyDict, { revision: number; conditionalKeysSet: number }>();

/**
 * Whether every path item is valid, walking the table only when it changed since it was last
 * found so by more than one set (an event adds one path between two editors).
 */
function allPathItemsValid(paths: PyDict): boolean {
  const known = validPaths.get(paths);
  if (known !== undefined && known.conditionalKeysSet === PyDict.conditionalKeysSet) {
    if (known.revision === paths.revision) return true;
    const key = paths.lastSetKey;
    if (known.revision + 1 === paths.revision && key !== undefined && isValidPathItem(paths.get(key)!)) {
      known.revision = paths.revision;
      return true;
    }
  }
  if (paths.anyValue((item) => !isValidPathItem(item))) return false;
  validPaths.set(paths, { revision: paths.revision, conditionalKeysSet: PyDict.conditionalKeysSet });
  return true;
}

/** Whether a document is a swagger SAM can edit: `paths` is a dict and `swagger` is set, or `openapi` is 3.x. */
export function isValidSwagger(doc: PyValue | undefined): boolean {
  if (!isPyMap(doc) || !pyTruthy(doc) || !isPyMap(pyGet(doc, 'paths'))) return false;
  if (pyTruthy(pyGet(doc, 'swagger'))) return true;
  const openapi = pyGet(doc, 'openapi');
  if (pyTruthy(openapi)) return OPENAPI_VERSION_3.test(pyMessageText(openapi));
  return false;
}

/** SAM's swagger skeleton: `swagger: 2.0`, `info` with the stack name as title, no paths. */
export function swaggerSkeleton(): PyDict {
  return definitionSkeleton('swagger', '2.0');
}

/** SAM's `gen_skeleton` for either definition: its version key first, `info` with the stack name as title, no paths. */
export function definitionSkeleton(versionKey: 'swagger' | 'openapi', version: string): PyDict {
  const skeleton = new PyDict();
  skeleton.set(versionKey, version);
  const info = new PyDict();
  skeleton.set('info', info);
  info.set('version', '1.0');
  info.set('title', { Ref: 'AWS::StackName' });
  const paths = new PyDict();
  skeleton.set('paths', paths);
  return skeleton;
}

/**
 * The swagger editor: SAM's editor deep-copies the document when it takes it and when it gives it
 * back (`swagger`); here the document is edited in place with the key orders those copies give,
 * so a caller must use only what `swagger` returns afterwards.
 */
export class SwaggerEditor extends BaseEditor {
  private securityDefinitions: PyValue;
  private gatewayResponses: PyValue;
  private resourcePolicy: PyDict;
  private definitions: PyValue;

  constructor(document: PyValue | undefined) {
    if (!(document instanceof PyDict) || !isValidSwagger(document) || !(document.get('paths') instanceof PyDict)) throw invalidDocument('Invalid Swagger document');
    // SAM deep-copies the document here; the copy's key order is what matters (py27Dict.ts).
    PyDict.deepCopyInPlace(document);
    super(document, document.get('paths') as PyDict);
    const orNew = (value: PyValue | undefined): PyValue => (pyTruthy(value) ? value! : new PyDict());
    this.securityDefinitions = orNew(this.doc.get(SECURITY_DEFINITIONS));
    this.gatewayResponses = orNew(this.doc.get(X_GATEWAY_RESPONSES));
    const policy = this.doc.get(X_POLICY);
    this.resourcePolicy = policy instanceof PyDict && policy.size > 0 ? policy : new PyDict();
    this.definitions = this.doc.has('definitions') ? this.doc.get('definitions')! : new PyDict();
    // SAM checks every path item, in order, each time an editor takes the document; the order
    // only decides which error is reported, so it is followed only when there is one.
    if (!allPathItemsValid(this.paths)) {
      for (const [path, item] of this.paths.items()) {
        for (const content of conditionalContents(item)) if (!isPyMap(content)) throw pathItemError(path);
      }
    }
  }

  /** The document with the editor's changes, deep-copied as SAM's `swagger` property returns it. */
  get swagger(): PyDict {
    if (this.doc.has('paths')) this.doc.set('paths', this.paths);
    if (pyTruthy(this.securityDefinitions)) this.doc.set(SECURITY_DEFINITIONS, this.securityDefinitions);
    if (pyTruthy(this.gatewayResponses)) this.doc.set(X_GATEWAY_RESPONSES, this.gatewayResponses);
    if (pyTruthy(this.definitions)) this.doc.set('definitions', this.definitions);
    PyDict.deepCopyInPlace(this.doc);
    return this.doc;
  }

  /** The raw document, for reads that must not copy it. */
  get document(): PyDict {
    return this.doc;
  }

  /** `add_lambda_integration`: the `aws_proxy` integration of a function at a path and method. */
  addLambdaIntegration(
    path: PyStr,
    method: PyStr,
    uri: PyValue,
    methodAuth: PyMap,
    apiAuth: PyMap,
    condition: PyValue | undefined,
    partition: string,
    extras: { timeoutInMillis?: PyValue; streaming?: boolean } = {},
  ): void {
    const normalized = normalizeMethod(method);
    if (this.hasIntegration(path, normalized)) throw invalidDocument(`Lambda integration already exists on Path=${textOf(path)}, Method=${textOf(normalized)}`);
    this.addPath(path, normalized);
    const integrationUri = condition !== undefined ? makePyConditional(condition, uri) : uri;
    const key = textOf(normalized);
    for (const item of this.pathItems(path)) {
      const definition = item.get(key) as PyDict;
      const integration = new PyDict();
      definition.set(X_INTEGRATION, integration);
      integration.set('type', 'aws_proxy');
      integration.set('httpMethod', 'POST');
      integration.set('uri', integrationUri);
      if (extras.timeoutInMillis !== undefined) integration.set('timeoutInMillis', extras.timeoutInMillis);
      if (extras.streaming) integration.set('responseTransferMode', 'STREAM');
      const methodAuthorizer = pyText(pyGet(methodAuth, 'Authorizer'));
      const defaultAuthorizer = pyText(pyGet(apiAuth, 'DefaultAuthorizer'));
      if (methodAuthorizer === 'AWS_IAM' || (defaultAuthorizer === 'AWS_IAM' && !pyTruthy(methodAuth))) {
        let methodRole = pyGet(methodAuth, 'InvokeRole');
        if (!pyTruthy(methodRole) && pyHas(methodAuth, 'InvokeRole')) methodRole = 'NONE';
        let apiRole = pyGet(apiAuth, 'InvokeRole');
        if (!pyTruthy(apiRole) && pyHas(apiAuth, 'InvokeRole')) apiRole = 'NONE';
        const role = pyTruthy(methodRole) ? methodRole : apiRole;
        const credentials = pyTruthy(role) && pyText(role) !== 'CALLER_CREDENTIALS' ? role! : `arn:${partition}:iam::*:user/*`;
        if (pyTruthy(credentials) && pyText(credentials) !== 'NONE') integration.set('credentials', credentials);
      }
      definition.setdefault('responses', new PyDict());
      if (condition !== undefined) item.set(normalized, makePyConditional(condition, definition));
    }
  }

  /** `add_state_machine_integration`: an `aws` integration starting a state machine execution. */
  addStateMachineIntegration(path: PyStr, method: PyStr, uri: PyValue, credentials: PyValue, requestTemplates: PyValue | undefined, condition: PyValue | undefined): void {
    const normalized = normalizeMethod(method);
    if (this.hasIntegration(path, normalized)) throw invalidDocument(`Integration already exists on Path=${textOf(path)}, Method=${textOf(normalized)}`);
    this.addPath(path, normalized);
    const integrationUri = condition !== undefined ? makePyConditional(condition, uri) : uri;
    const key = textOf(normalized);
    for (const item of this.pathItems(path)) {
      const responses = new PyDict();
      responses.set('200', PyDict.from({ statusCode: '200' }));
      responses.set('400', PyDict.from({ statusCode: '400' }));
      const methodResponses = new PyDict();
      methodResponses.set('200', PyDict.from({ description: 'OK' }));
      methodResponses.set('400', PyDict.from({ description: 'Bad Request' }));
      const definition = item.get(key) as PyDict;
      const integration = new PyDict();
      definition.set(X_INTEGRATION, integration);
      integration.set('type', 'aws');
      integration.set('httpMethod', 'POST');
      integration.set('uri', integrationUri);
      integration.set('responses', responses);
      integration.set('credentials', credentials);
      definition.setdefault('responses', methodResponses);
      if (requestTemplates !== undefined && pyTruthy(requestTemplates)) integration.update({ requestTemplates });
      if (condition !== undefined) item.set(normalized, makePyConditional(condition, definition));
    }
  }

  /** `add_cors`: an OPTIONS method answering the preflight, unless the path has one. */
  addCors(path: PyStr, origins: PyValue, headers: PyValue | undefined, methods: PyValue | undefined, maxAge: PyValue | undefined, credentials: PyValue | undefined): void {
    for (const item of this.pathItems(path)) {
      if (item.has(textOf(normalizeMethod(OPTIONS)))) continue;
      if (!pyTruthy(origins)) throw invalidDocument('Invalid input. Value for AllowedOrigins is required');
      let allowed = methods;
      if (!pyTruthy(allowed)) allowed = `'${this.allowedMethods(item)}'`;
      item.set(OPTIONS, this.corsOptions(origins, headers, allowed, maxAge, credentials === true));
    }
  }

  private allowedMethods(item: PyDict): string {
    const methods = item.keys();
    const all = methods.includes(X_ANY_METHOD) ? ALL_HTTP_METHODS : [...methods, 'options'];
    return [...new Set(all.map((m) => m.toUpperCase()))].sort().join(',');
  }

  private corsOptions(origins: PyValue, headers: PyValue | undefined, methods: PyValue | undefined, maxAge: PyValue | undefined, credentials: boolean): PyDict {
    const header = (name: string) => `method.response.header.${name}`;
    const parameters = PyDict.from({ [header('Access-Control-Allow-Origin')]: origins });
    const responseHeaders = PyDict.from({ 'Access-Control-Allow-Origin': { type: 'string' } });
    if (pyTruthy(headers)) {
      parameters.set(header('Access-Control-Allow-Headers'), headers!);
      responseHeaders.set('Access-Control-Allow-Headers', { type: 'string' });
    }
    if (pyTruthy(methods)) {
      parameters.set(header('Access-Control-Allow-Methods'), methods!);
      responseHeaders.set('Access-Control-Allow-Methods', { type: 'string' });
    }
    if (maxAge !== undefined && maxAge !== null) {
      parameters.set(header('Access-Control-Max-Age'), maxAge);
      responseHeaders.set('Access-Control-Max-Age', { type: 'integer' });
    }
    if (credentials) {
      parameters.set(header('Access-Control-Allow-Credentials'), "'true'");
      responseHeaders.set('Access-Control-Allow-Credentials', { type: 'string' });
    }
    const options = new PyDict();
    options.set('summary', 'CORS support');
    options.set('consumes', ['application/json']);
    options.set('produces', ['application/json']);
    const integration = new PyDict();
    options.set(X_INTEGRATION, integration);
    integration.set('type', 'mock');
    integration.set('requestTemplates', { 'application/json': '{\n  "statusCode" : 200\n}\n' });
    const responses = new PyDict();
    integration.set('responses', responses);
    const defaults = new PyDict();
    responses.set('default', defaults);
    defaults.set('statusCode', '200');
    defaults.set('responseParameters', parameters);
    defaults.set('responseTemplates', { 'application/json': '{}\n' });
    const methodResponses = new PyDict();
    options.set('responses', methodResponses);
    const ok = new PyDict();
    methodResponses.set('200', ok);
    ok.set('description', 'Default response for CORS method');
    ok.set('headers', responseHeaders);
    return options;
  }

  /** `add_binary_media_types`, with `~1` read as `/`. */
  addBinaryMediaTypes(types: PyValue): void {
    const replace = (value: PyValue): PyValue => {
      if (value instanceof PyDict) {
        const out = new PyDict();
        for (const [key, item] of value.items()) out.set(new PyUnicode(textOf(key).split('~1').join('/')), replace(item));
        return out;
      }
      if (Array.isArray(value)) return value.map(replace);
      const text = pyText(value);
      return text !== undefined ? new PyUnicode(text.split('~1').join('/')) : value;
    };
    this.doc.set(X_BINARY_MEDIA_TYPES, replace(types));
  }

  /** `add_authorizers_security_definitions`: the authorizers, in the order SAM's dict of them iterates. */
  addAuthorizers(authorizers: readonly [PyStr, RestAuthorizer][], partition: string): void {
    if (!pyTruthy(this.securityDefinitions)) this.securityDefinitions = new PyDict();
    if (!isPyMap(this.securityDefinitions)) throw invalidDocument('securityDefinitions must be a dictionary.');
    for (const [name, authorizer] of authorizers) {
      const swagger = authorizer.swagger(partition);
      if (swagger instanceof SamError) throw swagger;
      this.setSecurityDefinition(name, swagger);
    }
  }

  private setSecurityDefinition(name: PyStr, value: PyValue): void {
    const definitions = this.securityDefinitions;
    if (definitions instanceof PyDict) definitions.set(name, value);
    else if (isPyMap(definitions)) (definitions as PlainPyDict)[textOf(name)] = value;
  }

  private securityDefinitionNames(): string[] {
    return isPyMap(this.securityDefinitions) ? pyKeys(this.securityDefinitions) : [];
  }

  addAwsIamSecurityDefinition(): void {
    const definition = new PyDict();
    const iam = new PyDict();
    definition.set('AWS_IAM', iam);
    iam.set('x-amazon-apigateway-authtype', 'awsSigv4');
    iam.set('type', 'apiKey');
    iam.set('name', 'Authorization');
    iam.set('in', 'header');
    if (!pyTruthy(this.securityDefinitions)) this.securityDefinitions = new PyDict();
    if (!isPyMap(this.securityDefinitions)) throw invalidDocument('securityDefinitions must be a dictionary.');
    if (!this.securityDefinitionNames().includes('AWS_IAM')) this.updateSecurityDefinitions(definition);
  }

  addApiKeySecurityDefinition(): void {
    const definition = new PyDict();
    const key = new PyDict();
    definition.set('api_key', key);
    key.set('type', 'apiKey');
    key.set('name', 'x-api-key');
    key.set('in', 'header');
    if (!pyTruthy(this.securityDefinitions)) this.securityDefinitions = new PyDict();
    if (!isPyMap(this.securityDefinitions)) throw invalidDocument('securityDefinitions must be a dictionary.');
    if (!this.securityDefinitionNames().includes('api_key')) this.updateSecurityDefinitions(definition);
  }

  private updateSecurityDefinitions(definition: PyDict): void {
    const definitions = this.securityDefinitions;
    if (definitions instanceof PyDict) definitions.update(definition);
    else if (isPyMap(definitions)) for (const [k, v] of definition.items()) (definitions as PlainPyDict)[textOf(k)] = v;
  }

  /** `iter_on_all_methods_for_path`: method name and definition, for methods with an integration. */
  private methodsOf(path: PyStr, skipWithoutIntegration = true): [string, PyDict][] {
    const out: [string, PyDict][] = [];
    for (const item of this.pathItems(path)) {
      for (const [name, method] of item.items()) {
        const methodName = textOf(name);
        if (EXCLUDED_PATH_FIELDS.includes(methodName)) continue;
        for (const definition of conditionalContents(method)) {
          if (!isPyMap(definition)) throw invalidDocument(`Definition of method '${methodName}' for path '${textOf(path)}' should be a map.`);
          if (skipWithoutIntegration && !pyTruthy(pyGet(definition, X_INTEGRATION))) continue;
          out.push([textOf(normalizeMethod(methodName)), definition as PyDict]);
        }
      }
    }
    return out;
  }

  /** `set_path_default_authorizer`. */
  setPathDefaultAuthorizer(path: PyStr, defaultAuthorizer: PyStr, authorizers: Map<string, RestAuthorizer>, toPreflight: boolean): void {
    for (const [methodName, definition] of this.methodsOf(path)) {
      if (!toPreflight && methodName === 'options') continue;
      const names = new Set(['AWS_IAM', ...authorizers.keys()]);
      const existing = this.existingSecurity(definition, path, methodName);
      const other: PyValue[] = [];
      const authorizerSecurity: PyValue[] = [];
      for (const security of existing) {
        if (!isPyMap(security)) throw invalidDocument(`${pyReprShort(security)} in Security for path ${textOf(path)} method ${methodName} is not a valid dictionary.`);
        if (pyKeys(security).some((k) => names.has(k))) authorizerSecurity.push(security);
        else other.push(security);
      }
      const noneIndex = other.findIndex((s) => pyHas(s as PyMap, 'NONE'));
      let chosen: PyValue[] = [];
      if (noneIndex > -1) other.splice(noneIndex, 1);
      else if (authorizerSecurity.length > 0) chosen = authorizerSecurity;
      else {
        const security = new PyDict();
        const scopes = authorizers.get(textOf(defaultAuthorizer))?.authorizationScopes;
        security.set(defaultAuthorizer, scopes !== undefined && scopes !== null ? scopes : []);
        chosen = [security];
      }
      const all = [...other, ...chosen];
      if (all.length > 0) {
        definition.set('security', all);
        if (isPyMap(all[0]) && pyHas(all[0], 'AWS_IAM')) this.addAwsIamSecurityDefinition();
      }
    }
  }

  /** `set_path_default_apikey_required`. */
  setPathDefaultApiKeyRequired(path: PyStr, toPreflight: boolean): void {
    for (const [methodName, definition] of this.methodsOf(path)) {
      const existing = this.existingSecurity(definition, path, methodName);
      const other: PyValue[] = [];
      const keys: PyValue[] = [];
      for (const security of existing) {
        if (!isPyMap(security)) throw invalidDocument(`${pyReprShort(security)} in Security for path ${textOf(path)} method ${methodName} is not a valid dictionary.`);
        if (pyKeys(security).some((k) => k === 'api_key' || k === 'api_key_false')) keys.push(security);
        else other.push(security);
      }
      let apiKey: PyValue[] = [];
      const falseIndex = keys.findIndex((s) => pyHas(s as PyMap, 'api_key_false'));
      if (falseIndex > -1) keys.splice(falseIndex, 1);
      else {
        const security = new PyDict();
        security.set('api_key', []);
        apiKey = [security];
      }
      let security = [...other, ...apiKey];
      if (methodName === 'options' && !toPreflight) security = other;
      if (!samePySecurity(security, existing)) definition.set('security', security);
    }
  }

  /** `add_auth_to_method`. */
  addAuthToMethod(path: PyStr, method: PyStr, auth: PyMap, api: PyMap): void {
    const authorizer = pyGet(auth, 'Authorizer');
    const scopes = pyGet(auth, 'AuthorizationScopes');
    const apiAuth = pyGet(api, 'Auth');
    const authorizers = isPyMap(apiAuth) ? pyGet(apiAuth, 'Authorizers') : undefined;
    if (pyTruthy(authorizer)) this.setMethodAuthorizer(path, method, authorizer as PyStr, authorizers, scopes);
    const required = pyGet(auth, 'ApiKeyRequired');
    if (required !== undefined && required !== null) this.setMethodApiKey(path, method, pyTruthy(required));
  }

  private setMethodAuthorizer(path: PyStr, method: PyStr, name: PyStr, authorizers: PyValue | undefined, scopes: PyValue | undefined): void {
    for (const definition of this.definitionsAt(path, method)) {
      const security = new PyDict();
      security.set(name, []);
      const existing = this.existingSecurity(definition, path, textOf(method));
      const all = [...existing, security];
      if (textOf(name) !== 'NONE' && isPyMap(authorizers) && pyTruthy(authorizers)) {
        const authorizer = pyGet(authorizers, textOf(name)) ?? new PyDict();
        if (!isPyMap(authorizer)) throw invalidDocument(`Type of authorizer '${textOf(name)}' must be a dictionary`);
        let methodScopes = pyGet(authorizer, 'AuthorizationScopes');
        if (scopes !== undefined && scopes !== null) methodScopes = scopes;
        if (pyGet(authorizers, textOf(name)) !== undefined && methodScopes !== undefined && methodScopes !== null) security.set(name, methodScopes);
      }
      definition.set('security', all);
      if (isPyMap(all[0]) && pyHas(all[0], 'AWS_IAM')) this.addAwsIamSecurityDefinition();
    }
  }

  private setMethodApiKey(path: PyStr, method: PyStr, required: boolean): void {
    for (const definition of this.definitionsAt(path, method)) {
      const security = new PyDict();
      security.set(required ? 'api_key' : 'api_key_false', []);
      if (required) this.addApiKeySecurityDefinition();
      const existing = this.existingSecurity(definition, path, textOf(method));
      const all = [...existing, security];
      definition.set('security', all);
    }
  }

  /** `add_request_validator_to_method`. */
  addRequestValidator(path: PyStr, method: PyStr, validateBody: boolean, validateParameters: boolean): void {
    const name = validateBody && validateParameters ? 'body-and-params' : validateBody ? 'body-only' : validateParameters ? 'params-only' : 'no-validation';
    const definition = new PyDict();
    const validator = new PyDict();
    definition.set(name, validator);
    validator.set('validateRequestBody', validateBody);
    validator.set('validateRequestParameters', validateParameters);
    if (!pyTruthy(this.doc.get(X_REQUEST_VALIDATORS))) this.doc.set(X_REQUEST_VALIDATORS, new PyDict());
    const validators = this.doc.get(X_REQUEST_VALIDATORS) as PyDict;
    if (!pyTruthy(validators.get(name))) validators.update(definition);
    for (const definition of this.definitionsAt(path, method)) definition.update(PyDict.from({ [X_REQUEST_VALIDATOR]: name }));
  }

  /** `add_request_model_to_method`. */
  addRequestModel(path: PyStr, method: PyStr, model: PyMap): void {
    const modelValue = pyGet(model, 'Model');
    const name = pyText(modelValue)!.toLowerCase();
    const modelName: PyStr = modelValue instanceof PyUnicode ? new PyUnicode(name) : name;
    const required = pyGet(model, 'Required');
    for (const definition of this.definitionsAt(path, method)) {
      if (this.doc.get('swagger') !== undefined && this.doc.get('swagger') !== null) {
        const parameters = (definition.get('parameters') as PyValue[] | undefined) ?? [];
        const parameter = new PyDict();
        parameter.set('in', 'body');
        parameter.set('name', modelName);
        parameter.set('schema', { $ref: `#/definitions/${name}` });
        if (required !== undefined && required !== null) parameter.set('required', required);
        parameters.push(parameter);
        definition.set('parameters', parameters);
      } else if (pyTruthy(this.doc.get('openapi')) && OPENAPI_VERSION_3.test(pyMessageText(this.doc.get('openapi')))) {
        const body: PlainPyDict = { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } };
        if (required !== undefined && required !== null) body.required = required;
        definition.set('requestBody', body);
      }
    }
  }

  /** `add_request_parameters_to_method`. */
  addRequestParameters(path: PyStr, method: PyStr, parameters: { name: PyStr; required: PyValue; caching: PyValue }[]): void {
    for (const definition of this.definitionsAt(path, method)) {
      const existing = (definition.get('parameters') as PyValue[] | undefined) ?? [];
      for (const p of parameters) {
        const text = textOf(p.name).replace('method.request.', '');
        const dot = text.indexOf('.');
        const location = text.slice(0, dot);
        const name = text.slice(dot + 1);
        const parameter = new PyDict();
        const keep = (s: string): PyStr => (p.name instanceof PyUnicode ? new PyUnicode(s) : s);
        // `querystring` becomes SAM's own string; the other locations stay the template's text.
        parameter.set('in', location === 'querystring' ? 'query' : keep(location));
        parameter.set('name', keep(name));
        parameter.set('required', p.required);
        parameter.set('type', 'string');
        existing.push(parameter);
        if (pyTruthy(p.caching)) {
          const integration = definition.get(X_INTEGRATION) as PyDict;
          const cache = (integration.get('cacheKeyParameters') as PyValue[] | undefined) ?? [];
          cache.push(p.name);
          integration.set('cacheKeyParameters', cache);
        }
      }
      definition.set('parameters', existing);
    }
  }

  /** `add_gateway_responses`. */
  addGatewayResponses(responses: [PyStr, PyDict][]): void {
    if (!pyTruthy(this.gatewayResponses)) this.gatewayResponses = new PyDict();
    for (const [type, swagger] of responses) {
      if (this.gatewayResponses instanceof PyDict) this.gatewayResponses.set(type, swagger);
      else (this.gatewayResponses as PlainPyDict)[textOf(type)] = swagger;
    }
  }

  /** `add_models`. */
  addModels(models: PyMap): void {
    if (!pyTruthy(this.definitions)) this.definitions = new PyDict();
    const items: [PyStr, PyValue][] = models instanceof PyDict ? models.items() : Object.entries(models);
    for (const [name, schema] of items) {
      if (!isPyMap(schema) || !pyTruthy(pyGet(schema, 'type'))) throw invalidDocument("'Models' schema is missing 'type'.");
      const lower: PyStr = name instanceof PyUnicode ? new PyUnicode(name.text.toLowerCase()) : name.toLowerCase();
      if (this.definitions instanceof PyDict) this.definitions.set(lower, schema);
      else (this.definitions as PlainPyDict)[textOf(lower)] = schema;
    }
  }

  /**
   * `add_resource_policy` for one path. A source VPC that reads a parameter with no value at hand
   * (`withoutValue`), which SAM would have resolved to a string, stands in as a VPC id.
   */
  addResourcePolicy(policy: PyMap, path: PyStr, stage: PyValue, withoutValue: (value: PyValue) => boolean = () => false): void {
    const get = (key: string) => pyGet(policy, key);
    const resources = () => this.methodPathUris(path, stage);
    if (get('AwsAccountWhitelist') !== undefined && get('AwsAccountWhitelist') !== null) this.addIamPolicy(get('AwsAccountWhitelist')!, 'Allow', resources());
    if (get('AwsAccountBlacklist') !== undefined && get('AwsAccountBlacklist') !== null) this.addIamPolicy(get('AwsAccountBlacklist')!, 'Deny', resources());
    if (get('IpRangeWhitelist') !== undefined && get('IpRangeWhitelist') !== null) this.addIpPolicy(get('IpRangeWhitelist')!, 'NotIpAddress', resources());
    if (get('IpRangeBlacklist') !== undefined && get('IpRangeBlacklist') !== null) this.addIpPolicy(get('IpRangeBlacklist')!, 'IpAddress', resources());
    if (!resolvedList(get('SourceVpcBlacklist'), withoutValue)) {
      throw invalidDocument('SourceVpcBlacklist must be a list of strings. Use IntrinsicVpcBlacklist instead for values that use Intrinsic Functions');
    }
    const uris = resources();
    this.addVpcPolicy(get('SourceVpcBlacklist'), get('IntrinsicVpcBlacklist'), get('IntrinsicVpceBlacklist'), 'StringEquals', uris, withoutValue);
    if (!resolvedList(get('SourceVpcWhitelist'), withoutValue)) {
      throw invalidDocument('SourceVpcWhitelist must be a list of strings. Use IntrinsicVpcWhitelist instead for values that use Intrinsic Functions');
    }
    this.addVpcPolicy(get('SourceVpcWhitelist'), get('IntrinsicVpcWhitelist'), get('IntrinsicVpceWhitelist'), 'StringNotEquals', uris, withoutValue);
    this.doc.set(X_POLICY, this.resourcePolicy);
  }

  /** `add_custom_statements`. */
  addCustomStatements(statements: PyValue): void {
    if (statements !== undefined && statements !== null) {
      this.resourcePolicy.set('Version', '2012-10-17');
      const current = this.resourcePolicy.get('Statement');
      if (current === undefined || current === null) this.resourcePolicy.set('Statement', statements);
      else {
        const list = Array.isArray(statements) ? statements : [statements];
        const existing = Array.isArray(current) ? current : [current];
        for (const s of list) if (!existing.some((e) => pyEqual(e, s))) existing.push(s);
        this.resourcePolicy.set('Statement', existing);
      }
    }
    this.doc.set(X_POLICY, this.resourcePolicy);
  }

  private methodPathUris(path: PyStr, stage: PyValue): PyValue[] {
    const methods: PyStr[] = [];
    for (const item of this.pathItems(path)) methods.push(...item.items().map(([k]) => k));
    const bare = pathWithoutParameters(textOf(path));
    return methods.map((m) => {
      const lower = textOf(m).toLowerCase();
      const method = lower === X_ANY_METHOD || lower === 'any' ? '*' : textOf(m).toUpperCase();
      const text = `execute-api:/\${__Stage__}/${method}${bare}`;
      const resource = (m instanceof PyUnicode && method !== '*') || path instanceof PyUnicode ? new PyUnicode(text) : text;
      return { 'Fn::Sub': [resource, { __Stage__: stage }] };
    });
  }

  private addIamPolicy(accounts: PyValue, effect: string, resources: PyValue[]): void {
    if (!pyTruthy(accounts)) return;
    if (!isPyMap(accounts) && !Array.isArray(accounts)) throw invalidDocument(`Type of '${pyText(accounts) ?? String(accounts)}' must be a list or dictionary`);
    const list = Array.isArray(accounts) ? accounts : [accounts];
    this.resourcePolicy.set('Version', '2012-10-17');
    const statement = new PyDict();
    statement.set('Effect', effect);
    statement.set('Action', 'execute-api:Invoke');
    statement.set('Resource', resources);
    statement.set('Principal', PyDict.from({ AWS: list }));
    this.appendStatements([statement], false);
  }

  private addIpPolicy(ips: PyValue, conditional: string, resources: PyValue[]): void {
    if (!pyTruthy(ips)) return;
    const list = Array.isArray(ips) ? ips : [ips];
    this.allowUnlessDenied(resources, { [conditional]: { 'aws:SourceIp': list } });
  }

  private addVpcPolicy(endpoints: PyValue | undefined, intrinsicVpc: PyValue | undefined, intrinsicVpce: PyValue | undefined, conditional: string, resources: PyValue[], withoutValue: (value: PyValue) => boolean): void {
    const condition = new PyDict();
    const append = (key: string, values: PyValue[]) => {
      const list = condition.setdefault(key, []) as PyValue[];
      list.push(...values);
    };
    if (endpoints !== undefined && endpoints !== null) {
      const vpc: PyValue[] = [];
      const vpce: PyValue[] = [];
      for (const endpoint of endpoints as PyValue[]) {
        const text = pyText(endpoint) ?? '';
        if (text.startsWith('vpce-')) vpce.push(endpoint);
        if (text.startsWith('vpc-') || withoutValue(endpoint)) vpc.push(endpoint);
      }
      if (vpc.length > 0) append('aws:SourceVpc', vpc);
      if (vpce.length > 0) append('aws:SourceVpce', vpce);
    }
    if (intrinsicVpc !== undefined && intrinsicVpc !== null) append('aws:SourceVpc', intrinsicVpc as PyValue[]);
    if (intrinsicVpce !== undefined && intrinsicVpce !== null) append('aws:SourceVpce', intrinsicVpce as PyValue[]);
    if (!pyTruthy(condition.get('aws:SourceVpc')) && !pyTruthy(condition.get('aws:SourceVpce'))) return;
    this.allowUnlessDenied(resources, { [conditional]: condition });
  }

  /**
   * An allow of `execute-api:Invoke` on `resources` for everyone, and a deny under `condition`,
   * in SAM's key order (the order is part of the API definition, hence of the deployment hash).
   */
  private allowUnlessDenied(resources: PyValue[], condition: PyValue): void {
    this.resourcePolicy.set('Version', '2012-10-17');
    const statement = (effect: 'Allow' | 'Deny') => {
      const dict = new PyDict();
      dict.set('Effect', effect);
      dict.set('Action', 'execute-api:Invoke');
      dict.set('Resource', resources);
      dict.set('Principal', '*');
      return dict;
    };
    const deny = statement('Deny');
    deny.set('Condition', condition);
    this.appendStatements([statement('Allow'), deny], true);
  }

  private appendStatements(statements: PyDict[], asList: boolean): void {
    const current = this.resourcePolicy.get('Statement');
    if (current === undefined || current === null) {
      this.resourcePolicy.set('Statement', asList ? statements : statements[0]!);
      return;
    }
    const existing = Array.isArray(current) ? current : [current];
    for (const s of statements) if (!asList || !existing.some((e) => pyEqual(e, s))) existing.push(s);
    this.resourcePolicy.set('Statement', existing);
  }

  /** `add_disable_execute_api_endpoint_extension`. */
  addDisableExecuteApiEndpoint(value: PyValue): void {
    const openapi = this.doc.get('openapi');
    if (pyTruthy(openapi) && OPENAPI_VERSION_3.test(pyMessageText(openapi))) {
      const servers = (this.doc.get('servers') as PyValue[] | undefined) ?? [new PyDict()];
      servers.forEach((config, index) => {
        if (!isPyMap(config)) throw invalidDocument(`Invalid OpenAPI definition of 'servers[${index}]': The value of 'servers[${index}]' should be a map.`);
        setDeep(config, X_ENDPOINT_CONFIG, 'disableExecuteApiEndpoint', value, `Invalid OpenAPI definition of 'servers[${index}]'`);
      });
      this.doc.set('servers', servers);
    } else setDeep(this.doc, X_ENDPOINT_CONFIG, 'disableExecuteApiEndpoint', value, 'Invalid OpenAPI definition');
  }
}

/** `dict_deep_set` for a two-level path, with SAM's wording when a level is not a map. */
function setDeep(dict: PyMap, first: string, second: string, value: PyValue, context: string): void {
  let inner = pyGet(dict, first);
  if (inner === undefined) {
    inner = new PyDict();
    if (dict instanceof PyDict) dict.set(first, inner);
    else dict[first] = inner;
  }
  if (!isPyMap(inner)) throw invalidDocument(`${context}: The value of '${first}' should be a map.`);
  if (inner instanceof PyDict) inner.set(second, value);
  else inner[second] = value;
}

/** `_validate_list_property_is_resolved`: absent, or a list of strings (or of values that read a parameter with no value at hand, which SAM would have resolved). */
function resolvedList(value: PyValue | undefined, withoutValue: (value: PyValue) => boolean): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.every((v) => pyText(v) !== undefined || withoutValue(v)));
}

/** Python's `==` between swagger values. */
export function pyEqual(a: PyValue | undefined, b: PyValue | undefined): boolean {
  if (pyText(a) !== undefined || pyText(b) !== undefined) return pyText(a) === pyText(b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  if (isPyMap(a)) {
    if (!isPyMap(b)) return false;
    const ka = pyKeys(a);
    const kb = pyKeys(b);
    return ka.length === kb.length && ka.every((k) => kb.includes(k) && pyEqual(pyGet(a, k), pyGet(b, k)));
  }
  return a === b;
}

function samePySecurity(a: PyValue[], b: PyValue[]): boolean {
  return pyEqual(a, b);
}

/** A short Python-like rendering of a value, for error messages. */
function pyReprShort(value: PyValue): string {
  if (Array.isArray(value)) return `[${value.map((v) => pyReprShort(v)).join(', ')}]`;
  return pyText(value) ?? String(value);
}

