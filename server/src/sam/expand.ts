/**
 * The transform as an engine stage: a parsed SAM template in, the processed template out (what
 * CloudFormation's `GetTemplate` returns for stage `Processed`), as a syntax tree whose nodes
 * point back into the text as written, with a source map from every generated resource and
 * property to the SAM resource and property that produced it.
 */
import type { MapEntry, MapNode, ParsedTemplate, Range, TemplateError, TemplateNode } from '../template/ast';
import type { TemplateModel } from '../template/model';
import type { SamNote } from './context';
import type { GeneratedResource } from './generated';
import { renameDependsOn, resolveChangedLogicalIds, resolveResourceRefs } from './intrinsics';
import { NodeBuilder } from './output';
import { SourceIndex } from './sourceIndex';
import { propertyRange, writtenPropertyRange, type SamSource, type SamSourceMap } from './sourceMap';
import { translate, type Translation, type TranslationOptions } from './translate';
import { isMap, type PlainMap } from './values';

export const SERVERLESS_TRANSFORM = 'AWS::Serverless-2016-10-31';
const SERVERLESS_PREFIX = 'AWS::Serverless::';
/** A SAM property that is one event of a resource: `Events.Jobs`. */
const EVENT_PROPERTY = /^Events\.[^.]+$/;

/** The processed template and what the transform says about it. */
export interface SamExpansion {
  /** The processed template, ranged in the text as written; SAM's errors are among its errors. */
  parsed: ParsedTemplate;
  sourceMap: SamSourceMap;
  /** Features analysed as written, local artifact paths, and other notes. */
  notes: SamNote[];
}

/** Whether a template declares the Serverless transform. */
export function usesServerlessTransform(model: TemplateModel): boolean {
  return model.transforms.some((t) => t.name === SERVERLESS_TRANSFORM);
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
  const globalsNode = root.entries.find((e) => e.key === 'Globals')?.value;
  const globalsText = globalsNode ? model.parsed.text.slice(globalsNode.range.start, globalsNode.range.end) : '';
  // The translation edits the values it reads, so one done again starts from a fresh read.
  const attempt = (reuseApi: boolean) => {
    const index = new SourceIndex(model.parsed.text);
    const template = index.read(root) as PlainMap;
    return { index, template, translation: translate(template, resourcesNode, options, { text: model.parsed.text, index, globalsText }, reuseApi) };
  };
  let first = attempt(true);
  if (first.translation === 'redo') first = attempt(false);
  const { index, template } = first;
  const translation = first.translation as Translation;
  const builder = new NodeBuilder(index);
  const errors: TemplateError[] = [...model.parsed.errors];
  const resourceEntries = new Map((resourcesNode?.entries ?? []).map((e) => [e.key, e]));
  const keyRangeOf = (id: string): Range => resourceEntries.get(id)?.keyRange ?? resourcesEntry?.keyRange ?? { start: 0, end: 0 };
  const globalsEntry = root.entries.find((e) => e.key === 'Globals');
  // The section of Globals a SAM resource's type takes its defaults from (`Function` for `AWS::Serverless::Function`).
  const globalsFor = (node: MapNode | undefined): MapNode | undefined => {
    const typeNode = node?.entries.find((e) => e.key === 'Type')?.value;
    const type = typeNode?.kind === 'scalar' ? typeNode.value : undefined;
    if (globalsEntry?.value.kind !== 'map' || typeof type !== 'string' || !type.startsWith(SERVERLESS_PREFIX)) return undefined;
    const section = globalsEntry.value.entries.find((e) => e.key === type.slice(SERVERLESS_PREFIX.length))?.value;
    return section?.kind === 'map' ? section : undefined;
  };
  const nodeOf = (id: string): MapNode | undefined => {
    const value = resourceEntries.get(id)?.value;
    return value?.kind === 'map' ? value : undefined;
  };

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
  const propertySources = new Map<string, Map<string, SamSource>>();
  const entries = new Map<string, { key: string; keyRange: Range; value: unknown; hint?: TemplateNode; range: Range }>();
  // A logical id that two SAM resources generate (a shared usage plan, a Route 53 record set
  // group) is the one translated last: SAM writes each translation over the template in turn.
  const last = new Map<string, GeneratedResource>();
  for (const generated of translation.generated.values()) for (const resource of generated) last.set(resource.logicalId, resource);
  for (const resource of translation.shared) last.set(resource.logicalId, resource);
  const place = (resource: GeneratedResource) => {
    if (last.get(resource.logicalId) !== resource) return;
    // An implicit API or an embedded connector has no lines of its own: it is the event that
    // called for it, or the resource's `Connectors` entry.
    const implicit = translation.implicitApis.get(resource.origin.logicalId) ?? translation.embeddedConnectors.get(resource.origin.logicalId);
    const origin = implicit ?? resource.origin;
    const node = nodeOf(origin.logicalId);
    const samKey = keyRangeOf(origin.logicalId);
    const globals = globalsFor(node);
    const range = propertyRange(samKey, node, origin.property, globals);
    sources.set(resource.logicalId, { logicalId: origin.logicalId, ...(origin.property ? { property: origin.property } : {}), range });
    const byProperty = new Map<string, SamSource>();
    if (!implicit) for (const [name, property] of resource.propertyOrigins) byProperty.set(name, { logicalId: origin.logicalId, property, range: propertyRange(samKey, node, property, globals) });
    if (!implicit && origin.property !== undefined && EVENT_PROPERTY.test(origin.property)) {
      // What an event generates takes the event's properties of the same name as they are
      // (an SQS event's BatchSize is its event source mapping's BatchSize): that is where they came from.
      for (const name of Object.keys(resource.properties)) {
        const property = `${origin.property}.Properties.${name}`;
        const written = byProperty.has(name) ? undefined : writtenPropertyRange(node, property);
        if (written) byProperty.set(name, { logicalId: origin.logicalId, property, range: written });
      }
    }
    propertySources.set(resource.logicalId, byProperty);
    entries.delete(resource.logicalId);
    entries.set(resource.logicalId, { key: resource.logicalId, keyRange: samKey, value: resource.toEntry(), range });
  };
  for (const entry of resourcesNode?.entries ?? []) {
    const generated = translation.generated.get(entry.key);
    if (generated) {
      for (const resource of generated) place(resource);
      continue;
    }
    const edited = translation.edited.get(entry.key);
    const value = edited ?? (isMap(template.Resources) ? template.Resources[entry.key] : undefined);
    entries.set(entry.key, { key: entry.key, keyRange: entry.keyRange, value, hint: entry.value, range: entry.value.range });
  }
  for (const [logicalId, generated] of translation.generated) if (!resourceEntries.has(logicalId)) for (const resource of generated) place(resource);
  for (const resource of translation.shared) place(resource);

  // References to generated and renamed resources, anywhere in the template (SAM resolves them last).
  const resolveRefs = translation.references.mayBeIn(model.parsed.text);
  const resolve = (value: unknown) => {
    const renamed = resolveChangedLogicalIds(value, translation.changedIds);
    return resolveRefs ? resolveResourceRefs(renamed, translation.references) : renamed;
  };
  const rootEntries: MapEntry[] = [];
  for (const entry of root.entries) {
    if (entry.key === 'Globals') continue;
    if (entry.key === 'Transform') {
      const kept = transformsWithoutServerless(entry);
      if (kept) rootEntries.push(kept);
      continue;
    }
    if (entry.key === 'Resources') {
      const expandedEntries: MapEntry[] = [];
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
  return {
    parsed: { text: model.parsed.text, format: model.parsed.format, root: expandedRoot, errors },
    sourceMap: { resources: sources, properties: propertySources },
    notes,
  };
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
