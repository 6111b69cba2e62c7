/**
 * The `Globals` section (samtranslator/plugins/globals): properties every resource of a type
 * takes unless it sets them itself. Maps merge key by key (the resource's own value wins), lists
 * concatenate (globals first), anything else (an intrinsic function counts as a scalar) is the
 * resource's own value. `IgnoreGlobals` on a resource drops all (`'*'`) or the listed globals.
 */
import type { MapEntry, MapNode } from '../../template/ast';
import type { TranslationContext } from '../model/context';
import { invalidGlobals, invalidResource, SamError } from '../model/errors';
import { PyDict, PyUnicode } from '../python/py27Dict';
import { pyList } from '../python/pyRepr';
import type { ResourceOrder } from '../model/resourceOrder';
import { isIntrinsic, isList, isMap, type PlainMap } from '../model/values';
import { setEntry } from '../../template/tree';
import { SERVERLESS_TYPE_PREFIX as RESOURCE_PREFIX } from '../../template/readModel';

/** The entry of Globals (as written) that a SAM type takes its defaults from: `Function` for `AWS::Serverless::Function`. */
export function globalsSectionOf(globals: MapNode, type: string): MapEntry | undefined {
  if (!type.startsWith(RESOURCE_PREFIX)) return undefined;
  const name = type.slice(RESOURCE_PREFIX.length);
  return globals.entries.find((entry) => entry.key === name);
}

/** The properties each section of Globals may set, as the translator lists them. */
const SUPPORTED: Record<string, readonly string[]> = {
  Function: [
    'Handler', 'Runtime', 'CodeUri', 'DeadLetterQueue', 'Description', 'MemorySize', 'Timeout', 'VpcConfig', 'Environment', 'Tags',
    'PropagateTags', 'Tracing', 'KmsKeyArn', 'AutoPublishAlias', 'AutoPublishAliasAllProperties', 'Layers', 'DeploymentPreference',
    'RolePath', 'PermissionsBoundary', 'ReservedConcurrentExecutions', 'ProvisionedConcurrencyConfig', 'AssumeRolePolicyDocument',
    'EventInvokeConfig', 'FileSystemConfigs', 'CodeSigningConfigArn', 'Architectures', 'SnapStart', 'EphemeralStorage',
    'FunctionUrlConfig', 'RuntimeManagementConfig', 'LoggingConfig', 'RecursiveLoop', 'SourceKMSKeyArn', 'TenancyConfig', 'DurableConfig',
    'CapacityProviderConfig', 'FunctionScalingConfig', 'PublishToLatestPublished', 'VersionDeletionPolicy',
  ],
  Api: [
    'Auth', 'Name', 'DefinitionUri', 'CacheClusterEnabled', 'CacheClusterSize', 'MergeDefinitions', 'Variables', 'EndpointConfiguration',
    'MethodSettings', 'BinaryMediaTypes', 'MinimumCompressionSize', 'Cors', 'GatewayResponses', 'AccessLogSetting', 'CanarySetting',
    'TracingEnabled', 'OpenApiVersion', 'Domain', 'AlwaysDeploy', 'PropagateTags', 'SecurityPolicy', 'EndpointAccessMode',
  ],
  HttpApi: ['Auth', 'AccessLogSettings', 'StageVariables', 'Tags', 'CorsConfiguration', 'DefaultRouteSettings', 'Domain', 'RouteSettings', 'FailOnWarnings', 'PropagateTags'],
  SimpleTable: ['SSESpecification'],
  StateMachine: ['PropagateTags'],
  LayerVersion: ['PublishLambdaVersion'],
  CapacityProvider: ['VpcConfig', 'OperatorRole', 'Tags', 'InstanceRequirements', 'ScalingConfig', 'KmsKeyArn', 'PropagateTags'],
  WebSocketApi: [
    'AccessLogSettings', 'ApiKeySelectionExpression', 'DefaultRouteSettings', 'DisableExecuteApiEndpoint', 'DisableSchemaValidation', 'Domain',
    'FailOnWarnings', 'IpAddressType', 'PropagateTags', 'RouteSelectionExpression', 'RouteSettings', 'StageVariables', 'Tags',
  ],
};

/** The parsed Globals section: for each `AWS::Serverless::*` type, the properties it gives. */
export class Globals {
  private constructor(private readonly byType: ReadonlyMap<string, PlainMap>) {}

  /** Reads the Globals section; an invalid section is the translator's document error. */
  static read(section: unknown): Globals | SamError {
    const byType = new Map<string, PlainMap>();
    if (section === undefined) return new Globals(byType);
    if (!isMap(section)) return invalidGlobals('It must be a non-empty dictionary', ['Globals']);
    const names = Object.keys(SUPPORTED).sort();
    for (const [name, properties] of Object.entries(section)) {
      const supported = SUPPORTED[name];
      if (supported === undefined) {
        return invalidGlobals(`'${name}' is not supported. Must be one of the following values - ${pyList(names)}`, ['Globals', name]);
      }
      if (!isMap(properties)) return invalidGlobals("Value of ${section} must be a dictionary", ['Globals', name]);
      for (const key of Object.keys(properties)) {
        if (!supported.includes(key)) {
          return invalidGlobals(`'${key}' is not a supported property of '${name}'. Must be one of the following values - ${pyList(supported)}`, ['Globals', name, key]);
        }
      }
      byType.set(RESOURCE_PREFIX + name, properties);
    }
    return new Globals(byType);
  }

  /** The properties of a resource with the globals of its type merged in, honouring `IgnoreGlobals`. */
  merge(logicalId: string, type: string, properties: PlainMap, ignoreGlobals: unknown): PlainMap | SamError {
    let globals = this.byType.get(type);
    if (globals === undefined) return properties;
    if (ignoreGlobals !== undefined && ignoreGlobals !== null && ignoreGlobals !== '' && !(isList(ignoreGlobals) && ignoreGlobals.length === 0)) {
      if (ignoreGlobals === '*') return properties;
      if (!isList(ignoreGlobals)) return invalidResource(logicalId, `Resource ${logicalId} has invalid resource attribute 'IgnoreGlobals'.`, ['IgnoreGlobals']);
      globals = { ...globals };
      for (const key of ignoreGlobals) {
        if (typeof key !== 'string' || !(key in globals)) {
          return invalidResource(logicalId, `Resource ${logicalId} has invalid resource attribute 'IgnoreGlobals' on item '${String(key)}'.`, ['IgnoreGlobals']);
        }
        delete globals[key];
      }
    }
    return merge(globals, properties) as PlainMap;
  }
}

/** GlobalsPlugin: every SAM resource takes the globals of its type. */
export function mergeGlobals(ctx: TranslationContext, order: ResourceOrder, globals: Globals, errors: { error: SamError; logicalId?: string }[]): void {
  for (const id of order.keys()) {
    const entry = ctx.resources[id];
    if (!isMap(entry) || typeof entry.Type !== 'string' || !entry.Type.startsWith(RESOURCE_PREFIX)) continue;
    if (entry.Properties !== undefined && entry.Properties !== null && !isMap(entry.Properties)) continue;
    const properties = isMap(entry.Properties) ? entry.Properties : {};
    const merged = globals.merge(id, entry.Type, properties, entry.IgnoreGlobals);
    if (merged instanceof SamError) {
      errors.push({ error: merged, logicalId: id });
      continue;
    }
    if (merged !== properties) ctx.resources[id] = { ...entry, Properties: merged };
  }
  // Globals.fix_openapi_definitions: a managed definition takes the API's OpenApiVersion 3.x.
  for (const id of order.keys()) {
    const entry = ctx.resources[id];
    if (!isMap(entry) || entry.Type !== 'AWS::Serverless::Api' || !isMap(entry.Properties)) continue;
    const properties = entry.Properties;
    const version = properties.OpenApiVersion;
    // YAML reads `3.0` as a number, which Python prints `3.0`; SAM turns it into that string.
    const text = typeof version === 'number' && Number.isInteger(version) ? `${version}.0` : String(version);
    if (version === undefined || !('__MANAGE_SWAGGER' in properties) || !/^3(\.\d)(\.\d)?$/.test(text)) continue;
    if (typeof version !== 'string') properties.OpenApiVersion = text;
    const body = properties.DefinitionBody;
    if (body instanceof PyDict) {
      // A version written as a string is template text (unicode to Python 2.7); one SAM converted is its own.
      body.set('openapi', typeof version === 'string' ? new PyUnicode(version) : text);
      if (body.get('swagger')) body.delete('swagger');
    }
  }
}

type Token = 'primitive' | 'dict' | 'list';

function tokenOf(value: unknown): Token {
  if (isMap(value)) return isIntrinsic(value) ? 'primitive' : 'dict';
  return isList(value) ? 'list' : 'primitive';
}

function merge(global: unknown, local: unknown): unknown {
  const token = tokenOf(global);
  if (token !== tokenOf(local) || token === 'primitive') return local;
  if (token === 'list') return [...(global as unknown[]), ...(local as unknown[])];
  const merged: PlainMap = { ...(global as PlainMap) };
  for (const [key, value] of Object.entries(local as PlainMap)) setEntry(merged, key, Object.hasOwn(merged, key) ? merge(merged[key], value) : value);
  return merged;
}
