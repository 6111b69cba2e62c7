/**
 * Compiles the resource specification index that server/src/spec reads at run time.
 *
 *   npm run build:spec             build server/data/generated/spec-index.json and measure it
 *   tsx build-spec.ts --if-stale   build only when the index is missing or older than its inputs
 *   tsx build-spec.ts --measure    only measure an existing index (run in a fresh process)
 *
 * Sources: @aws-cdk/aws-service-spec (every CloudFormation resource type, its properties, the
 * property types they use and whether a change causes replacement) and the documentation
 * overlay server/data/update-behaviors-from-docs.json (SomeInterruptions / UpdatesNotSupported
 * facts that the CDK spec cannot express).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { Property, PropertyType, Resource, SpecDatabase, TypeDefinition } from '@aws-cdk/service-spec-types';
import {
  decodeSpecIndex,
  encodeSpecIndex,
  type CompiledProperty,
  type CompiledResourceType,
  type CompiledTypeDefinition,
  type StatedBehavior,
} from '../src/spec/compiled-index';

const SERVER_DIR = join(__dirname, '..');
const OVERLAY_PATH = join(SERVER_DIR, 'data', 'update-behaviors-from-docs.json');
const OUTPUT_DIR = join(SERVER_DIR, 'data', 'generated');
const OUTPUT_PATH = join(OUTPUT_DIR, 'spec-index.json');

/** Longest description kept per type or property: hovers show a paragraph, not a manual page. */
const MAX_DESCRIPTION_CHARS = 400;

/**
 * Types that cannot be updated at all although not every one of their properties is marked so
 * in the overlay. The stack-update experiments observed this one directly (run 32,
 * docs/update-rules.md#not-updatable).
 */
const NOT_UPDATABLE_TYPES = new Set(['AWS::CloudFormation::WaitCondition']);

/**
 * Overlay entries not applied, with the reason. The overlay was extracted from prose by pattern,
 * and its own note warns that some entries carry exceptions the prose explains; these are the
 * ones where the exception covers the everyday change.
 */
const OVERLAY_EXCEPTIONS = new Map<string, string>([
  [
    'AWS::DynamoDB::Table GlobalSecondaryIndexes',
    'adding or removing one index per update is supported; changes inside an existing index are covered by the GlobalSecondaryIndex entries',
  ],
]);

type DocsBehavior = 'SomeInterruptions' | 'UpdatesNotSupported';

interface Overlay {
  source: string;
  /** Key `AWS::Type` or `AWS::Type PropertyTypeName` → property name → behaviour. */
  behaviours: Record<string, Record<string, DocsBehavior>>;
}

/** What happened to the overlay while merging, for the build report. */
interface OverlayReport {
  matched: number;
  unmatched: string[];
  /** Overlay entries that the spec contradicts and that were therefore not applied. */
  ignored: string[];
  /** Overlay entries that made a spec replacement stricter (not-updatable). */
  strengthened: string[];
  nearlyNotUpdatable: string[];
}

function readOverlay(): Overlay {
  const overlay = JSON.parse(readFileSync(OVERLAY_PATH, 'utf8')) as Overlay;
  for (const [key, properties] of Object.entries(overlay.behaviours)) {
    for (const [name, value] of Object.entries(properties)) {
      if (value !== 'SomeInterruptions' && value !== 'UpdatesNotSupported') {
        throw new Error(`Overlay entry ${key} ${name} has an unexpected behaviour ${String(value)}`);
      }
    }
  }
  return overlay;
}

/** First paragraph of a markdown documentation text, cut at a word boundary when too long. */
function describe(documentation: string | undefined): string | undefined {
  if (!documentation) return undefined;
  const paragraph = documentation.trim().split(/\n\s*\n/)[0].replace(/\s+/g, ' ').trim();
  if (paragraph.length <= MAX_DESCRIPTION_CHARS) return paragraph || undefined;
  const cut = paragraph.slice(0, MAX_DESCRIPTION_CHARS - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > MAX_DESCRIPTION_CHARS / 2 ? cut.slice(0, lastSpace) : cut}…`;
}

/** Ids of the type definitions a property type refers to, looking through lists, maps and unions. */
function referencedDefinitionIds(type: PropertyType, into: string[] = []): string[] {
  switch (type.type) {
    case 'ref':
      into.push(type.reference.$ref);
      break;
    case 'array':
    case 'map':
      referencedDefinitionIds(type.element, into);
      break;
    case 'union':
      for (const member of type.types) referencedDefinitionIds(member, into);
      break;
    default:
      break;
  }
  return into;
}

/** The CDK spec's verdict as an update behaviour, undefined when it says nothing (its default, "no"). */
function specBehavior(property: Property): StatedBehavior | undefined {
  switch (property.causesReplacement) {
    case 'yes':
      return 'replacement';
    case 'maybe':
      return 'conditional-replacement';
    case 'no':
      return 'no-interruption';
    default:
      return undefined;
  }
}

/**
 * Merges the documentation's statement into the spec's. The spec is trusted for replacement
 * facts; the overlay adds what the spec cannot say:
 * - UpdatesNotSupported is worse than anything the spec can say, so it always applies.
 * - SomeInterruptions refines "no" (the spec's default) and "maybe" (the spec inherited "maybe"
 *   from the old resource specification's `Conditional`, which covered "some interruptions"
 *   as well as "replacement in some cases"; the documentation tells which one it is). It never
 *   weakens a "yes": there the spec is newer and better sourced than prose extraction.
 */
function mergeOverlay(
  spec: StatedBehavior | undefined,
  docs: DocsBehavior | undefined,
  label: string,
  report: OverlayReport,
): { behavior: StatedBehavior | undefined; fromDocs: boolean } {
  if (docs === undefined) return { behavior: spec, fromDocs: false };
  report.matched++;
  const exception = OVERLAY_EXCEPTIONS.get(label);
  if (exception !== undefined) {
    report.ignored.push(`${label} (docs: ${docs}; ${exception})`);
    return { behavior: spec, fromDocs: false };
  }
  if (docs === 'UpdatesNotSupported') {
    if (spec === 'replacement') report.strengthened.push(label);
    return { behavior: 'not-updatable', fromDocs: true };
  }
  if (spec === 'replacement') {
    report.ignored.push(`${label} (docs: SomeInterruptions, spec: replacement)`);
    return { behavior: spec, fromDocs: false };
  }
  return { behavior: 'some-interruption', fromDocs: true };
}

/** Compiles one property; `definitionIndex` maps spec definition ids to positions in the output. */
function compileProperty(
  property: Property,
  docs: DocsBehavior | undefined,
  label: string,
  definitionIndex: Map<string, number>,
  report: OverlayReport,
): CompiledProperty {
  const compiled: CompiledProperty = {};
  const { behavior, fromDocs } = mergeOverlay(specBehavior(property), docs, label, report);
  if (behavior !== undefined) compiled.b = behavior;
  if (fromDocs) compiled.o = 1;
  const refs = [...new Set(referencedDefinitionIds(property.type))]
    .map((id) => definitionIndex.get(id))
    .filter((index): index is number => index !== undefined);
  if (refs.length > 0) compiled.t = refs;
  const description = describe(property.documentation);
  if (description !== undefined) compiled.d = description;
  return compiled;
}

function compileProperties(
  properties: Record<string, Property>,
  overlayKey: string,
  overlay: Overlay,
  definitionIndex: Map<string, number>,
  report: OverlayReport,
): Record<string, CompiledProperty> {
  const docs = overlay.behaviours[overlayKey] ?? {};
  const compiled: Record<string, CompiledProperty> = {};
  for (const name of Object.keys(properties).sort()) {
    compiled[name] = compileProperty(properties[name], docs[name], `${overlayKey} ${name}`, definitionIndex, report);
  }
  return compiled;
}

/**
 * Stores identical type definitions once. Definitions refer to each other (sometimes in cycles),
 * so equality is refined to a fixpoint: two definitions are merged when their texts are equal
 * once their references are rewritten to the merged classes of the previous round.
 */
function deduplicate(definitions: CompiledTypeDefinition[]): { stored: CompiledTypeDefinition[]; finalIndex: (i: number) => number } {
  const withReferences = (definition: CompiledTypeDefinition, map: (i: number) => number): CompiledTypeDefinition => ({
    n: definition.n,
    p: Object.fromEntries(
      Object.entries(definition.p).map(([name, p]) => [name, p.t ? { ...p, t: [...new Set(p.t.map(map))] } : p]),
    ),
  });
  let classOf = definitions.map((_, i) => i);
  for (;;) {
    const firstByText = new Map<string, number>();
    const next = definitions.map((definition, i) => {
      const text = JSON.stringify(withReferences(definition, (j) => classOf[j]));
      const first = firstByText.get(text);
      if (first !== undefined) return first;
      firstByText.set(text, i);
      return i;
    });
    const changed = next.some((c, i) => c !== classOf[i]);
    classOf = next;
    if (!changed) break;
  }
  const position = new Map<number, number>();
  for (const representative of classOf) if (!position.has(representative)) position.set(representative, position.size);
  const finalIndex = (i: number): number => position.get(classOf[i])!;
  const stored: CompiledTypeDefinition[] = new Array(position.size);
  for (const [representative, at] of position) stored[at] = withReferences(definitions[representative], finalIndex);
  return { stored, finalIndex };
}

function compile(db: SpecDatabase, overlay: Overlay, specVersion: string): { data: Uint8Array; report: OverlayReport; stats: string[] } {
  const report: OverlayReport = { matched: 0, unmatched: [], ignored: [], strengthened: [], nearlyNotUpdatable: [] };
  const resources = [...db.all('resource')].sort((a, b) => a.cloudFormationType.localeCompare(b.cloudFormationType));
  const byType = new Map<string, Resource>(resources.map((r) => [r.cloudFormationType, r]));

  // Every definition gets a provisional position first, so that properties can refer to definitions of any resource.
  const definitionIndex = new Map<string, number>();
  const owners: Array<{ resource: Resource; definition: TypeDefinition }> = [];
  const definitionsByResource = new Map<string, Map<string, TypeDefinition>>();
  for (const resource of resources) {
    const byName = new Map<string, TypeDefinition>();
    for (const link of db.follow('usesType', resource)) {
      definitionIndex.set(link.entity.$id, owners.length);
      owners.push({ resource, definition: link.entity });
      byName.set(link.entity.name, link.entity);
    }
    definitionsByResource.set(resource.cloudFormationType, byName);
  }

  const definitions: CompiledTypeDefinition[] = owners.map(({ resource, definition }) => ({
    n: definition.name,
    p: compileProperties(definition.properties, `${resource.cloudFormationType} ${definition.name}`, overlay, definitionIndex, report),
  }));
  const compiledTypes = new Map<string, CompiledResourceType>();
  for (const resource of resources) {
    const type = resource.cloudFormationType;
    const compiled: CompiledResourceType = {
      a: Object.keys(resource.attributes).sort(),
      p: compileProperties(resource.properties, type, overlay, definitionIndex, report),
    };
    const description = describe(resource.documentation);
    if (description !== undefined) compiled.d = description;
    if (resource.cloudFormationTransform) compiled.x = resource.cloudFormationTransform;
    const extra = new Set((resource.additionalReplacementProperties ?? []).map((path) => path.filter((part) => part !== '*').join('/')));
    if (extra.size > 0) compiled.r = [...extra].sort();
    const names = Object.keys(resource.properties);
    const unsupported = names.filter((name) => overlay.behaviours[type]?.[name] === 'UpdatesNotSupported').length;
    if (NOT_UPDATABLE_TYPES.has(type) || (names.length > 0 && unsupported === names.length)) compiled.u = 1;
    else if (unsupported > 1 && unsupported >= names.length - 1) {
      report.nearlyNotUpdatable.push(`${type} (${unsupported} of ${names.length} properties UpdatesNotSupported)`);
    }
    compiledTypes.set(type, compiled);
  }

  // Overlay entries whose type, property type or property the spec does not have.
  for (const [key, properties] of Object.entries(overlay.behaviours)) {
    const [type, definitionName] = key.split(' ');
    const resource = byType.get(type);
    const definition = definitionName === undefined ? undefined : definitionsByResource.get(type)?.get(definitionName);
    const known = definitionName === undefined ? resource?.properties : definition?.properties;
    for (const name of Object.keys(properties)) {
      if (!known || !(name in known)) {
        const missing = !resource ? 'type not in spec' : !known ? 'property type not in spec' : 'property not in spec';
        report.unmatched.push(`${key} ${name} (${missing})`);
      }
    }
  }

  const { stored, finalIndex } = deduplicate(definitions);
  for (const compiled of compiledTypes.values()) {
    for (const p of Object.values(compiled.p)) if (p.t) p.t = [...new Set(p.t.map(finalIndex))];
  }
  const stats = [
    `resource types: ${compiledTypes.size}`,
    `type definitions: ${definitions.length} in the spec, ${stored.length} stored after deduplication`,
  ];
  return { data: encodeSpecIndex({ specVersion, overlaySource: overlay.source }, compiledTypes, stored), report, stats };
}

function printList(title: string, items: string[]): void {
  console.log(`${title}: ${items.length}`);
  for (const item of items) console.log(`  - ${item}`);
}

function installedSpecVersion(): string {
  return (JSON.parse(readFileSync(require.resolve('@aws-cdk/aws-service-spec/package.json'), 'utf8')) as { version: string }).version;
}

function build(): void {
  const started = performance.now();
  const specVersion = installedSpecVersion();
  const db = loadAwsServiceSpecSync();
  const overlay = readOverlay();
  const { data, report, stats } = compile(db, overlay, specVersion);
  mkdirSync(OUTPUT_DIR, { recursive: true });
  writeFileSync(OUTPUT_PATH, data);
  const overlayEntries = Object.values(overlay.behaviours).reduce((n, properties) => n + Object.keys(properties).length, 0);

  console.log(`spec index built from @aws-cdk/aws-service-spec ${specVersion} in ${(performance.now() - started).toFixed(0)} ms`);
  for (const line of stats) console.log(`  ${line}`);
  console.log(`documentation overlay: ${report.matched} of ${overlayEntries} entries matched the spec`);
  printList('overlay entries not matched', report.unmatched);
  printList('overlay entries not applied', report.ignored);
  printList('overlay entries that made a spec replacement not-updatable', report.strengthened);
  printList('types left updatable with nearly every property UpdatesNotSupported', report.nearlyNotUpdatable);

  // Measured in a fresh process, as the language server and the CLI will meet it.
  const measured = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--measure'], { encoding: 'utf8' });
  process.stdout.write(measured.stdout);
  if (measured.status !== 0) {
    process.stderr.write(measured.stderr);
    process.exit(1);
  }
}

function measure(): void {
  // Required lazily so that the build itself does not load the runtime module.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadResourceSpec } = require('../src/spec/load') as typeof import('../src/spec/load');
  const size = statSync(OUTPUT_PATH).size;
  let started = performance.now();
  const spec = loadResourceSpec();
  const loadMs = performance.now() - started;
  started = performance.now();
  const behavior = spec.propertyBehavior('AWS::EC2::Instance', ['BlockDeviceMappings', 'Ebs', 'VolumeSize']);
  const firstLookupMs = performance.now() - started;
  started = performance.now();
  spec.propertyBehavior('AWS::EC2::Instance', ['InstanceType']);
  const secondLookupMs = performance.now() - started;
  console.log(`index file: ${OUTPUT_PATH} (${(size / 1024 / 1024).toFixed(2)} MB)`);
  console.log(`load: ${loadMs.toFixed(1)} ms; first lookup (AWS::EC2::Instance BlockDeviceMappings/Ebs/VolumeSize → ${behavior.behavior}): ${firstLookupMs.toFixed(2)} ms; next lookup on the same type: ${secondLookupMs.toFixed(3)} ms`);
}

/**
 * Whether the index exists, is of the current format, was built from the installed spec version
 * (npm gives every installed file the same old mtime, so the version is compared, not the time)
 * and is newer than the overlay and the code that builds it.
 */
function isUpToDate(specVersion: string): boolean {
  let built: number;
  let index: ReturnType<typeof decodeSpecIndex>;
  try {
    built = statSync(OUTPUT_PATH).mtimeMs;
    index = decodeSpecIndex(readFileSync(OUTPUT_PATH));
  } catch {
    return false;
  }
  if (typeof index === 'string' || index.header.specVersion !== specVersion) return false;
  const inputs = [OVERLAY_PATH, __filename, join(SERVER_DIR, 'src', 'spec', 'compiled-index.ts')];
  return inputs.every((input) => statSync(input).mtimeMs <= built);
}

if (process.argv.includes('--measure')) measure();
else if (process.argv.includes('--if-stale') && isUpToDate(installedSpecVersion())) console.log('spec index is up to date');
else build();
