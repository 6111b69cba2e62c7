/**
 * The SAM coverage table of docs/sam.md, as the translator suite test
 * recognises each feature in an input. A feature marked `expanded` is one docs/sam.md lists as
 * expanded: every valid input of SAM's suite that uses only such features must expand to exactly
 * the expected resources. A feature marked not `expanded` is one docs/sam.md lists under "Not yet
 * expanded, or approximated": inputs that use it are left out of that check (and counted by the
 * floor only). Changing what docs/sam.md claims means changing this table, and the other way round.
 */

/** A resource of an input: its logical id, type, properties (a map, or `{}`) and embedded `Connectors`. */
export interface SamInputResource {
  id: string;
  type: string;
  properties: Record<string, unknown>;
  connectors: unknown;
}

/** What the table reads from an input template. */
export interface SamInput {
  resources: SamInputResource[];
  globals: Record<string, unknown>;
}

/** One feature of the table and how an input is recognised to use it. */
export interface CoverageEntry {
  /** The table's row (its first column). */
  row: string;
  /** The feature, as docs/sam.md names it. */
  feature: string;
  /** Listed as expanded (true) or as not yet expanded or approximated (false). */
  expanded: boolean;
  /** The SAM resource type the feature is, when it is a whole type. */
  samType?: string;
  usedBy(input: SamInput): boolean;
}

const FUNCTION = 'AWS::Serverless::Function';
const STATE_MACHINE = 'AWS::Serverless::StateMachine';
const REST_API = 'AWS::Serverless::Api';
const HTTP_API = 'AWS::Serverless::HttpApi';
/** The row of the other resource types SAM expands. */
const OTHERS = 'SimpleTable, LayerVersion, Application, StateMachine, Connector, CapacityProvider';

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ofType(input: SamInput, type: string): SamInputResource[] {
  return input.resources.filter((r) => r.type === type);
}

/** The events of the input's functions and state machines, as `[type, properties]`. */
function events(input: SamInput, owner = FUNCTION): [unknown, Record<string, unknown>][] {
  return ofType(input, owner).flatMap((r) => {
    const all = r.properties.Events;
    if (!isMap(all)) return [];
    return Object.values(all).map((e): [unknown, Record<string, unknown>] => (isMap(e) ? [e.Type, isMap(e.Properties) ? e.Properties : {}] : [undefined, {}]));
  });
}

/** A whole SAM resource type. */
function samType(row: string, type: string, expanded: boolean, globalsSection?: string): CoverageEntry {
  return {
    row,
    feature: type,
    expanded,
    samType: type,
    usedBy: (input) => ofType(input, type).length > 0 || (globalsSection !== undefined && globalsSection in input.globals),
  };
}

/** A property of a SAM resource type. */
function property(row: string, type: string, name: string, expanded = true): CoverageEntry {
  return { row, feature: name, expanded, usedBy: (input) => ofType(input, type).some((r) => r.properties[name] !== undefined) };
}

/** An event source type of functions. */
function functionEvent(type: string): CoverageEntry {
  return { row: 'Function', feature: `${type} event`, expanded: true, usedBy: (input) => events(input).some(([t]) => t === type) };
}

/** The event source types of functions in SAM's suite. */
const FUNCTION_EVENT_TYPES = [
  'Api', 'HttpApi', 'Schedule', 'ScheduleV2', 'CloudWatchEvent', 'EventBridgeRule', 'CloudWatchLogs', 'S3', 'SNS', 'SQS', 'Kinesis',
  'DynamoDB', 'MQ', 'MSK', 'SelfManagedKafka', 'DocumentDB', 'AlexaSkill', 'IoTRule', 'Cognito',
];

/** Api events that name no API, which SAM gathers on the implicit API. */
function usesImplicitApi(input: SamInput, eventType: string, apiIdProperty: string): boolean {
  return [...events(input), ...events(input, STATE_MACHINE)].some(([t, p]) => t === eventType && p[apiIdProperty] === undefined);
}

/**
 * A definition whose own `openapi` differs from the API's `OpenApiVersion`: SAM's suite translates
 * it with its `normalized_open_api_version` feature toggle on, which changes the definition (and
 * so the deployment hash); whether AWS's transform runs with that toggle is not public.
 */
function usesOpenApiVersionOverride(input: SamInput): boolean {
  return ofType(input, REST_API).some((r) => {
    const body = r.properties.DefinitionBody;
    const version = r.properties.OpenApiVersion;
    return isMap(body) && body.openapi !== undefined && version !== undefined && String(body.openapi) !== String(version);
  });
}

/** The table, row by row. */
export const SAM_COVERAGE: CoverageEntry[] = [
  {
    row: 'Globals',
    feature: 'Function, Api, HttpApi, SimpleTable, LayerVersion, StateMachine, CapacityProvider, WebSocketApi',
    expanded: true,
    usedBy: (input) => ['Function', 'Api', 'HttpApi', 'SimpleTable', 'LayerVersion', 'StateMachine', 'CapacityProvider', 'WebSocketApi'].some((section) => section in input.globals),
  },
  samType('Function', FUNCTION, true),
  { row: 'Function', feature: 'code', expanded: true, usedBy: (input) => ofType(input, FUNCTION).some((r) => ['CodeUri', 'InlineCode', 'ImageUri'].some((p) => r.properties[p] !== undefined)) },
  property('Function', FUNCTION, 'Policies'),
  property('Function', FUNCTION, 'Role'),
  ...FUNCTION_EVENT_TYPES.map(functionEvent),
  property('Function', FUNCTION, 'AutoPublishAlias'),
  property('Function', FUNCTION, 'AutoPublishCodeSha256'),
  property('Function', FUNCTION, 'AutoPublishAliasAllProperties'),
  property('Function', FUNCTION, 'DeploymentPreference'),
  property('Function', FUNCTION, 'ProvisionedConcurrencyConfig'),
  property('Function', FUNCTION, 'FunctionUrlConfig'),
  property('Function', FUNCTION, 'EventInvokeConfig'),
  property('Function', FUNCTION, 'Layers'),
  property('Function', FUNCTION, 'CapacityProviderConfig'),
  samType('Api / implicit ServerlessRestApi', REST_API, true),
  { row: 'Api / implicit ServerlessRestApi', feature: 'implicit ServerlessRestApi', expanded: true, usedBy: (input) => usesImplicitApi(input, 'Api', 'RestApiId') },
  ...['DefinitionBody', 'DefinitionUri', 'Cors', 'Auth', 'GatewayResponses', 'Models', 'Domain', 'MergeDefinitions'].map((name) => property('Api / implicit ServerlessRestApi', REST_API, name)),
  {
    row: 'Api / implicit ServerlessRestApi',
    feature: "a definition's `openapi` that differs from `OpenApiVersion`",
    expanded: false,
    usedBy: usesOpenApiVersionOverride,
  },
  samType('HttpApi / implicit ServerlessHttpApi', HTTP_API, true),
  { row: 'HttpApi / implicit ServerlessHttpApi', feature: 'implicit ServerlessHttpApi', expanded: true, usedBy: (input) => usesImplicitApi(input, 'HttpApi', 'ApiId') },
  ...['DefinitionBody', 'CorsConfiguration', 'Auth', 'Domain', 'Tags'].map((name) => property('HttpApi / implicit ServerlessHttpApi', HTTP_API, name)),
  samType(OTHERS, 'AWS::Serverless::SimpleTable', true),
  samType(OTHERS, 'AWS::Serverless::LayerVersion', true),
  samType(OTHERS, 'AWS::Serverless::Application', true),
  {
    row: OTHERS,
    feature: 'an application id that is not a Serverless Application Repository ARN',
    // The repository answers only ARNs ("Cannot access application"); SAM's suite mocks it, so
    // one of its valid inputs names an application `preparing` that is an error here.
    expanded: false,
    usedBy: (input) =>
      ofType(input, 'AWS::Serverless::Application').some((r) => {
        const location = r.properties.Location as { ApplicationId?: unknown } | undefined;
        return typeof location?.ApplicationId === 'string' && !location.ApplicationId.startsWith('arn:');
      }),
  },
  samType(OTHERS, STATE_MACHINE, true),
  samType(OTHERS, 'AWS::Serverless::Connector', true),
  samType(OTHERS, 'AWS::Serverless::CapacityProvider', true),
  {
    row: OTHERS,
    feature: 'embedded Connectors',
    expanded: true,
    usedBy: (input) => input.resources.some((r) => r.connectors !== undefined),
  },
  samType('WebSocketApi', 'AWS::Serverless::WebSocketApi', true, 'WebSocketApi'),
  ...['Auth', 'Domain', 'StageName', 'RouteSettings', 'PropagateTags'].map((name) => property('WebSocketApi', 'AWS::Serverless::WebSocketApi', name)),
  samType('GraphQLApi', 'AWS::Serverless::GraphQLApi', true),
  ...['Logging', 'ApiKeys', 'Cache', 'DataSources', 'DomainName', 'Functions', 'Resolvers'].map((name) => property('GraphQLApi', 'AWS::Serverless::GraphQLApi', name)),
];

/** The SAM resource types the table names, each as expanded or not. */
export const SAM_TYPES = new Map(SAM_COVERAGE.filter((e) => e.samType !== undefined).map((e) => [e.samType!, e.expanded]));

/** The table's features an input uses. */
export function featuresUsedBy(input: SamInput): CoverageEntry[] {
  return SAM_COVERAGE.filter((entry) => entry.usedBy(input));
}

/** What the table reads from a template (as plain values): its resources and Globals. */
export function samInput(template: unknown): SamInput {
  const root = isMap(template) ? template : {};
  const resources = isMap(root.Resources) ? root.Resources : {};
  return {
    resources: Object.entries(resources)
      .filter((entry): entry is [string, Record<string, unknown>] => isMap(entry[1]) && typeof entry[1].Type === 'string')
      .map(([id, r]) => ({ id, type: r.Type as string, properties: isMap(r.Properties) ? r.Properties : {}, connectors: r.Connectors })),
    globals: isMap(root.Globals) ? root.Globals : {},
  };
}

/** Whether a resource type is one of SAM's. */
export function isSamType(type: string): boolean {
  return type.startsWith('AWS::Serverless::');
}
