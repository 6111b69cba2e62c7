/**
 * Where a generated resource stands in the processed template: at the key of the SAM resource
 * that generated it, ranged at the SAM property that caused it, with the sources of its
 * properties.
 */
import type { MapNode, Range, TemplateNode } from '../../template/ast';
import type { GeneratedResource, Origin } from '../model/generated';
import { globalsSectionOf } from '../plugins/globals';
import { propertyRange, writtenPropertyRange, type SamSource } from './sourceMap';

/** The `Type` a resource (or event) entry writes, when it is a scalar. */
function writtenType(node: TemplateNode | undefined): unknown {
  const type = node?.kind === 'map' ? node.entries.find((e) => e.key === 'Type')?.value : undefined;
  return type?.kind === 'scalar' ? type.value : undefined;
}

/** A SAM property that is one event of a resource: `Events.Jobs`. */
const EVENT_PROPERTY = /^Events\.[^.]+$/;

/** A generated resource placed: its entry's key range and range, and its sources. */
export interface Placement {
  keyRange: Range;
  range: Range;
  source: SamSource;
  properties: Map<string, SamSource>;
}

/** The written template's resources and Globals, as placing reads them. */
export class WrittenResources {
  private readonly entries: Map<string, { keyRange: Range; value: MapNode | undefined }>;
  private readonly globals: MapNode | undefined;

  constructor(
    root: MapNode,
    private readonly fallback: Range,
  ) {
    const resources = root.entries.find((e) => e.key === 'Resources')?.value;
    this.entries = new Map((resources?.kind === 'map' ? resources.entries : []).map((e) => [e.key, { keyRange: e.keyRange, value: e.value.kind === 'map' ? e.value : undefined }]));
    const globals = root.entries.find((e) => e.key === 'Globals')?.value;
    this.globals = globals?.kind === 'map' ? globals : undefined;
  }

  /** Whether the template writes a resource of that id. */
  has(logicalId: string): boolean {
    return this.entries.has(logicalId);
  }

  /** A resource's entry node, when it is a map. */
  nodeOf(logicalId: string): MapNode | undefined {
    return this.entries.get(logicalId)?.value;
  }

  /** A resource's key range, or the Resources key's when the template does not write it. */
  /** The text of a resource's entry, its key to the end of its value; undefined for one the template does not write (or not as a map). */
  entryRangeOf(logicalId: string): Range | undefined {
    const entry = this.entries.get(logicalId);
    return entry?.value && { start: entry.keyRange.start, end: entry.value.range.end };
  }

  keyRangeOf(logicalId: string): Range {
    return this.entries.get(logicalId)?.keyRange ?? this.fallback;
  }

  /** The section of Globals a SAM resource's type takes its defaults from (`Function` for `AWS::Serverless::Function`). */
  globalsFor(node: MapNode | undefined): MapNode | undefined {
    const type = writtenType(node);
    if (this.globals === undefined || typeof type !== 'string') return undefined;
    const section = globalsSectionOf(this.globals, type)?.value;
    return section?.kind === 'map' ? section : undefined;
  }

  /**
   * Places a generated resource; `attributedTo` is the event or `Connectors` entry an implicit API
   * or an embedded connector is attributed to (it has no lines of its own).
   */
  place(resource: GeneratedResource, attributedTo?: Origin): Placement {
    const origin = attributedTo ?? resource.origin;
    const node = this.nodeOf(origin.logicalId);
    const keyRange = this.keyRangeOf(origin.logicalId);
    const globals = this.globalsFor(node);
    const range = propertyRange(keyRange, node, origin.property, globals);
    const source: SamSource = { logicalId: origin.logicalId, ...(origin.property ? { property: origin.property } : {}), range };
    const properties = new Map<string, SamSource>();
    if (!attributedTo) for (const [name, property] of resource.propertyOrigins) properties.set(name, { logicalId: origin.logicalId, property, range: propertyRange(keyRange, node, property, globals) });
    if (!attributedTo && origin.property !== undefined && EVENT_PROPERTY.test(origin.property)) {
      // What an event generates takes the event's properties of the same name as they are
      // (an SQS event's BatchSize is its event source mapping's BatchSize): that is where they came from.
      for (const name of Object.keys(resource.properties)) {
        const property = `${origin.property}.Properties.${name}`;
        const written = properties.has(name) ? undefined : writtenPropertyRange(node, property);
        if (written) properties.set(name, { logicalId: origin.logicalId, property, range: written });
      }
    }
    return { keyRange, range, source, properties };
  }
}
