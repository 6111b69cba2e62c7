/**
 * `AWS::Serverless::GraphQLApi` (sam_resources.py `SamGraphQLApi`): an `AWS::AppSync::GraphQLApi`
 * with its `Schema`; unless `Logging` is `false`, the role AppSync writes logs with
 * (`<Id>CloudWatchRole`) when none is given; API keys, the cache and a custom domain with its
 * association; DynamoDB and Lambda data sources (`<Id><Name>DynamoDBDataSource`), each with a role
 * and a connector policy unless a `ServiceRoleArn` is given; a `NONE` data source shared by the
 * functions and resolvers that ask for one; function configurations (`<Id><Name>`); pipeline
 * resolvers (`<Id><Type><Name>`); and, for each Lambda authorizer, a connector's permission for
 * AppSync to invoke it. The connectors are SAM's own (connector/).
 */
import { SamResource } from '../model/context';
import { invalidResource, SamError } from '../model/errors';
import { GeneratedResource, type Origin } from '../model/generated';
import { assumeRolePolicy } from '../model/iam';
import { checkProperties, IS_BOOL, IS_DICT, IS_STR, oneOf, PASS_THROUGH, strict, type PropertySpec } from '../model/properties';
import { translateConnector } from './connector/connector';
import type { ResourceResolver } from '../model/connectable';
import { isMap, tagList, type PlainMap } from '../model/values';

const GRAPHQL_API_PROPERTIES: Record<string, PropertySpec> = {
  Name: PASS_THROUGH,
  Tags: strict(IS_DICT),
  XrayEnabled: PASS_THROUGH,
  Auth: strict(IS_DICT, true),
  SchemaInline: strict(IS_STR),
  SchemaUri: strict(IS_STR),
  Logging: strict(oneOf(IS_DICT, IS_BOOL)),
  DataSources: strict(IS_DICT),
  Functions: strict(IS_DICT),
  Resolvers: strict(IS_DICT),
  ApiKeys: strict(IS_DICT),
  DomainName: strict(IS_DICT),
  Cache: strict(IS_DICT),
  Visibility: PASS_THROUGH,
  OwnerContact: PASS_THROUGH,
  IntrospectionConfig: PASS_THROUGH,
  QueryDepthLimit: PASS_THROUGH,
  ResolverCountLimit: PASS_THROUGH,
};

/** The code SAM gives a pipeline resolver that has none: pass the last function's result on. */
const DEFAULT_RESOLVER_CODE = '\nexport function request(ctx) {\n    return {};\n}\n\nexport function response(ctx) {\n    return ctx.prev.result;\n}\n';
const DEFAULT_RESOLVER_RUNTIME = { Name: 'APPSYNC_JS', RuntimeVersion: '1.0.0' };
/** The property of the API that holds each authorization type's configuration, and the SAM property it comes from. */
const AUTH_CONFIGS: Record<string, { property: string; from: string; what: string }> = {
  AWS_LAMBDA: { property: 'LambdaAuthorizerConfig', from: 'LambdaAuthorizer', what: "'LambdaAuthorizer' must be defined if type is 'AWS_LAMBDA'." },
  OPENID_CONNECT: { property: 'OpenIDConnectConfig', from: 'OpenIDConnect', what: "'OpenIDConnect' must be defined if type is 'OPENID_CONNECT'." },
  AMAZON_COGNITO_USER_POOLS: { property: 'UserPoolConfig', from: 'UserPool', what: "'UserPool' must be defined if type is 'AMAZON_COGNITO_USER_POOLS'." },
};

/** Translates an `AWS::Serverless::GraphQLApi`. */
export function translateGraphQlApi(sam: SamResource): GeneratedResource[] | SamError {
  const invalid = checkProperties(sam.logicalId, sam.type, sam.properties, GRAPHQL_API_PROPERTIES);
  if (invalid) return invalid;
  try {
    return new GraphQlApiGenerator(sam).resources();
  } catch (error) {
    if (error instanceof SamError) return error;
    throw error;
  }
}

/** A connector SAM makes for a GraphQL API: what it generates is shown as coming from the API. */
class EmbeddedConnector extends SamResource {
  constructor(
    logicalId: string,
    properties: PlainMap,
    private readonly owner: SamResource,
    private readonly ownerProperty: string,
  ) {
    super(logicalId, 'AWS::Serverless::Connector', { Type: 'AWS::Serverless::Connector', Properties: properties }, owner.node);
  }

  override generate(logicalId: string, type: string, _property?: string, attributes: PlainMap = this.passThroughAttributes()): GeneratedResource {
    const origin: Origin = { logicalId: this.owner.logicalId, property: this.ownerProperty };
    return new GeneratedResource(logicalId, type, origin, attributes);
  }
}

/** Connectors by `Type` and `Arn` look nothing up in the template. */
const NO_RESOURCES: ResourceResolver = { get: () => undefined, all: () => [], dependentsOf: () => [] };

/** A map's entries without absent values (`remove_none_values`). */
function present(map: PlainMap): PlainMap {
  return Object.fromEntries(Object.entries(map).filter(([, value]) => value !== undefined && value !== null));
}

class GraphQlApiGenerator {
  private readonly p: PlainMap;
  private readonly apiId: PlainMap;
  private readonly dataSourceNames = new Map<string, unknown>();
  private readonly functionIds = new Map<string, unknown>();
  private noneDataSource: GeneratedResource | undefined;

  constructor(private readonly sam: SamResource) {
    this.p = sam.properties;
    this.apiId = { 'Fn::GetAtt': [sam.logicalId, 'ApiId'] };
  }

  private fail(detail: string, subject = this.sam.logicalId, ...path: (string | number)[]): SamError {
    return invalidResource(subject, detail, ['Properties', ...path]);
  }

  /** Generates a resource of the API that carries its attributes and waits for what it waits for. */
  private generate(logicalId: string, type: string, property?: string, dependsOn: unknown = this.sam.dependsOn): GeneratedResource {
    const resource = this.sam.generate(logicalId, type, property, this.sam.attributes());
    if (dependsOn !== undefined) resource.setAttribute('DependsOn', dependsOn);
    return resource;
  }

  resources(): GeneratedResource[] {
    const p = this.p;
    const { api, cloudWatchRole, authorizerArns } = this.api();
    const schema = this.schema();
    const resources: GeneratedResource[] = [api, schema];
    authorizerArns.forEach((arn, i) => resources.push(...this.connector(`${this.sam.logicalId}ToLambdaAuthConnector${i + 1}`, 'Auth', {
      Source: { Type: 'AWS::AppSync::GraphQLApi', Arn: api.ref(), ResourceId: this.apiId },
      Destination: { Type: 'AWS::Lambda::Function', Arn: arn },
      Permissions: ['Write'],
    })));
    if (cloudWatchRole) resources.push(cloudWatchRole);
    if (isMap(p.ApiKeys)) resources.push(...this.apiKeys(p.ApiKeys));
    if (isMap(p.Cache)) resources.push(this.cache(p.Cache));
    if (isMap(p.DataSources)) resources.push(...this.dataSources(p.DataSources));
    if (isMap(p.DomainName)) resources.push(...this.domainName(p.DomainName));
    if (isMap(p.Functions)) resources.push(...this.functions(p.Functions));
    if (isMap(p.Resolvers)) resources.push(...this.resolvers(p.Resolvers, schema.logicalId));
    if (this.noneDataSource) resources.push(this.noneDataSource);
    return resources;
  }

  /** `_construct_appsync_api_resources`: the API, its log role, and the ARNs of its Lambda authorizers. */
  private api(): { api: GeneratedResource; cloudWatchRole?: GeneratedResource; authorizerArns: unknown[] } {
    const p = this.p;
    const api = this.generate(this.sam.logicalId, 'AWS::AppSync::GraphQLApi');
    api.set('Name', p.Name || this.sam.logicalId, p.Name ? 'Name' : undefined);
    for (const name of ['Visibility', 'OwnerContact']) if (p[name]) api.set(name, p[name], name);
    api.set('XrayEnabled', p.XrayEnabled, 'XrayEnabled');
    for (const name of ['IntrospectionConfig', 'QueryDepthLimit', 'ResolverCountLimit']) if (p[name]) api.set(name, p[name], name);
    const authorizerArns = this.auth(api, p.Auth as PlainMap);
    api.set('Tags', tagList({ ...(isMap(p.Tags) ? p.Tags : {}), 'graphqlapi:createdBy': 'SAM' }), p.Tags ? 'Tags' : undefined);
    if (p.Logging === false) return { api, authorizerArns };
    const logging = isMap(p.Logging) ? p.Logging : undefined;
    const logConfig: PlainMap = {};
    if (logging?.ExcludeVerboseContent) logConfig.ExcludeVerboseContent = logging.ExcludeVerboseContent;
    logConfig.FieldLogLevel = logging?.FieldLogLevel || 'ALL';
    let cloudWatchRole: GeneratedResource | undefined;
    if (logging?.CloudWatchLogsRoleArn) logConfig.CloudWatchLogsRoleArn = logging.CloudWatchLogsRoleArn;
    else {
      cloudWatchRole = this.generate(`${this.sam.logicalId}CloudWatchRole`, 'AWS::IAM::Role', 'Logging');
      cloudWatchRole.set('AssumeRolePolicyDocument', assumeRolePolicy('appsync.amazonaws.com'));
      cloudWatchRole.set('ManagedPolicyArns', [{ 'Fn::Sub': 'arn:${AWS::Partition}:iam::aws:policy/service-role/AWSAppSyncPushToCloudWatchLogs' }]);
      logConfig.CloudWatchLogsRoleArn = cloudWatchRole.getAtt('Arn');
    }
    api.set('LogConfig', logConfig, 'Logging');
    return { api, cloudWatchRole, authorizerArns };
  }

  /** `_parse_and_set_auth_properties`: the default and additional authorization; the Lambda authorizers' ARNs. */
  private auth(api: GeneratedResource, auth: PlainMap): unknown[] {
    const arns: unknown[] = [];
    const { Additional: additional, ...primary } = auth;
    const config = this.authConfig(primary);
    api.set('AuthenticationType', primary.Type, 'Auth.Type');
    if (config) {
      api.set(config.property, config.value, 'Auth');
      if (config.property === 'LambdaAuthorizerConfig') arns.push(config.value.AuthorizerUri);
    }
    if (Array.isArray(additional) && additional.length > 0) {
      const providers = additional.map((entry, index) => {
        const given = isMap(entry) ? entry : {};
        const provider: PlainMap = { AuthenticationType: given.Type };
        const extra = this.authConfig(given, index);
        if (extra) {
          provider[extra.property] = extra.value;
          if (extra.property === 'LambdaAuthorizerConfig') arns.push(extra.value.AuthorizerUri);
        }
        return provider;
      });
      api.set('AdditionalAuthenticationProviders', providers, 'Auth.Additional');
    }
    return arns;
  }

  /** `_validate_and_extract_authorizer_config`: the configuration property an authorization type needs, checked. */
  private authConfig(auth: PlainMap, index?: number): { property: string; value: PlainMap } | undefined {
    if (Object.keys(present(auth)).length > 2) {
      throw this.fail(`${index ? `'Auth.Additional.${index}'` : "'Auth'"} has more than one authentication configuration defined.`, this.sam.logicalId, 'Auth');
    }
    const known = typeof auth.Type === 'string' ? AUTH_CONFIGS[auth.Type] : undefined;
    if (!known) return undefined;
    const given = auth[known.from];
    if (given === undefined || given === null) throw this.fail(known.what, this.sam.logicalId, 'Auth');
    const value = present(isMap(given) ? given : {});
    // Only the primary authorization may say what a user pool does by default.
    if (index !== undefined && known.from === 'UserPool') delete value.DefaultAction;
    return { property: known.property, value };
  }

  /** `_construct_appsync_schema`. */
  private schema(): GeneratedResource {
    const p = this.p;
    if (!p.SchemaInline && !p.SchemaUri) throw this.fail("One of 'SchemaInline' or 'SchemaUri' must be set.");
    if (p.SchemaInline && p.SchemaUri) throw this.fail("Both 'SchemaInline' and 'SchemaUri' cannot be defined at the same time.");
    const schema = this.generate(`${this.sam.logicalId}Schema`, 'AWS::AppSync::GraphQLSchema', p.SchemaInline ? 'SchemaInline' : 'SchemaUri');
    schema.set('ApiId', this.apiId);
    schema.set('Definition', p.SchemaInline, 'SchemaInline');
    schema.set('DefinitionS3Location', p.SchemaUri, 'SchemaUri');
    return schema;
  }

  /** A connector SAM makes, translated as any connector. */
  private connector(logicalId: string, ownerProperty: string, properties: PlainMap): GeneratedResource[] {
    const generated = translateConnector(new EmbeddedConnector(logicalId, properties, this.sam, ownerProperty), NO_RESOURCES, new Map());
    if (generated instanceof SamError) throw new SamError(this.sam.logicalId, generated.detail, ['Properties', ...ownerProperty.split('.')], generated.kind);
    return generated;
  }

  private apiKeys(keys: PlainMap): GeneratedResource[] {
    return Object.entries(keys).map(([name, given]) => {
      const key = isMap(given) ? given : {};
      const resource = this.generate(`${this.sam.logicalId}${name}`, 'AWS::AppSync::ApiKey', `ApiKeys.${name}`);
      resource.set('ApiId', this.apiId);
      resource.set('ApiKeyId', key.ApiKeyId);
      resource.set('Description', key.Description);
      resource.set('Expires', key.ExpiresOn);
      return resource;
    });
  }

  private cache(cache: PlainMap): GeneratedResource {
    const resource = this.generate(`${this.sam.logicalId}ApiCache`, 'AWS::AppSync::ApiCache', 'Cache');
    resource.set('ApiId', this.apiId);
    for (const name of ['ApiCachingBehavior', 'Type', 'Ttl', 'AtRestEncryptionEnabled', 'TransitEncryptionEnabled']) resource.set(name, cache[name]);
    return resource;
  }

  private domainName(domain: PlainMap): GeneratedResource[] {
    const name = this.generate(`${this.sam.logicalId}DomainName`, 'AWS::AppSync::DomainName', 'DomainName');
    name.set('CertificateArn', domain.CertificateArn);
    name.set('DomainName', domain.DomainName);
    name.set('Description', domain.Description);
    const association = this.generate(`${this.sam.logicalId}DomainNameApiAssociation`, 'AWS::AppSync::DomainNameApiAssociation', 'DomainName');
    association.set('ApiId', this.apiId);
    association.set('DomainName', name.ref());
    return [name, association];
  }

  /** `_construct_datasource_resources`: the DynamoDB data sources, then the Lambda ones. */
  private dataSources(sources: PlainMap): GeneratedResource[] {
    const resources: GeneratedResource[] = [];
    for (const [name, given] of Object.entries(isMap(sources.DynamoDb) ? sources.DynamoDb : {})) {
      const source = isMap(given) ? given : {};
      const dataSource = this.dataSource(name, 'DynamoDB', 'AMAZON_DYNAMODB', source, `DataSources.DynamoDb.${name}`);
      const config: PlainMap = { AwsRegion: source.Region || { Ref: 'AWS::Region' }, TableName: source.TableName };
      if (source.UseCallerCredentials) config.UseCallerCredentials = source.UseCallerCredentials;
      if (source.Versioned) config.Versioned = source.Versioned;
      if (source.DeltaSync) config.DeltaSyncConfig = source.DeltaSync;
      dataSource.set('DynamoDBConfig', config);
      const tableArn = source.TableArn || {
        'Fn::Sub': ['arn:${AWS::Partition}:dynamodb:${__Region__}:${AWS::AccountId}:table/${__TableName__}', { __TableName__: source.TableName, __Region__: source.Region || { Ref: 'AWS::Region' } }],
      };
      resources.push(dataSource, ...this.dataSourceRole(dataSource, source, 'ToTableConnector', 'AWS::DynamoDB::Table', tableArn, source.Permissions || ['Read', 'Write']));
    }
    for (const [name, given] of Object.entries(isMap(sources.Lambda) ? sources.Lambda : {})) {
      const source = isMap(given) ? given : {};
      const dataSource = this.dataSource(name, 'Lambda', 'AWS_LAMBDA', source, `DataSources.Lambda.${name}`);
      dataSource.set('LambdaConfig', { LambdaFunctionArn: source.FunctionArn });
      resources.push(dataSource, ...this.dataSourceRole(dataSource, source, 'ToLambdaConnector', 'AWS::Lambda::Function', source.FunctionArn, ['Write']));
    }
    return resources;
  }

  private dataSource(name: string, kind: string, type: string, source: PlainMap, property: string): GeneratedResource {
    const dataSource = this.generate(`${this.sam.logicalId}${name}${kind}DataSource`, 'AWS::AppSync::DataSource', property);
    dataSource.set('Name', source.Name || name);
    dataSource.set('Type', type);
    dataSource.set('ApiId', this.apiId);
    dataSource.set('Description', source.Description);
    this.dataSourceNames.set(name, dataSource.getAtt('Name'));
    return dataSource;
  }

  /** The data source's role (the given one, or one SAM creates with a connector's policy to reach its target). */
  private dataSourceRole(dataSource: GeneratedResource, source: PlainMap, connectorSuffix: string, targetType: string, targetArn: unknown, permissions: unknown): GeneratedResource[] {
    if (source.ServiceRoleArn) {
      dataSource.set('ServiceRoleArn', source.ServiceRoleArn);
      return [];
    }
    const role = this.generate(`${dataSource.logicalId}Role`, 'AWS::IAM::Role', dataSource.origin.property);
    role.set('AssumeRolePolicyDocument', assumeRolePolicy('appsync.amazonaws.com'));
    dataSource.set('ServiceRoleArn', role.getAtt('Arn'));
    const connector = this.connector(`${dataSource.logicalId}${connectorSuffix}`, dataSource.origin.property!, {
      Source: { Type: 'AWS::AppSync::DataSource', Arn: dataSource.getAtt('DataSourceArn'), RoleName: role.ref() },
      Destination: { Type: targetType, Arn: targetArn },
      Permissions: permissions,
    });
    return [role, ...connector];
  }

  /** `_construct_appsync_function_configurations`. */
  private functions(functions: PlainMap): GeneratedResource[] {
    const resources: GeneratedResource[] = [];
    for (const [name, given] of Object.entries(functions)) {
      const fn = isMap(given) ? given : {};
      if (fn.Id) {
        if (Object.keys(present(fn)).length !== 1) throw this.fail("'Id' cannot be defined with other properties in Function.", name, 'Functions', name);
        this.functionIds.set(name, fn.Id);
        continue;
      }
      const config = this.generate(`${this.sam.logicalId}${name}`, 'AWS::AppSync::FunctionConfiguration', `Functions.${name}`);
      config.set('ApiId', this.apiId);
      config.set('Name', fn.Name || name);
      if (fn.InlineCode && fn.CodeUri) throw this.fail("Both 'InlineCode' and 'CodeUri' cannot be defined at the same time.", name, 'Functions', name);
      if (!fn.InlineCode && !fn.CodeUri) throw this.fail("One of 'InlineCode' or 'CodeUri' must be set.", name, 'Functions', name);
      config.set('Code', fn.InlineCode || undefined);
      config.set('CodeS3Location', fn.InlineCode ? undefined : fn.CodeUri);
      config.set('DataSourceName', this.dataSourceName(name, fn.DataSource));
      config.set('MaxBatchSize', fn.MaxBatchSize);
      config.set('Description', fn.Description);
      config.set('Runtime', this.runtime(name, fn.Runtime, ['Functions', name]));
      if (isMap(fn.Sync)) config.set('SyncConfig', present(fn.Sync));
      this.functionIds.set(name, config.getAtt('FunctionId'));
      resources.push(config);
    }
    return resources;
  }

  /** `_parse_datasource_name`: a data source of this API by name, the shared `NONE` one, or the value as written. */
  private dataSourceName(functionName: string, dataSource: unknown): unknown {
    if (!dataSource) throw this.fail("'DataSource' must be set.", functionName, 'Functions', functionName);
    if (typeof dataSource !== 'string') return dataSource;
    if (dataSource.toLowerCase() === 'none') {
      if (!this.noneDataSource) {
        const logicalId = `${this.sam.logicalId}NoneDataSource`;
        this.noneDataSource = this.generate(logicalId, 'AWS::AppSync::DataSource', 'Functions');
        this.noneDataSource.set('ApiId', this.apiId);
        this.noneDataSource.set('Name', logicalId);
        this.noneDataSource.set('Type', 'NONE');
      }
      return this.noneDataSource.getAtt('Name');
    }
    if (this.dataSourceNames.has(dataSource)) return this.dataSourceNames.get(dataSource);
    throw this.fail(
      `Either define DataSource '${dataSource}' in 'DataSources' or use intrinsic function like GetAtt, ImportValue, Sub or another one to reference a DataSource defined outside of this GraphQLApi resource.`,
      functionName,
      'Functions',
      functionName,
    );
  }

  /** `_parse_runtime`. */
  private runtime(name: string, runtime: unknown, path: string[]): PlainMap {
    if (!isMap(runtime)) throw this.fail(`'Runtime' must be defined as a property in ${name}.`, name, ...path);
    return present({ Name: runtime.Name, RuntimeVersion: runtime.Version });
  }

  /** `_construct_appsync_resolver_resources`: pipeline resolvers only, each waiting for the schema. */
  private resolvers(resolvers: PlainMap, schemaId: string): GeneratedResource[] {
    const resources: GeneratedResource[] = [];
    for (const [typeName, byName] of Object.entries(resolvers)) {
      for (const [name, given] of Object.entries(isMap(byName) ? byName : {})) {
        const resolver = isMap(given) ? given : {};
        const path = ['Resolvers', typeName, name];
        const resource = this.generate(`${this.sam.logicalId}${typeName}${name}`, 'AWS::AppSync::Resolver', `Resolvers.${typeName}.${name}`, [schemaId]);
        if (resolver.CodeUri && resolver.InlineCode) throw this.fail("Both 'InlineCode' and 'CodeUri' cannot be defined at the same time.", name, ...path);
        if (!resolver.InlineCode && !resolver.CodeUri) {
          resource.set('Code', DEFAULT_RESOLVER_CODE);
          resource.set('Runtime', DEFAULT_RESOLVER_RUNTIME);
        } else {
          resource.set('Code', resolver.InlineCode);
          resource.set('CodeS3Location', resolver.CodeUri);
          resource.set('Runtime', this.runtime(name, resolver.Runtime, path));
        }
        resource.set('ApiId', this.apiId);
        resource.set('FieldName', resolver.FieldName || name);
        resource.set('TypeName', typeName);
        if (!resolver.Pipeline) {
          throw this.fail(`Resolver '${name}' must have Pipeline defined. Unit resolvers are not supported. If you need a Unit resolver you can use AppSync resource.`, name, ...path);
        }
        resource.set('Kind', 'PIPELINE');
        const functions = (Array.isArray(resolver.Pipeline) ? resolver.Pipeline : []).map((fn: unknown) => {
          if (typeof fn !== 'string' || !this.functionIds.has(fn)) throw this.fail(`Function '${String(fn)}' does not exist.`, name, ...path);
          return this.functionIds.get(fn);
        });
        resource.set('PipelineConfig', { Functions: functions });
        if (isMap(resolver.Caching)) resource.set('CachingConfig', present(resolver.Caching));
        if (resolver.MaxBatchSize) resource.set('MaxBatchSize', resolver.MaxBatchSize);
        resources.push(resource);
      }
    }
    return resources;
  }
}
