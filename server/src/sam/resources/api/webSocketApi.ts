/**
 * `AWS::Serverless::WebSocketApi` (SamWebSocketApi, websocket_api_generator.py): an
 * `AWS::ApiGatewayV2::Api` of protocol `WEBSOCKET`; for each route of `Routes` (`$connect`,
 * `$disconnect`, `$default` or an alphanumeric key) a `Route`, its Lambda proxy `Integration` and
 * the `Permission` for API Gateway to invoke the function, named `<Api><Key>Route` and so on; the
 * `$connect` route's authorizer (`Auth`) with, for a Lambda authorizer without an invoke role, its
 * permission; a custom domain (as an HTTP API's); and the auto-deploying `Stage` (`default` unless
 * `StageName` says otherwise).
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { resolveParameterRefs } from '../../model/intrinsics';
import { checkProperties, IS_BOOL, IS_DICT, IS_STR, oneOf, typed, type PropertySpec } from '../../model/properties';
import { isIntrinsic, isMap, type PlainMap } from '../../model/values';
import { constructHttpApiDomain } from './httpApiDomain';

const WEBSOCKET_API_PROPERTIES: Record<string, PropertySpec> = {
  ApiKeySelectionExpression: typed(IS_STR),
  AccessLogSettings: typed(IS_DICT),
  Auth: typed(IS_DICT),
  DefaultRouteSettings: typed(IS_DICT),
  Description: typed(IS_STR),
  DisableExecuteApiEndpoint: typed(IS_BOOL),
  Domain: typed(IS_DICT),
  DisableSchemaValidation: typed(IS_BOOL),
  FailOnWarnings: typed(IS_BOOL),
  IpAddressType: typed(IS_STR),
  Name: typed(IS_STR),
  PropagateTags: typed(IS_BOOL),
  Routes: typed(IS_DICT, true),
  RouteSettings: typed(IS_DICT),
  RouteSelectionExpression: typed(IS_STR, true),
  StageName: typed(oneOf(IS_STR, IS_DICT)),
  StageVariables: typed(IS_DICT),
  Tags: typed(IS_DICT),
};

/** The tag SAM puts on the API, its stage and its domain. */
const CREATED_BY_TAG = 'websocketapi:createdBy';
/** The stage SAM creates when `StageName` is not given (API Gateway's `$default` is not allowed here). */
const DEFAULT_STAGE_NAME = 'default';
const SPECIAL_ROUTES = ['$connect', '$disconnect', '$default'];
const AUTH_TYPES = ['NONE', 'AWS_IAM', 'CUSTOM'];

/** Translates an `AWS::Serverless::WebSocketApi`. */
export function translateWebSocketApi(ctx: TranslationContext, sam: SamResource): GeneratedResource[] | SamError {
  const invalid = checkProperties(sam.logicalId, sam.type, sam.properties, WEBSOCKET_API_PROPERTIES);
  if (invalid) return invalid;
  try {
    return new WebSocketApiGenerator(ctx, sam).resources();
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
}

class WebSocketApiGenerator {
  private readonly p: PlainMap;
  private readonly auth: PlainMap | undefined;
  private readonly domain: unknown;
  private readonly routes: PlainMap;
  private readonly stageName: unknown;
  /** The API's tags with SAM's; what `PropagateTags` gives the stage and the domain. */
  private readonly tags: PlainMap;

  constructor(
    private readonly ctx: TranslationContext,
    private readonly sam: SamResource,
  ) {
    this.p = sam.properties;
    const auth = resolveParameterRefs(this.p.Auth, ctx.parameters);
    this.auth = isMap(auth) && Object.keys(auth).length > 0 ? auth : undefined;
    this.domain = resolveParameterRefs(this.p.Domain, ctx.parameters);
    const routes = resolveParameterRefs(this.p.Routes, ctx.parameters);
    this.routes = isMap(routes) ? routes : {};
    if (Object.keys(this.routes).length === 0) throw this.fail('WebSocket API must have at least one route.', 'Routes');
    this.stageName = this.p.StageName ?? DEFAULT_STAGE_NAME;
    this.tags = { ...(isMap(this.p.Tags) ? this.p.Tags : {}), [CREATED_BY_TAG]: 'SAM' };
    const ipAddressType = this.p.IpAddressType;
    if (ipAddressType !== undefined && ipAddressType !== null && !isIntrinsic(ipAddressType) && ipAddressType !== 'ipv4' && ipAddressType !== 'dualstack') {
      throw this.fail("IpAddressType must be 'ipv4' or 'dualstack'.", 'IpAddressType');
    }
    if (isMap(this.domain) && this.domain.MutualTlsAuthentication) {
      throw this.fail('Mutual TLS domain name association is not supported for Websocket APIs.', 'Domain', 'MutualTlsAuthentication');
    }
  }

  private fail(detail: string, ...path: string[]): SamError {
    return invalidResource(this.sam.logicalId, detail, path.length > 0 ? ['Properties', ...path] : []);
  }

  /** `_to_cloudformation`: the API, each route's resources, the domain, the stage, the authorizer. */
  resources(): GeneratedResource[] {
    const api = this.webSocketApi();
    // The translator gives a WebSocket API no record set groups of other APIs to add to: its own
    // group replaces any group of the same hosted zone generated before it.
    const domain = constructHttpApiDomain(this.ctx, this.sam, this.domain, { [CREATED_BY_TAG]: 'SAM' }, new Map());
    const stage = this.stage();
    const resources: GeneratedResource[] = [api];
    const routeIds: string[] = [];
    let authorizer: GeneratedResource | undefined;
    for (const [key, spec] of Object.entries(this.routes)) {
      const route = this.routeResources(key, isMap(spec) ? spec : {});
      resources.push(route.route, route.integration, route.permission);
      routeIds.push(route.route.logicalId);
      authorizer = route.authorizer ?? authorizer;
    }
    resources.push(...domain);
    // A stage whose RouteSettings name route keys must wait for the routes.
    if (this.p.RouteSettings && routeIds.length > 0) stage.setAttribute('DependsOn', routeIds);
    resources.push(stage);
    if (authorizer) {
      resources.push(authorizer);
      const permission = this.authorizerPermission();
      if (permission) resources.push(permission);
    }
    this.ctx.references.add(this.sam.logicalId, 'Stage', stage.logicalId);
    const domainName = domain.find((r) => r.type === 'AWS::ApiGatewayV2::DomainName');
    if (domainName) this.ctx.references.add(this.sam.logicalId, 'DomainName', domainName.logicalId);
    if (this.p.PropagateTags === true && isMap(this.p.Tags) && Object.keys(this.p.Tags).length > 0) {
      for (const resource of [stage, ...(domainName ? [domainName] : [])]) resource.set('Tags', this.tags, 'Tags');
    }
    return resources;
  }

  /** `_construct_websocket_api`. */
  private webSocketApi(): GeneratedResource {
    const p = this.p;
    const api = this.sam.generate(this.sam.logicalId, 'AWS::ApiGatewayV2::Api', undefined, this.sam.attributes());
    if (this.sam.dependsOn !== undefined) api.setAttribute('DependsOn', this.sam.dependsOn);
    for (const name of ['ApiKeySelectionExpression', 'Description', 'DisableExecuteApiEndpoint', 'DisableSchemaValidation', 'IpAddressType']) api.set(name, p[name], name);
    if (this.auth && !('$connect' in this.routes)) throw this.fail('Authorization is only available if there is a $connect route.', 'Auth');
    api.set('Name', p.Name ?? this.sam.logicalId, p.Name === undefined ? undefined : 'Name');
    api.set('RouteSelectionExpression', p.RouteSelectionExpression, 'RouteSelectionExpression');
    api.set('Tags', this.tags, p.Tags === undefined ? undefined : 'Tags');
    api.set('ProtocolType', 'WEBSOCKET');
    return api;
  }

  /** `_construct_route_infr`: a route, its integration, its permission and (on `$connect`) the authorizer. */
  private routeResources(key: string, spec: PlainMap): { route: GeneratedResource; integration: GeneratedResource; permission: GeneratedResource; authorizer?: GeneratedResource } {
    const base = `${this.sam.logicalId}${this.routeIdPart(key)}`;
    const origin = `Routes.${key}`;
    const attributes = this.sam.passThroughAttributes();
    const route = this.sam.generate(`${base}Route`, 'AWS::ApiGatewayV2::Route', origin, attributes);
    route.set('RouteKey', key);
    route.set('ApiId', { Ref: this.sam.logicalId });
    for (const name of ['ApiKeyRequired', 'ModelSelectionExpression', 'OperationName', 'RequestModels']) route.set(name, spec[name], `${origin}.${name}`);
    if (spec.RequestParameters) {
      if (key !== '$connect') throw this.fail('Request parameters are only supported for the $connect route in WebSocket APIs.', 'Routes', key);
      route.set('RequestParameters', spec.RequestParameters, `${origin}.RequestParameters`);
    }
    route.set('RouteResponseSelectionExpression', spec.RouteResponseSelectionExpression, `${origin}.RouteResponseSelectionExpression`);
    route.set('Target', { 'Fn::Join': ['/', ['integrations', { Ref: `${base}Integration` }]] });
    const authorizer = this.routeAuth(key, route);
    if (!('FunctionArn' in spec)) throw this.fail('Route must have associated function.', 'Routes', key);
    const integration = this.sam.generate(`${base}Integration`, 'AWS::ApiGatewayV2::Integration', origin, attributes);
    integration.set('ApiId', { Ref: this.sam.logicalId });
    integration.set('IntegrationType', 'AWS_PROXY');
    integration.set('IntegrationUri', lambdaInvocationUri('FunctionArn', spec.FunctionArn), `${origin}.FunctionArn`);
    integration.set('TimeoutInMillis', spec.IntegrationTimeout, `${origin}.IntegrationTimeout`);
    const permission = this.sam.generate(`${base}Permission`, 'AWS::Lambda::Permission', origin, attributes);
    permission.set('Action', 'lambda:InvokeFunction');
    permission.set('FunctionName', spec.FunctionArn, `${origin}.FunctionArn`);
    permission.set('Principal', 'apigateway.amazonaws.com');
    const arnHead = `arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${${this.sam.logicalId}.ApiId}/`;
    permission.set('SourceArn', typeof this.stageName === 'string' ? { 'Fn::Sub': `${arnHead}${this.stageName}/${key}` } : { 'Fn::Sub': [`${arnHead}\${__StageName__}/${key}`, { __StageName__: this.stageName }] });
    return { route, integration, permission, authorizer };
  }

  /** `_sanitize_route_key`: `$connect` → `Connect`; any other key must be alphanumeric, and is capitalised. */
  private routeIdPart(key: string): string {
    const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
    if (SPECIAL_ROUTES.includes(key)) return capitalize(key.slice(1));
    if (/^[\p{L}\p{N}]+$/u.test(key)) return capitalize(key);
    throw this.fail(`Route key '${key}' must be alphanumeric. Only $connect, $disconnect, and $default special routes are supported.`, 'Routes', key);
  }

  /** `_set_auth_type_and_return_custom_authorizer`: the `$connect` route's authorization, and its authorizer for `CUSTOM`. */
  private routeAuth(key: string, route: GeneratedResource): GeneratedResource | undefined {
    const auth = this.auth;
    if (!auth) return undefined;
    this.checkAuth(auth);
    if (key !== '$connect') return undefined;
    if (auth.AuthType === 'CUSTOM') {
      if (!auth.AuthArn) return undefined;
      const authorizer = this.authorizer(auth);
      route.set('AuthorizationType', 'CUSTOM', 'Auth.AuthType');
      route.set('AuthorizerId', authorizer.ref(), 'Auth');
      return authorizer;
    }
    route.set('AuthorizationType', auth.AuthType === 'AWS_IAM' ? 'AWS_IAM' : 'NONE', 'Auth.AuthType');
    return undefined;
  }

  /** `_validate_auth`. */
  private checkAuth(auth: PlainMap): void {
    const given = auth.AuthType;
    if (!given) throw this.fail('AuthType must be specified for additional auth configurations.', 'Auth');
    const type = String(given).toUpperCase();
    if (!AUTH_TYPES.includes(type)) throw this.fail('AuthType is not one of AWS_IAM, CUSTOM or NONE.', 'Auth', 'AuthType');
    if (type === 'CUSTOM' && !auth.AuthArn) throw this.fail('AuthArn must be specified if AuthType is CUSTOM.', 'Auth');
    if (type === 'AWS_IAM' && Object.keys(auth).length > 1) throw this.fail('No additional configurations supported for AuthType AWS_IAM.', 'Auth');
    if (type === 'NONE' && Object.keys(auth).length > 1) throw this.fail('No additional configurations supported for AuthType NONE.', 'Auth');
  }

  /** `_construct_authorizer`: the `$connect` route's Lambda `REQUEST` authorizer. */
  private authorizer(auth: PlainMap): GeneratedResource {
    const logicalId = `${this.sam.logicalId}ConnectAuthorizer`;
    const authorizer = this.sam.generate(logicalId, 'AWS::ApiGatewayV2::Authorizer', 'Auth', this.sam.passThroughAttributes());
    authorizer.set('ApiId', { Ref: this.sam.logicalId });
    if ('InvokeRole' in auth) authorizer.set('AuthorizerCredentialsArn', auth.InvokeRole, 'Auth.InvokeRole');
    authorizer.set('AuthorizerType', 'REQUEST');
    if ('AuthArn' in auth) authorizer.set('AuthorizerUri', lambdaInvocationUri('AuthArn', auth.AuthArn), 'Auth.AuthArn');
    authorizer.set('IdentitySource', auth.IdentitySource, 'Auth.IdentitySource');
    authorizer.set('Name', auth.Name || logicalId, auth.Name ? 'Auth.Name' : undefined);
    return authorizer;
  }

  /** `_construct_authorizer_permission`: for a Lambda authorizer API Gateway invokes without a role of its own. */
  private authorizerPermission(): GeneratedResource | undefined {
    const auth = this.auth;
    if (!auth || auth.AuthType !== 'CUSTOM' || auth.InvokeRole || !auth.AuthArn) return undefined;
    const permission = this.sam.generate(`${this.sam.logicalId}AuthorizerPermission`, 'AWS::Lambda::Permission', 'Auth', this.sam.passThroughAttributes());
    permission.set('Action', 'lambda:InvokeFunction');
    permission.set('FunctionName', auth.AuthArn, 'Auth.AuthArn');
    permission.set('Principal', 'apigateway.amazonaws.com');
    permission.set('SourceArn', { 'Fn::Sub': ['arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${__ApiId__}/authorizers/*', { __ApiId__: { Ref: this.sam.logicalId } }] });
    return permission;
  }

  /** `_construct_stage`. */
  private stage(): GeneratedResource {
    if (this.stageName === '$default') throw this.fail('Stages cannot be named $default for WebSocket APIs.', 'StageName');
    const prefix = typeof this.stageName === 'string' ? this.stageName : '';
    const logicalId = prefix === DEFAULT_STAGE_NAME ? `${this.sam.logicalId}DefaultStage` : `${this.sam.logicalId}${prefix}Stage`;
    const stage = this.sam.generate(logicalId, 'AWS::ApiGatewayV2::Stage', 'StageName', this.sam.passThroughAttributes());
    stage.set('ApiId', { Ref: this.sam.logicalId });
    stage.set('StageName', this.stageName, this.p.StageName === undefined ? undefined : 'StageName');
    stage.set('StageVariables', this.p.StageVariables, 'StageVariables');
    stage.set('AccessLogSettings', this.p.AccessLogSettings, 'AccessLogSettings');
    stage.set('DefaultRouteSettings', this.p.DefaultRouteSettings, 'DefaultRouteSettings');
    stage.set('Tags', { [CREATED_BY_TAG]: 'SAM' });
    stage.set('AutoDeploy', true);
    stage.set('RouteSettings', this.p.RouteSettings, 'RouteSettings');
    return stage;
  }
}

/** The API Gateway integration URI that invokes a Lambda function, its ARN given under `name`. */
function lambdaInvocationUri(name: string, arn: unknown): PlainMap {
  return { 'Fn::Sub': [`arn:\${AWS::Partition}:apigateway:\${AWS::Region}:lambda:path/2015-03-31/functions/\${${name}}/invocations`, { [name]: arn }] };
}
