/**
 * Exports other stacks may import (docs/update-rules.md#exports-in-use): an update that changes
 * the value of an exported output, removes it or renames its export fails while another stack
 * imports it.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import type { Range } from '../template/ast';
import type { StackRisk } from './types';
import { diffValues, type ResourceFate } from './valueDiff';

/** A risk to the stack and where it is written: the new Export, or the old one when it is gone. */
export interface PlacedStackRisk {
  risk: StackRisk;
  range: Range;
  rangeIn: 'new' | 'old';
}

/**
 * The exports this update changes or removes. With `importsByExport` (the account's `ListImports`
 * for the deployed stack's exports), only those another stack imports, as `export-in-use`; without
 * it, each as `export-changes`, since whether one is imported is not known.
 */
export function exportRisks(
  before: EvaluatedTemplate,
  after: EvaluatedTemplate,
  fateOf: (logicalId: string) => ResourceFate,
  importsByExport: ReadonlyMap<string, readonly string[]> | undefined,
): PlacedStackRisk[] {
  const out: PlacedStackRisk[] = [];
  for (const [name, old] of before.exports) {
    const next = after.exports.get(name);
    let change: 'modified' | 'removed';
    if (next === undefined) change = 'removed';
    else if (diffValues(old.value, next.value, fateOf).some((d) => !d.keepsValue)) change = 'modified';
    else continue;
    const place = next ? { range: next.range, rangeIn: 'new' as const } : { range: old.range, rangeIn: 'old' as const };
    if (importsByExport === undefined) {
      out.push({ risk: { kind: 'export-changes', export: name, output: old.output, change }, ...place });
      continue;
    }
    const importedBy = importsByExport.get(name) ?? [];
    if (importedBy.length > 0) out.push({ risk: { kind: 'export-in-use', export: name, output: old.output, change, importedBy: [...importedBy] }, ...place });
  }
  return out;
}
