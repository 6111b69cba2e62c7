/**
 * The source map of an expansion: for every generated resource, the SAM resource and property
 * that produced it, with the range of that property in the template as written; and for each of
 * its properties, the SAM property it was read from.
 */
import type { MapNode, Range } from '../template/ast';

/** Where a generated resource or property comes from. */
export interface SamSource {
  /** The SAM resource's logical id. */
  logicalId: string;
  /** The SAM property path (`Events.GetHtml`, `AutoPublishAlias`); absent when the whole resource produced it. */
  property?: string;
  /** The range of that property's key (or of the SAM resource's key). */
  range: Range;
}

/** For each generated logical id, its source and the sources of its properties. */
export interface SamSourceMap {
  resources: ReadonlyMap<string, SamSource>;
  properties: ReadonlyMap<string, ReadonlyMap<string, SamSource>>;
}

/** The range of a SAM property's key (`Events.GetHtml` is `Properties.Events.GetHtml`), or of the resource's key. */
export function propertyRange(resourceKey: Range, node: MapNode | undefined, property: string | undefined): Range {
  if (!node || !property) return resourceKey;
  let current: MapNode | undefined = node.entries.find((e) => e.key === 'Properties')?.value as MapNode | undefined;
  let range = resourceKey;
  for (const key of property.split('.')) {
    if (current?.kind !== 'map') break;
    const entry = current.entries.find((e) => e.key === key);
    if (!entry) break;
    range = entry.keyRange;
    current = entry.value.kind === 'map' ? entry.value : undefined;
  }
  return range;
}
