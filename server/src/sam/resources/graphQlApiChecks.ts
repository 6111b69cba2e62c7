/**
 * The checks SAM makes on an `AWS::Serverless::GraphQLApi` before it translates one
 * (graphQlApi.ts): its schema first (authentication types, logging fields), then the authentication
 * each type needs, the schema source, each pipeline function (named by the error) and each
 * resolver. An AppSync function or resolver error names the function or resolver, as SAM does.
 */
import type { SamResource } from '../model/context';
import { invalidResource, type SamError, type SamPath } from '../model/errors';
import { isIntrinsic, isList, isMap, type PlainMap } from '../model/values';

const AUTH_TYPES = ['AWS_IAM', 'API_KEY', 'AWS_LAMBDA', 'OPENID_CONNECT', 'AMAZON_COGNITO_USER_POOLS'];
/** The configuration each authentication type needs, by type. */
const AUTH_CONFIG: Readonly<Record<string, string>> = { AWS_LAMBDA: 'LambdaAuthorizer', OPENID_CONNECT: 'OpenIDConnect', AMAZON_COGNITO_USER_POOLS: 'UserPool' };
const AUTH_FIELDS = ['Type', 'LambdaAuthorizer', 'OpenIDConnect', 'UserPool', 'Additional'];
const LOGGING_FIELDS = ['CloudWatchLogsRoleArn', 'FieldLogLevel', 'ExcludeVerboseContent'];
/** A pipeline function with no data source of its own uses AppSync's `NONE` (in any case). */
const NONE_DATA_SOURCE = 'NONE';

/** The first reason SAM rejects a GraphQL API, or nothing when it is valid. */
export function validateGraphQlApi(sam: SamResource): SamError | undefined {
  const p = sam.properties;
  const fail = (detail: string, path: SamPath, subject = sam.logicalId) => invalidResource(subject, detail, ['Properties', ...path]);
  const schema = schemaError(p, fail);
  if (schema) return schema;
  for (const name of ['Functions', 'Resolvers', 'DataSources']) {
    if (p[name] !== undefined && !isMap(p[name])) return fail(`Property '${name}' is invalid.`, [name]);
  }
  const auth = p.Auth as PlainMap;
  const type = auth.Type as string;
  const configs = Object.values(AUTH_CONFIG).filter((name) => auth[name] !== undefined);
  if (configs.length > 1) return fail("'Auth' has more than one authentication configuration defined.", ['Auth']);
  const needed = AUTH_CONFIG[type];
  if (needed !== undefined && auth[needed] === undefined) return fail(`'${needed}' must be defined if type is '${type}'.`, ['Auth', 'Type']);
  if (p.SchemaInline !== undefined && p.SchemaUri !== undefined) return fail("Both 'SchemaInline' and 'SchemaUri' cannot be defined at the same time.", ['SchemaUri']);
  if (p.SchemaInline === undefined && p.SchemaUri === undefined) return fail("One of 'SchemaInline' or 'SchemaUri' must be set.", []);
  const dataSources = dataSourceNames(p.DataSources);
  const functions = isMap(p.Functions) ? p.Functions : {};
  for (const [name, fn] of Object.entries(functions)) {
    if (!isMap(fn)) return fail(`Property 'Functions.${name}' is invalid.`, ['Functions', name]);
    const error = functionError(name, fn, dataSources, (detail, path) => fail(detail, ['Functions', name, ...path], name));
    if (error) return error;
  }
  const resolvers = isMap(p.Resolvers) ? p.Resolvers : {};
  for (const [operation, byName] of Object.entries(resolvers)) {
    if (!isMap(byName)) return fail(`Property 'Resolvers.${operation}' is invalid.`, ['Resolvers', operation]);
    for (const [name, resolver] of Object.entries(byName)) {
      if (!isMap(resolver)) return fail(`Property 'Resolvers.${operation}.${name}' is invalid.`, ['Resolvers', operation, name]);
      const error = resolverError(name, resolver, functions, (detail, path) => fail(detail, ['Resolvers', operation, name, ...path], name));
      if (error) return error;
    }
  }
  return undefined;
}

type Fail = (detail: string, path: SamPath) => SamError;

/** What SAM's schema of the resource rejects: a missing or unknown authentication, an unknown logging field. */
function schemaError(p: PlainMap, fail: (detail: string, path: SamPath) => SamError): SamError | undefined {
  const auth = p.Auth;
  if (auth === undefined || auth === null) return fail("Missing required property 'Auth'.", []);
  if (!isMap(auth)) return fail("Property 'Auth' is invalid.", ['Auth']);
  if (typeof auth.Type !== 'string' || !AUTH_TYPES.includes(auth.Type)) return fail("Property 'Auth.Type' is invalid.", ['Auth', 'Type']);
  const unknown = Object.keys(auth).find((key) => !AUTH_FIELDS.includes(key));
  if (unknown !== undefined) return fail(`Property 'Auth.${unknown}' is invalid.`, ['Auth', unknown]);
  const additional = auth.Additional;
  if (additional !== undefined && !(isList(additional) && additional.every((item) => additionalAuthIsValid(item)))) return fail("Property 'Auth.Additional' is invalid.", ['Auth', 'Additional']);
  const logging = p.Logging;
  if (isMap(logging)) {
    const field = Object.keys(logging).find((key) => !LOGGING_FIELDS.includes(key));
    if (field !== undefined) return fail(`Property 'Logging.${field}' is invalid.`, ['Logging', field]);
  }
  return undefined;
}

/** An additional authentication provider: a known type with exactly the configuration it needs. */
function additionalAuthIsValid(item: unknown): boolean {
  if (!isMap(item) || typeof item.Type !== 'string' || !AUTH_TYPES.includes(item.Type)) return false;
  const configs = Object.values(AUTH_CONFIG).filter((name) => item[name] !== undefined);
  const needed = AUTH_CONFIG[item.Type];
  return configs.length <= 1 && (needed === undefined || item[needed] !== undefined);
}

/** The names of the data sources the API defines (`DataSources.<Kind>.<Name>`). */
function dataSourceNames(dataSources: unknown): Set<string> {
  const names = new Set<string>();
  if (!isMap(dataSources)) return names;
  for (const byName of Object.values(dataSources)) if (isMap(byName)) for (const name of Object.keys(byName)) names.add(name);
  return names;
}

/** A pipeline function: an existing one by `Id` alone, or one with a data source, its code and, for inline code, its runtime. */
function functionError(name: string, fn: PlainMap, dataSources: ReadonlySet<string>, fail: Fail): SamError | undefined {
  if (fn.Id !== undefined) return Object.keys(fn).length > 1 ? fail("'Id' cannot be defined with other properties in Function.", ['Id']) : undefined;
  const dataSource = fn.DataSource;
  if (dataSource === undefined || dataSource === null) return fail("'DataSource' must be set.", []);
  if (typeof dataSource === 'string' && dataSource.toUpperCase() !== NONE_DATA_SOURCE && !dataSources.has(dataSource)) {
    return fail(
      `Either define DataSource '${dataSource}' in 'DataSources' or use intrinsic function like GetAtt, ImportValue, Sub or another one to reference a DataSource defined outside of this GraphQLApi resource.`,
      ['DataSource'],
    );
  }
  const code = codeError(fn, fail);
  if (code) return code;
  if (fn.CodeUri === undefined && (fn.InlineCode === undefined || fn.InlineCode === null)) return fail("One of 'InlineCode' or 'CodeUri' must be set.", []);
  return fn.InlineCode !== undefined && fn.Runtime === undefined ? fail(`'Runtime' must be defined as a property in ${name}.`, ['InlineCode']) : undefined;
}

/** A resolver runs a pipeline of the API's functions; code written for it needs its runtime. */
function resolverError(name: string, resolver: PlainMap, functions: PlainMap, fail: Fail): SamError | undefined {
  const pipeline = resolver.Pipeline;
  if (pipeline === undefined || pipeline === null) {
    return fail(`Resolver '${name}' must have Pipeline defined. Unit resolvers are not supported. If you need a Unit resolver you can use AppSync resource.`, []);
  }
  const code = codeError(resolver, fail);
  if (code) return code;
  if (resolver.InlineCode !== undefined && resolver.Runtime === undefined) return fail(`'Runtime' must be defined as a property in ${name}.`, ['InlineCode']);
  if (isList(pipeline)) {
    const missing = pipeline.find((step) => typeof step === 'string' && !(step in functions));
    if (typeof missing === 'string') return fail(`Function '${missing}' does not exist.`, ['Pipeline']);
  } else if (!isIntrinsic(pipeline)) return fail("Property 'Pipeline' is invalid.", ['Pipeline']);
  return undefined;
}

function codeError(item: PlainMap, fail: Fail): SamError | undefined {
  if (item.InlineCode !== undefined && item.CodeUri !== undefined) return fail("Both 'InlineCode' and 'CodeUri' cannot be defined at the same time.", ['CodeUri']);
  return undefined;
}
