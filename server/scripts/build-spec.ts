/**
 * Compiles the resource specification index that server/src/spec reads at run time.
 *
 *   npm run build:spec             build server/data/generated/spec-index.json and measure it
 *   tsx build-spec.ts --if-stale   build only when the index is missing or older than its inputs
 *   tsx build-spec.ts --measure    only measure an existing index (run in a fresh process)
 *
 * Sources: @aws-cdk/aws-service-spec (every CloudFormation resource type, its properties, the
 * property types they use and whether a change causes replacement) and the documentation
 * overlay server/data/update-behaviors-from-docs.json (some-interruption and not-updatable
 * facts that the CDK spec cannot express). Every not-updatable entry of the overlay carries the
 * documentation page its "Update requires" line was read on, and a line read in the archived
 * guide's source also the file and commit it was read at; the build refuses one that does not.
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

/** What the 2023 prose extraction said about a property. */
type ExtractedBehavior = 'SomeInterruptions' | 'UpdatesNotSupported';

/** A property's "Update requires" line in the CloudFormation Template Reference, as read. */
type UpdateRequiresLine = 'Replacement' | 'No interruption' | 'Some interruptions' | 'Updates are not supported';

/**
 * The outcome of auditing one overlay entry against the documentation:
 * - kept: the Update requires line says what the extraction said; it is applied.
 * - corrected: the line says something else that the spec does not state; the line is applied.
 * - dropped: the line says what the spec already states; the entry changes nothing.
 * - superseded: the line was read only in the archived guide and contradicts a replacement the
 *   spec states; the spec is newer than the archive and stands, the entry changes nothing.
 * - unconfirmed: the line could not be read; nothing is applied and the spec stands.
 * - exception: applied on the basis its note gives, without a property line (ServiceToken).
 */
type AuditDecision = 'kept' | 'corrected' | 'dropped' | 'superseded' | 'unconfirmed' | 'exception';

/** The archived CloudFormation User Guide, whose Markdown source keeps every Update requires line. */
const ARCHIVED_GUIDE_REPOSITORY = 'awsdocs/aws-cloudformation-user-guide';

/** Where a line was read when the current page could not be read whole: the archived guide's source (2023). */
interface ArchivedSource {
  repository: typeof ARCHIVED_GUIDE_REPOSITORY;
  /** `doc_source/<page>.md`; the entry's confirmedOn is that page's docs.aws.amazon.com address. */
  path: string;
  /** The commit of the stored version the line was read in. */
  commit: string;
}

/** An overlay entry audited against the current documentation. */
interface AuditedEntry {
  extracted: ExtractedBehavior;
  updateRequires: UpdateRequiresLine | null;
  /** The documentation page the line (or, for an exception, the statement) was read on. */
  confirmedOn?: string;
  /** The page found when its stored copy ended before the property's line. */
  lookedUpOn?: string;
  /** Present when the line was read in the archived guide's source rather than on the current page. */
  readIn?: ArchivedSource;
  decision: AuditDecision;
  note?: string;
}

/** A plain string is an entry not re-audited: SomeInterruptions the spec does not contradict. */
type OverlayEntry = ExtractedBehavior | AuditedEntry;

/** A resource type that cannot be updated at all, whatever property changes. */
interface NotUpdatableType {
  confirmedOn: string;
  basis: string;
}

interface Overlay {
  source: string;
  audit: string;
  notUpdatableTypes: Record<string, NotUpdatableType>;
  /** Key `AWS::Type` or `AWS::Type PropertyTypeName` → property name → entry. */
  behaviours: Record<string, Record<string, OverlayEntry>>;
}

/** Documentation hosts a confirmation page may be on: AWS's own documentation sites. */
const DOCUMENTATION_PAGE = /^https:\/\/docs\.(aws\.amazon\.com|amazonaws\.cn)\//;

/** A page of the archived guide's source and the address the same page had on the documentation site. */
const ARCHIVED_PAGE_PATH = /^doc_source\/([a-z0-9-]+)\.md$/;
const ARCHIVED_PAGE_URL = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/';

/** The update behaviour each Update requires line states. */
const LINE_BEHAVIOR: Record<UpdateRequiresLine, StatedBehavior> = {
  Replacement: 'replacement',
  'No interruption': 'no-interruption',
  'Some interruptions': 'some-interruption',
  'Updates are not supported': 'not-updatable',
};

/** The update behaviour each extracted value claimed. */
const EXTRACTED_BEHAVIOR: Record<ExtractedBehavior, StatedBehavior> = {
  SomeInterruptions: 'some-interruption',
  UpdatesNotSupported: 'not-updatable',
};

/** What happened to the overlay while merging, for the build report. */
interface OverlayReport {
  matched: number;
  unmatched: string[];
  decisions: Record<AuditDecision, string[]>;
  /** Entries applied as not-updatable, with the page that confirms each. */
  notUpdatable: string[];
  /** Not-updatable entries applied over a replacement the spec states. */
  overSpecReplacement: string[];
  /** Applied entries whose line was read in the archived guide's source, not on the current page. */
  archived: number;
  /** Plain SomeInterruptions entries that the spec contradicts by stating replacement, hence not applied. */
  ignored: string[];
  /** Plain SomeInterruptions entries applied over the spec's "maybe" without a re-read line. */
  unauditedOverMaybe: number;
  /** Entries whose data breaks the audit rules; any one of them fails the build. */
  errors: string[];
  nearlyNotUpdatable: string[];
}

function readOverlay(): Overlay {
  return JSON.parse(readFileSync(OVERLAY_PATH, 'utf8')) as Overlay;
}

/**
 * Checks the rules an audited overlay must keep, so that a not-updatable behaviour extracted
 * from prose cannot come back: no UpdatesNotSupported entry without an audit, no read line and
 * no exception without the documentation page it was read on, whole types with their basis.
 */
function checkOverlay(overlay: Overlay): string[] {
  const errors: string[] = [];
  for (const [key, properties] of Object.entries(overlay.behaviours)) {
    for (const [name, entry] of Object.entries(properties)) {
      const label = `${key} ${name}`;
      if (typeof entry === 'string') {
        if (entry === 'UpdatesNotSupported') errors.push(`${label}: an UpdatesNotSupported entry must be audited (updateRequires, confirmedOn, decision)`);
        else if (entry !== 'SomeInterruptions') errors.push(`${label}: unexpected behaviour ${String(entry)}`);
        continue;
      }
      if (!(entry.extracted in EXTRACTED_BEHAVIOR)) errors.push(`${label}: unexpected extracted behaviour ${String(entry.extracted)}`);
      if (entry.updateRequires !== null && !(entry.updateRequires in LINE_BEHAVIOR)) {
        errors.push(`${label}: unexpected Update requires line ${String(entry.updateRequires)}`);
      }
      const needsPage = entry.updateRequires !== null || entry.decision === 'exception';
      if (needsPage && !DOCUMENTATION_PAGE.test(entry.confirmedOn ?? '')) {
        errors.push(`${label}: ${entry.decision} without the documentation page it was confirmed on (confirmedOn)`);
      }
      if (entry.updateRequires === null && entry.decision !== 'unconfirmed' && entry.decision !== 'exception') {
        errors.push(`${label}: decision ${entry.decision} without the Update requires line it rests on`);
      }
      if (entry.decision === 'exception' && !entry.note) errors.push(`${label}: an exception must give its basis in a note`);
      if (entry.readIn !== undefined) errors.push(...checkArchivedSource(label, entry));
    }
  }
  for (const [type, entry] of Object.entries(overlay.notUpdatableTypes)) {
    if (!DOCUMENTATION_PAGE.test(entry.confirmedOn) || !entry.basis) errors.push(`${type}: a not-updatable type needs confirmedOn and basis`);
  }
  return errors;
}

/**
 * A line read in the archived guide names the file and the commit it was read at, and its
 * confirmation page is the address that same file had on the documentation site.
 */
function checkArchivedSource(label: string, entry: AuditedEntry): string[] {
  const source = entry.readIn!;
  const errors: string[] = [];
  if (entry.updateRequires === null) errors.push(`${label}: readIn without the Update requires line read there`);
  if (source.repository !== ARCHIVED_GUIDE_REPOSITORY) errors.push(`${label}: readIn.repository must be ${ARCHIVED_GUIDE_REPOSITORY}`);
  if (!/^[0-9a-f]{40}$/.test(source.commit ?? '')) errors.push(`${label}: readIn.commit must be the 40-digit commit read`);
  const page = ARCHIVED_PAGE_PATH.exec(source.path ?? '')?.[1];
  if (page === undefined) errors.push(`${label}: readIn.path must be doc_source/<page>.md`);
  else if (entry.confirmedOn !== `${ARCHIVED_PAGE_URL}${page}.html`) {
    errors.push(`${label}: confirmedOn must be ${ARCHIVED_PAGE_URL}${page}.html, the page of ${source.path}`);
  }
  return errors;
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
 * The decision an audited entry's data implies: its recorded decision must agree, so that the
 * record cannot say "kept" for a line that says something else.
 */
function impliedDecision(entry: AuditedEntry, spec: StatedBehavior | undefined): AuditDecision {
  if (entry.decision === 'exception') return 'exception';
  if (entry.updateRequires === null) return 'unconfirmed';
  const line = LINE_BEHAVIOR[entry.updateRequires];
  // The spec is newer than the archive: an archived line does not override its replacement.
  if (entry.readIn !== undefined && spec === 'replacement' && line !== 'replacement') return 'superseded';
  if (line === EXTRACTED_BEHAVIOR[entry.extracted]) return 'kept';
  return line === spec ? 'dropped' : 'corrected';
}

/**
 * Merges the documentation's statement into the spec's.
 * - An audited entry speaks through its Update requires line as read on the current
 *   documentation, and then wins over the spec (the spec wins unless the current documentation
 *   says otherwise). A line read only in the archived guide's source speaks too, except against
 *   a replacement the spec states (superseded). An unread line says nothing: the spec stands.
 *   "Updates are not supported" is applied only from a read line, or from an exception whose
 *   basis is recorded.
 * - A plain SomeInterruptions entry (not re-audited) refines "no" (the spec's default) and
 *   "maybe" (the spec inherited "maybe" from the old resource specification's `Conditional`,
 *   which covered "some interruptions" as well as "replacement in some cases"). It never
 *   weakens a "yes": there the spec is newer and better sourced than the 2023 extraction.
 */
function mergeOverlay(
  spec: StatedBehavior | undefined,
  entry: OverlayEntry | undefined,
  label: string,
  report: OverlayReport,
): { behavior: StatedBehavior | undefined; fromDocs: boolean } {
  if (entry === undefined) return { behavior: spec, fromDocs: false };
  report.matched++;
  if (typeof entry === 'string') {
    if (entry !== 'SomeInterruptions') return { behavior: spec, fromDocs: false };
    if (spec === 'replacement') {
      report.ignored.push(`${label} (docs: SomeInterruptions, spec: replacement)`);
      return { behavior: spec, fromDocs: false };
    }
    if (spec === 'conditional-replacement') report.unauditedOverMaybe++;
    return { behavior: 'some-interruption', fromDocs: true };
  }
  const decision = impliedDecision(entry, spec);
  if (decision !== entry.decision) report.errors.push(`${label}: recorded decision ${entry.decision}, but its line and the spec make it ${decision}`);
  report.decisions[decision].push(label);
  const docs = decision === 'exception' ? 'not-updatable' : entry.updateRequires === null ? undefined : LINE_BEHAVIOR[entry.updateRequires];
  if (docs === undefined || decision === 'dropped' || decision === 'superseded') return { behavior: spec, fromDocs: false };
  if (entry.readIn !== undefined) report.archived++;
  if (docs === 'not-updatable') {
    const readIn = entry.readIn === undefined ? '' : `, read in ${entry.readIn.path} at ${entry.readIn.commit.slice(0, 8)}`;
    report.notUpdatable.push(`${label} (${entry.confirmedOn ?? 'no page'}${readIn})`);
    if (spec === 'replacement') report.overSpecReplacement.push(label);
  }
  return { behavior: docs, fromDocs: true };
}

/** Compiles one property; `definitionIndex` maps spec definition ids to positions in the output. */
function compileProperty(
  property: Property,
  docs: OverlayEntry | undefined,
  label: string,
  definitionIndex: Map<string, number>,
  report: OverlayReport,
): CompiledProperty {
  const compiled: CompiledProperty = {};
  const stated = specBehavior(property);
  const { behavior, fromDocs } = mergeOverlay(stated, docs, label, report);
  if (behavior !== undefined) compiled.b = behavior;
  if (fromDocs) compiled.o = 1;
  if (fromDocs && stated !== undefined && stated !== behavior) compiled.s = stated;
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

/** A property type reduced to what decides whether two values can be the same: `string`, `list<integer>`; undefined for objects, maps, unions and JSON. */
function scalarShape(type: PropertyType): string | undefined {
  switch (type.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'date-time':
      return type.type;
    case 'array': {
      const element = scalarShape(type.element);
      return element === undefined ? undefined : `list<${element}>`;
    }
    default:
      return undefined;
  }
}

/** How many attribute/property pairs the echo rule looked at and kept, for the build report. */
interface EchoReport {
  sameName: number;
  sameShape: number;
  kept: number;
}

/**
 * The attributes of a resource type that echo a property: `Fn::GetAtt X.A` returns the value of
 * X's property A, and an update of X in place cannot change it. A pair counts when
 * 1. the attribute and a top-level property have the same name;
 * 2. they have the same scalar shape (string, number, integer, boolean, timestamp, or a list of one
 *    of those; allowed values are a constraint on a string, not another shape). Object-shaped pairs
 *    are left out: a spec type definition can carry read-only members that the property never sets
 *    (AWS::RedshiftServerless::Workgroup's `Workgroup` includes its status and endpoint);
 * 3. the spec says changing the property requires replacement. Then an update in place, which by
 *    definition does not replace, cannot have changed it, whether the template sets it or the
 *    service chose it. Same-named mutable pairs are left out because the spec cannot tell an echo
 *    from a value the service maintains: AWS::MSK::Cluster `CurrentVersion`, AWS::RoboMaker
 *    `CurrentRevisionId` and AWS::SageMaker::ModelPackage `LastModifiedTime` advance on every
 *    update although their property does not change.
 */
function propertyEchoes(resource: Resource, report: EchoReport): string[] {
  const echoes: string[] = [];
  for (const [name, attribute] of Object.entries(resource.attributes)) {
    const property = Object.prototype.hasOwnProperty.call(resource.properties, name) ? resource.properties[name] : undefined;
    if (property === undefined) continue;
    report.sameName++;
    const shape = scalarShape(attribute.type);
    if (shape === undefined || shape !== scalarShape(property.type)) continue;
    report.sameShape++;
    if (property.causesReplacement !== 'yes') continue;
    report.kept++;
    echoes.push(name);
  }
  return echoes.sort();
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
  const report: OverlayReport = {
    matched: 0,
    unmatched: [],
    decisions: { kept: [], corrected: [], dropped: [], superseded: [], unconfirmed: [], exception: [] },
    notUpdatable: [],
    overSpecReplacement: [],
    archived: 0,
    ignored: [],
    unauditedOverMaybe: 0,
    errors: checkOverlay(overlay),
    nearlyNotUpdatable: [],
  };
  const echoReport: EchoReport = { sameName: 0, sameShape: 0, kept: 0 };
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
    const echoes = propertyEchoes(resource, echoReport);
    if (echoes.length > 0) compiled.e = echoes;
    if (resource.cloudFormationTransform) compiled.x = resource.cloudFormationTransform;
    const extra = new Set((resource.additionalReplacementProperties ?? []).map((path) => path.filter((part) => part !== '*').join('/')));
    if (extra.size > 0) compiled.r = [...extra].sort();
    const names = Object.keys(resource.properties);
    // A type is not updatable at all when the overlay says so with its basis, or when the
    // documentation confirms that no property of it can be updated.
    const unsupported = names.filter((name) => compiled.p[name].b === 'not-updatable' && compiled.p[name].o === 1).length;
    if (type in overlay.notUpdatableTypes || (names.length > 0 && unsupported === names.length)) compiled.u = 1;
    else if (unsupported > 1 && unsupported >= names.length - 1) {
      report.nearlyNotUpdatable.push(`${type} (${unsupported} of ${names.length} properties not updatable)`);
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
    `attributes echoing a property: ${echoReport.kept} (of ${echoReport.sameName} attribute/property pairs with the same name, ${echoReport.sameShape} of the same scalar shape)`,
  ];
  return { data: encodeSpecIndex({ specVersion, overlaySource: overlay.source }, compiledTypes, stored), report, stats };
}

function printList(title: string, items: string[], count = items.length): void {
  console.log(`${title}: ${count}`);
  for (const item of items) console.log(`  - ${item}`);
}

/** Entry labels (`key property`) grouped by key on one line each, for long lists. */
function groupedByKey(labels: string[]): string[] {
  const groups = new Map<string, string[]>();
  for (const label of labels) {
    const cut = label.lastIndexOf(' ');
    const key = label.slice(0, cut);
    groups.set(key, [...(groups.get(key) ?? []), label.slice(cut + 1)]);
  }
  return [...groups].map(([key, names]) => `${key}: ${names.join(', ')}`);
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
  if (report.errors.length > 0) {
    // The index is not written: a build that cannot trust its overlay must not look successful.
    printList('documentation overlay entries that break the audit rules (index not built)', report.errors);
    process.exit(1);
  }
  mkdirSync(OUTPUT_DIR, { recursive: true });
  writeFileSync(OUTPUT_PATH, data);
  const overlayEntries = Object.values(overlay.behaviours).reduce((n, properties) => n + Object.keys(properties).length, 0);
  const audited = Object.values(report.decisions).reduce((n, labels) => n + labels.length, 0);

  console.log(`spec index built from @aws-cdk/aws-service-spec ${specVersion} in ${(performance.now() - started).toFixed(0)} ms`);
  for (const line of stats) console.log(`  ${line}`);
  console.log(`documentation overlay: ${report.matched} of ${overlayEntries} entries matched the spec`);
  printList('overlay entries not matched', report.unmatched);
  const counts = Object.entries(report.decisions).map(([decision, labels]) => `${decision} ${labels.length}`);
  console.log(`overlay entries audited against the documentation: ${audited} (${counts.join(', ')})`);
  console.log(`applied entries whose line was read in the archived guide's source (${ARCHIVED_GUIDE_REPOSITORY}, 2023): ${report.archived}`);
  printList('overlay entries applied as not-updatable, with the page that confirms each', report.notUpdatable);
  printList('not-updatable entries applied over a replacement the spec states', report.overSpecReplacement);
  printList('overlay entries dropped: their Update requires line says what the spec states', report.decisions.dropped);
  printList('overlay entries corrected to their Update requires line', report.decisions.corrected);
  printList(
    'overlay entries superseded: an archived line against a replacement the spec states, the spec stands',
    groupedByKey(report.decisions.superseded),
    report.decisions.superseded.length,
  );
  printList(
    'overlay entries not applied: Update requires line unconfirmed, the spec stands',
    groupedByKey(report.decisions.unconfirmed),
    report.decisions.unconfirmed.length,
  );
  printList('SomeInterruptions entries not applied: the spec states replacement', report.ignored);
  console.log(`SomeInterruptions entries not re-audited that refine the spec's "maybe": ${report.unauditedOverMaybe}`);
  printList(
    'types that cannot be updated at all',
    Object.entries(overlay.notUpdatableTypes).map(([type, entry]) => `${type} (${entry.confirmedOn})`),
  );
  printList('types left updatable with nearly every property not updatable', report.nearlyNotUpdatable);

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
