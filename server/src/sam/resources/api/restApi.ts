/**
 * `AWS::Serverless::Api` and the implicit `ServerlessRestApi` (SamApi, api_generator.py): the
 * `AWS::ApiGateway::RestApi` with its definition (CORS, auth, gateway responses, binary media
 * types, models written into it), the `Deployment` named by a hash of that definition, the
 * `Stage`, the permissions of Lambda authorizers, a custom domain and a usage plan. A changed
 * definition is a new deployment resource: that is how API Gateway redeploys the stage.
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidDocument, invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { resolveParameterRefs } from '../../model/intrinsics';
import { generateLogicalId } from '../../model/logicalIds';
import { IS_BOOL, IS_DICT, IS_INT, IS_LIST, IS_STR, oneOf, PASS_THROUGH, strict, typed, checkProperties, type PropertySpec } from '../../model/properties';
import { PyDict, PyUnicode, type PyStr, type PyValue } from '../../python/py27Dict';
import { pythonJsonDumpsUnsorted } from '../../python/pythonJson';
import { pyStr } from '../../python/pyRepr';
import { sha1Hex } from '../../python/sha1';
import { isLocalPath, noteLocalPath, PACKAGED_BUCKET, parseS3Uri } from '../../model/s3Location';
import { isIntrinsic, isMap, tagList, type PlainMap } from '../../model/values';
import { propagateTags } from '../function/function';
import { RestAuthorizer } from './authorizer';
import { sourceVpcsWithoutValue } from './resourcePolicy';
import { constructRestApiDomain } from './restApiDomain';
import { fromTemplate, isPyMap, pyGet, pyKeys, pyText, pyTruthy, toPlain } from '../../model/pyValues';
import { OPENAPI_VERSION_3 } from './baseEditor';
import { pyMessageText, pyTypeName } from '../../python/pyRepr';
import { isValidSwagger, SwaggerEditor } from './swaggerEditor';
import { constructUsagePlan } from './usagePlan';

const API_PROPERTIES: Record<string, PropertySpec> = {
  __MANAGE_SWAGGER: typed(IS_BOOL),
  Name: typed(oneOf(IS_STR, IS_DICT)),
  StageName: typed(oneOf(IS_STR, IS_DICT), true),
  Tags: typed(IS_DICT),
  PropagateTags: typed(IS_BOOL),
  DefinitionBody: typed(IS_DICT),
  DefinitionUri: typed(oneOf(IS_STR, IS_DICT)),
  MergeDefinitions: strict(IS_BOOL),
  CacheClusterEnabled: typed(IS_BOOL),
  CacheClusterSize: typed(IS_STR),
  Variables: typed(IS_DICT),
  EndpointConfiguration: typed(oneOf(IS_STR, IS_DICT)),
  MethodSettings: typed(IS_LIST),
  BinaryMediaTypes: typed(IS_LIST),
  MinimumCompressionSize: typed(IS_INT),
  Cors: typed(oneOf(IS_STR, IS_DICT)),
  Auth: typed(IS_DICT),
  GatewayResponses: typed(IS_DICT),
  AccessLogSetting: typed(IS_DICT),
  CanarySetting: typed(IS_DICT),
  TracingEnabled: typed(IS_BOOL),
  OpenApiVersion: typed(IS_STR),
  Models: typed(IS_DICT),
  Domain: typed(IS_DICT),
  FailOnWarnings: typed(IS_BOOL),
  Description: typed(IS_STR),
  Mode: typed(IS_STR),
  DisableExecuteApiEndpoint: typed(IS_BOOL),
  ApiKeySourceType: typed(IS_STR),
  AlwaysDeploy: strict(IS_BOOL),
  SecurityPolicy: PASS_THROUGH,
  EndpointAccessMode: PASS_THROUGH,
  Policy: PASS_THROUGH,
};

const CORS_FIELDS = ['AllowMethods', 'AllowHeaders', 'AllowOrigin', 'MaxAge', 'AllowCredentials'];
const AUTH_FIELDS = ['Authorizers', 'DefaultAuthorizer', 'InvokeRole', 'AddDefaultAuthorizerToCorsPreflight', 'AddApiKeyRequiredToCorsPreflight', 'ApiKeyRequired', 'ResourcePolicy', 'UsagePlan'];
const GATEWAY_RESPONSE_FIELDS = ['ResponseParameters', 'ResponseTemplates', 'StatusCode'];
const CORS_WILDCARD = "'*'";
const SUPPORTED_OPENAPI_VERSIONS = /^[2-3](\.\d)(\.\d)?$/;

/** Generated resource types whose `Tags` SAM sets when an API's tags propagate. */
const API_TAGGABLE = new Set(['AWS::ApiGateway::RestApi', 'AWS::ApiGateway::Stage', 'AWS::ApiGateway::DomainName', 'AWS::ApiGateway::UsagePlan', 'AWS::ApiGateway::ApiKey']);

/** Translates an `AWS::Serverless::Api`. */
export function translateRestApi(ctx: TranslationContext, sam: SamResource): GeneratedResource[] | SamError {
  const p = sam.properties;
  const invalid = checkProperties(sam.logicalId, sam.type, p, API_PROPERTIES);
  if (invalid) return invalid;
  try {
    return new RestApiGenerator(ctx, sam).resources();
  } catch (error) {
    // An invalid definition is the template's error, worded without the resource (SAM raises it
    // as a document error); the property checks that name the resource wrap it themselves (Cors).
    if (error instanceof SamError) return error;
    throw error;
  }
}

class RestApiGenerator {
  private readonly p: PlainMap;
  private definitionBody: PyDict | undefined;
  private readonly binaryMedia: unknown;
  private readonly domain: PyValue | undefined;
  private readonly auth: PlainMap | undefined;
  private openApiVersion: PyValue | undefined;
  private readonly removeExtraStage: unknown;
  private readonly partition: string;

  constructor(
    private readonly ctx: TranslationContext,
    private readonly sam: SamResource,
  ) {
    this.p = sam.properties;
    this.partition = ctx.partition;
    this.binaryMedia = resolveParameterRefs(this.p.BinaryMediaTypes, ctx.parameters);
    const domain = resolveParameterRefs(this.p.Domain, ctx.parameters);
    this.domain = domain === undefined || domain === null ? undefined : fromTemplate(domain);
    const auth = resolveParameterRefs(this.p.Auth, ctx.parameters);
    this.auth = isMap(auth) ? auth : undefined;
    const body = this.p.DefinitionBody;
    if (body !== undefined && body !== null) {
      const converted = fromTemplate(body);
      if (!(converted instanceof PyDict)) throw invalidResource(sam.logicalId, "Property 'DefinitionBody' should be a map.", ['Properties', 'DefinitionBody']);
      this.definitionBody = converted;
    }
    this.openApiVersion = this.p.OpenApiVersion === undefined || this.p.OpenApiVersion === null ? undefined : fromTemplate(this.p.OpenApiVersion);
    this.removeExtraStage = this.p.OpenApiVersion;
  }

  /** A property value as SAM holds it: the implicit API's own values are plain strings, an explicit API's are template text. */
  private samOwned(value: unknown): PyValue {
    return this.ctx.implicitApis.has(this.sam.logicalId) && typeof value === 'string' ? value : fromTemplate(value);
  }

  private fail(detail: string, ...path: (string | number)[]): SamError {
    return invalidResource(this.sam.logicalId, detail, path.length > 0 ? ['Properties', ...path] : []);
  }

  resources(): GeneratedResource[] {
    const restApi = this.restApi();
    const domain = constructRestApiDomain(this.ctx, this.sam, this.domain, restApi);
    const deployment = this.sam.generate(`${this.sam.logicalId}Deployment`, 'AWS::ApiGateway::Deployment', undefined);
    deployment.set('RestApiId', restApi.ref());
    if (!this.removeExtraStage) deployment.set('StageName', 'Stage');
    const swagger = restApi.get('Body') !== undefined ? this.definitionBody : restApi.get('BodyS3Location') !== undefined ? this.bodyS3 : undefined;
    const stage = this.stage(deployment, swagger);
    const permissions = this.authorizerPermissions();
    const usagePlan = constructUsagePlan(this.ctx, this.sam, this.auth, stage);
    const resources = [restApi, deployment, stage, ...permissions, ...domain, ...usagePlan];
    propagateTags(resources, this.p.Tags, this.p.PropagateTags, (type) => API_TAGGABLE.has(type));
    this.ctx.references.add(this.sam.logicalId, 'Stage', stage.logicalId);
    this.ctx.references.add(this.sam.logicalId, 'Deployment', deployment.logicalId);
    for (const r of resources) {
      if (r.type === 'AWS::ApiGateway::DomainName' || r.type === 'AWS::ApiGateway::DomainNameV2') this.ctx.references.add(this.sam.logicalId, 'DomainName', r.logicalId);
      if (r.type === 'AWS::ApiGateway::UsagePlan') this.ctx.references.add(this.sam.logicalId, 'UsagePlan', r.logicalId);
      if (r.type === 'AWS::ApiGateway::UsagePlanKey') this.ctx.references.add(this.sam.logicalId, 'UsagePlanKey', r.logicalId);
      if (r.type === 'AWS::ApiGateway::ApiKey') this.ctx.references.add(this.sam.logicalId, 'ApiKey', r.logicalId);
    }
    return resources;
  }

  private bodyS3: PyDict | undefined;

  private restApi(): GeneratedResource {
    const p = this.p;
    if (p.DefinitionUri && this.definitionBody) throw this.fail("Specify either 'DefinitionUri' or 'DefinitionBody' property and not both.");
    if (p.DefinitionUri && p.MergeDefinitions) throw this.fail("Cannot set 'MergeDefinitions' to True when using `DefinitionUri`.");
    if (this.openApiVersion !== undefined && pyTruthy(this.openApiVersion) && !SUPPORTED_OPENAPI_VERSIONS.test(pyMessageText(this.openApiVersion))) {
      throw this.fail("The OpenApiVersion value must be of the format '3.0.0'.", 'OpenApiVersion');
    }
    const restApi = this.sam.generate(this.sam.logicalId, 'AWS::ApiGateway::RestApi', undefined, this.sam.attributes());
    if (this.sam.dependsOn !== undefined) restApi.setAttribute('DependsOn', this.sam.dependsOn);
    restApi.set('BinaryMediaTypes', this.binaryMedia, 'BinaryMediaTypes');
    restApi.set('MinimumCompressionSize', p.MinimumCompressionSize, 'MinimumCompressionSize');
    if (p.EndpointConfiguration) this.endpointConfiguration(restApi, p.EndpointConfiguration);
    this.addCors();
    this.addAuth();
    this.addGatewayResponses();
    this.addBinaryMediaTypes();
    this.addModels();
    if (p.FailOnWarnings) restApi.set('FailOnWarnings', p.FailOnWarnings, 'FailOnWarnings');
    if (p.DisableExecuteApiEndpoint !== undefined && p.DisableExecuteApiEndpoint !== null) {
      if (!this.definitionBody) throw this.fail("DisableExecuteApiEndpoint works only within 'DefinitionBody' property.", 'DisableExecuteApiEndpoint');
      if (!isValidSwagger(this.definitionBody)) {
        throw invalidDocument("Invalid Swagger document or the Swagger document is not explicitly defined in 'DefinitionBody'.", ['Properties', 'DefinitionBody']);
      }
      const editor = new SwaggerEditor(this.definitionBody);
      editor.addDisableExecuteApiEndpoint(fromTemplate(p.DisableExecuteApiEndpoint));
      this.definitionBody = editor.swagger;
    }
    if (p.DefinitionUri) {
      this.bodyS3 = this.bodyS3Location(p.DefinitionUri);
      restApi.set('BodyS3Location', toPlain(this.bodyS3), 'DefinitionUri');
    } else if (this.definitionBody) {
      this.definitionBody = this.openApiPostprocess(this.definitionBody);
      restApi.set('Body', toPlain(this.definitionBody), p.__MANAGE_SWAGGER ? 'Events' : 'DefinitionBody');
    }
    if (p.Name) restApi.set('Name', p.Name, 'Name');
    if (p.Description) restApi.set('Description', p.Description, 'Description');
    if (p.Mode) restApi.set('Mode', p.Mode, 'Mode');
    if (p.ApiKeySourceType) restApi.set('ApiKeySourceType', p.ApiKeySourceType, 'ApiKeySourceType');
    if (p.Policy) restApi.set('Policy', p.Policy, 'Policy');
    if (p.SecurityPolicy) restApi.set('SecurityPolicy', p.SecurityPolicy, 'SecurityPolicy');
    if (p.EndpointAccessMode) restApi.set('EndpointAccessMode', p.EndpointAccessMode, 'EndpointAccessMode');
    return restApi;
  }

  private endpointConfiguration(restApi: GeneratedResource, value: unknown): void {
    if (isMap(value) && value.Type) {
      if ('VPCEndpointIds' in value && 'VpcEndpointIds' in value) {
        throw this.fail("'VPCEndpointIds' and 'VpcEndpointIds' cannot be used together in EndpointConfiguration.", 'EndpointConfiguration');
      }
      restApi.set('Parameters', { endpointConfigurationTypes: value.Type }, 'EndpointConfiguration');
      const configuration: PlainMap = { Types: [value.Type] };
      if ('VPCEndpointIds' in value) configuration.VpcEndpointIds = value.VPCEndpointIds;
      if ('VpcEndpointIds' in value) configuration.VpcEndpointIds = value.VpcEndpointIds;
      if ('IpAddressType' in value) configuration.IpAddressType = value.IpAddressType;
      restApi.set('EndpointConfiguration', configuration, 'EndpointConfiguration');
    } else {
      restApi.set('EndpointConfiguration', { Types: [value] }, 'EndpointConfiguration');
      restApi.set('Parameters', { endpointConfigurationTypes: value }, 'EndpointConfiguration');
    }
  }

  private addCors(): void {
    const cors = this.p.Cors;
    if (!cors) return;
    if (!this.definitionBody) throw this.fail("Cors works only with inline Swagger specified in 'DefinitionBody' property.", 'Cors');
    let properties: Record<string, unknown>;
    if (typeof cors === 'string' || isIntrinsic(cors)) properties = { AllowOrigin: cors };
    else if (isMap(cors)) {
      const unknown = Object.keys(cors).find((k) => !CORS_FIELDS.includes(k));
      if (unknown !== undefined) throw this.fail(`Invalid key '${unknown}' for 'Cors' property.`, 'Cors');
      properties = { ...cors };
    } else throw this.fail("Invalid value for 'Cors' property", 'Cors');
    const origin = properties.AllowOrigin ?? CORS_WILDCARD;
    const credentials = properties.AllowCredentials ?? false;
    if (!isValidSwagger(this.definitionBody)) throw this.fail("Unable to add Cors configuration because 'DefinitionBody' does not contain a valid Swagger definition.", 'Cors');
    if (credentials === true && origin === CORS_WILDCARD) {
      throw this.fail('Unable to add Cors configuration because \'AllowCredentials\' can not be true when \'AllowOrigin\' is "\'*\'" or not set', 'Cors');
    }
    const editor = new SwaggerEditor(this.definitionBody);
    const value = (v: unknown): PyValue | undefined => (v === undefined ? undefined : v === CORS_WILDCARD && properties.AllowOrigin === undefined ? CORS_WILDCARD : fromTemplate(v));
    for (const path of editor.iterOnPath()) {
      try {
        editor.addCors(path, value(origin)!, value(properties.AllowHeaders), value(properties.AllowMethods), value(properties.MaxAge), credentials as PyValue);
      } catch (error) {
        if (error instanceof SamError && error.kind === 'document') throw this.fail(error.wording, 'Cors');
        throw error;
      }
    }
    this.definitionBody = editor.swagger;
  }

  /** The authorizers of `Auth`, in the order SAM's dict of them iterates, and by name. */
  private authorizers(config: unknown, defaultAuthorizer?: unknown): [PyStr, RestAuthorizer][] | undefined {
    const names = new PyDict();
    const byName = new Map<string, RestAuthorizer>();
    if (defaultAuthorizer === 'AWS_IAM') {
      names.set(new PyUnicode('AWS_IAM'), null);
      byName.set('AWS_IAM', RestAuthorizer.awsIam(this.sam.logicalId));
    }
    if (!config || (isMap(config) && Object.keys(config).length === 0)) return byName.has('AWS_IAM') ? [[names.items()[0]![0], byName.get('AWS_IAM')!]] : undefined;
    if (!isMap(config)) throw this.fail("Property 'Auth.Authorizers' should be a map.", 'Auth', 'Authorizers');
    const converted = fromTemplate(config) as PyDict;
    for (const [name, authorizer] of converted.items()) {
      const text = pyText(name)!;
      if (!(authorizer instanceof PyDict)) throw this.fail(`Property 'Auth.Authorizers.${text}' should be a map.`, 'Auth', 'Authorizers', text);
      const read = RestAuthorizer.read(this.sam.logicalId, name, authorizer);
      if (read instanceof SamError) throw read;
      names.set(name, null);
      byName.set(text, read);
    }
    return names.items().map(([name]) => [name, byName.get(pyText(name)!)!]);
  }

  private addAuth(): void {
    const auth = this.auth;
    if (!auth || Object.keys(auth).length === 0) {
      if (this.p.Auth !== undefined && this.p.Auth !== null && !isMap(this.p.Auth)) throw this.fail("Property 'Auth' should be a map.", 'Auth');
      return;
    }
    if (!this.definitionBody) throw this.fail("Auth works only with inline Swagger specified in 'DefinitionBody' property.", 'Auth');
    if (!Object.keys(auth).every((k) => AUTH_FIELDS.includes(k))) throw this.fail("Invalid value for 'Auth' property", 'Auth');
    if (!isValidSwagger(this.definitionBody)) throw this.fail("Unable to add Auth configuration because 'DefinitionBody' does not contain a valid Swagger definition.", 'Auth');
    const editor = new SwaggerEditor(this.definitionBody);
    const authorizers = this.authorizers(auth.Authorizers, auth.DefaultAuthorizer);
    if (authorizers) {
      editor.addAuthorizers(authorizers, this.partition);
      const defaultAuthorizer = auth.DefaultAuthorizer;
      if (defaultAuthorizer) {
        if (typeof defaultAuthorizer !== 'string') throw this.fail('DefaultAuthorizer is not a string.', 'Auth', 'DefaultAuthorizer');
        const byName = new Map(authorizers.map(([name, a]) => [pyText(name)!, a]));
        if (!byName.has(defaultAuthorizer) && defaultAuthorizer !== 'AWS_IAM') {
          throw this.fail(`Unable to set DefaultAuthorizer because '${defaultAuthorizer}' was not defined in 'Authorizers'.`, 'Auth', 'DefaultAuthorizer');
        }
        const preflight = auth.AddDefaultAuthorizerToCorsPreflight ?? true;
        for (const path of editor.iterOnPath()) editor.setPathDefaultAuthorizer(path, new PyUnicode(defaultAuthorizer), byName, Boolean(preflight));
      }
    }
    if (auth.ApiKeyRequired) {
      editor.addApiKeySecurityDefinition();
      const preflight = auth.AddApiKeyRequiredToCorsPreflight ?? true;
      for (const path of editor.iterOnPath()) editor.setPathDefaultApiKeyRequired(path, Boolean(preflight));
    }
    if (auth.ResourcePolicy) {
      if (!isMap(auth.ResourcePolicy)) throw invalidDocument('ResourcePolicy must be a map (ResourcePolicyStatement).');
      const policy = fromTemplate(auth.ResourcePolicy) as PyDict;
      const stage = this.samOwned(this.p.StageName);
      const withoutValue = sourceVpcsWithoutValue(this.ctx, this.sam, policy, 'Auth.ResourcePolicy');
      for (const path of editor.iterOnPath()) editor.addResourcePolicy(policy, path, stage, withoutValue);
      const custom = policy.get('CustomStatements');
      if (pyTruthy(custom)) editor.addCustomStatements(custom!);
    }
    this.definitionBody = this.openApiPostprocess(editor.swagger);
  }

  private addGatewayResponses(): void {
    const responses = this.p.GatewayResponses;
    if (!responses || (isMap(responses) && Object.keys(responses).length === 0)) return;
    if (!this.definitionBody) throw this.fail("GatewayResponses works only with inline Swagger specified in 'DefinitionBody' property.", 'GatewayResponses');
    const converted = fromTemplate(responses) as PyDict;
    for (const [type, response] of converted.items()) {
      if (isIntrinsic(toPlain(response))) {
        throw this.fail('Unable to set GatewayResponses attribute because intrinsic functions are not supported for this field.', 'GatewayResponses');
      }
      if (!(response instanceof PyDict)) {
        throw this.fail(`Invalid property type '${pyTypeName(response)}' for GatewayResponses. Expected an object of type 'GatewayResponse'.`, 'GatewayResponses');
      }
      for (const key of response.keys()) {
        if (!GATEWAY_RESPONSE_FIELDS.includes(key)) throw this.fail(`Invalid property '${key}' in 'GatewayResponses' property '${pyText(type)}'.`, 'GatewayResponses', pyText(type)!);
      }
    }
    if (!isValidSwagger(this.definitionBody)) throw this.fail("Unable to add Auth configuration because 'DefinitionBody' does not contain a valid Swagger definition.", 'GatewayResponses');
    const editor = new SwaggerEditor(this.definitionBody);
    const generated: [PyStr, PyDict][] = [];
    const order = new PyDict();
    for (const [type, response] of converted.items()) {
      const r = response as PyDict;
      const parameters = r.has('ResponseParameters') ? r.get('ResponseParameters') : new PyDict();
      const templates = r.has('ResponseTemplates') ? r.get('ResponseTemplates') : new PyDict();
      if (pyTruthy(parameters) && !isPyMap(parameters)) throw this.fail(`Property 'GatewayResponses.${pyText(type)}.ResponseParameters' should be a map.`, 'GatewayResponses', pyText(type)!);
      order.set(type, null);
      generated.push([type, this.gatewayResponse(parameters, templates, r.get('StatusCode'))]);
    }
    const byType = new Map(generated.map(([t, s]) => [pyText(t)!, s]));
    if (generated.length > 0) editor.addGatewayResponses(order.items().map(([t]) => [t, byType.get(pyText(t)!)!]));
    this.definitionBody = editor.swagger;
  }

  private gatewayResponse(parameters: PyValue | undefined, templates: PyValue | undefined, statusCode: PyValue | undefined): PyDict {
    const params = pyTruthy(parameters) ? (parameters as PyDict) : new PyDict();
    for (const key of pyKeys(params)) {
      if (!['Headers', 'Paths', 'QueryStrings'].includes(key)) throw this.fail(`Invalid gateway response parameter '${key}'`, 'GatewayResponses');
    }
    const status = statusCode === undefined || statusCode === null ? undefined : pyMessageText(statusCode);
    if (statusCode !== undefined && statusCode !== null && pyTruthy(statusCode) && !/^[0-9]{1,3}$/.test(status!)) throw this.fail("Property 'StatusCode' must be numeric", 'GatewayResponses');
    const swagger = new PyDict();
    const prefixed = new PyDict();
    for (const [key, prefix] of [
      ['Headers', 'header.'],
      ['Paths', 'path.'],
      ['QueryStrings', 'querystring.'],
    ] as const) {
      const values = pyGet(params, key) ?? new PyDict();
      if (!isPyMap(values)) throw this.fail(`Property 'ResponseParameters.${key}' should be a map.`, 'GatewayResponses');
      const items: [PyStr, PyValue][] = values instanceof PyDict ? values.items() : Object.entries(values);
      for (const [name, value] of items) {
        const full = `gatewayresponse.${prefix}${pyText(name)}`;
        prefixed.set(name instanceof PyUnicode ? new PyUnicode(full) : full, value);
      }
    }
    swagger.set('responseParameters', prefixed);
    swagger.set('responseTemplates', pyTruthy(templates) ? templates! : new PyDict());
    // `str()` of a template string is a plain string again.
    if (status !== undefined && pyTruthy(statusCode)) swagger.set('statusCode', status);
    return swagger;
  }

  private addBinaryMediaTypes(): void {
    if (!pyTruthy(fromTemplate(this.binaryMedia)) || !this.definitionBody) return;
    const editor = new SwaggerEditor(this.definitionBody);
    editor.addBinaryMediaTypes(fromTemplate(this.binaryMedia));
    this.definitionBody = editor.swagger;
  }

  private addModels(): void {
    const models = this.p.Models;
    if (!models || (isMap(models) && Object.keys(models).length === 0)) return;
    if (!this.definitionBody) throw this.fail("Models works only with inline Swagger specified in 'DefinitionBody' property.", 'Models');
    if (!isValidSwagger(this.definitionBody)) throw this.fail("Unable to add Models definitions because 'DefinitionBody' does not contain a valid Swagger definition.", 'Models');
    if (!isMap(models) || !Object.values(models).every(isMap)) throw this.fail("Invalid value for 'Models' property", 'Models');
    const editor = new SwaggerEditor(this.definitionBody);
    editor.addModels(fromTemplate(models) as PyDict);
    this.definitionBody = this.openApiPostprocess(editor.swagger);
  }

  /** `_openapi_postprocess`: OpenAPI 3 moves security definitions and definitions under `components`. */
  private openApiPostprocess(body: PyDict): PyDict {
    if (body.get('swagger') !== undefined && body.get('swagger') !== null) return body;
    if (body.get('openapi') !== undefined && body.get('openapi') !== null && this.openApiVersion === undefined) this.openApiVersion = body.get('openapi');
    if (!(this.openApiVersion !== undefined && pyTruthy(this.openApiVersion) && OPENAPI_VERSION_3.test(pyMessageText(this.openApiVersion)))) return body;
    for (const [from, to] of [
      ['securityDefinitions', 'securitySchemes'],
      ['definitions', 'schemas'],
    ] as const) {
      if (!pyTruthy(body.get(from))) continue;
      let components = body.has('components') ? body.get('components') : new PyDict();
      if (!pyTruthy(components)) components = new PyDict();
      (components as PyDict).set(to, body.get(from)!);
      body.set('components', components!);
      body.delete(from);
    }
    const paths = body.get('paths');
    if (pyTruthy(paths)) {
      if (!(paths instanceof PyDict)) throw invalidDocument('Value of paths must be a dictionary according to Swagger spec.');
      for (const [path, item] of paths.items()) {
        // A path under a function's condition is an `Fn::If`: a dict to the translator, though not a path item.
        if (!isPyMap(item)) throw invalidDocument(`Value of '${pyText(path)}' path must be a dictionary according to Swagger spec.`);
        const options = pyGet(item, 'options');
        if (!pyTruthy(options)) continue;
        if (!(options instanceof PyDict)) throw invalidDocument(`Value of options method for path ${pyText(path)} must be a dictionary according to Swagger spec.`);
        for (const [field, value] of options.copy().items()) {
          const name = pyText(field)!;
          if (name === 'produces' || name === 'consumes') options.delete(name);
          if (name === 'responses') {
            if (!(value instanceof PyDict)) throw invalidDocument(`Invalid responses in options method for path ${pyText(path)}: It should be a map.`);
            const ok = value.get('200');
            if (ok === undefined || ok === null) continue;
            if (!(ok instanceof PyDict)) throw invalidDocument(`Invalid responses in options method for path ${pyText(path)}: The value of '200' should be a map.`);
            const headers = ok.get('headers');
            if (!pyTruthy(headers)) continue;
            if (!(headers instanceof PyDict)) throw invalidDocument(`Value of response's headers in options method for path ${pyText(path)} must be a dictionary according to Swagger spec.`);
            for (const [header, headerValue] of headers.items()) {
              const withSchema = new PyDict();
              withSchema.set('schema', headerValue);
              headers.set(header, withSchema);
            }
          }
        }
      }
    }
    return body;
  }

  private bodyS3Location(uri: unknown): PyDict {
    let pointer: PlainMap;
    if (isMap(uri)) {
      if (!uri.Bucket || !uri.Key) throw this.fail("'DefinitionUri' requires Bucket and Key properties to be specified.", 'DefinitionUri');
      pointer = uri;
    } else {
      const parsed = parseS3Uri(uri);
      if (!parsed) {
        if (isLocalPath(uri)) {
          noteLocalPath(this.ctx, this.sam, 'DefinitionUri', uri);
          pointer = { Bucket: PACKAGED_BUCKET, Key: uri };
        } else throw this.fail("'DefinitionUri' is not a valid S3 Uri of the form 's3://bucket/key' with optional versionId query parameter.", 'DefinitionUri');
      } else pointer = parsed;
    }
    const body = new PyDict();
    body.set('Bucket', fromTemplate(pointer.Bucket));
    body.set('Key', fromTemplate(pointer.Key));
    if ('Version' in pointer) body.set('Version', fromTemplate(pointer.Version));
    return body;
  }

  private stage(deployment: GeneratedResource, swagger: PyDict | undefined): GeneratedResource {
    const stageName = this.p.StageName;
    const prefix = typeof stageName === 'string' ? stageName : '';
    const logicalId = /^[\p{L}\p{N}]+$/u.test(prefix) ? `${this.sam.logicalId}${prefix}Stage` : generateLogicalId(`${this.sam.logicalId}Stage`, prefix);
    const stage = this.sam.generate(logicalId, 'AWS::ApiGateway::Stage', 'StageName');
    stage.set('RestApiId', { Ref: this.sam.logicalId });
    stage.set('StageName', stageName, 'StageName');
    stage.set('CacheClusterEnabled', this.p.CacheClusterEnabled, 'CacheClusterEnabled');
    stage.set('CacheClusterSize', this.p.CacheClusterSize, 'CacheClusterSize');
    stage.set('Variables', this.p.Variables, 'Variables');
    stage.set('MethodSettings', this.p.MethodSettings, 'MethodSettings');
    stage.set('AccessLogSetting', this.p.AccessLogSetting, 'AccessLogSetting');
    stage.set('CanarySetting', this.p.CanarySetting, 'CanarySetting');
    stage.set('TracingEnabled', this.p.TracingEnabled, 'TracingEnabled');
    if (swagger !== undefined) this.makeAutoDeployable(deployment, stage, swagger);
    stage.set('DeploymentId', deployment.ref());
    if (this.p.Tags !== undefined && this.p.Tags !== null) stage.set('Tags', tagList(this.p.Tags), 'Tags');
    return stage;
  }

  /** `make_auto_deployable`: the deployment's logical id ends in a hash of `str(swagger)` (and what else redeploys). */
  private makeAutoDeployable(deployment: GeneratedResource, stage: GeneratedResource, swagger: PyDict): void {
    const input = [pyStr(swagger)];
    if (this.removeExtraStage !== undefined && this.removeExtraStage !== null && this.removeExtraStage !== '') input.push(pyMessageText(fromTemplate(this.removeExtraStage)));
    if (this.domain !== undefined && pyTruthy(this.domain)) input.push(pythonJsonDumpsUnsorted(this.domain));
    const names = this.ctx.functionNames.get(this.sam.logicalId);
    if (names) input.push(names);
    if (this.p.AlwaysDeploy === true) {
      this.ctx.note({ kind: 'sam-always-deploy', logicalId: this.sam.logicalId }, this.sam.node?.range);
    }
    const data = input.join('||');
    const digest = data === '' ? '' : sha1Hex(data);
    deployment.logicalId = `${deployment.logicalId}${digest.slice(0, 10)}`;
    deployment.set('Description', `RestApi deployment id: ${digest}`);
    stage.set('DeploymentId', deployment.ref());
  }

  private authorizerPermissions(): GeneratedResource[] {
    const auth = this.auth;
    if (!auth) return [];
    const authorizers = this.authorizers(auth.Authorizers);
    if (!authorizers) return [];
    const out: GeneratedResource[] = [];
    for (const [name, authorizer] of authorizers) {
      if (!pyTruthy(authorizer.functionArn) || authorizer.disableFunctionDefaultPermissions === true) continue;
      const permission = this.sam.generate(`${this.sam.logicalId}${pyText(name)}AuthorizerPermission`, 'AWS::Lambda::Permission', `Auth.Authorizers.${pyText(name)}`);
      permission.set('Action', 'lambda:InvokeFunction');
      permission.set('FunctionName', toPlain(authorizer.functionArn!));
      permission.set('Principal', 'apigateway.amazonaws.com');
      permission.set('SourceArn', { 'Fn::Sub': [`arn:${this.partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${__ApiId__}/authorizers/*`, { __ApiId__: { Ref: this.sam.logicalId } }] });
      out.push(permission);
    }
    return out;
  }
}


