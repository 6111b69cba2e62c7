/**
 * `AWS::Serverless::HttpApi` and the implicit `ServerlessHttpApi` (SamHttpApi,
 * http_api_generator.py): the `AWS::ApiGatewayV2::Api` whose OpenAPI body SAM writes (CORS,
 * authorizers, tags, endpoint configuration, title, description), the permissions of Lambda
 * authorizers that ask for them, a custom domain, and the auto-deploying `Stage`. There is no
 * deployment resource: a changed body is deployed by the stage itself.
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { resolveParameterRefs } from '../../model/intrinsics';
import { generateLogicalId } from '../../model/logicalIds';
import { checkProperties, IS_BOOL, IS_DICT, IS_STR, oneOf, PASS_THROUGH, typed, type PropertySpec } from '../../model/properties';
import { PyDict, type PyValue } from '../../python/py27Dict';
import { s3LocationObject } from '../../model/s3Location';
import { isIntrinsic, isMap, isNoValue, type PlainMap } from '../../model/values';
import { constructHttpApiDomain } from './httpApiDomain';
import { HttpAuthorizer, httpAuthorizerConfig } from './httpAuthorizer';
import { DEFAULT_PATH, isDefaultTitle, isValidOpenApi, OpenApiEditor } from './openApiEditor';
import { fromTemplate, isPyMap, pyGet, toPlain } from '../../model/pyValues';

const HTTP_API_PROPERTIES: Record<string, PropertySpec> = {
  __MANAGE_SWAGGER: typed(IS_BOOL),
  Name: PASS_THROUGH,
  StageName: typed(oneOf(IS_STR, IS_DICT)),
  Tags: typed(IS_DICT),
  PropagateTags: typed(IS_BOOL),
  DefinitionBody: typed(IS_DICT),
  DefinitionUri: typed(oneOf(IS_STR, IS_DICT)),
  StageVariables: typed(IS_DICT),
  CorsConfiguration: typed(oneOf(IS_BOOL, IS_DICT)),
  AccessLogSettings: typed(IS_DICT),
  DefaultRouteSettings: typed(IS_DICT),
  Auth: typed(IS_DICT),
  RouteSettings: typed(IS_DICT),
  Domain: typed(IS_DICT),
  FailOnWarnings: typed(IS_BOOL),
  Description: typed(IS_STR),
  DisableExecuteApiEndpoint: typed(IS_BOOL),
};

const CORS_FIELDS = ['AllowMethods', 'AllowHeaders', 'AllowOrigins', 'MaxAge', 'ExposeHeaders', 'AllowCredentials'];
const AUTH_FIELDS = ['Authorizers', 'DefaultAuthorizer', 'EnableIamAuthorizer'];
/** The tag SAM adds to every HTTP API whose body it writes. */
const CREATED_BY_TAG = 'httpapi:createdBy';

/** Translates an `AWS::Serverless::HttpApi`. */
export function translateHttpApi(ctx: TranslationContext, sam: SamResource): GeneratedResource[] | SamError {
  const invalid = checkProperties(sam.logicalId, sam.type, sam.properties, HTTP_API_PROPERTIES);
  if (invalid) return invalid;
  try {
    return new HttpApiGenerator(ctx, sam).resources();
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
}

class HttpApiGenerator {
  private readonly p: PlainMap;
  private body: PyValue | undefined;
  private tags: PlainMap | undefined;
  private readonly stageName: unknown;

  constructor(
    private readonly ctx: TranslationContext,
    private readonly sam: SamResource,
  ) {
    this.p = sam.properties;
    const body = this.p.DefinitionBody;
    this.body = body === undefined || body === null ? undefined : body instanceof PyDict ? body : fromTemplate(body);
    this.tags = isMap(this.p.Tags) ? { ...this.p.Tags } : undefined;
    this.stageName = this.p.StageName || '$default';
  }

  private fail(detail: string, ...path: string[]): SamError {
    return invalidResource(this.sam.logicalId, detail, path.length > 0 ? ['Properties', ...path] : []);
  }

  /** `to_cloudformation`: the API, the authorizers' permissions, the domain, the stage. */
  resources(): GeneratedResource[] {
    const api = this.httpApi();
    const domain = constructHttpApiDomain(this.ctx, this.sam, resolveParameterRefs(this.p.Domain, this.ctx.parameters), this.tags);
    const permissions = this.authorizerPermissions();
    const stage = this.stage();
    this.ctx.references.add(this.sam.logicalId, 'Stage', stage.logicalId);
    const domainName = domain.find((r) => r.type === 'AWS::ApiGatewayV2::DomainName');
    if (domainName) this.ctx.references.add(this.sam.logicalId, 'DomainName', domainName.logicalId);
    // SAM's tag propagation gives these resources nothing more: the API's tags live in its body,
    // and the stage and domain already carry the API's tag map.
    return [api, ...permissions, ...domain, stage];
  }

  /** `_construct_http_api`. */
  private httpApi(): GeneratedResource {
    const p = this.p;
    if (p.DefinitionUri && this.body) throw this.fail("Specify either 'DefinitionUri' or 'DefinitionBody' property and not both.");
    const cors = resolveParameterRefs(p.CorsConfiguration, this.ctx.parameters);
    if (cors) this.addCors(cors);
    this.addAuth();
    this.addTags();
    const api = this.sam.generate(this.sam.logicalId, 'AWS::ApiGatewayV2::Api', undefined, this.sam.attributes());
    if (this.sam.dependsOn !== undefined) api.setAttribute('DependsOn', this.sam.dependsOn);
    if (p.FailOnWarnings) api.set('FailOnWarnings', p.FailOnWarnings, 'FailOnWarnings');
    if (p.DisableExecuteApiEndpoint !== undefined && p.DisableExecuteApiEndpoint !== null) {
      if (!this.body) throw this.fail("DisableExecuteApiEndpoint works only within 'DefinitionBody' property.", 'DisableExecuteApiEndpoint');
      this.edit((editor) => editor.addEndpointConfig(fromTemplate(p.DisableExecuteApiEndpoint)));
    }
    this.addTitle();
    this.addDescription();
    this.updateDefaultPath();
    if (p.DefinitionUri) {
      const location = s3LocationObject(this.ctx, this.sam, p.DefinitionUri, 'DefinitionUri', { bucket: 'Bucket', key: 'Key', version: 'Version' });
      if (location instanceof SamError) throw location;
      api.set('BodyS3Location', location, 'DefinitionUri');
    } else if (this.body) {
      api.set('Body', toPlain(this.body), p.__MANAGE_SWAGGER ? 'Events' : 'DefinitionBody');
    } else {
      throw this.fail(
        "'DefinitionUri' or 'DefinitionBody' are required properties of an 'AWS::Serverless::HttpApi'. Add a value for one of these properties or add a 'HttpApi' event to an 'AWS::Serverless::Function'.",
      );
    }
    return api;
  }

  /** Edits the body with SAM's OpenAPI editor and keeps what it gives back. */
  private edit(change: (editor: OpenApiEditor) => void): void {
    const editor = new OpenApiEditor(this.body);
    change(editor);
    this.body = editor.openapi;
  }

  /** `_add_cors`. */
  private addCors(cors: unknown): void {
    if (!this.body) throw this.fail("Cors works only with inline OpenApi specified in 'DefinitionBody' property.", 'CorsConfiguration');
    let properties: PlainMap;
    if (typeof cors === 'boolean') properties = { AllowOrigins: ['*'] };
    else if (isIntrinsic(cors)) properties = { AllowOrigins: cors };
    else if (isMap(cors)) {
      for (const key of Object.keys(cors)) if (!CORS_FIELDS.includes(key)) throw this.fail(`Invalid key '${key}' for 'Cors' property.`, 'CorsConfiguration');
      properties = cors;
    } else throw this.fail("Invalid value for 'Cors' property.", 'CorsConfiguration');
    if (!isValidOpenApi(this.body)) throw this.fail("Unable to add Cors configuration because 'DefinitionBody' does not contain a valid OpenApi definition.", 'CorsConfiguration');
    const origins = properties.AllowOrigins;
    if (properties.AllowCredentials === true && Array.isArray(origins) && origins.length === 1 && origins[0] === '*') {
      throw this.fail("Unable to add Cors configuration because 'AllowCredentials' can not be true when 'AllowOrigin' is \"'*'\" or not set.", 'CorsConfiguration');
    }
    const value = (v: unknown): PyValue | undefined => (v === undefined ? undefined : fromTemplate(v));
    this.edit((editor) =>
      editor.addCors(
        { origins: value(origins) ?? null, headers: value(properties.AllowHeaders), methods: value(properties.AllowMethods), expose: value(properties.ExposeHeaders), maxAge: value(properties.MaxAge), credentials: value(properties.AllowCredentials) },
        Boolean(origins) && isIntrinsic(origins),
      ),
    );
  }

  /** `_add_auth`. */
  private addAuth(): void {
    const auth = this.p.Auth;
    if (!auth || !isMap(auth) || Object.keys(auth).length === 0) return;
    if (!this.body) throw this.fail("Auth works only with inline OpenApi specified in the 'DefinitionBody' property.", 'Auth');
    if (!Object.keys(auth).every((key) => AUTH_FIELDS.includes(key))) throw this.fail("Invalid value for 'Auth' property", 'Auth');
    if (!isValidOpenApi(this.body)) throw this.fail("Unable to add Auth configuration because 'DefinitionBody' does not contain a valid OpenApi definition.", 'Auth');
    const authorizers = this.authorizers(auth);
    this.edit((editor) => {
      editor.addAuthorizersSecurityDefinitions(authorizers);
      const defaultAuthorizer = auth.DefaultAuthorizer;
      if (!defaultAuthorizer || isNoValue(defaultAuthorizer)) return;
      if (typeof defaultAuthorizer !== 'string') throw this.fail("Property 'Auth.DefaultAuthorizer' should be a string.", 'Auth', 'DefaultAuthorizer');
      if (!authorizers.has(defaultAuthorizer)) throw this.fail(`Unable to set DefaultAuthorizer because '${defaultAuthorizer}' was not defined in 'Authorizers'.`, 'Auth', 'DefaultAuthorizer');
      for (const path of editor.iterOnPath()) editor.setPathDefaultAuthorizer(path, defaultAuthorizer, authorizers);
    });
  }

  /** `_get_authorizers`: AWS_IAM when enabled, then each declared authorizer. */
  private authorizers(auth: PlainMap): Map<string, HttpAuthorizer> {
    const authorizers = new Map<string, HttpAuthorizer>();
    if (auth.EnableIamAuthorizer === true) authorizers.set('AWS_IAM', new HttpAuthorizer(this.sam.logicalId, 'AWS_IAM', {}, this.ctx.partition, true));
    const declared = auth.Authorizers;
    if (!declared || (isMap(declared) && Object.keys(declared).length === 0)) return authorizers;
    if (!isMap(declared)) throw this.fail("Property 'Auth.Authorizers' should be a map.", 'Auth', 'Authorizers');
    for (const [name, entry] of Object.entries(declared)) {
      if (!isMap(entry)) throw this.fail(`Property 'Auth.Authorizers.${name}' should be a map.`, 'Auth', 'Authorizers', name);
      if ('OpenIdConnectUrl' in entry) {
        throw this.fail(`'OpenIdConnectUrl' is no longer a supported property for authorizer '${name}'. Please refer to the AWS SAM documentation.`, 'Auth', 'Authorizers', name);
      }
      const config = httpAuthorizerConfig(fromTemplate(entry) as PyDict);
      if (config.jwtConfiguration !== undefined && config.jwtConfiguration !== null && !isPyMap(config.jwtConfiguration)) {
        throw this.fail("Property 'JwtConfiguration' should be a map.", 'Auth', 'Authorizers', name, 'JwtConfiguration');
      }
      authorizers.set(name, new HttpAuthorizer(this.sam.logicalId, name, config, this.ctx.partition));
    }
    return authorizers;
  }

  /** `_add_tags`: the API's tags, and SAM's own, in the body's `tags`. */
  private addTags(): void {
    const hasTags = this.tags !== undefined && Object.keys(this.tags).length > 0;
    if (hasTags && !this.body) throw this.fail("Tags works only with inline OpenApi specified in the 'DefinitionBody' property.", 'Tags');
    if (!this.body) return;
    if (!isValidOpenApi(this.body)) {
      if (hasTags) throw this.fail("Unable to add `Tags` because 'DefinitionBody' does not contain a valid OpenApi definition.", 'Tags');
      return;
    }
    const tags: PlainMap = { ...(this.tags ?? {}), [CREATED_BY_TAG]: 'SAM' };
    this.tags = tags;
    this.edit((editor) => editor.addTags(Object.entries(tags).map(([name, value]) => [name, fromTemplate(value)])));
  }

  /** `_add_title`: `Name` as the body's title, where the body keeps SAM's default title. */
  private addTitle(): void {
    const name = this.p.Name;
    if (!name) return;
    if (!this.body) throw this.fail("Name works only with inline OpenApi specified in the 'DefinitionBody' property.", 'Name');
    if (!isDefaultTitle(this.deepGet('info', 'title'))) {
      throw this.fail("Unable to set Name because it is already defined within inline OpenAPI specified in the 'DefinitionBody' property.", 'Name');
    }
    this.edit((editor) => editor.addTitle(fromTemplate(name)));
  }

  /** `_add_description`: `Description` in the body's `info`, where it has none. */
  private addDescription(): void {
    const description = this.p.Description;
    if (!description) return;
    if (!this.body) throw this.fail("Description works only with inline OpenApi specified in the 'DefinitionBody' property.", 'Description');
    const existing = this.deepGet('info', 'description');
    if (existing !== undefined && existing !== null && existing !== '') {
      throw this.fail("Unable to set Description because it is already defined within inline OpenAPI specified in the 'DefinitionBody' property.", 'Description');
    }
    this.edit((editor) => editor.addDescription(fromTemplate(description)));
  }

  /** `dict_deep_get` in the body, with SAM's wording for a level that is not a map. */
  private deepGet(first: string, second: string): PyValue | undefined {
    if (!isPyMap(this.body)) return undefined;
    const outer = pyGet(this.body, first);
    if (outer === undefined || outer === null) return undefined;
    if (!isPyMap(outer)) throw this.fail(`Invalid 'DefinitionBody': The value of '${first}' should be a map.`, 'DefinitionBody');
    return pyGet(outer, second);
  }

  /** `_update_default_path`: with `FailOnWarnings`, the `$default` path becomes `/$default`. */
  private updateDefaultPath(): void {
    if (!this.p.FailOnWarnings || !(this.body instanceof PyDict)) return;
    const paths = this.body.get('paths');
    if (!(paths instanceof PyDict) || !paths.has(DEFAULT_PATH)) return;
    const item = paths.get(DEFAULT_PATH)!;
    paths.delete(DEFAULT_PATH);
    paths.set(`/${DEFAULT_PATH}`, item);
  }

  /** `_construct_authorizer_lambda_permission`: for each Lambda authorizer with `EnableFunctionDefaultPermissions: true`. */
  private authorizerPermissions(): GeneratedResource[] {
    const auth = this.p.Auth;
    if (!isMap(auth) || Object.keys(auth).length === 0) return [];
    const permissions: GeneratedResource[] = [];
    for (const [name, authorizer] of this.authorizers(auth)) {
      if (!authorizer.functionArn || authorizer.enableFunctionDefaultPermissions !== true) continue;
      const permission = this.sam.generate(`${this.sam.logicalId}${name}AuthorizerPermission`, 'AWS::Lambda::Permission', `Auth.Authorizers.${name}`);
      permission.set('Action', 'lambda:InvokeFunction');
      permission.set('FunctionName', toPlain(authorizer.functionArn));
      permission.set('Principal', 'apigateway.amazonaws.com');
      permission.set('SourceArn', {
        'Fn::Sub': ['arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${__ApiId__}/authorizers/*', { __ApiId__: { Ref: this.sam.logicalId } }],
      });
      permissions.push(permission);
    }
    return permissions;
  }

  /** `_construct_stage`: `<Api><Name>Stage`, `<Api>ApiGatewayDefaultStage` for `$default`, or hashed for other names. */
  private stage(): GeneratedResource {
    const name = this.stageName;
    const prefix = typeof name === 'string' ? name : '';
    const logicalId = /^[\p{L}\p{N}]+$/u.test(prefix)
      ? `${this.sam.logicalId}${prefix}Stage`
      : prefix === '$default'
        ? `${this.sam.logicalId}ApiGatewayDefaultStage`
        : generateLogicalId(`${this.sam.logicalId}Stage`, prefix);
    const stage = this.sam.generate(logicalId, 'AWS::ApiGatewayV2::Stage', 'StageName');
    stage.set('ApiId', { Ref: this.sam.logicalId });
    stage.set('StageName', name, 'StageName');
    stage.set('StageVariables', this.p.StageVariables, 'StageVariables');
    stage.set('AccessLogSettings', this.p.AccessLogSettings, 'AccessLogSettings');
    stage.set('DefaultRouteSettings', this.p.DefaultRouteSettings, 'DefaultRouteSettings');
    stage.set('Tags', this.tags, 'Tags');
    stage.set('AutoDeploy', true);
    stage.set('RouteSettings', this.p.RouteSettings, 'RouteSettings');
    return stage;
  }
}

