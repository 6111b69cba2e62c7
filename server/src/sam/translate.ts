/**
 * The transform's steps in SAM's order (translator.py): the plugins (the default definitions of
 * APIs, the implicit APIs, Globals), then each SAM resource (functions, state machines, APIs,
 * others, connectors), then what resources share (CodeDeploy), then the references to generated
 * and renamed resources. Each resource is translated on its own: an invalid or not covered
 * resource stays as written, and the others are still expanded.
 */
import type { Range } from '../template/ast';
import type { MapNode } from '../template/ast';
import { SERVERLESS_TYPE_PREFIX } from '../template/readModel';
import { SharedUsagePlan } from './model/sharedUsagePlan';
import { translateHttpApi } from './resources/api/httpApi';
import { implicitHttpApiPlugin } from './plugins/implicitHttpApi';
import { implicitRestApiPlugin } from './plugins/implicitRestApi';
import { resolveApplicationLocations, translateApplication } from './plugins/application';
import { translateLayerVersion } from './resources/layerVersion';
import { translateSimpleTable } from './resources/simpleTable';
import { translateCapacityProvider } from './resources/capacityProvider';
import { translateGraphQlApi } from './resources/graphQlApi';
import { translateStateMachine } from './resources/stateMachine/stateMachine';
import { validateCapacityProvider } from './resources/capacityProviderChecks';
import { validateGraphQlApi } from './resources/graphQlApiChecks';
import { validateWebSocketApi } from './resources/api/webSocketApiChecks';
import { translateConnector } from './resources/connector/connector';
import { addEmbeddedConnectors } from './plugins/embeddedConnectors';
import { ConnectableResources } from './resources/connector/connectableResources';
import { generatedConnectable } from './model/connectable';
import { translateRestApi } from './resources/api/restApi';
import { translateWebSocketApi } from './resources/api/webSocketApi';
import { SamResource, type LocalArtifacts, type SamNote, type TranslationContext } from './model/context';
import { invalidResource, SamError } from './model/errors';
import { DeploymentPreferences } from './model/deploymentPreference';
import { translateFunction } from './resources/function/function';
import { GeneratedResource, type Origin } from './model/generated';
import { Globals, mergeGlobals } from './plugins/globals';
import { packageLikeSamCli } from './plugins/samCliPackaging';
import { defaultDefinitionBodies } from './plugins/defaultDefinitions';
import { invalidLogicalIds, nonStringSubVariable, validateDocument } from './model/document';
import { ParameterWithoutValue, ResourceReferences, resolveParameterRefs } from './model/intrinsics';
import { NotCovered } from './model/notCovered';
import { ResourceOrder } from './model/resourceOrder';
import type { PyValue } from './python/py27Dict';
import { pyStr } from './python/pyRepr';
import { fromTemplate } from './model/pyValues';
import { deepCopy, isMap, type PlainMap } from './model/values';


/** What translating the template gave. */
export interface Translation {
  /** The generated resources of each translated SAM resource, by its logical id. */
  generated: Map<string, GeneratedResource[]>;
  /** Resources generated for the template as a whole (implicit APIs, CodeDeploy), in order. */
  shared: GeneratedResource[];
  /** Template resources that events edited, by logical id. */
  edited: Map<string, PlainMap>;
  /** Logical ids SAM changed (a layer's hashed id), old to new. */
  changedIds: Map<string, string>;
  references: ResourceReferences;
  conditions: PlainMap;
  errors: { error: SamError; logicalId?: string }[];
  /** SAM resources left as written because they use a feature not covered, with the feature. */
  notCovered: Map<string, string>;
  /** The implicit APIs, each with the function event it is attributed to. */
  implicitApis: ReadonlyMap<string, Origin>;
  /** The embedded connectors, each with the resource's `Connectors` entry it is attributed to. */
  embeddedConnectors: ReadonlyMap<string, Origin>;
  notes: SamNote[];
  /** Whether SAM converted the template for Python 2.7 dict order. */
  py27: boolean;
}

/**
 * The parameter values a transform knows: the caller's, then the defaults the template declares,
 * then the pseudo parameters it resolves. A declared parameter with neither is one CloudFormation
 * would give a value: it is a `ParameterWithoutValue`, so that what it decides is not taken for
 * an error the deployment would not meet.
 */
export function parameterValues(declared: unknown, options: Pick<TranslationOptions, 'parameters' | 'region' | 'partition'>): Map<string, unknown> {
  const parameters = new Map(options.parameters);
  if (isMap(declared)) {
    for (const [name, declaration] of Object.entries(declared)) {
      if (parameters.has(name)) continue;
      if (isMap(declaration) && 'Default' in declaration) parameters.set(name, declaration.Default);
      else if (isMap(declaration)) parameters.set(name, new ParameterWithoutValue(name));
    }
  }
  // Without a Region both stay references, which CloudFormation resolves after the transform.
  if (!parameters.has('AWS::Region')) parameters.set('AWS::Region', options.region ?? new ParameterWithoutValue('AWS::Region'));
  if (!parameters.has('AWS::Partition')) parameters.set('AWS::Partition', options.partition ?? new ParameterWithoutValue('AWS::Partition'));
  return parameters;
}

/** Known parameter values and the pseudo parameters the transform resolves. */
export interface TranslationOptions {
  parameters: ReadonlyMap<string, unknown>;
  /** The stack's Region, when known; else `AWS::Region` is a deploy-time value. */
  region?: string;
  /**
   * The Region's partition, given with the Region. Without it `AWS::Partition` stays a reference,
   * and the ARNs SAM writes out in full (managed policies, integration URIs) name `aws`: the same
   * text on both sides of a comparison, so it decides no change.
   */
  partition?: string;
  /** Whether the local artifact paths the template names are there (`localArtifactPaths` says which to look for). */
  artifacts?: LocalArtifacts;
  /**
   * Whether the template reaches CloudFormation as written, with no `sam build`/`sam deploy`
   * packaging it first (plugins/samCliPackaging.ts): then a function with no code is rejected as
   * the transform rejects it. By default the SAM CLI packages it.
   */
  withoutSamCli?: boolean;
}

/** What every translation reads of the template and the caller, besides the resources. */
export type ContextSeed = Pick<TranslationContext, 'parameters' | 'partition' | 'py27' | 'mappings' | 'conditions' | 'artifacts'>;

/** A translation context with nothing translated yet and no resources; the conditions are a copy the transform may add to. */
export function translationContext(seed: ContextSeed): TranslationContext {
  const notes: SamNote[] = [];
  const noted = new Set<string>();
  return {
    ...seed,
    conditions: { ...seed.conditions },
    resources: {},
    references: new ResourceReferences(),
    changedIds: new Map(),
    deploymentPreferences: new DeploymentPreferences(),
    functionNames: new Map(),
    notes,
    edited: new Map(),
    route53RecordSetGroups: new Map(),
    sharedUsagePlan: new SharedUsagePlan(),
    implicitApis: new Map(),
    applicationTemplates: new Map(),
    note(note: SamNote, range?: Range) {
      const key = JSON.stringify(note);
      if (noted.has(key)) return;
      noted.add(key);
      notes.push(range === undefined ? note : { ...note, range });
    },
  };
}

/** Whether SAM converts a template for Python 2.7 dict order: it has an explicit or implicit REST API, or an HttpApi with a default authorizer. */
function convertsForPython27(resources: PlainMap, globals: unknown): boolean {
  for (const resource of Object.values(resources)) {
    if (!isMap(resource)) continue;
    if (resource.Type === 'AWS::Serverless::Api') return true;
    if (resource.Type === 'AWS::Serverless::Function' || resource.Type === 'AWS::Serverless::StateMachine') {
      const properties = isMap(resource.Properties) ? resource.Properties : {};
      const events = properties.Events;
      if (isMap(events) && Object.values(events).some((e) => isMap(e) && e.Type === 'Api')) return true;
    }
  }
  const globalAuth = isMap(globals) && isMap(globals.HttpApi) && isMap(globals.HttpApi.Auth) ? globals.HttpApi.Auth.DefaultAuthorizer : undefined;
  for (const resource of Object.values(resources)) {
    if (!isMap(resource) || resource.Type !== 'AWS::Serverless::HttpApi') continue;
    const auth = isMap(resource.Properties) && isMap(resource.Properties.Auth) ? resource.Properties.Auth : undefined;
    if ((auth && auth.DefaultAuthorizer) || globalAuth) return true;
  }
  if (globalAuth) {
    for (const resource of Object.values(resources)) {
      if (!isMap(resource) || resource.Type !== 'AWS::Serverless::Function') continue;
      const events = isMap(resource.Properties) ? resource.Properties.Events : undefined;
      if (isMap(events) && Object.values(events).some((e) => isMap(e) && e.Type === 'HttpApi')) return true;
    }
  }
  return false;
}

/**
 * Translates the SAM resources of a template (as plain values) read from `resourcesNode`, in SAM's
 * order: the plugins, then each resource, then what resources share.
 */
export function translate(template: PlainMap, resourcesNode: MapNode | undefined, options: TranslationOptions): Translation {
  const documentError = validateDocument(template);
  if (documentError) return untranslated(template, documentError);
  const resources = isMap(template.Resources) ? template.Resources : {};
  // `Properties:` written with no value is not a map either, though Globals would merge into it.
  const propertiesNotMap = new Set(Object.entries(resources).filter(([, entry]) => isMap(entry) && 'Properties' in entry && !isMap(entry.Properties)).map(([id]) => id));
  const originalTypes = new Map(Object.entries(resources).map(([id, entry]) => [id, isMap(entry) ? entry.Type : undefined]));
  const py27 = convertsForPython27(resources, template.Globals);
  const parameters = parameterValues(template.Parameters, options);
  const subError = nonStringSubVariable(template, parameters);
  if (subError) return untranslated(template, subError);
  const seed: ContextSeed = {
    parameters,
    partition: options.partition ?? 'aws',
    mappings: template.Mappings,
    conditions: isMap(template.Conditions) ? template.Conditions : {},
    py27,
    ...(options.artifacts ? { artifacts: options.artifacts } : {}),
  };
  const ctx = translationContext(seed);
  const { notes, conditions } = ctx;
  ctx.resources = { ...resources };
  const resourceNodes = new Map((resourcesNode?.entries ?? []).map((e) => [e.key, e.value]));
  const nodeOf = (id: string): MapNode | undefined => {
    const value = resourceNodes.get(id);
    return value?.kind === 'map' ? value : undefined;
  };
  const errors: Translation['errors'] = [];
  const order = new ResourceOrder(Object.keys(resources), py27);
  if (!options.withoutSamCli) {
    const keyRanges = new Map((resourcesNode?.entries ?? []).map((e) => [e.key, e.keyRange]));
    packageLikeSamCli(ctx, template.Globals, (id) => keyRanges.get(id));
  }

  const embedded = addEmbeddedConnectors(ctx, order);
  errors.push(...embedded.errors);
  ctx.applicationTemplates = resolveApplicationLocations(ctx, order);
  defaultDefinitionBodies(ctx, order);
  const plugins = { ctx, order, globals: template.Globals };
  // The implicit API plugins' errors, or an invalid Globals section, stop SAM before any resource
  // is translated: a plugin raises its errors together.
  const pluginErrors = [...implicitRestApiPlugin(plugins), ...implicitHttpApiPlugin(plugins)];
  for (const error of pluginErrors) errors.push({ error, logicalId: error.subject });
  let stopped = pluginErrors.length > 0;
  if (!stopped) {
    const globals = Globals.read(template.Globals);
    if (globals instanceof SamError) {
      errors.push({ error: globals });
      stopped = true;
    } else mergeGlobals(ctx, order, globals, errors);
  }
  // The errors SAM collects resource by resource, which an error of the document as a whole drops.
  const collectedFrom = errors.length;
  if (!stopped) for (const error of invalidLogicalIds(template)) errors.push({ error, logicalId: error.subject });
  const generated = new Map<string, GeneratedResource[]>();
  const notCovered = new Map<string, string>();
  // A resource whose embedded connectors are invalid is still translated, as SAM translates it.
  const connectorErrors = new Set<object>(embedded.errors);
  const failed = new Set(errors.filter((e) => !connectorErrors.has(e)).map((e) => e.logicalId).filter((id): id is string => id !== undefined));
  let resolverFor: ((connectorId: string) => ConnectableResources) | undefined;
  for (const logicalId of stopped ? [] : translationOrder(ctx, order)) {
    if (failed.has(logicalId)) continue;
    const entry = ctx.resources[logicalId] as PlainMap;
    const sam = new SamResource(logicalId, entry.Type as string, entry, nodeOf(logicalId));
    recordFunctionNames(ctx, sam);
    let result: GeneratedResource[] | SamError | NotCovered;
    if (propertiesNotMap.has(logicalId) || (entry.Properties !== undefined && entry.Properties !== null && !isMap(entry.Properties))) {
      result = invalidResource(logicalId, "Attribute 'Properties' should be a map.", ['Properties']);
    } else if (sam.type === 'AWS::Serverless::Connector') {
      resolverFor ??= connectorResolvers(ctx, generated);
      result = translateConnector(sam, resolverFor(logicalId), originalTypes);
    } else result = translateResource(ctx, sam);
    if (Array.isArray(result)) result = duplicateLogicalId(ctx, logicalId, result) ?? result;
    // An embedded connector's error is placed at the resource it is embedded in; one that names
    // another resource of the template (an event's API whose Auth is not a map) at that resource.
    if (result instanceof SamError && result.kind === 'document') {
      // SAM's loop collects the errors of resources, not those of the document (an API definition's
      // structure): one ends the transform at once, with its message alone.
      errors.splice(collectedFrom, errors.length - collectedFrom, { error: result, logicalId });
      break;
    }
    if (result instanceof SamError) errors.push({ error: result, logicalId: embedded.origins.get(logicalId)?.logicalId ?? errorSubjectIn(result, resources) ?? logicalId });
    else if (result instanceof NotCovered) notCovered.set(logicalId, result.feature);
    else generated.set(logicalId, result);
  }

  const shared: GeneratedResource[] = [];
  if (ctx.deploymentPreferences.anyEnabled()) {
    for (const resource of ctx.deploymentPreferences.resources(ctx.partition)) {
      if (resource instanceof SamError) errors.push({ error: resource, logicalId: resource.subject });
      else shared.push(resource);
    }
    Object.assign(conditions, ctx.deploymentPreferences.combinedCondition());
  }
  const edited = new Map<string, PlainMap>();
  for (const [id, { entry }] of ctx.edited) edited.set(id, entry);
  return {
    generated,
    shared,
    edited,
    changedIds: ctx.changedIds,
    references: ctx.references,
    conditions,
    errors,
    notCovered,
    implicitApis: ctx.implicitApis,
    embeddedConnectors: embedded.origins,
    notes,
    py27,
  };
}

/** The other resource of the template a resource's error names (`Resource with id [X]`), if any. */
function errorSubjectIn(error: SamError, resources: PlainMap): string | undefined {
  return error.kind === 'resource' && Object.hasOwn(resources, error.subject) ? error.subject : undefined;
}

/** A template SAM rejects as a whole: nothing is translated, and its error is the only one. */
function untranslated(template: PlainMap, error: SamError): Translation {
  return {
    generated: new Map(),
    shared: [],
    edited: new Map(),
    changedIds: new Map(),
    references: new ResourceReferences(),
    conditions: isMap(template.Conditions) ? { ...template.Conditions } : {},
    errors: [{ error }],
    notCovered: new Map(),
    implicitApis: new Map(),
    embeddedConnectors: new Map(),
    notes: [],
    py27: false,
  };
}

/**
 * The type each generated type may replace under the same logical id: what a SAM resource becomes
 * in its own place, or a template resource an event source adds to. Any other generated resource
 * whose id the template already uses would overwrite that resource.
 */
const REPLACES: Readonly<Record<string, string>> = {
  'AWS::Lambda::Function': 'AWS::Serverless::Function',
  'AWS::Lambda::LayerVersion': 'AWS::Serverless::LayerVersion',
  'AWS::ApiGateway::RestApi': 'AWS::Serverless::Api',
  'AWS::ApiGatewayV2::Api': 'AWS::Serverless::HttpApi',
  'AWS::DynamoDB::Table': 'AWS::Serverless::SimpleTable',
  'AWS::CloudFormation::Stack': 'AWS::Serverless::Application',
  'AWS::StepFunctions::StateMachine': 'AWS::Serverless::StateMachine',
  'AWS::AppSync::GraphQLApi': 'AWS::Serverless::GraphQLApi',
  'AWS::S3::Bucket': 'AWS::S3::Bucket',
  'AWS::SNS::Topic': 'AWS::SNS::Topic',
  'AWS::Cognito::UserPool': 'AWS::Cognito::UserPool',
  'AWS::ApiGateway::DomainName': 'AWS::ApiGateway::DomainName',
  'AWS::ApiGateway::BasePathMapping': 'AWS::ApiGateway::BasePathMapping',
};

/** SAM's DuplicateLogicalIdException: a generated resource would take the id of another resource of the template. */
function duplicateLogicalId(ctx: TranslationContext, logicalId: string, generated: readonly GeneratedResource[]): SamError | undefined {
  for (const resource of generated) {
    const existing = ctx.resources[resource.logicalId];
    if (existing === undefined) continue;
    // A SAM resource is replaced by what it generates under its own id (a WebSocketApi by its API,
    // a CapacityProvider by the Lambda one).
    if (resource.logicalId === logicalId) continue;
    if (isMap(existing) && existing.Type === REPLACES[resource.type]) continue;
    // The SAM property that generated the resource, where the template sets it; else the resource itself.
    const written = isMap(ctx.resources[logicalId]) ? (ctx.resources[logicalId] as PlainMap).Properties : undefined;
    const origin = resource.origin.logicalId === logicalId ? resource.origin.property : undefined;
    const property = origin !== undefined && isMap(written) && origin.split('.')[0]! in written ? origin : undefined;
    return new SamError(
      logicalId,
      `Transforming resource with id [${logicalId}] attempts to create a new resource with id [${resource.logicalId}] and type "${resource.type}". ` +
        'A resource with that id already exists within this template. Please use a different id for that resource.',
      property === undefined ? [] : ['Properties', ...property.split('.')],
      'transform',
    );
  }
  return undefined;
}

/** The resources to translate, in SAM's order: functions, state machines, APIs, others, connectors. */
function translationOrder(ctx: TranslationContext, order: ResourceOrder): string[] {
  const groups: string[][] = [[], [], [], [], []];
  for (const id of order.keys()) {
    const entry = ctx.resources[id];
    if (!isMap(entry) || typeof entry.Type !== 'string' || !entry.Type.startsWith(SERVERLESS_TYPE_PREFIX)) continue;
    const type = entry.Type;
    const group =
      type === 'AWS::Serverless::Function' ? 0 : type === 'AWS::Serverless::StateMachine' ? 1 : type === 'AWS::Serverless::Api' || type === 'AWS::Serverless::HttpApi' || type === 'AWS::Serverless::WebSocketApi' ? 2 : type === 'AWS::Serverless::Connector' ? 4 : 3;
    groups[group]!.push(id);
  }
  return groups.flat();
}

function translateResource(ctx: TranslationContext, sam: SamResource): GeneratedResource[] | SamError | NotCovered {
  switch (sam.type) {
    case 'AWS::Serverless::Function':
      return translateFunction(ctx, sam);
    case 'AWS::Serverless::Api':
      return translateRestApi(ctx, sam);
    case 'AWS::Serverless::HttpApi':
      return translateHttpApi(ctx, sam);
    case 'AWS::Serverless::SimpleTable':
      return translateSimpleTable(sam);
    case 'AWS::Serverless::LayerVersion':
      return translateLayerVersion(ctx, sam);
    case 'AWS::Serverless::Application':
      return translateApplication(ctx, sam, ctx.applicationTemplates);
    case 'AWS::Serverless::StateMachine':
      return translateStateMachine(ctx, sam);
    case 'AWS::Serverless::CapacityProvider':
      return validateCapacityProvider(sam) ?? translateCapacityProvider(sam, ctx.partition);
    case 'AWS::Serverless::WebSocketApi':
      return validateWebSocketApi(sam) ?? translateWebSocketApi(ctx, sam);
    case 'AWS::Serverless::GraphQLApi':
      return validateGraphQlApi(sam) ?? translateGraphQlApi(sam);
    default:
      return new NotCovered(sam.type);
  }
}

/**
 * The template's resources as each connector sees them: the generated resources where SAM
 * resources were translated, the template's own otherwise. Each is edited in a copy: a template
 * resource's is attributed to the first connector that makes it wait for its policy, and a
 * generated resource's takes its place in what its producer generated.
 */
function connectorResolvers(ctx: TranslationContext, generated: Map<string, GeneratedResource[]>): (connectorId: string) => ConnectableResources {
  // Made once for all connectors, which are translated last: each sees the template's resources
  // (their entries no longer change) and everything generated before it, in the order each
  // connector alone would have gathered them. Gathering them again for each connector made a
  // template with a connector per function quadratic.
  const resources = new ConnectableResources();
  for (const [id, entry] of Object.entries(ctx.resources)) {
    if (!isMap(entry)) continue;
    const current = () => ctx.edited.get(id)?.entry ?? entry;
    resources.set(id, {
      type: entry.Type,
      properties: isMap(entry.Properties) ? entry.Properties : {},
      dependsOn: () => current().DependsOn,
      setDependsOn: (value) => {
        let edited = ctx.edited.get(id);
        if (!edited) ctx.edited.set(id, (edited = { entry: deepCopy(entry), by: { logicalId: resources.editor, property: 'Source' }, editors: new Set([resources.editor]) }));
        edited.entry.DependsOn = value;
      },
    });
  }
  const gathered = new Set<string>();
  return (id) => {
    resources.editor = id;
    for (const [producer, list] of generated) {
      if (gathered.has(producer)) continue;
      gathered.add(producer);
      // An edited resource takes the place of the one it copies, in a list of the producer's own.
      const replace = (before: GeneratedResource, after: GeneratedResource) => generated.set(producer, generated.get(producer)!.map((resource) => (resource === before ? after : resource)));
      for (const resource of list) resources.set(resource.logicalId, generatedConnectable(resource, replace));
    }
    return resources;
  };
}

/** `_get_function_names`: the FunctionName of functions whose Api events name an API, which redeploys that API when it changes. */
function recordFunctionNames(ctx: TranslationContext, sam: SamResource): void {
  if (sam.type !== 'AWS::Serverless::Function') return;
  const events = sam.properties.Events;
  if (!isMap(events)) return;
  for (const event of Object.values(events)) {
    if (!isMap(event) || event.Type !== 'Api') continue;
    const properties = isMap(event.Properties) ? event.Properties : {};
    if (!properties.RestApiId) continue;
    const api = isMap(properties.RestApiId) && 'Ref' in properties.RestApiId ? properties.RestApiId.Ref : properties.RestApiId;
    if (typeof api !== 'string') continue;
    const name = resolveParameterRefs(sam.properties.FunctionName, ctx.parameters);
    if (!name) continue;
    const text = pythonStr(ctx, name);
    ctx.functionNames.set(api, (ctx.functionNames.get(api) ?? '') + text);
  }
}

/**
 * Python's `str()` of a resolved FunctionName: a string as it is, an intrinsic left unresolved as
 * its repr (with unicode strings in a template converted for Python 2.7).
 */
function pythonStr(ctx: TranslationContext, value: unknown): string {
  if (typeof value === 'string') return value;
  return pyStr(ctx.py27 ? fromTemplate(value) : (value as PyValue));
}
