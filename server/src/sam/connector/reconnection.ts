/**
 * The connectors an edited function's translation runs again with it, when an expansion starts
 * from the last one (reexpand.ts). A connector reads what the resources it names generated (a
 * function's role) and makes some of them wait for its policy (an event source mapping), so one
 * linked to an edited function is translated again with it: those embedded in the function, and
 * standalone ones that name it. The resources they name besides are held as written, which is
 * what a connector sees of a resource the transform passes through; a SAM resource they name (a
 * table, another function) is held too, not translated, with what it generated in the last
 * expansion, which is what a connector sees of it.
 *
 * Anything a connector could touch outside that part makes the expansion be done in full: a
 * connector embedded elsewhere that names the function, one that makes wait anything the edited
 * functions did not generate, a resource that waits for it, two of them making one resource wait
 * (whose `DependsOn` order is their translation order), a connector added or taken away, an
 * edited function that waits for a connector, or an event source mapping written in the template
 * (a connector counts the mappings between its two sides, and the part would not hold it).
 */
import type { MapEntry, TemplateNode } from '../../template/ast';
import { toPlain } from '../../template/tree';
import type { GeneratedResource } from '../generated';
import type { PlacedRecord } from '../movedRecords';
import { writtenType } from '../placement';
import { SERVERLESS_TYPE_PREFIX } from '../../template/readModel';
import { isMap } from '../values';
import { namedIds, type ConnectorLink } from './links';

const CONNECTOR = 'AWS::Serverless::Connector';

/** The connectors to translate again with the edited functions, and the resources they name. */
export interface Reconnection {
  /** The connectors' logical ids (an embedded one's is its resource's id and its key). */
  connectors: ReadonlySet<string>;
  /** The standalone connectors among them, which the part holds and translates. */
  standalone: readonly string[];
  /** The other resources they name, which the part holds as written and does not translate. */
  named: readonly string[];
  /** What the SAM resources among them generated in the last expansion. */
  namedGenerated: ReadonlyMap<string, readonly GeneratedResource[]>;
}

/** No connector to translate again. */
const NONE: Reconnection = { connectors: new Set(), standalone: [], named: [], namedGenerated: new Map() };

/**
 * The connectors linked to the edited functions, or undefined when the expansion must be done in
 * full (see the module's comment). `links` are the last expansion's, undefined when it had no
 * connector; `placed` is what the last expansion placed, each record with the resource that produced it.
 */
export function reconnection(
  links: ReadonlyMap<string, ConnectorLink> | undefined,
  edited: ReadonlyMap<string, { before: MapEntry; now: MapEntry }>,
  entries: ReadonlyMap<string, MapEntry>,
  placed: readonly PlacedRecord[],
): Reconnection | undefined {
  for (const { before, now } of edited.values()) {
    const keysBefore = connectorKeys(before.value);
    const keysNow = connectorKeys(now.value);
    if (keysBefore === undefined || keysNow === undefined || keysBefore.join('\n') !== keysNow.join('\n')) return undefined;
    if (links === undefined && keysNow.length > 0) return undefined;
  }
  if (links === undefined) return NONE;
  for (const { now } of edited.values()) {
    const waitsFor = dependsOnNames(now.value);
    if (waitsFor === undefined || waitsFor.some((name) => links.has(name))) return undefined;
  }
  const connectors = new Set<string>();
  for (const [id, link] of links) {
    if ((link.embeddedIn !== undefined && edited.has(link.embeddedIn)) || link.names.some((name) => edited.has(name))) connectors.add(id);
  }
  if (connectors.size === 0) return NONE;
  const standalone: string[] = [];
  const named = new Set<string>();
  const madeToWait = new Set<string>();
  // What the connectors embedded in the edited functions name now: an edit may change it.
  for (const [id, { now }] of edited) {
    const names = embeddedNames(id, now.value);
    if (names === undefined) return undefined;
    for (const name of names) if (!edited.has(name)) named.add(name);
  }
  for (const id of connectors) {
    const link = links.get(id)!;
    if (link.dependents.length > 0) return undefined;
    if (link.embeddedIn !== undefined && !edited.has(link.embeddedIn)) return undefined;
    if (link.embeddedIn === undefined) {
      if (writtenType(entries.get(id)?.value) !== CONNECTOR) return undefined;
      standalone.push(id);
      for (const name of link.names) if (!edited.has(name)) named.add(name);
    }
    for (const waiting of link.edits) {
      if (madeToWait.has(waiting)) return undefined;
      madeToWait.add(waiting);
    }
  }
  const producerOf = new Map<string, string>();
  const generatedBy = new Map<string, GeneratedResource[]>();
  for (const record of placed) {
    producerOf.set(record.key, record.producer);
    if (record.resource) generatedBy.set(record.producer, [...(generatedBy.get(record.producer) ?? []), record.resource]);
  }
  const namedGenerated = new Map<string, readonly GeneratedResource[]>();
  for (const name of named) {
    const node = entries.get(name)?.value;
    const type = writtenType(node);
    if (typeof type !== 'string' || type === CONNECTOR) return undefined;
    // A resource SAM passes through is edited by the connectors embedded in it; a SAM resource's
    // embedded connectors (which name no edited function) are left as they were.
    if (!type.startsWith(SERVERLESS_TYPE_PREFIX)) {
      if (connectorKeys(node!)?.length !== 0) return undefined;
      continue;
    }
    // A SAM resource is seen as what it generated, which the last expansion holds.
    const generated = generatedBy.get(name);
    if (generated === undefined) return undefined;
    namedGenerated.set(name, generated);
  }
  for (const entry of entries.values()) if (writtenType(entry.value) === 'AWS::Lambda::EventSourceMapping') return undefined;
  for (const [id, link] of links) {
    for (const waiting of link.edits) {
      const producer = producerOf.get(waiting) ?? waiting;
      // A connector translated again makes wait only what the edited functions generate; one left
      // as it was may not have made any of that wait.
      if (connectors.has(id) !== edited.has(producer)) return undefined;
    }
  }
  return { connectors, standalone, named: [...named], namedGenerated };
}

/** The keys of a resource's `Connectors` attribute, [] without one; undefined when it is not a map. */
function connectorKeys(node: TemplateNode): string[] | undefined {
  if (node.kind !== 'map') return undefined;
  const connectors = node.entries.find((entry) => entry.key === 'Connectors')?.value;
  if (connectors === undefined) return [];
  return connectors.kind === 'map' ? connectors.entries.map((entry) => entry.key) : undefined;
}

/** The ids the connectors embedded in a resource name, itself included; undefined when one is not a string. */
function embeddedNames(sourceId: string, node: TemplateNode): string[] | undefined {
  const connectors = node.kind === 'map' ? node.entries.find((entry) => entry.key === 'Connectors')?.value : undefined;
  if (connectors === undefined) return [];
  const plain = toPlain(connectors);
  if (!isMap(plain)) return undefined;
  const names: string[] = [];
  for (const connector of Object.values(plain)) {
    const properties = isMap(connector) && isMap(connector.Properties) ? connector.Properties : {};
    const ids = namedIds({ Source: { Id: sourceId }, Destination: properties.Destination });
    if (ids === undefined) return undefined;
    names.push(...ids);
  }
  return names;
}

/** The names a resource's `DependsOn` holds, [] without one; undefined when it is neither a name nor a list of names. */
function dependsOnNames(node: TemplateNode): string[] | undefined {
  if (node.kind !== 'map') return undefined;
  const dependsOn = node.entries.find((entry) => entry.key === 'DependsOn')?.value;
  if (dependsOn === undefined) return [];
  if (dependsOn.kind === 'scalar') return typeof dependsOn.value === 'string' ? [dependsOn.value] : undefined;
  if (dependsOn.kind !== 'seq') return undefined;
  const names: string[] = [];
  for (const item of dependsOn.items) {
    if (item.kind !== 'scalar' || typeof item.value !== 'string') return undefined;
    names.push(item.value);
  }
  return names;
}
