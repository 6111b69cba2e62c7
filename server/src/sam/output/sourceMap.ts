/**
 * The source map of an expansion: for every generated resource, the SAM resource and property
 * that produced it, with the range of that property in the template as written; and for each of
 * its properties, the SAM property it was read from.
 */
import type { MapEntry, MapNode, Range, TemplateNode } from '../../template/ast';

/** Where a generated resource or property comes from. */
export interface SamSource {
  /** The SAM resource's logical id. */
  logicalId: string;
  /** The SAM property path (`Events.GetHtml`, `AutoPublishAlias`); absent when the whole resource produced it. */
  property?: string;
  /**
   * The range of that property's key as written: in the SAM resource, or, for a property it takes
   * from `Globals`, in the Globals section (the line whose edit changes it); the SAM resource's key
   * when no property is named or none is written.
   */
  range: Range;
}

/** For each generated logical id, its source and the sources of its properties. */
export interface SamSourceMap {
  resources: ReadonlyMap<string, SamSource>;
  properties: ReadonlyMap<string, ReadonlyMap<string, SamSource>>;
}

/**
 * The range of a SAM property's key (`Events.GetHtml` is `Properties.Events.GetHtml`), or of the
 * resource's key. A property the resource does not write itself but its type's section of
 * `Globals` does (`globals`, e.g. the `Function` map) is found there: that is the line to edit.
 */
export function propertyRange(resourceKey: Range, node: MapNode | undefined, property: string | undefined, globals?: MapNode): Range {
  if (!node || !property) return resourceKey;
  const propertiesNode = node.entries.find((e) => e.key === 'Properties')?.value;
  const properties = propertiesNode?.kind === 'map' ? propertiesNode : undefined;
  const path = property.split('.');
  const written = properties?.entries.some((e) => e.key === path[0]) === true;
  if (!written && globals?.entries.some((e) => e.key === path[0])) return keyRangeAlong(globals, path) ?? resourceKey;
  return (properties && keyRangeAlong(properties, path)) ?? resourceKey;
}

/**
 * The range of a SAM property's key when the resource writes exactly that property path
 * (`Events.Jobs.Properties.BatchSize`), and nothing otherwise.
 */
export function writtenPropertyRange(node: MapNode | undefined, property: string): Range | undefined {
  let current: TemplateNode | undefined = node?.entries.find((e) => e.key === 'Properties')?.value;
  let range: Range | undefined;
  for (const key of property.split('.')) {
    const entry: MapEntry | undefined = current?.kind === 'map' ? current.entries.find((e) => e.key === key) : undefined;
    if (!entry) return undefined;
    range = entry.keyRange;
    current = entry.value;
  }
  return range;
}

/** The key range of the deepest entry found along a path of keys, or nothing when the first is missing. */
function keyRangeAlong(node: MapNode, path: readonly string[]): Range | undefined {
  let current: MapNode | undefined = node;
  let range: Range | undefined;
  for (const key of path) {
    if (current?.kind !== 'map') break;
    const entry: MapEntry | undefined = current.entries.find((e) => e.key === key);
    if (!entry) break;
    range = entry.keyRange;
    current = entry.value.kind === 'map' ? entry.value : undefined;
  }
  return range;
}
