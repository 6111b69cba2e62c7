/**
 * An expansion that starts from the previous one of the same document: when the text changed only
 * inside functions (where no API reads: code, memory, environment, policies...; or anywhere, when
 * the APIs SAM builds from events can be rebuilt from their parts, api/apiReplay.ts, or, for a
 * keystroke in one event's path or method alone, renamed in the last definition,
 * api/renamedRoute.ts), inside a REST API's own entry but for its stage (the APIs are then
 * rebuilt), in the sections the transform passes through (Description, Metadata, Outputs), in Globals values SAM only copies to
 * each Lambda function (globalsEdit.ts: those functions are made again with the new value), in
 * Parameters when no value the last expansion looked up changed (SAM resolves parameters in few
 * properties: a stage passed to environments is left as written), in resources it passes through
 * as written (a queue, a table: when every SAM resource's translation read nothing but its own
 * entry; one of them may be added, taken out or renamed, when SAM's own resources keep the order
 * it goes through them in, passedThrough.ts), or between resources, the functions edited are translated again
 * (and the APIs rebuilt, when what they read changed), the resources as written are this text's
 * own, and everything else is the previous processed template, its ranges moved to where the
 * text now puts them.
 *
 * The previous expansion is remembered (in the caller's translation cache) only when nothing in
 * it depends on more than each resource's own text: no SAM error, nothing left as written, no
 * renamed ids or references to resolve, no resource edited by another, nothing shared (CodeDeploy),
 * and connectors only when each names what it connects by a string id. An edited function is
 * translated in a template of its own with the template's Parameters, Mappings, Conditions and
 * Globals (and SAM's Python 2.7 order of the whole), and the entries of the APIs its events name,
 * there for what each event's permission reads of them (a REST API's stage, an HTTP API's
 * definition) and not translated: an API's definition comes from the events, which an edit the
 * API does not read leaves as they were. The connectors linked to it (embedded in it, or
 * standalone ones naming it) are translated with it, with the resources they name as written
 * (connector/reconnection.ts), and take their places again. The result is
 * taken only when it says the same about the others as before: no error, nothing shared or
 * edited, no new condition, the same references to what it generates, as many notes, and ids no
 * other resource uses. Otherwise the caller expands the template in full.
 *
 * A cache that moves in place (`SamTranslationCache.movesInPlace`, for an owner that reads each
 * expansion only until the next) copies a record the first time it moves into range objects the
 * copy alone holds, and moves those in place afterwards: the nodes stay the same objects.
 */
import type { MapEntry, MapNode, TemplateNode } from '../template/ast';
import type { TemplateModel } from '../template/model';
import { nodeAtPath } from '../template/tree';
import { textTheApiReads } from './api/keptImplicitApi';
import { ANY_RESOURCE, type SamNote } from './context';
import type { SamExpansion } from './expand';
import type { GeneratedResource, Origin } from './generated';
import type { ResourceReferences } from './intrinsics';
import { NodeBuilder } from './output';
import { extentOf, keySpanOf, moveRecord, Mover, PendingMoves, PlacedRecord, slice, spanOf, withoutAnchors, type Span } from './movedRecords';
import { WrittenResources, writtenType, type Placement } from './placement';
import { SourceIndex } from './sourceIndex';
import type { SamSource } from './sourceMap';
import { parameterValues, translate, translationContext, type Translation, type TranslationOptions } from './translate';
import { joinedParameterReads, sameParameterReads, stableText, type ParameterReads, type SamTranslationCache } from './translationCache';
import { isMap, sortedEntries, type PlainMap } from './values';
import { functionApiParts, rebuildAlone, rebuildApis, replayable, type ApiReplay, type EmptyImplicitApi, type FunctionApiPart, type RebuiltApis, type WrittenApi } from './api/apiReplay';
import { restApiIdString } from './api/apiEvent';
import { addedRouteApis, movedFunctionApis } from './api/addedRoute';
import { sameRoutesApis } from './api/sameRoutes';
import { changedItemsApis } from './api/changedItems';
import { renamedRouteApis } from './api/renamedRoute';
import { defaultRoutesServed, serversAfter, sharedDefaultRoute, type DefaultRouteServers } from './api/defaultRoutes';
import { REST_KIND } from './api/implicitRestApi';
import { entryWithoutChanged, functionGlobalsEdit, patchedFunctions, type FunctionGlobalsEdit } from './globalsEdit';
import { lambdaPropertyOf } from './function/function';
import { backingOf } from './backing';
import { alignedResources, conditionIsAString, isPassedThroughEdit, passesThrough, samVisitsKept, type VisitsNow } from './passedThrough';
import { functionOrdersAfter, hasApiEvents, isFunctionAlone, isFunctionEntry, keepsItsPlace } from './addedFunctions';
import type { OrderStep } from './resourceOrder';
import type { ConnectorLink } from './connector/links';
import { reconnection, type Reconnection } from './connector/reconnection';

/** An expansion remembered for the next one. */
export interface ExpansionRecord {
  optionsKey: string;
  text: string;
  root: MapNode;
  /**
   * Whether the next expansion may start from this one: nothing in it depends on more than each
   * resource's own text. Any other is remembered only for an expansion in full to carry its
   * records over (`recordCarrier`), which takes a record only for a resource made alike.
   */
  startable: boolean;
  /**
   * Whether its records' entries are built from their resources as they are, with no logical id
   * renamed (a layer's hashed id) or resource reference resolved in them: only such records may
   * be carried into another expansion.
   */
  carriable: boolean;
  py27: boolean;
  placed: readonly PlacedRecord[];
  /** The processed template's root entries. */
  rootEntries: readonly MapEntry[];
  expansion: SamExpansion;
  references: ResourceReferences;
  /**
   * Whether every SAM resource's translation read nothing but its own entry (translate.ts's
   * `kept`): then none read a resource the transform passes through as written.
   */
  allKept: boolean;
  /**
   * The resources the translations' shared steps looked up (an `Api` event reads the stage of the
   * API it names, which may be a resource the transform passes through as written, mistyped, say).
   */
  stepReads: ReadonlySet<string>;
  /** The functions serving each HTTP API's `$default` route (api/defaultRoutes.ts). */
  defaultRoutes: DefaultRouteServers;
  /** What rebuilding the APIs needs, when an edit to what they read may rebuild them alone (api/apiReplay.ts). */
  apis?: ApiReplay;
  /** What each connector touched, when the template has connectors (connector/links.ts). */
  connectors?: ReadonlyMap<string, ConnectorLink>;
  /** The parameter values the expansion knew, and those it looked up, when each has a text: an edit to another parameter changes nothing in it. */
  parameters?: ParameterLookUps;
  /** What SAM did to the order of a Python 2.7 Resources section (resourceOrder.ts): a resource it passes through may be added or taken out when the others keep their order. */
  orderSteps?: readonly OrderStep[];
  /** The functions in the order SAM translated them (a pasted function's notes go by it). */
  functionOrder: readonly string[];
  /** Whether its caller keeps it beyond the next expansion (`TranslationOptions.kept`, a baseline's): its records' ranges are the caller's too. */
  kept: boolean;
}

/** The parameter values an expansion knew (the caller's, the defaults, the pseudo parameters), and those it looked up. */
export interface ParameterLookUps {
  values: ReadonlyMap<string, unknown>;
  reads: ParameterReads;
}

/** What the expansion remembers: the record, with the model and options its text and key come from. */
export type Remembered = Omit<ExpansionRecord, 'optionsKey' | 'text' | 'root' | 'kept'> & { model: TemplateModel; options: TranslationOptions };

/**
 * Sections the transform passes through as written (it reads none of them, and with no reference
 * to resolve it changes none): whatever their text, they are this text's own nodes.
 */
const PASSED_THROUGH = new Set(['AWSTemplateFormatVersion', 'Description', 'Metadata', 'Outputs']);
/** The sections an edited function's translation reads besides its own entry. */
const CONTEXT_SECTIONS = ['AWSTemplateFormatVersion', 'Transform', 'Parameters', 'Mappings', 'Conditions', 'Globals'];

/** The options as text: an expansion starts from another only under the same. */
function optionsKey(options: TranslationOptions): string | undefined {
  try {
    return JSON.stringify([sortedEntries(options.parameters), options.region, options.partition, sortedEntries(options.artifacts ?? [])]);
  } catch {
    return undefined;
  }
}

/**
 * Whether this expansion moves in place what the last one alone holds: through a cache that moves
 * in place, unless the caller keeps this expansion beyond the next (which would then move what it holds).
 */
function movesInPlace(cache: SamTranslationCache, options: TranslationOptions): boolean {
  return cache.movesInPlace && options.kept !== true;
}

/**
 * Whether a text parsed with errors: the tree YAML recovers from broken text may hold nodes whose
 * ranges do not nest as the text does (a map that starts after its first entry), which moving
 * records by the text cannot follow. Such an expansion neither starts from another nor is one to
 * start from.
 */
function parsedWithErrors(model: TemplateModel): boolean {
  return model.parsed.errors.some((error) => error.severity === 'error');
}

/** Remembers an expansion for the next one (or forgets the last, when its options have no text or its text is broken). */
export function rememberExpansion(cache: SamTranslationCache, remembered: Remembered): void {
  const key = optionsKey(remembered.options);
  cache.lastExpansion =
    key !== undefined && remembered.model.root && !parsedWithErrors(remembered.model)
      ? {
          optionsKey: key,
          text: remembered.model.parsed.text,
          root: remembered.model.root,
          startable: remembered.startable,
          carriable: remembered.carriable,
          py27: remembered.py27,
          placed: remembered.placed,
          rootEntries: remembered.rootEntries,
          expansion: remembered.expansion,
          references: remembered.references,
          allKept: remembered.allKept,
          stepReads: remembered.stepReads,
          defaultRoutes: remembered.defaultRoutes,
          ...(remembered.apis ? { apis: remembered.apis } : {}),
          ...(remembered.connectors ? { connectors: remembered.connectors } : {}),
          ...(remembered.parameters ? { parameters: remembered.parameters } : {}),
          ...(remembered.orderSteps ? { orderSteps: remembered.orderSteps } : {}),
          functionOrder: remembered.functionOrder,
          kept: remembered.options.kept === true,
        }
      : undefined;
}

/** Whether an edit is to a function, with no YAML anchor that could carry it elsewhere. */
function isFunctionEdit(before: MapEntry, now: MapEntry, earlierText: string, text: string): boolean {
  return isFunctionEntry(before) && isFunctionEntry(now) && withoutAnchors(before, now, earlierText, text);
}

/** Whether an edit is to a function, where no API reads, with no YAML anchor that could carry it elsewhere. */
function isFunctionEditTheApiDoesNotRead(before: MapEntry, now: MapEntry, earlierText: string, text: string): boolean {
  if (!isFunctionEdit(before, now, earlierText, text)) return false;
  const nodeBefore = before.value.kind === 'map' ? before.value : undefined;
  const nodeNow = now.value.kind === 'map' ? now.value : undefined;
  return textTheApiReads({ text: earlierText }, nodeBefore, true) === textTheApiReads({ text }, nodeNow, true);
}

/** Whether a shared step of the last expansion looked the resource up (or went through them all). */
function stepRead(last: ExpansionRecord, logicalId: string): boolean {
  return last.stepReads.has(logicalId) || last.stepReads.has(ANY_RESOURCE);
}

/**
 * Whether an edit is to a REST API the replay rebuilds, with no YAML anchor, leaving its
 * `StageName` as written: each `Api` event's permission is named by the stage and reads nothing
 * else of the API's entry, while the API's definition and translation are the replay's to make
 * again from the entry as written now (its CORS, its auth...).
 */
function isRestApiEditKeepingItsStage(before: MapEntry, now: MapEntry, earlierText: string, text: string, replay: ApiReplay, index: SourceIndex): boolean {
  const rest = REST_KIND.apiType;
  if (!replay.apis.some((api) => api.id === now.key && api.type === rest)) return false;
  if (writtenType(before.value) !== rest || writtenType(now.value) !== rest || !conditionIsAString(now, index) || !withoutAnchors(before, now, earlierText, text)) return false;
  const stage = stageText(before, earlierText);
  return stage !== undefined && stage === stageText(now, text);
}

/** The text of an API entry's `StageName`, '' without one; undefined when its Properties are not a map. */
function stageText(entry: MapEntry, text: string): string | undefined {
  if (entry.value.kind !== 'map') return undefined;
  const properties = entry.value.entries.find((e) => e.key === 'Properties')?.value;
  if (properties === undefined) return '';
  if (properties.kind !== 'map') return undefined;
  const stage = properties.entries.find((e) => e.key === 'StageName');
  return stage === undefined ? '' : text.slice(stage.value.range.start, stage.value.range.end);
}

/** The expansion of `model` started from the cache's last one, or undefined when it must be done in full. */
export function reexpand(model: TemplateModel, options: TranslationOptions, cache: SamTranslationCache): SamExpansion | undefined {
  const last = cache.lastExpansion;
  const root = model.root;
  if (last === undefined || !last.startable || root === undefined || parsedWithErrors(model) || optionsKey(options) !== last.optionsKey) return undefined;
  const text = model.parsed.text;
  if (root.entries.length !== last.root.entries.length) return undefined;
  const spans: Span[] = [];
  const index = new SourceIndex(text);
  // An edit to Globals that changes only what SAM copies to each Lambda function (globalsEdit.ts).
  let globalsEdit: FunctionGlobalsEdit | undefined;
  // The parameter values now, when an edit to Parameters changed none that the last expansion looked up.
  let parametersNow: ReadonlyMap<string, unknown> | undefined;
  let parametersBefore: MapEntry | undefined;
  let resourcesBefore: MapNode | undefined;
  let resourcesNow: MapEntry | undefined;
  for (let i = 0; i < root.entries.length; i++) {
    const before = last.root.entries[i]!;
    const now = root.entries[i]!;
    if (before.key !== now.key) return undefined;
    if (now.key === 'Resources') {
      if (before.value.kind !== 'map' || now.value.kind !== 'map') return undefined;
      resourcesBefore = before.value;
      resourcesNow = now;
      spans.push(keySpanOf(before, now));
      continue;
    }
    const same = slice(last.text, before) === slice(text, now);
    if (PASSED_THROUGH.has(now.key) && (same || withoutAnchors(before, now, last.text, text))) continue;
    if (same) {
      spans.push(spanOf(before, now));
      continue;
    }
    if (now.key === 'Parameters') {
      parametersNow = withoutAnchors(before, now, last.text, text) ? valuesLeavingLookUpsAlone(last.parameters, index.read(now.value), options) : undefined;
      if (parametersNow === undefined) return undefined;
      parametersBefore = before;
      continue;
    }
    globalsEdit = now.key === 'Globals' ? functionGlobalsEdit(before, now, last.text, text) : undefined;
    if (globalsEdit === undefined) return undefined;
    spans.push(...globalsEdit.spans);
  }
  if (resourcesBefore === undefined || resourcesNow === undefined || resourcesNow.value.kind !== 'map') return undefined;
  const entriesNow = resourcesNow.value.entries;
  const aligned = alignedResources(resourcesBefore.entries, entriesNow, resourcesBefore.range.start);
  if (aligned === undefined) return undefined;
  const edited = new Map<string, { before: MapEntry; now: MapEntry }>();
  // Resources the transform passed through as written, whose edit is theirs alone when no translation read them.
  const ownKeys = new Set<string>();
  for (const record of last.placed) if (record.own) ownKeys.add(record.key);
  // One of them, or a function, added, taken out or renamed (passedThrough.ts, addedFunctions.ts).
  const { added: addedEntry, removed: removedEntry } = aligned;
  // What SAM's visits of the section go through now, when a resource was added or taken out.
  let visitsNow: VisitsNow | undefined;
  const addedFunction = addedEntry && isFunctionEntry(addedEntry) ? addedEntry : undefined;
  const removedFunction = removedEntry && isFunctionEntry(removedEntry) ? removedEntry : undefined;
  if (addedEntry || removedEntry) {
    // SAM rejects a template whose Resources section is empty (document.ts).
    if (!last.allKept || entriesNow.length === 0) return undefined;
    // A connector reads what the functions it names generated: a function comes or goes with the connectors in full.
    if ((addedFunction || removedFunction) && last.connectors) return undefined;
    if (removedEntry) {
      const indexBefore = new SourceIndex(last.text);
      const alone = removedFunction ? isFunctionAlone(removedEntry, last.text, indexBefore) && !ownKeys.has(removedEntry.key) : ownKeys.has(removedEntry.key) && passesThrough(removedEntry, last.text, indexBefore);
      if (!alone || stepRead(last, removedEntry.key)) return undefined;
    }
    // An added id SAM's translations looked up, or one the last expansion had, would change what they make.
    if (addedEntry) {
      const alone = addedFunction ? isFunctionAlone(addedEntry, text, index) : passesThrough(addedEntry, text, index);
      if (!alone || stepRead(last, addedEntry.key) || last.placed.some((record) => record.key === addedEntry.key)) return undefined;
    }
    const leftOut = (id: string) => ownKeys.has(id) || id === addedEntry?.key || id === removedEntry?.key;
    visitsNow = samVisitsKept(last.orderSteps, last.py27, resourcesBefore.entries, entriesNow, leftOut);
    if (visitsNow === undefined) return undefined;
  }
  const passedThroughEdits: MapEntry[] = [];
  // REST APIs edited in their own entry, which the replay reads as written now.
  const apiEntryEdits: { before: MapEntry; now: MapEntry }[] = [];
  // Whether an edited function changed what the APIs read: they are then rebuilt from their parts.
  let apiEdited = (addedFunction !== undefined && hasApiEvents(addedFunction)) || (removedFunction !== undefined && hasApiEvents(removedFunction));
  for (const { before, now } of aligned.pairs) {
    if (slice(last.text, before) === slice(text, now)) spans.push(spanOf(before, now));
    else if (isFunctionEditTheApiDoesNotRead(before, now, last.text, text)) edited.set(now.key, { before, now });
    else if (last.apis && isFunctionEdit(before, now, last.text, text)) {
      edited.set(now.key, { before, now });
      apiEdited = true;
    } else if (last.apis && isRestApiEditKeepingItsStage(before, now, last.text, text, last.apis, index)) {
      apiEntryEdits.push({ before, now });
      apiEdited = true;
    } else if (last.allKept && ownKeys.has(now.key) && !stepRead(last, now.key) && isPassedThroughEdit(before, now, last.text, text, index)) passedThroughEdits.push(before);
    else return undefined;
  }
  const inPlace = movesInPlace(cache, options);
  const mover = new Mover(spans, inPlace);
  const pending = new PendingMoves();
  if (last.references.mayBeIn(text)) return undefined;

  const entriesNowById = new Map(entriesNow.map((e) => [e.key, e]));
  // The connectors linked to the edited functions, translated again with them.
  const reconnected = edited.size === 0 && !addedFunction ? undefined : reconnection(last.connectors, edited, entriesNowById, last.placed);
  if ((edited.size > 0 || addedFunction) && reconnected === undefined) return undefined;
  // Whose integration a `$default` route two functions serve holds depends on their order: not alone.
  const served = new Map([...edited].map(([id, { now }]) => [id, defaultRoutesServed(index.read(now.value))]));
  if (addedFunction) served.set(addedFunction.key, defaultRoutesServed(index.read(addedFunction.value)));
  if (removedFunction) served.set(removedFunction.key, new Set());
  const defaultRoutes = served.size === 0 ? last.defaultRoutes : serversAfter(last.defaultRoutes, served);
  for (const id of served.keys()) if (sharedDefaultRoute(last.defaultRoutes, defaultRoutes, id)) return undefined;
  // The edited functions, and one pasted, translated in a template of their own.
  const translation = edited.size === 0 && !addedFunction ? undefined : translateAlone(root, text, edited, reconnected!, index, options, last, addedFunction);
  if (translation === null) return undefined;
  // The references to what a pasted function generates (`Fn.Alias`), which a reference in the text would resolve to.
  let references = last.references;
  if (addedFunction && translation) {
    const own = translation.references.entriesOf(addedFunction.key);
    if (own.length > 0) {
      references = references.copy();
      for (const [property, generatedId] of own) references.add(addedFunction.key, property, generatedId);
      if (references.mayBeIn(text)) return undefined;
    }
  }
  // The order SAM goes through the functions in, with one pasted or deleted (addedFunctions.ts).
  const functionOrder = addedFunction || removedFunction ? functionOrdersAfter(last.functionOrder, last.apis?.pluginOrders, visitsNow!, entriesNow, { added: addedFunction?.key, removed: removedFunction?.key }) : undefined;
  if ((addedFunction || removedFunction) && functionOrder === undefined) return undefined;
  // The APIs' parts with the edited functions' own now; the APIs made again from them when they changed what they read.
  let apis = last.apis;
  // A rebuilt API looks the parameter values up where they are now.
  if (apis && parametersNow) apis = { ...apis, context: { ...apis.context, parameters: parametersNow } };
  if (apis && functionOrder?.pluginOrders) {
    const parts = new Map(apis.parts);
    if (removedFunction) parts.delete(removedFunction.key);
    apis = { ...apis, pluginOrders: functionOrder.pluginOrders, translationOrder: functionOrder.translationOrder, parts };
  }
  if (apis && translation) {
    const translated = addedFunction ? [...edited.keys(), addedFunction.key] : [...edited.keys()];
    const parts = translation.apiLog && !translation.apiLog.unreplayable ? functionApiParts(translation.apiLog, translated, translation.keptEffects) : undefined;
    apis = parts && replayable(parts.values()) ? { ...apis, parts: new Map([...apis.parts, ...parts]) } : undefined;
  }
  // The Lambda functions that take what Globals changed, made again with its new values.
  const patched = globalsEdit && patchedFunctions(globalsEdit, last.placed, entriesNowById, new Set(edited.keys()), new SourceIndex(last.text), index);
  if (globalsEdit && patched === undefined) return undefined;
  // The Lambda function's properties Globals changed (`Tracing` is its `TracingConfig`).
  const changedNames = new Set([...(globalsEdit?.changed.keys() ?? [])].map(lambdaPropertyOf));
  let rebuilt: RebuiltApis | undefined;
  // The nodes of the path items a rename keeps, taken again where they stand (output.ts).
  const reusedNodes = new Map<object, TemplateNode>();
  if (apiEdited && apis) {
    // A function's logical id typed: the function taken out and pasted back under the new id.
    const renaming = addedFunction && removedFunction && edited.size === 0 ? { from: removedFunction.key, to: addedFunction.key } : undefined;
    // Where it keeps its place in each of SAM's orders, only its items change (they name it).
    const renamedFrom = renaming && last.apis && keepsItsPlace(last.apis, apis, renaming.from, renaming.to) ? renaming.from : undefined;
    // The function edited, pasted, deleted or renamed, when it is the only one.
    const changed = renaming ? [renaming.to] : [...edited.keys(), ...[addedFunction, removedFunction].flatMap((entry) => (entry ? [entry.key] : []))];
    const alone = changed.length === 1 && apiEntryEdits.length === 0 && !globalsEdit && !parametersNow && [...(reconnected?.connectors ?? [])].length === 0;
    const functionId = changed[0]!;
    const only = alone ? edited.get(functionId) : undefined;
    // A keystroke in an event's path or method alone renames it without SAM's fold (api/renamedRoute.ts).
    const renamed = only && last.apis ? renamedRouteApis(last.apis.renamable, { id: functionId, ...only }, { before: last.text, now: text }, { before: last.apis.parts, now: apis.parts }) : undefined;
    // An event added to it or taken from it puts its path's item in or takes it out, without the fold too (api/addedRoute.ts).
    const together = (parts: ReadonlyMap<string, FunctionApiPart>, empty?: EmptyImplicitApi) => rebuildAlone(apis!, parts, writtenApis(apis!, entriesNowById, index), globalsValue(root, index), translationContext, empty);
    const aloneOf = (id: string) => (part: FunctionApiPart, empty?: EmptyImplicitApi) => together(new Map([[id, part]]), empty);
    const partAlone = aloneOf(functionId);
    const added = alone && !renaming && !renamed && last.apis ? addedRouteApis(last.apis.renamable, functionId, { before: last.apis.parts, now: apis.parts }, { before: last.apis.pluginOrders, now: apis.pluginOrders }, partAlone) : undefined;
    // An edit that leaves the function's routes as they were leaves the APIs so too, but for a REST API's deployment, which hashes its FunctionName (api/sameRoutes.ts).
    const same = only && !renamed && !added && last.apis ? sameRoutesApis(last.apis.renamable, functionId, { before: last.apis.parts, now: apis.parts }, apis.translationOrder, partAlone) : undefined;
    // An edit that changes only items of the function's paths puts the items its part makes (with those of the functions sharing the paths) in their place (api/changedItems.ts); so does a function renamed, whose integrations name it.
    const items =
      (only || (alone && renamedFrom)) && !renamed && !added && !same && last.apis
        ? changedItemsApis(last.apis.renamable, { before: renamedFrom ?? functionId, now: functionId }, { before: last.apis.parts, now: apis.parts }, (parts) => together(parts))
        : undefined;
    // A function renamed that moved in SAM's orders (a Python 2.7 section): its path taken out under the old id, then put in under the new one.
    const moved = alone && renaming && !renamedFrom && last.apis ? movedFunctionApis(last.apis, apis, renaming.from, renaming.to, aloneOf) : undefined;
    const answered = renamed ?? added ?? moved ?? items ?? (same?.rebuilt && same.paths ? { rebuilt: same.rebuilt, paths: same.paths } : undefined);
    if (answered) {
      rebuilt = answered.rebuilt;
      apis = { ...apis, renamable: answered.paths };
      for (const apiId of rebuilt.generated.keys()) bodyItemNodes(last.placed, apiId, reusedNodes);
      if (renamed) cache.routeRenames++;
      else if (added || moved) cache.routesAddedOrRemoved++;
      else if (items) cache.pathItemsChanged++;
      else cache.deploymentsRenamed++;
    } else if (same) {
      // Nothing of the APIs changed: they move with their text, and a later rename starts from what they were (kept in `apis`).
      cache.apisUnchanged++;
    } else {
      rebuilt = rebuildApis(apis, writtenApis(apis, entriesNowById, index), globalsValue(root, index), translationContext, index, typedPaths(changed, last.apis?.parts, apis.parts));
      if (rebuilt === undefined) return undefined;
      // What a rename starts from is this rebuild's, or nothing.
      const { renamable: _kept, ...rest } = apis;
      apis = rebuilt.renamable ? { ...rest, renamable: rebuilt.renamable } : rest;
    }
  } else if (apiEdited) return undefined;

  // Each edited function's place takes what it generates now, and a rebuilt implicit API takes
  // the place of its event; an implicit API attributed to an edited function's event but not
  // rebuilt is placed again; everything else moves with its text.
  const written = new WrittenResources(root, resourcesNow.keyRange);
  const builder = new NodeBuilder(index, reusedNodes);
  for (const { before, now } of [...edited.values(), ...apiEntryEdits]) mover.exact.set(before.keyRange.start, { end: before.keyRange.end, now: now.keyRange });
  const placed: PlacedRecord[] = [];
  const entries: MapEntry[] = [];
  const sources = new Map<string, SamSource>();
  const propertySources = new Map<string, ReadonlyMap<string, SamSource>>();
  const generatedNow = new Set<string>();
  const placedAgain = new Set<string>();
  // Ranges point into entries only (never into what lies between them): up to the first entry
  // that changed or moved, every range is where it was.
  let unchangedUpTo = Infinity;
  for (const span of spans) if (span.delta !== 0 && span.start < unchangedUpTo) unchangedUpTo = span.start;
  for (const { before } of edited.values()) if (before.keyRange.start < unchangedUpTo) unchangedUpTo = before.keyRange.start;
  for (const before of [...passedThroughEdits, ...apiEntryEdits.map((edit) => edit.before)]) if (before.keyRange.start < unchangedUpTo) unchangedUpTo = before.keyRange.start;
  if (globalsEdit && globalsEdit.firstChange < unchangedUpTo) unchangedUpTo = globalsEdit.firstChange;
  if (parametersBefore && parametersBefore.keyRange.start < unchangedUpTo) unchangedUpTo = parametersBefore.keyRange.start;
  if ((addedEntry || removedEntry) && aligned.changedAt < unchangedUpTo) unchangedUpTo = aligned.changedAt;
  // After a baseline's expansion (a document's first analysis, its text the baseline's or not), or
  // when nothing changed, each record is copied now into ranges it alone holds: the first
  // keystroke then moves what follows it in place, not copying a thousand records while the user waits.
  const copiedFrom = inPlace && (last.kept || unchangedUpTo === Infinity) ? -Infinity : unchangedUpTo;
  /** Takes a generated resource placed anew, with its entry, into this expansion. */
  const takePlaced = (resource: GeneratedResource, producer: string, attributedTo: Origin | undefined, placement: Placement, entry: MapEntry) => {
    entries.push(entry);
    sources.set(resource.logicalId, placement.source);
    propertySources.set(resource.logicalId, placement.properties);
    placed.push(new PlacedRecord({ key: resource.logicalId, producer, range: placement.range, entry, resource, extent: extentOf(entry, placement), source: placement.source, properties: placement.properties, attributedTo }));
  };
  /** Places a generated resource anew, where its SAM resource (or what it is attributed to) now stands. */
  const placeAnew = (resource: GeneratedResource, producer: string, attributedTo: Origin | undefined) => {
    const placement = written.place(resource, attributedTo);
    takePlaced(resource, producer, attributedTo, placement, { key: resource.logicalId, keyRange: placement.keyRange, value: builder.build(resource.toEntry(), placement.range) });
  };
  // What the edited functions and the connectors linked to them generate takes their places again.
  const redone = new Set([...edited.keys(), ...(reconnected?.connectors ?? [])]);
  /** Takes a resource the transform passes through as written into this expansion: the template's own node. */
  const placeOwn = (now: MapEntry) => {
    const own: MapEntry = { key: now.key, keyRange: now.keyRange, value: now.value };
    entries.push(own);
    placed.push(new PlacedRecord({ key: now.key, producer: now.key, range: now.value.range, entry: own, extent: { start: now.keyRange.start, end: now.value.range.end }, own: true }));
  };
  /** Takes what the entry pasted gives: a resource as written, or what a function generates; false when an id it generates is another's. */
  const placeAdded = (entry: MapEntry): boolean => {
    if (entry !== addedFunction) {
      placeOwn(entry);
      return true;
    }
    for (const resource of translation?.generated.get(entry.key) ?? []) {
      const id = resource.logicalId;
      if ((id !== entry.key && entriesNowById.has(id)) || last.expansion.sourceMap.resources.has(id) || generatedNow.has(id)) return false;
      generatedNow.add(id);
      placeAnew(resource, entry.key, undefined);
    }
    return true;
  };
  let addedPlaced = addedEntry === undefined;
  for (let i = 0; i < last.placed.length; ) {
    const record = last.placed[i]!;
    const producer = record.producer;
    // An added resource goes before what the resource written after it generates, or, last of those written, before the implicit APIs.
    if (!addedPlaced && (producer === aligned.addedBefore || (aligned.addedBefore === undefined && !entriesNowById.has(producer)))) {
      if (!placeAdded(addedEntry!)) return undefined;
      addedPlaced = true;
    }
    if (producer === removedEntry?.key) {
      i++;
      continue;
    }
    const again = redone.has(producer) ? translation?.generated.get(producer) ?? [] : rebuilt?.generated.get(producer);
    if (again !== undefined) {
      if (redone.has(producer)) placedAgain.add(producer);
      const attributedTo = rebuilt?.origins.get(producer) ?? translation?.embeddedConnectors.get(producer);
      const generatedBefore = new Set<string>();
      for (; i < last.placed.length && last.placed[i]!.producer === producer; i++) generatedBefore.add(last.placed[i]!.key);
      for (const resource of again) {
        // An id another resource has or generates would take its place (SAM's DuplicateLogicalIdException, or an overwrite).
        const id = resource.logicalId;
        const another = (id !== producer && entriesNowById.has(id)) || (last.expansion.sourceMap.resources.has(id) && !generatedBefore.has(id)) || generatedNow.has(id);
        if (another) return undefined;
        generatedNow.add(id);
        placeAnew(resource, producer, attributedTo);
      }
      continue;
    }
    i++;
    const patchedFunction = patched?.get(record.key);
    if (patchedFunction !== undefined) {
      // What Globals changed is built anew; the rest of the Lambda function moves with its text.
      const without = entryWithoutChanged(record.entry, changedNames);
      mover.beginRecord();
      const moved = without && mover.entry(without.entry);
      mover.endRecord();
      const placement = written.place(patchedFunction);
      const entry = moved && without.putBack(moved, (name) => ({ key: name, keyRange: placement.range, value: builder.build(patchedFunction.get(name), placement.range) }));
      if (entry === undefined) return undefined;
      takePlaced(patchedFunction, producer, undefined, placement, entry);
      continue;
    }
    // A resource the transform left as written is the template's own node, in this text too.
    const now = record.own ? entriesNowById.get(record.key) : undefined;
    if (now) {
      placeOwn(now);
      continue;
    }
    const attributedToEdited = record.attributedTo !== undefined && edited.has(record.attributedTo.logicalId);
    if (attributedToEdited && record.resource) {
      const placement = written.place(record.resource, record.attributedTo);
      mover.exact.set(record.range.start, { end: record.range.end, now: placement.range });
    }
    // Before the first character that changed, everything is where it was; what is attributed to an edited function may not be.
    const moved = moveRecord(record, mover, pending, inPlace, attributedToEdited ? -Infinity : copiedFrom);
    if (moved === undefined) return undefined;
    entries.push(moved.entry);
    if (moved.source) sources.set(record.key, moved.source);
    if (moved.properties) propertySources.set(record.key, moved.properties);
    placed.push(moved);
  }

  if (!addedPlaced && !placeAdded(addedEntry!)) return undefined;
  // An edited function or connector that generated nothing before has no place to take.
  if (placedAgain.size !== redone.size) return undefined;

  // The notes: the edited functions' and connectors' in place of theirs before, the others moved.
  const fresh = new Map<string, SamNote[]>();
  for (const note of translation?.notes ?? []) if (redone.has(note.logicalId)) fresh.set(note.logicalId, [...(fresh.get(note.logicalId) ?? []), note]);
  const notes: SamNote[] = [];
  // A pasted function's notes go where its translation makes them: after those of the functions translated before it, which SAM translates before anything else.
  const addedNotes = addedFunction ? (translation?.notes ?? []).filter((note) => note.logicalId === addedFunction.key) : [];
  const rank = new Map(addedNotes.length > 0 ? functionOrder!.translationOrder.map((id, i) => [id, i]) : []);
  const addedRank = addedFunction && rank.get(addedFunction.key);
  let addedNotesPlaced = addedNotes.length === 0;
  for (const note of last.expansion.notes) {
    if (note.logicalId === removedFunction?.key) continue;
    if (!addedNotesPlaced) {
      const noteRank = rank.get(note.logicalId);
      // A note of another resource than a function: where the function's go among them is not known here.
      if (noteRank === undefined || addedRank === undefined) return undefined;
      if (noteRank > addedRank) {
        notes.push(...addedNotes);
        addedNotesPlaced = true;
      }
    }
    if (redone.has(note.logicalId)) {
      const next = fresh.get(note.logicalId)?.shift();
      if (next === undefined) return undefined;
      notes.push(next);
      continue;
    }
    const range = note.range && mover.range(note.range);
    if (note.range && range === undefined) return undefined;
    notes.push(range === note.range ? note : { ...note, range: range! });
  }
  if ([...fresh.values()].some((left) => left.length > 0)) return undefined;
  if (!addedNotesPlaced) notes.push(...addedNotes);

  const rootEntries: MapEntry[] = [];
  for (const entry of last.rootEntries) {
    if (entry.key === 'Resources') {
      rootEntries.push({ key: 'Resources', keyRange: resourcesNow.keyRange, value: { kind: 'map', range: resourcesNow.value.range, entries } });
      continue;
    }
    const own = PASSED_THROUGH.has(entry.key) || (entry.key === 'Parameters' && parametersNow) ? root.entries.find((e) => e.key === entry.key) : undefined;
    if (own) {
      rootEntries.push({ key: own.key, keyRange: own.keyRange, value: own.value });
      continue;
    }
    const moved = mover.entry(entry);
    if (moved === undefined) return undefined;
    rootEntries.push(moved);
  }
  // Everything has a place now: the records moved in place move.
  pending.apply();
  cache.recordsMovedInPlace += pending.records;
  const expansion: SamExpansion = {
    parsed: { text, format: model.parsed.format, root: { kind: 'map', range: root.range, entries: rootEntries }, errors: [...model.parsed.errors] },
    sourceMap: { resources: sources, properties: propertySources },
    notes,
  };
  cache.reexpansions++;
  if (rebuilt) cache.apiRebuilds++;
  for (const resource of patched?.values() ?? []) if (resource.type === 'AWS::Lambda::Function') cache.functionsPatched++;
  if (rebuilt) {
    references = references.copy();
    for (const { logicalId, property, generatedId } of rebuilt.references) references.add(logicalId, property, generatedId);
  }
  const parameters = last.parameters && parameterLookUps(parametersNow ?? last.parameters.values, [last.parameters.reads, ...(translation ? [translation.parameterReads] : []), ...(rebuilt ? [rebuilt.parameterReads] : [])]);
  const connectors = last.connectors && translation?.connectorLinks ? new Map([...last.connectors, ...translation.connectorLinks]) : last.connectors;
  const stepReads = new Set([...last.stepReads, ...(translation?.stepReads ?? []), ...(rebuilt?.stepReads ?? [])]);
  // SAM's steps on the order are the same while the APIs and connectors are: an edit that changed them is expanded in full.
  const orderSteps = last.connectors ? undefined : last.orderSteps;
  rememberExpansion(cache, { model, options, startable: true, carriable: true, py27: last.py27, placed, rootEntries, expansion, references, allKept: last.allKept, stepReads, defaultRoutes, ...(apis ? { apis } : {}), ...(connectors ? { connectors } : {}), ...(parameters ? { parameters } : {}), ...(orderSteps ? { orderSteps } : {}), functionOrder: functionOrder?.translationOrder ?? last.functionOrder });
  return expansion;
}

/** The paths of the edited functions' events that are new or changed since the last expansion. */
function typedPaths(edited: Iterable<string>, before: ReadonlyMap<string, FunctionApiPart> | undefined, now: ReadonlyMap<string, FunctionApiPart>): Set<string> {
  const paths = new Set<string>();
  for (const id of edited) {
    const eventsBefore = before?.get(id)?.events ?? [];
    for (const event of now.get(id)?.events ?? []) if (!eventsBefore.some((earlier) => earlier.eventId === event.eventId && earlier.path === event.path)) paths.add(event.path);
  }
  return paths;
}

/** The types of the resources that hold an API's definition as their `Body`. */
const BODY_TYPES = new Set(['AWS::ApiGateway::RestApi', 'AWS::ApiGatewayV2::Api']);

/**
 * Notes in `into` the node the last expansion built for each path item of a REST or HTTP API's
 * `Body`, by the item's value: a rename of one path keeps every item's value, and of a method
 * every item's but its path's (api/renamedRoute.ts).
 */
function bodyItemNodes(placed: readonly PlacedRecord[], apiId: string, into: Map<object, TemplateNode>): void {
  const record = placed.find((r) => r.key === apiId && r.resource !== undefined && BODY_TYPES.has(r.resource.type));
  const body = record?.resource?.get('Body');
  if (record === undefined || !isMap(body) || !isMap(body.paths)) return;
  const paths = nodeAtPath(record.entry.value, ['Properties', 'Body', 'paths']);
  if (paths?.kind !== 'map') return;
  for (const entry of paths.entries) {
    const item = Object.hasOwn(body.paths, entry.key) ? body.paths[entry.key] : undefined;
    if (typeof item === 'object' && item !== null) into.set(item, entry.value);
  }
}

/** The Globals section as the template now writes it, or undefined. */
function globalsValue(root: MapNode, index: SourceIndex): unknown {
  const node = root.entries.find((e) => e.key === 'Globals')?.value;
  return node === undefined ? undefined : index.read(node);
}

/** The explicit APIs a replay rebuilds, as the template now writes them; an API not written as a map is left out (the replay then fails). */
function writtenApis(replay: ApiReplay, entries: ReadonlyMap<string, MapEntry>, index: SourceIndex): Map<string, WrittenApi> {
  const written = new Map<string, WrittenApi>();
  for (const { id } of replay.apis) {
    const node = entries.get(id)?.value;
    const entry = node?.kind === 'map' ? index.read(node) : undefined;
    if (node?.kind === 'map' && isMap(entry)) written.set(id, { entry, node });
  }
  return written;
}

/**
 * The parameter values of a Parameters section edited, when the values the last expansion looked
 * up are the same in it: every look-up gives what it gave, so what the last expansion made stands.
 * Undefined otherwise, or when the section is not a map (SAM rejects it).
 */
function valuesLeavingLookUpsAlone(last: ParameterLookUps | undefined, declared: unknown, options: TranslationOptions): ReadonlyMap<string, unknown> | undefined {
  if (last === undefined || !isMap(declared)) return undefined;
  const values = parameterValues(declared, options);
  const allText = stableText(sortedEntries(values));
  return allText !== undefined && sameParameterReads(last.reads, values, allText) ? values : undefined;
}

/** The values now, with what the last expansion and this one's translations looked up; undefined when one look-up is not known. */
function parameterLookUps(values: ReadonlyMap<string, unknown>, reads: readonly (ParameterReads | undefined)[]): ParameterLookUps | undefined {
  const allText = stableText(sortedEntries(values));
  const joined = allText === undefined ? undefined : joinedParameterReads(reads, values, allText);
  return joined && { values, reads: joined };
}

/**
 * What an expansion in full may take from the last one instead of building it again: a generated
 * resource that is the very object the last expansion placed (its translation taken from the
 * cache), or one like it in all the processed template shows and places of it (a translation done
 * again, as after an edit to Globals), produced by the same resource and attributed alike, where
 * its text now stands: a record whose ranges have no place now (in text that changed) is built.
 */
export class RecordCarrier {
  private readonly byKey: Map<string, PlacedRecord>;
  private readonly pending = new PendingMoves();
  /** The records taken. */
  private taken = 0;

  constructor(
    last: ExpansionRecord,
    private readonly mover: Mover,
    private readonly inPlace: boolean,
    private readonly unchangedUpTo: number,
    /** Where a resource's maps and lists stand now (backing.ts), with the resource that produced it. */
    private readonly backingNow: (resource: GeneratedResource, producer: string) => string | undefined,
  ) {
    this.byKey = new Map(last.placed.map((record) => [record.key, record]));
  }

  /** The last expansion's record of `resource`, where its text now stands, or undefined when it is to be built. */
  take(resource: GeneratedResource, producer: string, attributedTo: Origin | undefined): PlacedRecord | undefined {
    const record = this.byKey.get(resource.logicalId);
    if (record?.resource === undefined || record.producer !== producer) return undefined;
    // A resource translated again may be like the last in every value and still not placed alike
    // (a map Globals merged with the resource's own is made, the resource's own alone is text).
    if (record.resource !== resource && (!record.resource.isLike(resource) || record.backing === undefined || record.backing !== this.backingNow(resource, producer))) return undefined;
    if (record.attributedTo?.logicalId !== attributedTo?.logicalId || record.attributedTo?.property !== attributedTo?.property) return undefined;
    const moved = moveRecord(record, this.mover, this.pending, this.inPlace, this.unchangedUpTo);
    if (!moved) return undefined;
    this.taken++;
    // The next expansion finds the translation kept now: the record stands for its resource.
    return moved.standingFor(resource);
  }

  /** Moves what was taken in place: once the expansion is built, as nothing may fail after. */
  finish(cache: SamTranslationCache): void {
    this.pending.apply();
    cache.recordsMovedInPlace += this.pending.records;
    cache.recordsCarried += this.taken;
  }
}

/**
 * A carrier of the last expansion's records into an expansion in full of `model`, or undefined when
 * there is none to take from under these options. Entries are matched by key: those whose text is
 * the same move with it; ranges anywhere else have no place.
 */
export function recordCarrier(model: TemplateModel, options: TranslationOptions, cache: SamTranslationCache, index: SourceIndex): RecordCarrier | undefined {
  const last = cache.lastExpansion;
  const root = model.root;
  if (last === undefined || !last.carriable || root === undefined || parsedWithErrors(model) || optionsKey(options) !== last.optionsKey) return undefined;
  const text = model.parsed.text;
  const spans: Span[] = [];
  let unchangedUpTo = Infinity;
  /** Each entry whose text is the same now moves with it; the first that changed, moved or went is where the unchanged text ends. */
  const match = (before: readonly MapEntry[], now: readonly MapEntry[], keyOnly?: string) => {
    const nowByKey = new Map(now.map((entry) => [entry.key, entry]));
    for (const entry of before) {
      const same = nowByKey.get(entry.key);
      let span: Span | undefined;
      if (same !== undefined && entry.key === keyOnly) span = keySpanOf(entry, same);
      else if (same !== undefined && slice(last.text, entry) === slice(text, same)) span = spanOf(entry, same);
      if (span === undefined) unchangedUpTo = Math.min(unchangedUpTo, entry.keyRange.start);
      else {
        spans.push(span);
        if (span.delta !== 0) unchangedUpTo = Math.min(unchangedUpTo, span.start);
      }
    }
  };
  // The Resources section's entries are matched one by one: its key moves like an entry.
  match(last.root.entries, root.entries, 'Resources');
  const resourcesBefore = last.root.entries.find((entry) => entry.key === 'Resources')?.value;
  const resourcesNow = root.entries.find((entry) => entry.key === 'Resources')?.value;
  if (resourcesBefore?.kind === 'map' && resourcesNow?.kind === 'map') match(resourcesBefore.entries, resourcesNow.entries);
  const inPlace = movesInPlace(cache, options);
  const written = new WrittenResources(root, { start: 0, end: 0 });
  return new RecordCarrier(last, new Mover(spans, inPlace), inPlace, unchangedUpTo, (resource, producer) => backingOf(resource, index, written.entryRangeOf(producer)));
}

/**
 * The edited functions translated in a template of their own (with the sections their translation
 * reads), or null when that translation may differ from theirs in the whole template.
 */
function translateAlone(
  root: MapNode,
  text: string,
  edited: ReadonlyMap<string, { before: MapEntry; now: MapEntry }>,
  reconnected: Reconnection,
  index: SourceIndex,
  options: TranslationOptions,
  last: ExpansionRecord,
  added?: MapEntry,
): Translation | null {
  const alone: PlainMap = {};
  for (const entry of root.entries) if (CONTEXT_SECTIONS.includes(entry.key)) alone[entry.key] = index.read(entry.value);
  const resources: PlainMap = {};
  const translated = added ? [...[...edited.values()].map(({ now }) => now), added] : [...edited.values()].map(({ now }) => now);
  for (const entry of translated) resources[entry.key] = index.read(entry.value);
  const resourcesNode = root.entries.find((e) => e.key === 'Resources')?.value;
  const entryNodes = new Map(resourcesNode?.kind === 'map' ? resourcesNode.entries.map((entry) => [entry.key, entry]) : []);
  // The standalone connectors linked to them are translated with them; what connectors name besides is there as written.
  for (const id of reconnected.standalone) resources[id] = index.read(entryNodes.get(id)!.value);
  const context = new Set<string>(reconnected.named);
  for (const id of reconnected.named) resources[id] = index.read(entryNodes.get(id)!.value);
  // The APIs the edited functions' events name, read for what their permissions say, not translated.
  const named = apisNamed(Object.values(resources));
  if (named.size > 0 && resourcesNode?.kind === 'map') {
    for (const entry of resourcesNode.entries) {
      if (!named.has(entry.key) || Object.hasOwn(resources, entry.key)) continue;
      resources[entry.key] = index.read(entry.value);
      context.add(entry.key);
    }
  }
  alone.Resources = resources;
  const editedNode: MapNode = { kind: 'map', range: root.range, entries: [...translated, ...[...reconnected.standalone, ...reconnected.named].map((id) => entryNodes.get(id)!)] };
  const globalsNode = root.entries.find((e) => e.key === 'Globals')?.value;
  const conditionsBefore = isMap(alone.Conditions) ? Object.keys(alone.Conditions).length : 0;
  const translation = translate(alone, editedNode, options, { text, index, globals: globalsNode }, { context, generated: reconnected.namedGenerated }, last.py27);
  if (translation === 'redo' || translation.errors.length > 0 || translation.notCovered.size > 0 || translation.changedIds.size > 0) return null;
  if (translation.edited.size > 0 || translation.shared.length > 0) return null;
  // The connectors translated are those linked to the edited functions, each naming what it connects by id.
  const links = translation.connectorLinks;
  if (translation.connectors && (links === undefined || links.size !== reconnected.connectors.size || [...links.keys()].some((id) => !reconnected.connectors.has(id)))) return null;
  if (!translation.connectors && reconnected.connectors.size > 0) return null;
  if (Object.keys(translation.conditions).length !== conditionsBefore) return null;
  for (const id of edited.keys()) {
    // A translation that read another resource (an SNS event reads its topic) saw none here.
    if (!translation.kept.has(id) || translation.references.textOf(id) !== last.references.textOf(id)) return null;
  }
  // A function pasted: its references are new, and taken by the caller.
  if (added && !translation.kept.has(added.key)) return null;
  for (const id of reconnected.connectors) if (translation.references.textOf(id) !== last.references.textOf(id)) return null;
  return translation;
}

/**
 * The ids the `RestApiId` of functions' `Api` events and the `ApiId` of their `HttpApi` events
 * name (`{Ref: id}` or the id itself). SAM reads a REST API's entry for the stage of each event's
 * permission, and an HTTP API's definition for whether the function serves its `$default` route
 * (whose permission then covers the event); each API's definition is built from the events, and
 * is the API's own translation, which an edit the API does not read leaves as it was.
 */
function apisNamed(functions: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of functions) {
    const events = isMap(entry) && isMap(entry.Properties) ? entry.Properties.Events : undefined;
    for (const event of isMap(events) ? Object.values(events) : []) {
      if (!isMap(event) || !isMap(event.Properties)) continue;
      const named = event.Type === 'Api' ? event.Properties.RestApiId : event.Type === 'HttpApi' ? event.Properties.ApiId : undefined;
      const id = restApiIdString(named);
      if (typeof id === 'string') ids.add(id);
    }
  }
  return ids;
}
