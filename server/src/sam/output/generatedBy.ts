/**
 * What a change to a generated resource is attributed to: the SAM resource that generated it and
 * the SAM property that caused the change (for an update, the property the first changed value
 * was read from; for an addition or removal, the property that produced the resource).
 */
import type { ChangeDetail, Finding, ImpactDiagnostic, ImpactReport, ResourceChange } from '../../impact/types';
import type { Range } from '../../template/ast';
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
      const name = detailProperty(detail);
      const from = name === undefined ? undefined : byProperty?.get(name)?.property;
      if (from !== undefined) {
        property = from;
        break;
      }
    }
  }
  return property === undefined ? { logicalId: source.logicalId } : { logicalId: source.logicalId, property };
}

/**
 * Points the changed values of a generated resource at the SAM property each was read from (in
 * the SAM resource, or in `Globals` when the resource takes it from there), or at the SAM property
 * that produced the resource. A value whose own node survived the transform keeps its range:
 * only values built by the transform, which carry the range of the SAM resource or property that
 * produced the resource, are moved.
 */
export function pointDetailsAtSamProperties(change: ResourceChange, before: SamSourceMap | undefined, after: SamSourceMap | undefined): void {
  for (const detail of change.details) {
    const map = detail.rangeIn === 'new' ? after : before;
    const source = map?.resources.get(change.logicalId);
    if (!map || !source) continue;
    const built = detail.range === undefined || sameRange(detail.range, source.range) || (change.rangeIn === detail.rangeIn && sameRange(detail.range, change.range));
    if (!built) continue;
    const name = detailProperty(detail);
    const property = name === undefined ? undefined : map.properties.get(change.logicalId)?.get(name);
    detail.range = property?.range ?? source.range;
    const samProperty = property?.property ?? source.property;
    if (samProperty !== undefined) detail.samProperty = samProperty;
  }
}

/** The name a detail's property goes by in the source map (`Tags` for the Tags scope). */
function detailProperty(detail: ChangeDetail): string | undefined {
  return detail.target.name ?? (detail.target.attribute === 'Tags' ? 'Tags' : undefined);
}

function sameRange(a: Range, b: Range): boolean {
  return a.start === b.start && a.end === b.end;
}

/**
 * Moves each finding about a change to a generated resource from the SAM resource's key, where
 * the comparison placed it, to the SAM property its deciding value now points at (the property,
 * or its line in Globals), as the changed values themselves are; and marks a finding about a
 * function's versions as SAM's, whose versions SAM names. Such findings that land on one line (a
 * Globals edit that every function takes) become one. Run after the values are pointed.
 */
export function pointFindingsAtSamProperties(report: ImpactReport): void {
  const generated = new Map(report.changes.filter((change) => change.generatedBy !== undefined).map((change) => [change.logicalId, change]));
  if (generated.size === 0) return;
  const versionFindingAt = new Map<number, Extract<Finding, { kind: 'version-not-republished' }>>();
  const merged = new Set<ImpactDiagnostic>();
  for (const diagnostic of report.diagnostics) {
    const change = diagnostic.logicalId === undefined ? undefined : generated.get(diagnostic.logicalId);
    if (!change || !diagnostic.finding) continue;
    const deciding = change.decidedBy === undefined ? undefined : change.details[change.decidedBy];
    const atResource = diagnostic.range !== undefined && diagnostic.rangeIn === change.rangeIn && sameRange(diagnostic.range, change.range);
    if (atResource && deciding?.range !== undefined && deciding.rangeIn === 'new') {
      diagnostic.range = deciding.range;
      diagnostic.rangeIn = 'new';
    }
    const finding = diagnostic.finding;
    if (finding.kind !== 'version-not-republished' || diagnostic.range === undefined || diagnostic.rangeIn !== 'new') continue;
    finding.sam = true;
    const first = versionFindingAt.get(diagnostic.range.start);
    if (first) {
      first.functions.push(...finding.functions);
      merged.add(diagnostic);
    } else versionFindingAt.set(diagnostic.range.start, finding);
  }
  if (merged.size > 0) report.diagnostics = report.diagnostics.filter((diagnostic) => !merged.has(diagnostic));
}
