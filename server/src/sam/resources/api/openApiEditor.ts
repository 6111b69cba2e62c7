/**
 * The OpenAPI 3 document of an HTTP API, edited as SAM edits it (samtranslator/open_api/open_api.py):
 * `aws_proxy` integrations with payload format 2.0, path parameters, authorizers in
 * `components.securitySchemes`, the default authorizer, tags, CORS, the endpoint configuration,
 * title and description. Like the swagger editor, it works on SAM's Python 2.7 dicts, deep-copied
 * where SAM deep-copies them: an `HttpApi` event may name a REST API, whose deployment's logical
 * id is a hash of the document.
 */
import { invalidDocument } from '../../model/errors';
import { definitionSkeleton } from './swaggerEditor';
import { PyDict, PyUnicode, textOf, type PyStr, type PyValue } from '../../python/py27Dict';
import { pyStr } from '../../python/pyRepr';
import {
  BaseEditor,
  conditionalContents,
  makePyConditional,
  normalizeMethod,
  OPENAPI_VERSION_3,
  X_ANY_METHOD,
  X_INTEGRATION,
  type PyMap,
} from './baseEditor';
import { pyMessageText, pyTypeName } from '../../python/pyRepr';
import type { HttpAuthorizer } from './httpAuthorizer';
import { fromTemplate, isPyMap, pyGet, pyKeys, pySize, pyText, pyTruthy, toPlain } from '../../model/pyValues';
import { setEntry } from '../../../template/tree';

export const DEFAULT_PATH = '$default';
const X_TAG_VALUE = 'x-amazon-apigateway-tag-value';
const X_CORS = 'x-amazon-apigateway-cors';
const X_ENDPOINT_CONFIG = 'x-amazon-apigateway-endpoint-configuration';
const OPTIONS = 'options';
/** The title SAM's skeleton gives, which a `Name` may replace. */
const DEFAULT_TITLE = { Ref: 'AWS::StackName' };

/** `OpenApiEditor.is_valid`: a dict with a `paths` dict and an `openapi` 3.x version. */
export function isValidOpenApi(doc: unknown): boolean {
  const value = doc instanceof PyDict ? doc : undefined;
  if (!value || value.size === 0 || !isPyMap(value.get('paths'))) return false;
  const version = value.get('openapi');
  return pyTruthy(version) && OPENAPI_VERSION_3.test(pyMessageText(version));
}

/** `gen_skeleton`: OpenAPI 3.0.1, `info` with the stack name as title, no paths. */
export function openApiSkeleton(): PyDict {
  return definitionSkeleton('openapi', '3.0.1');
}

/** `get_path_without_trailing_slash`: path parameters (and `{proxy+}`) as `*`. */
export function pathWithoutTrailingSlash(path: string): string {
  return path.replace(/\{([a-zA-Z0-9._-]+|proxy\+)\}/g, '*');
}

/** `dict_deep_get` of a dotted path, with SAM's wording when a level is not a map. */
function deepGet(doc: PyDict, path: string): PyValue | undefined {
  let current: PyValue | undefined = doc;
  const keys = path.split('.');
  for (let i = 0; i < keys.length; i++) {
    if (current === undefined || current === null) return undefined;
    if (!isPyMap(current)) throw invalidDocument(`Invalid OpenApi document: The value of '${keys.slice(0, i).join('.')}' should be a map.`);
    current = pyGet(current, keys[i]!);
  }
  return current;
}

/** SAM's OpenAPI editor over one document, which it takes as SAM's editor takes a deep copy of it. */
export class OpenApiEditor extends BaseEditor {
  private securitySchemes: PyValue;
  private readonly tags: PyValue;
  private readonly info: PyValue;

  constructor(document: unknown) {
    const doc = document instanceof PyDict ? document : fromTemplate(document);
    if (!(doc instanceof PyDict) || !isValidOpenApi(doc) || !(doc.get('paths') instanceof PyDict)) {
      throw invalidDocument("Invalid OpenApi document. Invalid values or missing keys for 'openapi' or 'paths' in 'DefinitionBody'.");
    }
    // SAM deep-copies the document here, which can reorder its dicts (py27Dict.ts): this matters
    // when the document is a REST API's, whose deployment is named by a hash of it.
    PyDict.deepCopyInPlace(doc);
    super(doc, doc.get('paths') as PyDict);
    this.securitySchemes = orNew(deepGet(doc, 'components.securitySchemes'));
    // SAM reads `definitions` too (and fails on a non-map on the way), though HTTP APIs never write it.
    deepGet(doc, 'definitions');
    const tags = deepGet(doc, 'tags');
    this.tags = pyTruthy(tags) ? tags! : [];
    this.info = orNew(deepGet(doc, 'info'));
  }

  /** `openapi`: the document with the editor's changes. */
  get openapi(): PyDict {
    this.doc.set('paths', this.paths);
    if (pyTruthy(this.tags)) this.doc.set('tags', this.tags);
    if (pyTruthy(this.securitySchemes)) {
      if (!pyTruthy(this.doc.get('components'))) this.doc.set('components', new PyDict());
      const components = this.doc.get('components');
      if (!isPyMap(components)) throw invalidDocument("Invalid OpenApi document: The value of 'components' should be a map.");
      setItem(components, 'securitySchemes', this.securitySchemes);
    }
    if (pyTruthy(this.info)) this.doc.set('info', this.info);
    PyDict.deepCopyInPlace(this.doc);
    return this.doc;
  }

  /** `is_integration_function_logical_id_match`: every integration at the path and method invokes that function. */
  isIntegrationFunctionLogicalIdMatch(path: string, method: string, logicalId: string): boolean {
    if (!this.hasIntegration(path, method)) return false;
    for (const definition of this.definitionsAt(path, method, false)) {
      const integration = definition.get(X_INTEGRATION) ?? new PyDict();
      if (!isPyMap(integration)) throw invalidDocument(`Value of '${X_INTEGRATION}' must be a dictionary according to Swagger spec.`);
      const uri = pyGet(integration, 'uri');
      if (!isPyMap(uri)) return false;
      for (const content of conditionalContents(uri)) {
        const arn = isPyMap(content) ? (pyText(pyGet(content, 'Fn::Sub')) ?? '') : '';
        const match = /([A-Za-z0-9]+\.Arn)/.exec(arn);
        if (!match || match[1]!.split('.Arn')[0] !== logicalId) return false;
      }
    }
    return true;
  }

  /** `add_lambda_integration`: an `aws_proxy` integration with payload format 2.0, unless the method has one already. */
  addLambdaIntegration(path: PyStr, method: PyStr, uri: PyValue, condition: PyValue | undefined): void {
    const normalized = normalizeMethod(method);
    if (this.hasIntegration(path, normalized)) return;
    this.addPath(path, normalized);
    const integrationUri = condition !== undefined ? makePyConditional(condition, uri) : uri;
    const key = textOf(normalized);
    for (const item of this.pathItems(path)) {
      if (item.get(key) === null) item.set(normalized, new PyDict());
      const definition = item.get(key) as PyDict;
      const integration = new PyDict();
      definition.set(X_INTEGRATION, integration);
      integration.set('type', 'aws_proxy');
      integration.set('httpMethod', 'POST');
      integration.set('payloadFormatVersion', '2.0');
      integration.set('uri', integrationUri);
      if (textOf(path) === DEFAULT_PATH && key === X_ANY_METHOD) definition.set('isDefaultRoute', true);
      definition.setdefault('responses', new PyDict());
      if (condition !== undefined) item.set(normalized, makePyConditional(condition, definition));
    }
  }

  /** `add_timeout_to_method`. */
  addTimeoutToMethod(path: PyStr, method: PyStr, timeout: PyValue): void {
    for (const definition of this.definitionsAt(path, method)) setItem(definition.get(X_INTEGRATION) as PyMap, 'timeoutInMillis', timeout);
  }

  /** `add_path_parameters_to_method`: each `{name}` of the path as a required path parameter. */
  addPathParametersToMethod(path: PyStr, method: PyStr, names: readonly string[]): void {
    for (const definition of this.definitionsAt(path, method)) {
      const parameters = definition.setdefault('parameters', []);
      if (!Array.isArray(parameters)) continue;
      for (const name of names) {
        const existing = parameters.find((p) => isPyMap(p) && pyText(pyGet(p, 'name')) === name);
        if (existing && isPyMap(existing)) {
          setItem(existing, 'in', 'path');
          setItem(existing, 'required', true);
        } else {
          const parameter = new PyDict();
          parameter.set('name', new PyUnicode(name));
          parameter.set('in', 'path');
          parameter.set('required', true);
          parameters.push(parameter);
        }
      }
    }
  }

  /** `add_payload_format_version_to_method`. */
  addPayloadFormatVersionToMethod(path: PyStr, method: PyStr, version: PyValue): void {
    for (const definition of this.definitionsAt(path, method)) setItem(definition.get(X_INTEGRATION) as PyMap, 'payloadFormatVersion', version);
  }

  /** `add_authorizers_security_definitions`: each authorizer's scheme under `components.securitySchemes`. */
  addAuthorizersSecurityDefinitions(authorizers: ReadonlyMap<string, HttpAuthorizer>): void {
    if (!pyTruthy(this.securitySchemes)) this.securitySchemes = new PyDict();
    for (const [name, authorizer] of authorizers) setItem(this.securitySchemes as PyMap, name, authorizer.openApi());
  }

  /** `set_path_default_authorizer`: the default authorizer on every integrated method without security, except `options`. */
  setPathDefaultAuthorizer(path: PyStr, defaultAuthorizer: string, authorizers: ReadonlyMap<string, HttpAuthorizer>): void {
    for (const item of this.pathItems(path)) {
      for (const [name, method] of item.items()) {
        const normalized = textOf(normalizeMethod(name));
        if (normalized === 'parameters' || normalized === OPTIONS) continue;
        if (!item.has(normalized)) throw invalidDocument(`Could not find ${normalized} in ${textOf(path)} within DefinitionBody.`);
        for (const definition of conditionalContents(method)) {
          if (!isPyMap(definition)) throw invalidDocument(`Definition of method '${textOf(name)}' for path '${textOf(path)}' should be a map.`);
          if (!pyTruthy(pyGet(definition, X_INTEGRATION))) continue;
          if (pyTruthy(pyGet(definition, 'security'))) continue;
          const scopes = authorizers.get(defaultAuthorizer)?.authorizationScopes;
          setItem(definition, 'security', [{ [defaultAuthorizer]: Array.isArray(scopes) ? scopes : [] }]);
        }
      }
    }
  }

  /** `add_auth_to_method`: the method's own authorizer (and scopes), after any security it has. */
  addAuthToMethod(path: PyStr, method: PyStr, auth: PyMap, apiAuthorizers: PyValue | undefined): void {
    const authorizer = pyText(pyGet(auth, 'Authorizer'));
    if (!authorizer) return;
    const scopes = pyGet(auth, 'AuthorizationScopes') ?? [];
    for (const definition of this.definitionsAt(path, method)) {
      const security: PyValue[] = [];
      if (authorizer !== 'NONE' && authorizer !== 'AWS_IAM') {
        const declared = isPyMap(apiAuthorizers) ? pyGet(apiAuthorizers, authorizer) : undefined;
        if (declared !== undefined && !isPyMap(declared)) throw invalidDocument(`Type of authorizer '${authorizer}' must be a dictionary`);
        let methodScopes = declared === undefined ? undefined : pyGet(declared as PyMap, 'AuthorizationScopes');
        if (pyTruthy(scopes)) methodScopes = scopes;
        security.push({ [authorizer]: pyTruthy(declared) && pyTruthy(methodScopes) ? methodScopes! : [] });
      } else security.push({ [authorizer]: [] });
      const existing = this.existingSecurity(definition, path, textOf(method));
      definition.set('security', [...existing, ...security]);
    }
  }

  /** `add_tags`: each tag as `{name, x-amazon-apigateway-tag-value}` in the document's `tags` list. */
  addTags(tags: readonly [string, PyValue][]): void {
    for (const [name, value] of tags) {
      if (!Array.isArray(this.tags)) {
        throw invalidDocument(`Tags in OpenApi DefinitionBody needs to be a list. ${pyStr(toPlain(this.tags) as PyValue)} is a ${pyTypeName(this.tags)} not a list.`);
      }
      const existing = this.tags.find((tag) => isPyMap(tag) && pyText(pyGet(tag, 'name')) === name);
      if (existing && isPyMap(existing)) setItem(existing, X_TAG_VALUE, value);
      else {
        const tag = new PyDict();
        tag.set('name', name);
        tag.set(X_TAG_VALUE, value);
        this.tags.push(tag);
      }
    }
  }

  /** `add_endpoint_config`: `disableExecuteApiEndpoint` in every server's endpoint configuration. */
  addEndpointConfig(disable: PyValue): void {
    const servers = this.doc.get('servers') ?? [new PyDict()];
    if (Array.isArray(servers)) {
      for (const config of servers) {
        if (!isPyMap(config)) throw invalidDocument("Value of 'servers' item must be a dictionary according to Swagger spec.");
        const endpoint = pyGet(config, X_ENDPOINT_CONFIG) ?? {};
        if (isPyMap(endpoint)) setItem(endpoint, 'disableExecuteApiEndpoint', disable);
        setItem(config, X_ENDPOINT_CONFIG, endpoint);
      }
    }
    this.doc.set('servers', servers);
  }

  /** `add_cors`: the CORS configuration extension, merged over one the document may have. */
  addCors(cors: { origins: PyValue; headers?: PyValue; methods?: PyValue; expose?: PyValue; maxAge?: PyValue; credentials?: PyValue }, intrinsicOrigins: boolean): void {
    const configuration = this.doc.get(X_CORS) ?? new PyDict();
    if (!isPyMap(configuration)) throw invalidDocument(`Value of '${X_CORS}' must be a dictionary according to Swagger spec.`);
    if (intrinsicOrigins) {
      // SAM renames the capitalised keys inside the intrinsic by text substitution of its JSON.
      const renamed = fromTemplate(JSON.parse(renameCorsKeys(JSON.stringify(toJson(cors.origins)))) as unknown);
      if (isPyMap(renamed)) for (const key of pyKeys(renamed)) setItem(configuration, key, pyGet(renamed, key)!);
    } else {
      if (pyTruthy(cors.origins)) setItem(configuration, 'allowOrigins', cors.origins);
      if (pyTruthy(cors.headers)) setItem(configuration, 'allowHeaders', cors.headers!);
      if (pyTruthy(cors.methods)) setItem(configuration, 'allowMethods', cors.methods!);
      if (pyTruthy(cors.expose)) setItem(configuration, 'exposeHeaders', cors.expose!);
      if (cors.maxAge !== undefined && cors.maxAge !== null) setItem(configuration, 'maxAge', cors.maxAge);
      if (cors.credentials === true) setItem(configuration, 'allowCredentials', true);
    }
    this.doc.set(X_CORS, configuration);
  }

  /** `add_description`, unless the document has one. */
  addDescription(description: PyValue): void {
    if (!isPyMap(this.info) || pyTruthy(pyGet(this.info, 'description'))) return;
    setItem(this.info, 'description', description);
  }

  /** `add_title`, unless the document's title is not SAM's default. */
  addTitle(title: PyValue): void {
    if (!isPyMap(this.info) || !isDefaultTitle(pyGet(this.info, 'title'))) return;
    setItem(this.info, 'title', title);
  }
}

/** Whether a title is `{Ref: AWS::StackName}`, the title of SAM's skeleton. */
export function isDefaultTitle(title: PyValue | undefined): boolean {
  return isPyMap(title) && pySize(title) === 1 && pyText(pyGet(title, 'Ref')) === DEFAULT_TITLE.Ref;
}

function orNew(value: PyValue | undefined): PyValue {
  return pyTruthy(value) ? value! : new PyDict();
}

/** `d[key] = value` on either kind of dict. */
function setItem(dict: PyMap, key: string, value: PyValue): void {
  if (dict instanceof PyDict) dict.set(key, value);
  else setEntry(dict, key, value);
}

/** A swagger value as JSON-ready data. */
function toJson(value: PyValue): unknown {
  if (value instanceof PyUnicode) return value.text;
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof PyDict) return Object.fromEntries(value.items().map(([k, v]) => [textOf(k), toJson(v)]));
  if (isPyMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)]));
  return value;
}

/** `AllowOrigins` → `allowOrigins` and the like, anywhere in a JSON text, as SAM replaces them. */
function renameCorsKeys(json: string): string {
  let out = json;
  for (const header of ['allowOrigins', 'allowHeaders', 'allowMethods', 'exposeHeaders', 'maxAge', 'allowCredentials']) {
    out = out.split(header[0]!.toUpperCase() + header.slice(1)).join(header);
  }
  return out;
}

