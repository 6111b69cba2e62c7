/**
 * The transform as an engine stage: a parsed SAM template in, the processed template out (what
 * CloudFormation's `GetTemplate` returns for stage `Processed`), as a syntax tree whose nodes
 * point back into the text as written, with a source map from every generated resource and
 * property to the SAM resource and property that produced it.
 */
import type { MapEntry, MapNode, ParsedTemplate, Range, TemplateError, TemplateNode } from '../template/ast';
import type { TemplateModel } from '../template/model';
import { isWellFormed } from '../template/parse';
import { LANGUAGE_EXTENSIONS_TRANSFORM, SERVERLESS_TRANSFORM } from '../template/readModel';
import type { SamNote } from './model/context';
import type { GeneratedResource, Origin } from './model/generated';
import { renameDependsOn, resolveChangedLogicalIds, resolveResourceRefs } from './model/intrinsics';
import { NodeBuilder } from './output/nodeBuilder';
import { SourceIndex } from './model/sourceIndex';
import { WrittenResources } from './output/placement';
import type { SamSource, SamSourceMap } from './output/sourceMap';
import { translate, type TranslationOptions } from './translate';
import { isMap, type PlainMap } from './model/values';
import { PyDict } from './python/py27Dict';
import { toPlain } from './model/pyValues';
import { setEntry } from '../template/tree';

/** The processed template and what the transform says about it. */
export interface SamExpansion {
  /** The processed template, ranged in the text as written; SAM's errors are among its errors. */
  parsed: ParsedTemplate;
  sourceMap: SamSourceMap;
  /** Features analysed as written, local artifact paths, and other notes. */
  notes: SamNote[];
}

/** Whether a template declares the Serverless transform. */
function usesServerlessTransform(model: TemplateModel): boolean {
  return model.transforms.some((t) => t.name === SERVERLESS_TRANSFORM);
}

/**
 * Whether CloudFormation runs the Serverless transform on this template: the template declares it
 * and its text is well-formed. A text whose YAML or JSON does not parse is rejected before any
 * transform runs, with the parser's message alone. Translating the tree the parser recovered from
 * it (a key being typed, say) would report keys the text does not hold, and cost an expansion in
 * full at each keystroke.
 */
export function runsServerlessTransform(model: TemplateModel): boolean {
  return model.root !== undefined && usesServerlessTransform(model) && isWellFormed(model.parsed);
}

/**
 * Whether `AWS::LanguageExtensions` is listed before the Serverless transform: CloudFormation runs
 * transforms in the order listed, so SAM sees the template with its `Fn::ForEach` loops expanded
 * and what can be resolved resolved (listed after, SAM meets the loops and rejects them).
 */
export function languageExtensionsBeforeServerless(model: TemplateModel): boolean {
  const names = model.transforms.map((t) => t.name);
  const loops = names.indexOf(LANGUAGE_EXTENSIONS_TRANSFORM);
  return loops >= 0 && loops < names.indexOf(SERVERLESS_TRANSFORM);
}

/**
 * Expands the SAM resources of a template; never throws. Invalid SAM is among the errors; a fault
 * of the transform itself leaves the template as written, with an internal error that says so.
 */
export function expandServerless(model: TemplateModel, options: TranslationOptions): SamExpansion {
  try {
    return expand(model, options);
  } catch (error) {
    // A bug must not take the caller down: the template is analysed as written instead.
    const message = error instanceof Error ? error.message : String(error);
    const range = model.root?.entries.find((e) => e.key === 'Transform')?.keyRange ?? { start: 0, end: 0 };
    return {
      parsed: { ...model.parsed, errors: [...model.parsed.errors, { code: 'internal-error', message: `Internal error while expanding the SAM template: ${message}`, range, severity: 'error' }] },
      sourceMap: { resources: new Map(), properties: new Map() },
      notes: [],
    };
  }
}

function expand(model: TemplateModel, options: TranslationOptions): SamExpansion {
  const root = model.root!;
  const resourcesEntry = root.entries.find((e) => e.key === 'Resources');
  const resourcesNode = resourcesEntry?.value.kind === 'map' ? resourcesEntry.value : undefined;
  const index = new SourceIndex(model.parsed.text);
  const template = index.read(root) as PlainMap;
  const translation = translate(template, resourcesNode, options);
  const builder = new NodeBuilder(index);
  const errors: TemplateError[] = [...model.parsed.errors];
  const written = new WrittenResources(root, resourcesEntry?.keyRange ?? { start: 0, end: 0 });
  const keyRangeOf = (id: string): Range => written.keyRangeOf(id);
  const nodeOf = (id: string): MapNode | undefined => written.nodeOf(id);
  const globalsEntry = root.entries.find((e) => e.key === 'Globals');

  // The same error raised twice (by an API and by an event that uses it) is reported once, as SAM does.
  const reported = new Set<string>();
  for (const { error, logicalId } of translation.errors) {
    if (reported.has(error.wording)) continue;
    reported.add(error.wording);
    const node = logicalId === undefined ? undefined : nodeOf(logicalId);
    const range =
      logicalId === undefined ? (rangeAt(root, error.path) ?? globalsEntry?.keyRange ?? keyRangeOf('')) : (rangeAt(node, error.path) ?? keyRangeOf(logicalId));
    errors.push({ code: 'sam-invalid', message: `Invalid Serverless Application Specification document: ${error.wording}`, range, severity: 'error' });
  }
  const notes: SamNote[] = [...translation.notes];
  for (const [logicalId, feature] of translation.notCovered) {
    notes.push({ kind: 'sam-feature-not-expanded', logicalId, feature, range: keyRangeOf(logicalId) });
  }

  // The Resources section: each SAM resource replaced, where it stood, by what it generated.
  const sources = new Map<string, SamSource>();
  const propertySources = new Map<string, ReadonlyMap<string, SamSource>>();
  const entries = new Map<string, PlacedEntry>();
  // A logical id that two SAM resources generate (a shared usage plan, a Route 53 record set
  // group) is the one translated last: SAM writes each translation over the template in turn.
  const last = new Map<string, GeneratedResource>();
  for (const generated of translation.generated.values()) for (const resource of generated) last.set(resource.logicalId, resource);
  for (const resource of translation.shared) last.set(resource.logicalId, resource);
  // References to generated and renamed resources, anywhere in the template (SAM resolves them last).
  const resolveRefs = translation.references.mayBeIn(model.parsed.text);
  const place = (resource: GeneratedResource, producer: string) => {
    if (last.get(resource.logicalId) !== resource) return;
    const attributedTo = translation.implicitApis.get(resource.origin.logicalId) ?? translation.embeddedConnectors.get(resource.origin.logicalId);
    const placed = written.place(resource, attributedTo);
    sources.set(resource.logicalId, placed.source);
    propertySources.set(resource.logicalId, placed.properties);
    entries.delete(resource.logicalId);
    entries.set(resource.logicalId, { key: resource.logicalId, keyRange: placed.keyRange, value: resource.toEntry(), range: placed.range, producer, resource, ...(attributedTo ? { attributedTo } : {}) });
  };
  for (const entry of resourcesNode?.entries ?? []) {
    const generated = translation.generated.get(entry.key);
    if (generated) {
      for (const resource of generated) place(resource, entry.key);
      continue;
    }
    const edited = translation.edited.get(entry.key);
    const value = withPlainDicts(edited ?? (isMap(template.Resources) ? template.Resources[entry.key] : undefined));
    entries.set(entry.key, { key: entry.key, keyRange: entry.keyRange, value, hint: entry.value, range: entry.value.range, producer: entry.key });
  }
  for (const [logicalId, generated] of translation.generated) if (!written.has(logicalId)) for (const resource of generated) place(resource, logicalId);
  for (const resource of translation.shared) place(resource, '');

  const resolve = (value: unknown) => {
    const renamed = resolveChangedLogicalIds(value, translation.changedIds);
    return resolveRefs ? resolveResourceRefs(renamed, translation.references) : renamed;
  };
  const rootEntries: MapEntry[] = [];
  const expandedEntries: MapEntry[] = [];
  for (const entry of root.entries) {
    if (entry.key === 'Globals') continue;
    if (entry.key === 'Transform') {
      const kept = transformsWithoutServerless(entry);
      if (kept) rootEntries.push(kept);
      continue;
    }
    if (entry.key === 'Resources') {
      for (const e of entries.values()) {
        const value = resolve(renameDependsOn(e.value, translation.changedIds));
        expandedEntries.push({ key: e.key, keyRange: e.keyRange, value: builder.build(value, e.range, e.hint) });
      }
      rootEntries.push({ key: 'Resources', keyRange: entry.keyRange, value: { kind: 'map', range: entry.value.range, entries: expandedEntries } });
      continue;
    }
    if (entry.key === 'Conditions') {
      rootEntries.push({ key: 'Conditions', keyRange: entry.keyRange, value: builder.build(translation.conditions, entry.value.range, entry.value) });
      continue;
    }
    rootEntries.push({ key: entry.key, keyRange: entry.keyRange, value: builder.build(resolve(template[entry.key]), entry.value.range, entry.value) });
  }
  if (!root.entries.some((e) => e.key === 'Conditions') && Object.keys(translation.conditions).length > 0) {
    const range = resourcesEntry?.keyRange ?? root.range;
    rootEntries.push({ key: 'Conditions', keyRange: range, value: builder.build(translation.conditions, range) });
  }
  const expandedRoot: MapNode = { kind: 'map', range: root.range, entries: rootEntries };
  const expansion: SamExpansion = {
    parsed: { text: model.parsed.text, format: model.parsed.format, root: expandedRoot, errors },
    sourceMap: { resources: sources, properties: propertySources },
    notes,
  };
  return expansion;
}

/** An entry of the Resources section as placed, before it is built. */
interface PlacedEntry {
  key: string;
  keyRange: Range;
  value: unknown;
  hint?: TemplateNode;
  range: Range;
  /** The template resource whose place it takes (the SAM resource that generated it, or itself), or `''` for what resources share. */
  producer: string;
  resource?: GeneratedResource;
  /** The event an implicit API, or the `Connectors` entry an embedded connector, is attributed to. */
  attributedTo?: Origin;
}

/** The `Transform` entry without the Serverless transform, or nothing when it named only that. */
function transformsWithoutServerless(entry: MapEntry): MapEntry | undefined {
  const value = entry.value;
  if (value.kind === 'seq') {
    const items = value.items.filter((item) => !(item.kind === 'scalar' && item.value === SERVERLESS_TRANSFORM));
    return items.length === 0 ? undefined : { ...entry, value: { ...value, items } };
  }
  return value.kind === 'scalar' && value.value === SERVERLESS_TRANSFORM ? undefined : entry;
}

/** The range of the node at a path below a resource's entry, or of the deepest key found on the way. */
function rangeAt(node: MapNode | undefined, path: readonly (string | number)[]): Range | undefined {
  let current: TemplateNode | undefined = node;
  let range: Range | undefined;
  for (const segment of path) {
    if (current?.kind === 'map' && typeof segment === 'string') {
      const entry: MapEntry | undefined = current.entries.find((e) => e.key === segment);
      if (!entry) break;
      range = entry.keyRange;
      current = entry.value;
    } else if (current?.kind === 'seq' && typeof segment === 'number') {
      current = current.items[segment];
      if (!current) break;
      range = current.range;
    } else break;
  }
  return range;
}

/**
 * A resource's value with each Python dict in it made plain, everything else the same objects (a
 * value read from the template keeps its place): an API that failed after the events' plugins
 * gave it a definition holds that definition as SAM's plugins left it.
 */
function withPlainDicts(value: unknown, depth = 0): unknown {
  if (value instanceof PyDict) return toPlain(value);
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  let changed = false;
  const items = entries.map(([key, item]) => {
    const now = withPlainDicts(item, depth + 1);
    if (now !== item) changed = true;
    return [key, now] as const;
  });
  if (!changed) return value;
  if (Array.isArray(value)) return items.map(([, item]) => item);
  const out: PlainMap = {};
  for (const [key, item] of items) setEntry<unknown>(out, key, item);
  return out;
}
