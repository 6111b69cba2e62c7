/**
 * The implicit REST API (`ServerlessRestApi`) taken from the caller's cache when nothing it is
 * made from changed: its OpenAPI definition is then not built again event by event (the plugin's
 * paths, each Api event's integration, SAM's Python 2.7 re-insertions), nor translated and hashed
 * again, which is most of the work of expanding a template whose functions share it. An edit to
 * a function's code, memory, environment or policies leaves the API as it was.
 *
 * What it is made from is every resource of the template in order, as written (before the
 * plugins), except the function properties below, which only the function's own translation
 * reads, and of each event but `Api` and `HttpApi` events, all but its id and type (of a
 * function with no such event, its events' ids and types are all the plugins read); with the
 * region, the partition and Globals (but those same function properties in Globals); and the
 * parameter values the expansion that made it looked up, anywhere (most look
 * none up), so that a parameter's default typed leaves it as it was. The API is kept only from
 * an expansion that reported no error and left no resource as written, and only when a kept
 * translation can vouch for it: no state machine has an Api event (its integration is built
 * elsewhere), no function with an Api event has a condition (SAM would make path conditions from
 * them), and its own translation read nothing but its entry, the function names and the implicit
 * APIs. Taken from the cache, it still needs every function's events to be translated as when it
 * was kept: an expansion in which a resource fails or is left as written is done again without it
 * (`redo`).
 */
import type { SamNote, TranslationContext } from '../context';
import type { SamError } from '../errors';
import type { GeneratedResource } from '../generated';
import type { NotCovered } from '../notCovered';
import type { ResourceOrder } from '../resourceOrder';
import type { SourceIndex } from '../sourceIndex';
import type { MapEntry, MapNode } from '../../template/ast';
import type { TranslationSource } from '../translate';
import { globalsTextOf } from '../globals';
import { writtenType } from '../placement';
import { RecordedParameters, RecordingContext, sameParameterReads, type ParameterReads, type SamTranslationCache } from '../translationCache';
import { isMap, type PlainMap } from '../values';
import { IMPLICIT_REST_API } from './implicitRestApi';
import { REPLAYED_API_READS } from './apiReplay';

/**
 * Function properties that only the function's own translation reads (its code, configuration,
 * role, version and alias settings): not the events, the tags the implicit API takes, the alias
 * name its integrations name, or the FunctionName that redeploys it.
 */
const NOT_READ_BY_THE_API = new Set([
  'Architectures', 'AssumeRolePolicyDocument', 'AutoPublishAliasAllProperties', 'AutoPublishCodeSha256', 'CapacityProviderConfig',
  'CodeSigningConfigArn', 'CodeUri', 'DeadLetterQueue', 'DeploymentPreference', 'Description', 'Environment', 'EphemeralStorage',
  'EventInvokeConfig', 'FileSystemConfigs', 'FunctionUrlConfig', 'Handler', 'ImageConfig', 'ImageUri', 'InlineCode', 'KmsKeyArn', 'Layers',
  'LoggingConfig', 'MemorySize', 'PackageType', 'PermissionsBoundary', 'Policies', 'ProvisionedConcurrencyConfig', 'RecursiveLoop',
  'ReservedConcurrentExecutions', 'Role', 'RolePath', 'Runtime', 'RuntimeManagementConfig', 'SnapStart', 'SourceKMSKeyArn', 'Timeout',
  'Tracing', 'VersionDeletionPolicy', 'VersionDescription', 'VpcConfig',
]);

/** What the cache keeps of the implicit REST API's translation. */
export interface KeptImplicitApi {
  /** What the API was made from (see above), as text. */
  inputs: string;
  /** The same, as values read from the template, whose maps and lists its resources may hold. */
  values: readonly unknown[];
  /** The parameter values the expansion that made it looked up (pseudo parameters included). */
  parameters: ParameterReads;
  generated: readonly GeneratedResource[];
  /** The references its translation added, done again on a hit. */
  references: readonly { logicalId: string; property: string; generatedId: string }[];
  notes: readonly SamNote[];
}

function hasApiEvent(entry: PlainMap): boolean {
  const events = isMap(entry.Properties) ? entry.Properties.Events : undefined;
  return isMap(events) && Object.values(events).some((event) => isMap(event) && event.Type === 'Api');
}

/**
 * The text of a resource as the API reads it: all of it, or for a function all but the
 * properties the API does not read. Beside the values, it tells `2` from `2.0`, which Python
 * prints differently in the definition SAM hashes.
 */
export function textTheApiReads(source: { text: string }, node: MapNode | undefined, isFunction: boolean): string {
  if (node === undefined) return '';
  if (!isFunction) return source.text.slice(node.range.start, node.range.end);
  return textLeavingFunctionProperties(source.text, node, 'Properties', true);
}

/** The event types whose entries the APIs SAM builds from events read: `Api` (REST) and `HttpApi`. */
const API_EVENT_TYPES = new Set(['Api', 'HttpApi']);

/**
 * The type of an event the APIs read only the id and the type of, or undefined when they read
 * the whole event. The plugins go through a function's events in the order of their ids (a
 * Python 2.7 table of them all) and take the `Api` and `HttpApi` ones; a type that is not plain
 * text counts as read whole.
 */
function typeOfEventNotRead(type: unknown): string | undefined {
  return typeof type === 'string' && !API_EVENT_TYPES.has(type) ? type : undefined;
}

/**
 * A function's properties (or Globals for functions) without those only the function's own
 * translation reads, and of other events than the APIs', only their types. Of a function with no
 * `Api` or `HttpApi` event (`ofFunction`), the plugins read nothing but its events' types: its
 * tags, alias and name are read for an API event only.
 */
function propertiesTheApiReads(properties: PlainMap, ofFunction = false): PlainMap {
  const read = Object.fromEntries(Object.entries(properties).filter(([name]) => !NOT_READ_BY_THE_API.has(name)));
  if (ofFunction && !hasEventReadWhole(properties.Events)) {
    for (const name of Object.keys(read)) if (name !== 'Events') delete read[name];
  }
  if (isMap(read.Events)) {
    read.Events = Object.fromEntries(
      Object.entries(read.Events).map(([id, event]) => {
        const type = isMap(event) ? typeOfEventNotRead(event.Type) : undefined;
        return [id, type === undefined ? event : { Type: type }];
      }),
    );
  }
  return read;
}

/** Whether a function's events (absent, or as read) hold one the APIs read whole; events that are not a map count as one. */
function hasEventReadWhole(events: unknown): boolean {
  if (events === undefined) return false;
  return !isMap(events) || Object.values(events).some((event) => !isMap(event) || typeOfEventNotRead(event.Type) === undefined);
}

/**
 * The text of a map's entries, its `section` map's entries all but those only a function's own
 * translation reads, and of the events the APIs do not read, each one's id and type alone; of a
 * function with no API event (`ofFunction`), its events' ids and types alone (see `propertiesTheApiReads`).
 */
function textLeavingFunctionProperties(text: string, node: MapNode, section: string, ofFunction = false): string {
  const parts: string[] = [];
  const whole = (entry: MapEntry) => parts.push(text.slice(entry.keyRange.start, entry.value.range.end));
  for (const entry of node.entries) {
    // A function's embedded connectors become connectors of their own, which no API reads.
    if (ofFunction && entry.key === 'Connectors') continue;
    if (entry.key !== section || entry.value.kind !== 'map') whole(entry);
    else {
      const events = entry.value.entries.find((property) => property.key === 'Events');
      const noApiEvent = ofFunction && (events === undefined || (events.value.kind === 'map' && events.value.entries.every((event) => typeOfEventNotReadIn(event) !== undefined)));
      for (const property of entry.value.entries) {
        if (NOT_READ_BY_THE_API.has(property.key) || (noApiEvent && property.key !== 'Events')) continue;
        if (property.key !== 'Events' || property.value.kind !== 'map') whole(property);
        else for (const event of property.value.entries) eventTheApiReads(event, whole, parts);
      }
    }
  }
  return parts.join('\u0000');
}

/** The type of an event written in the text, when the APIs read only its id and type (see `typeOfEventNotRead`). */
function typeOfEventNotReadIn(event: MapEntry): string | undefined {
  return typeOfEventNotRead(writtenType(event.value));
}

/** An event's text as the APIs read it: whole, or its id and type. */
function eventTheApiReads(event: MapEntry, whole: (entry: MapEntry) => void, parts: string[]): void {
  const notRead = typeOfEventNotReadIn(event);
  if (notRead === undefined) whole(event);
  else parts.push(`${event.key}\u0001${notRead}`);
}

/**
 * Globals as the API reads them, as values and as text: all of them but the function properties
 * only a function's own translation reads (Globals merge into each function's properties), so
 * that a function timeout typed in Globals leaves the API as it was.
 */
function globalsTheApiReads(globals: unknown, source: TranslationSource): [unknown, string] {
  const node = isMap(globals) ? source.index.nodeOf(globals) : undefined;
  if (!isMap(globals) || node?.kind !== 'map') return [globals ?? null, globalsTextOf(source)];
  const functionGlobals = globals.Function;
  const value = isMap(functionGlobals) ? { ...globals, Function: propertiesTheApiReads(functionGlobals) } : globals;
  return [value, textLeavingFunctionProperties(source.text, node, 'Function')];
}

/** What the implicit API is made from, as values and as text; undefined when a kept API could not vouch for it. */
function apiInputs(ctx: TranslationContext, order: ResourceOrder, globals: unknown, source: TranslationSource, nodeOf: (id: string) => MapNode | undefined): { text: string; values: unknown[] } | undefined {
  const parts: unknown[] = [ctx.region, ctx.partition, ctx.py27, ...globalsTheApiReads(globals, source)];
  let implicitEvents = 0;
  for (const id of order.keys()) {
    const entry = ctx.resources[id];
    const isFunction = isMap(entry) && entry.Type === 'AWS::Serverless::Function';
    parts.push(textTheApiReads(source, nodeOf(id), isFunction));
    if (!isMap(entry) || (!isFunction && entry.Type !== 'AWS::Serverless::StateMachine')) {
      parts.push(id, entry ?? null);
      continue;
    }
    if (hasApiEvent(entry)) {
      if (entry.Type === 'AWS::Serverless::StateMachine' || entry.Condition !== undefined) return undefined;
      const events = (entry.Properties as PlainMap).Events as PlainMap;
      for (const event of Object.values(events)) if (isMap(event) && event.Type === 'Api' && !(isMap(event.Properties) && 'RestApiId' in event.Properties)) implicitEvents++;
    }
    const properties = entry.Type === 'AWS::Serverless::Function' && isMap(entry.Properties) ? entry.Properties : undefined;
    const read = properties ? { ...entry, Properties: propertiesTheApiReads(properties, true) } : entry;
    parts.push(id, read);
  }
  if (implicitEvents === 0) return undefined;
  // Values just read from the template are plain maps, lists and scalars, which JSON writes with
  // their keys in order (stableText's text, three times faster: this runs on every expansion).
  try {
    return { text: JSON.stringify(parts), values: parts };
  } catch {
    // A parameter value JSON cannot write (the caller's, not the template's): nothing is kept.
    return undefined;
  }
}

/**
 * Makes each map and list of values read from an earlier text stand for the node its equal in
 * this text was read from (they are equal: their text is the kept API's inputs), so that the kept
 * resources holding them keep this text's ranges. Keys the earlier translation added are skipped.
 */
function aliasEarlier(index: SourceIndex, earlier: unknown, current: unknown, depth = 0): void {
  if (earlier === null || typeof earlier !== 'object' || current === null || typeof current !== 'object' || depth > 256) return;
  const node = index.nodeOf(current);
  if (node !== undefined) index.alias(earlier, node);
  if (Array.isArray(current)) {
    if (Array.isArray(earlier)) current.forEach((item, i) => aliasEarlier(index, earlier[i], item, depth + 1));
    return;
  }
  for (const key of Object.keys(current)) if (Object.hasOwn(earlier, key)) aliasEarlier(index, (earlier as PlainMap)[key], (current as PlainMap)[key], depth + 1);
}

/** Takes the implicit REST API from the cache, or keeps its translation there, for one expansion. */
export class ImplicitApiKeeper {
  private recorded?: Omit<KeptImplicitApi, 'inputs' | 'values' | 'parameters'>;

  private constructor(
    private readonly cache: SamTranslationCache,
    private readonly inputs: { text: string; values: unknown[] },
    /** The API taken from the cache, when its inputs are unchanged. */
    private readonly kept: KeptImplicitApi | undefined,
    /** The parameter values this expansion looks up, when it makes the API; with the text of them all. */
    private readonly parameters: { recorded: RecordedParameters; allText: string } | undefined,
  ) {}

  /**
   * The keeper of a template, read before the plugins run; `reuse` false keeps what this
   * expansion makes without taking anything; `allText` is the text of all parameter values. When
   * the API is taken, the context says so (`keptDefinitions`): its definition is not built. When
   * it is made, the context's parameter values record what is looked up until it is kept.
   */
  static for(
    ctx: TranslationContext,
    order: ResourceOrder,
    globals: unknown,
    source: TranslationSource,
    nodeOf: (id: string) => MapNode | undefined,
    cache: SamTranslationCache,
    reuse: boolean,
    allText: string,
  ): ImplicitApiKeeper | undefined {
    const inputs = apiInputs(ctx, order, globals, source, nodeOf);
    if (inputs === undefined) return undefined;
    const found = cache.implicitApi;
    const kept = reuse && found?.inputs === inputs.text && sameParameterReads(found.parameters, ctx.parameters, allText) ? found : undefined;
    if (kept) {
      ctx.keptDefinitions = new Set([IMPLICIT_REST_API]);
      aliasEarlier(source.index, kept.values, inputs.values);
      return new ImplicitApiKeeper(cache, inputs, kept, undefined);
    }
    // Every look-up from here on, by the plugins, the functions' events and the API's own
    // translation, is one the API may depend on.
    const recorded = new RecordedParameters(ctx.parameters);
    ctx.parameters = recorded;
    return new ImplicitApiKeeper(cache, inputs, undefined, { recorded, allText });
  }

  /** Whether this keeper translates the resource (the implicit REST API). */
  handles(logicalId: string): boolean {
    return logicalId === IMPLICIT_REST_API;
  }

  /** The API's translation: the kept one done again, or a new one, recorded to be kept. */
  translate(ctx: TranslationContext, translateApi: (ctx: TranslationContext) => GeneratedResource[] | SamError | NotCovered): GeneratedResource[] | SamError | NotCovered {
    if (this.kept) {
      for (const { logicalId, property, generatedId } of this.kept.references) ctx.references.add(logicalId, property, generatedId);
      for (const note of this.kept.notes) ctx.note(note);
      return [...this.kept.generated];
    }
    const recording = new RecordingContext(ctx, IMPLICIT_REST_API, REPLAYED_API_READS);
    const result = translateApi(recording.context);
    const references: KeptImplicitApi['references'][number][] = [];
    const notes: SamNote[] = [];
    let replayable = !recording.tainted && Array.isArray(result);
    for (const effect of recording.effects) {
      if (effect.kind === 'reference') references.push({ logicalId: effect.logicalId, property: effect.property, generatedId: effect.generatedId });
      else if (effect.kind === 'note' && effect.range === undefined) notes.push(effect.note);
      else replayable = false;
    }
    if (replayable) this.recorded = { generated: [...(result as GeneratedResource[])], references, notes };
    // A translation that read more than its entry, the function names and the implicit APIs is not rebuilt from its parts either (apiReplay.ts).
    else if (ctx.apiLog) ctx.apiLog.unreplayable = true;
    return result;
  }

  /**
   * After every resource is translated: keeps a new translation of an expansion without errors;
   * says whether an expansion that took the API must be done again without it (a resource failed
   * or was left as written, so the events the API was built from were not all translated).
   */
  settle(failed: boolean): 'done' | 'redo' {
    if (this.kept) {
      if (failed) return 'redo';
      this.cache.implicitApiHits++;
      return 'done';
    }
    const parameters = this.parameters?.recorded.reads(this.parameters.allText);
    if (this.recorded && parameters && !failed) this.cache.implicitApi = { inputs: this.inputs.text, values: this.inputs.values, parameters, ...this.recorded };
    return 'done';
  }
}
