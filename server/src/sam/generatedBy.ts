/**
 * What a change to a generated resource is attributed to: the SAM resource that generated it and
 * the SAM property that caused the change (for an update, the property the first changed value
 * was read from; for an addition or removal, the property that produced the resource).
 */
import type { ResourceChange } from '../impact/types';
import type { SamSourceMap } from './sourceMap';

/** The SAM resource and property behind a change, when the resource is one SAM generated. */
export function generatedByOf(change: ResourceChange, before: SamSourceMap | undefined, after: SamSourceMap | undefined): { logicalId: string; property?: string } | undefined {
  const map = change.rangeIn === 'old' ? before : after;
  const source = map?.resources.get(change.logicalId);
  if (!map || !source) return undefined;
  let property = source.property;
  if (change.action === 'Modify') {
    const byProperty = map.properties.get(change.logicalId);
    for (const detail of change.details) {
      const name = detail.target.name ?? (detail.target.attribute === 'Tags' ? 'Tags' : undefined);
      const from = name === undefined ? undefined : byProperty?.get(name)?.property;
      if (from !== undefined) {
        property = from;
        break;
      }
    }
  }
  return property === undefined ? { logicalId: source.logicalId } : { logicalId: source.logicalId, property };
}
