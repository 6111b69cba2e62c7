/**
 * The transform's steps in SAM's order (translator.py): the plugins (the default definitions of
 * APIs, the implicit APIs, Globals), then each SAM resource (functions, state machines, APIs,
 * others, connectors), then what resources share (CodeDeploy), then the references to generated
 * and renamed resources. Each resource is translated on its own: an invalid or not covered
 * resource stays as written, and the others are still expanded.
 */
import type { Range } from '../template/ast';
import type { MapNode, TemplateNode } from '../template/ast';
import { SERVERLESS_TYPE_PREFIX } from '../template/readModel';
import { SharedUsagePlan } from './api/usagePlan';
import { translateHttpApi } from './api/httpApi';
import { HTTP_KIND, implicitHttpApiPlugin } from './api/implicitHttpApi';
import { IMPLICIT_REST_API, implicitRestApiPlugin, REST_KIND } from './api/implicitRestApi';
import { resolveApplicationLocations, translateApplication } from './application';
import { translateLayerVersion } from './layerVersion';
import { translateSimpleTable } from './simpleTable';
import { translateCapacityProvider } from './capacityProvider';
import { translateGraphQlApi } from './graphQlApi';
import { translateStateMachine } from './stateMachine/stateMachine';
import { validateCapacityProvider } from './capacityProviderChecks';
import { validateGraphQlApi } from './graphQlApiChecks';
import { validateWebSocketApi } from './webSocketApiChecks';
import { translateConnector } from './connector/connector';
import { addEmbeddedConnectors } from './connector/embedded';
import { ConnectableResources } from './connector/connectableResources';
import { generatedConnectable } from './connector/reference';
import { namedIds, type ConnectorLink } from './connector/links';
import { translateRestApi } from './api/restApi';
import { translateWebSocketApi } from './api/webSocketApi';
import { runStep, SamResource, type LocalArtifacts, type SamNote, type TranslationContext } from './context';
import { invalidResource, SamError } from './errors';
import { DeploymentPreferences } from './function/deploymentPreference';
import { translateFunction } from './function/function';
import { GeneratedResource, type Origin } from './generated';
import { Globals, globalsSectionOf, globalsTextOf, mergeGlobals } from './globals';
import { defaultDefinitionBodies } from './api/managedDefinitions';
import { slice } from './movedRecords';
import { invalidLogicalIds, nonStringSubVariable, validateDocument } from './document';
import { ParameterWithoutValue, ResourceReferences, resolveParameterRefs } from './intrinsics';
import { NotCovered } from './notCovered';
import { ResourceOrder, type OrderStep } from './resourceOrder';
import { PyDict, type PyValue } from './python/py27Dict';
import { pyStr } from './python/pyRepr';
import { fromTemplate } from './api/pyValues';
import { deepCopy, isMap, sortedEntries, type PlainMap } from './values';
import type { SourceIndex } from './sourceIndex';
import { keepableParameters, RecordedParameters, RecordingContext, sameParameterReads, stableText, type KeptEffect, type KeptTranslation, type ParameterReads, type SamTranslationCache } from './translationCache';
import { ImplicitApiKeeper } from './api/keptImplicitApi';
import { ApiLog, REPLAYED_API_READS } from './api/apiReplay';
import type { RenamableDefinition } from './api/renamedRoute';


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
  /**
   * Whether the template has connectors, embedded ones included. A connector reads what the
   * resources it connects generated and edits it (what waits for its policy), so the next
   * expansion starts from this one only through `connectorLinks`; kept translations stand, as the
   * edits are made in copies.
   */
  connectors: boolean;
  /**
   * What each connector touched of the rest of the template (connector/links.ts), when every
   * connector was translated and names what it connects by string ids: an expansion may then
   * start from this one, running again with an edited function the connectors linked to it.
   */
  connectorLinks?: ReadonlyMap<string, ConnectorLink>;
  /**
   * Whether the transform made conditions of its own (the negation of a role's condition, an
   * API's paths' combined condition...): which resource made them is not kept, so an expansion
   * that starts from this one could not take away those of a resource edited since.
   */
  conditionsMade: boolean;
  notes: SamNote[];
  /** Whether SAM converted the template for Python 2.7 dict order. */
  py27: boolean;
  /** The resources whose translation read nothing but their own entry (kept in, or taken from, the cache). */
  kept: ReadonlySet<string>;
  /** The APIs whose translation depends on what events did, so is not kept, and read nothing of the template but their own entry and the function names. */
  ownEntryApis: ReadonlySet<string>;
  /** What each kept translation does to what resources share, by logical id. */
  keptEffects: ReadonlyMap<string, readonly KeptEffect[]>;
  /** The functions in translation order. */
  functionOrder: readonly string[];
  /** What SAM did to the order of a Python 2.7 Resources section, for a whole template (resourceOrder.ts). */
  orderSteps?: readonly OrderStep[];
  /** What the APIs built from events were made of, when the caller keeps translations. */
  apiLog?: ApiLog;
  /** Each REST and HTTP API's definition as its `Body` was made from it, when the caller keeps translations (api/renamedRoute.ts). */
  renamableDefinitions?: ReadonlyMap<string, RenamableDefinition>;
  /** What every translation read besides the resources. */
  seed?: ContextSeed;
  /** The parameter values the expansion looked up, anywhere, when the caller keeps translations and each has a text. */
  parameterReads?: ParameterReads;
  /** The resources the shared steps looked up (context.ts's `stepReads`). */
  stepReads: ReadonlySet<string>;
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
  if (!parameters.has('AWS::Region')) parameters.set('AWS::Region', options.region);
  if (!parameters.has('AWS::Partition')) parameters.set('AWS::Partition', options.partition);
  return parameters;
}

/** Known parameter values and the pseudo parameters the transform resolves. */
export interface TranslationOptions {
  parameters: ReadonlyMap<string, unknown>;
  region: string;
  partition: string;
  /**
   * Translations kept from earlier expansions, which the caller owns (one per document in the
   * language server): a resource whose translation is kept under the same key is not translated again.
   */
  cache?: SamTranslationCache;
  /**
   * Whether the caller reads this expansion after the next one through the same cache (a baseline
   * kept across edits): a cache that moves in place then moves none of its ranges.
   */
  kept?: boolean;
  /** Whether the local artifact paths the template names are there (`localArtifactPaths` says which to look for). */
  artifacts?: LocalArtifacts;
}

/** What keeping translations needs from the text being expanded. */
export interface TranslationSource {
  text: string;
  /** The index the template was read with: a kept translation's maps and lists are aliased in it. */
  index: SourceIndex;
  /** The Globals section's node, whose section for a type is what that type's translations read of it. */
  globals?: TemplateNode | undefined;
}


/** What every translation reads of the template and the caller, besides the resources. */
export type ContextSeed = Pick<TranslationContext, 'parameters' | 'region' | 'partition' | 'py27' | 'mappings' | 'conditions' | 'artifacts'>;

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
    stepReads: new Set(),
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
 * Some of a template's resources, translated alone (reexpand.ts). `context` names resources the
 * template holds only for the events that name them (an explicit REST API, whose stage an `Api`
 * event's permission reads; an HTTP API, whose definition an `HttpApi` event's permission reads):
 * they are not translated, and a REST API's definition is not built.
 */
export interface TemplatePart {
  context: ReadonlySet<string>;
  /**
   * What SAM resources among the context generated in the last expansion: a connector translated
   * with the part sees them as SAM's resolver would (a function's role, a table), and may not
   * make any of them wait for its policy (that would edit a resource outside the part).
   */
  generated?: ReadonlyMap<string, readonly GeneratedResource[]>;
}

/**
 * Translates the SAM resources of a template (as plain values) read from `resourcesNode`.
 * `reuseApi` false keeps the implicit API's translation in the cache without taking it from there,
 * a `TemplatePart` is for a template holding some of the resources (reexpand.ts): the implicit APIs
 * are neither kept, taken nor translated, only what the template holds, but for its context;
 * `redo` says that the API was taken but a resource failed or was left as written, so the
 * translation must be done again, from a fresh read of the template, with `reuseApi` false.
 * `py27Of` is whether the whole template converts for Python 2.7 order, when this is part of it.
 */
export function translate(template: PlainMap, resourcesNode: MapNode | undefined, options: TranslationOptions, source?: TranslationSource, reuseApi: boolean | TemplatePart = true, py27Of?: boolean): Translation | 'redo' {
  const part = typeof reuseApi === 'object' ? reuseApi : undefined;
  const documentError = validateDocument(template);
  if (documentError) return untranslated(template, documentError);
  const resources = isMap(template.Resources) ? template.Resources : {};
  // `Properties:` written with no value is not a map either, though Globals would merge into it.
  const propertiesNotMap = new Set(Object.entries(resources).filter(([, entry]) => isMap(entry) && 'Properties' in entry && !isMap(entry.Properties)).map(([id]) => id));
  const originalTypes = new Map(Object.entries(resources).map(([id, entry]) => [id, isMap(entry) ? entry.Type : undefined]));
  const py27 = py27Of ?? convertsForPython27(resources, template.Globals);
  const parameters = parameterValues(template.Parameters, options);
  // The text of the parameter values, which what is kept may depend on: read before anything records look-ups.
  const parametersText = options.cache && keepableParameters(parameters) ? stableText(sortedEntries(parameters)) : undefined;
  // Every look-up, so that an expansion may start from this one after an edit to a parameter none looked up (reexpand.ts).
  const lookedUp = new RecordedParameters(parameters);
  const subError = nonStringSubVariable(template, lookedUp);
  if (subError) return untranslated(template, subError);
  const seed: ContextSeed = {
    parameters,
    region: options.region,
    partition: options.partition,
    mappings: template.Mappings,
    conditions: isMap(template.Conditions) ? template.Conditions : {},
    py27,
    ...(options.artifacts ? { artifacts: options.artifacts } : {}),
  };
  const ctx = translationContext(seed);
  ctx.parameters = lookedUp;
  const { notes, conditions } = ctx;
  ctx.resources = { ...resources };
  // Part of a template: the implicit API and the APIs given as context are not translated, so the
  // REST APIs' definitions are not built (an HTTP API's, which its events' permissions read, is).
  if (part) ctx.keptDefinitions = new Set([IMPLICIT_REST_API, ...[...part.context].filter((id) => isMap(resources[id]) && resources[id].Type === REST_KIND.apiType)]);
  // The APIs built from events may be rebuilt from their parts in a later expansion (reexpand.ts).
  if (options.cache) {
    ctx.apiLog = new ApiLog();
    ctx.renamableDefinitions = new Map();
  }
  const resourceNodes = new Map((resourcesNode?.entries ?? []).map((e) => [e.key, e.value]));
  const nodeOf = (id: string): MapNode | undefined => {
    const value = resourceNodes.get(id);
    return value?.kind === 'map' ? value : undefined;
  };
  const errors: Translation['errors'] = [];
  // Its steps, kept for a whole template, tell whether a resource added elsewhere would reorder the others (reexpand.ts).
  const order = new ResourceOrder(Object.keys(resources), py27, !part);

  const embedded = addEmbeddedConnectors(ctx, order);
  errors.push(...embedded.errors);
  // Read before the plugins edit the resources.
  const connectors = hasConnectors(ctx);
  const apiKeeper = options.cache && source && parametersText !== undefined && !part ? ImplicitApiKeeper.for(ctx, order, template.Globals, source, nodeOf, options.cache, reuseApi !== false, parametersText) : undefined;
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
  const keeper = options.cache && source && parametersText !== undefined ? TranslationKeeper.for(ctx, options.cache, source, parametersText) : undefined;
  const translated = translationOrder(ctx, order);
  const ownEntryApis = new Set<string>();
  let resolverFor: ((connectorId: string) => ConnectableResources) | undefined;
  const connectorLinks = new Map<string, ConnectorLink>();
  let unlinked = false;
  for (const logicalId of translated) {
    if (failed.has(logicalId) || stopped || (part && !partTranslates(part, resources, embedded.origins, logicalId))) continue;
    const entry = ctx.resources[logicalId] as PlainMap;
    const sam = new SamResource(logicalId, entry.Type as string, entry, nodeOf(logicalId));
    recordFunctionNames(ctx, sam);
    let result: GeneratedResource[] | SamError | NotCovered;
    if (propertiesNotMap.has(logicalId) || (entry.Properties !== undefined && entry.Properties !== null && !isMap(entry.Properties))) {
      result = invalidResource(logicalId, "Attribute 'Properties' should be a map.", ['Properties']);
    } else if (sam.type === 'AWS::Serverless::Connector') {
      resolverFor ??= connectorResolvers(ctx, generated, part?.generated);
      const resolver = resolverFor(logicalId);
      const dependents = resolver.dependentsOf(logicalId).map(([id]) => id);
      result = translateConnector(sam, resolver, originalTypes);
      const names = namedIds(sam.properties);
      if (names === undefined) unlinked = true;
      else {
        const embeddedIn = embedded.origins.get(logicalId)?.logicalId;
        connectorLinks.set(logicalId, { ...(embeddedIn === undefined ? {} : { embeddedIn }), names, dependents, edits: resolver.editsOf(logicalId) });
      }
    } else if (apiKeeper?.handles(logicalId)) {
      result = apiKeeper.translate(ctx, (apiCtx) => translateResource(apiCtx, sam));
    } else if (ctx.apiLog && dependsOnEvents(sam)) {
      // Such an API's translation is not kept. Whether it read more than its own entry and the
      // function names decides whether an edit to a resource passed through as written, or to
      // what an API is made of, may start from the last expansion (reexpand.ts, api/apiReplay.ts).
      const recording = new RecordingContext(ctx, logicalId, REPLAYED_API_READS);
      result = translateResource(recording.context, sam);
      if (!recording.tainted) ownEntryApis.add(logicalId);
      if (recording.tainted || recording.effects.some((effect) => effect.kind !== 'reference')) ctx.apiLog.unreplayable = true;
    } else {
      result = keeper ? keeper.translate(sam) : translateResource(ctx, sam);
      // An HTTP API with a definition of its own that the cache could not keep read more than a replay gives it.
      if (ctx.apiLog && sam.type === HTTP_KIND.apiType && !keeper?.kept.has(logicalId)) ctx.apiLog.unreplayable = true;
    }
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
  if (apiKeeper?.settle(errors.length > 0 || notCovered.size > 0) === 'redo') return 'redo';
  const edited = new Map<string, PlainMap>();
  for (const [id, { entry }] of ctx.edited) edited.set(id, entry);
  const functionOrder = translated.filter((id) => (ctx.resources[id] as PlainMap).Type === 'AWS::Serverless::Function');
  const parameterReads = parametersText === undefined ? undefined : lookedUp.reads(parametersText);
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
    connectors,
    ...(connectors && !unlinked && connectorLinks.size === countConnectors(ctx, (id) => !part || partTranslates(part, resources, embedded.origins, id)) ? { connectorLinks } : {}),
    conditionsMade: Object.keys(conditions).some((name) => conditions[name] !== (seed.conditions as PlainMap)[name]),
    notes,
    py27,
    kept: keeper?.kept ?? new Set(),
    ownEntryApis,
    keptEffects: keeper?.effects ?? new Map(),
    functionOrder,
    ...(order.steps ? { orderSteps: order.steps } : {}),
    ...(ctx.apiLog ? { apiLog: ctx.apiLog } : {}),
    ...(ctx.renamableDefinitions ? { renamableDefinitions: ctx.renamableDefinitions } : {}),
    seed,
    ...(parameterReads ? { parameterReads } : {}),
    stepReads: ctx.stepReads ?? new Set(),
  };
}

/**
 * Translates resources through the caller's cache. A connector edits what the resources it
 * connects generated in a copy (`generatedConnectable`), so what is kept stays as it was made.
 */
class TranslationKeeper {
  /** The resources whose translation was kept or taken from the cache in this expansion. */
  readonly kept = new Set<string>();
  /** What each of them does to what resources share. */
  readonly effects = new Map<string, readonly KeptEffect[]>();

  private constructor(
    private readonly ctx: TranslationContext,
    private readonly cache: SamTranslationCache,
    private readonly source: TranslationSource,
    /** What every translation reads besides its own entry, parameters and Globals: region, partition, Python 2.7 order, the local artifacts found. */
    private readonly sharedKey: string,
    /** The text of all parameter values, for a translation that went through them all. */
    private readonly parametersText: string,
  ) {}

  /** The keeper of an expansion; `parametersText` is the text of all parameter values. */
  static for(ctx: TranslationContext, cache: SamTranslationCache, source: TranslationSource, parametersText: string): TranslationKeeper | undefined {
    // A file that appears or goes away changes what any translation may say of a local path.
    const artifacts = sortedEntries(ctx.artifacts ?? []);
    return new TranslationKeeper(ctx, cache, source, JSON.stringify([ctx.region, ctx.partition, ctx.py27, artifacts]), parametersText);
  }

  private readonly keys = new Map<string, string>();

  /**
   * What a type's translations read besides their entry and parameters: the shared key and the
   * text of the type's own section of Globals (`Function` for a function), whose values merge into
   * its entry. Globals with an anchor, or not a map, count whole.
   */
  private keyOf(type: string): string {
    let key = this.keys.get(type);
    if (key === undefined) {
      const globals = this.source.globals;
      let text = globalsTextOf(this.source);
      if (globals?.kind === 'map' && !text.includes('&')) {
        const section = globalsSectionOf(globals, type);
        text = section ? slice(this.source.text, section) : '';
      }
      key = `${this.sharedKey}\u0000${text}`;
      this.keys.set(type, key);
    }
    return key;
  }

  /** A resource's translation: the kept one when its key and entry are unchanged, else a new one, kept when it replays. */
  translate(sam: SamResource): GeneratedResource[] | SamError | NotCovered {
    const node = sam.node;
    if (node === undefined) return translateResource(this.ctx, sam);
    const start = node.range.start;
    // The resource's text decides its ranges and how its numbers were written; its entry after
    // Globals and the plugins is checked by walking it beside the kept one.
    const key = `${sam.logicalId}\u0000${this.source.text.slice(start, node.range.end)}`;
    const sharedKey = this.keyOf(sam.type);
    const kept = this.cache.take(key, (candidate) => candidate.sharedKey === sharedKey && sameParameterReads(candidate.parameters, this.ctx.parameters, this.parametersText) && this.alias(candidate.entry, sam.entry));
    if (kept !== undefined) {
      this.kept.add(sam.logicalId);
      this.effects.set(sam.logicalId, kept.effects);
      return this.replay(kept, start);
    }
    const entryText = stableText(sam.entry);
    if (entryText === undefined) return translateResource(this.ctx, sam);
    const recording = new RecordingContext(this.ctx, sam.logicalId);
    const result = translateResource(recording.context, sam);
    const inside = recording.effects.every((effect) => effect.kind !== 'note' || effect.range === undefined || (effect.range.start >= start && effect.range.end <= node.range.end));
    const parameters = recording.parameterReads(this.parametersText);
    if (!recording.tainted && inside && parameters !== undefined && Array.isArray(result) && (!recording.effects.some((effect) => effect.kind === 'step') || inMakingOrder(result)) && stableText(sam.entry) === entryText) {
      const effects = recording.effects.map((effect): KeptEffect => {
        if (effect.kind === 'step') {
          const { madeBefore, ...step } = effect;
          return { ...step, at: madeEarlier(result, madeBefore) };
        }
        if (effect.kind !== 'note' || effect.range === undefined) return effect.kind === 'note' ? { kind: 'note', note: effect.note } : effect;
        return { kind: 'note', note: effect.note, offset: { start: effect.range.start - start, end: effect.range.end - start } };
      });
      this.cache.set(key, { entry: sam.entry, sharedKey, parameters, generated: [...result], effects });
      this.kept.add(sam.logicalId);
      this.effects.set(sam.logicalId, effects);
    }
    return result;
  }

  /** A kept translation, its effects done again in order: a shared step's error is the resource's, as when it was first translated. */
  private replay(kept: KeptTranslation, start: number): GeneratedResource[] | SamError {
    const generated = [...kept.generated];
    // How many more resources the steps done again so far generated than when kept.
    let shift = 0;
    for (const effect of kept.effects) {
      if (effect.kind === 'reference') this.ctx.references.add(effect.logicalId, effect.property, effect.generatedId);
      else if (effect.kind === 'note') this.ctx.note(effect.note, effect.offset && { start: start + effect.offset.start, end: start + effect.offset.end });
      else {
        const result = runStep(this.ctx, effect.step);
        if (result instanceof SamError) return effect.fail(result);
        generated.splice(effect.at + shift, effect.generated.length, ...result);
        shift += result.length - effect.generated.length;
      }
    }
    return generated;
  }

  /**
   * Walks an entry kept from an earlier text beside its equal in this one, aliasing each map and
   * list to this text's node; false when the two differ (keys, their order, or a value).
   */
  private alias(earlier: unknown, current: unknown): boolean {
    if (earlier === null || typeof earlier !== 'object') return earlier === current;
    if (current === null || typeof current !== 'object') return false;
    // A value the transform built (a Python dict) is never in a kept entry.
    const prototype = Object.getPrototypeOf(current) as unknown;
    if (!Array.isArray(current) && prototype !== Object.prototype && prototype !== null) return false;
    const node = this.source.index.nodeOf(current);
    if (node !== undefined) this.source.index.alias(earlier, node);
    if (Array.isArray(earlier)) return Array.isArray(current) && earlier.length === current.length && earlier.every((item, i) => this.alias(item, current[i]));
    if (Array.isArray(current)) return false;
    const keys = Object.keys(earlier);
    const currentKeys = Object.keys(current);
    return keys.length === currentKeys.length && keys.every((k, i) => k === currentKeys[i] && this.alias((earlier as PlainMap)[k], (current as PlainMap)[k]));
  }
}

/**
 * Whether a translation lists its resources in the order it made them, as a function's does (its
 * events' last): a shared step's resources then go where the resources made before it end.
 */
function inMakingOrder(resources: readonly GeneratedResource[]): boolean {
  for (let i = 1; i < resources.length; i++) if (resources[i]!.sequence <= resources[i - 1]!.sequence) return false;
  return true;
}

/** How many of a translation's resources, listed in making order, were made before `made` resources had been. */
function madeEarlier(resources: readonly GeneratedResource[], made: number): number {
  let count = 0;
  while (count < resources.length && resources[count]!.sequence < made) count++;
  return count;
}

/**
 * Whether part of a template translates a resource: one it holds, not for context, or a connector
 * embedded in one it translates (not the implicit APIs, which the plugins add).
 */
function partTranslates(part: TemplatePart, resources: PlainMap, embeddedConnectors: ReadonlyMap<string, Origin>, logicalId: string): boolean {
  const holder = embeddedConnectors.get(logicalId)?.logicalId ?? logicalId;
  return Object.hasOwn(resources, holder) && !part.context.has(holder);
}

/** The other resource of the template a resource's error names (`Resource with id [X]`), if any. */
function errorSubjectIn(error: SamError, resources: PlainMap): string | undefined {
  return error.kind === 'resource' && Object.hasOwn(resources, error.subject) ? error.subject : undefined;
}

/** Whether the template has connectors, embedded ones included (they are resources by then). */
function hasConnectors(ctx: TranslationContext): boolean {
  return countConnectors(ctx, () => true) > 0;
}

/** How many connectors the template has that `translated` says are translated, embedded ones included. */
function countConnectors(ctx: TranslationContext, translated: (logicalId: string) => boolean): number {
  let count = 0;
  for (const [id, entry] of Object.entries(ctx.resources)) if (isMap(entry) && entry.Type === 'AWS::Serverless::Connector' && translated(id)) count++;
  return count;
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
    connectors: false,
    conditionsMade: false,
    notes: [],
    py27: false,
    kept: new Set(),
    ownEntryApis: new Set(),
    keptEffects: new Map(),
    functionOrder: [],
    stepReads: new Set(),
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
  for (const id of order.keys('translation')) {
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
function connectorResolvers(ctx: TranslationContext, generated: Map<string, GeneratedResource[]>, contextGenerated?: ReadonlyMap<string, readonly GeneratedResource[]>): (connectorId: string) => ConnectableResources {
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
  // What context resources generated, as the last expansion made it: a connector that makes one
  // wait for its policy edits a resource outside the part, which the part marks as edited.
  for (const [producer, list] of contextGenerated ?? []) {
    const outside = () => ctx.edited.set(producer, { entry: {}, by: { logicalId: resources.editor, property: 'Source' }, editors: new Set([resources.editor]) });
    for (const resource of list) resources.set(resource.logicalId, generatedConnectable(resource, outside));
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

/**
 * Whether an API's translation depends on what functions' events did, so that it is not kept: a
 * REST API hashes their function names into its deployment's id, and an HTTP API whose definition
 * SAM built (its skeleton, or a written one events edited) holds the Python dicts they edited.
 */
function dependsOnEvents(sam: SamResource): boolean {
  return sam.type === REST_KIND.apiType || (sam.type === HTTP_KIND.apiType && sam.properties.DefinitionBody instanceof PyDict);
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
    ctx.apiLog?.functionNames.push({ apiId: api, functionId: sam.logicalId, text });
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
