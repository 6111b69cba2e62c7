/**
 * What the deployed stack's last operation says about the new template: the early-validation
 * checks that rejected it (CloudFormation validates a template before it touches a resource, and
 * names each failed check's template path), placed where that path still is in the template being
 * edited. A path the edit removed is no longer reported: the edit may be the fix.
 */
import { pointerSegments, type TemplateModel } from '../template';
import type { Range, TemplateNode } from '../template/ast';
import type { ImpactDiagnostic } from './types';

/** A check that rejected the last operation, as DescribeEvents names it. */
export interface LastOperationFailure {
  name: string;
  reason?: string;
  /** Where in the template, a JSON pointer such as `/Resources/Archive/Properties/BucketName`. */
  path?: string;
}

/** One warning per failure whose path leads to a node of the template. */
export function lastOperationDiagnostics(model: TemplateModel, failures: readonly LastOperationFailure[]): ImpactDiagnostic[] {
  const diagnostics: ImpactDiagnostic[] = [];
  for (const failure of failures) {
    if (failure.path === undefined) continue;
    const range = rangeAt(model.root, pointerSegments(failure.path));
    if (!range) continue;
    diagnostics.push({
      severity: 'warning',
      code: 'early-validation-failed',
      range,
      rangeIn: 'new',
      finding: { kind: 'early-validation-failed', check: failure.name, ...(failure.reason !== undefined ? { reason: failure.reason } : {}) },
    });
  }
  return diagnostics;
}

/** The range of the key (or item) the whole path leads to; undefined when a segment is not there. */
function rangeAt(root: TemplateNode | undefined, segments: readonly string[]): Range | undefined {
  if (segments.length === 0) return undefined;
  let node: TemplateNode | undefined = root;
  let range: Range | undefined;
  for (const segment of segments) {
    if (node?.kind === 'map') {
      const entry = node.entries.find((e) => e.key === segment);
      if (!entry) return undefined;
      range = entry.keyRange;
      node = entry.value;
    } else if (node?.kind === 'seq' && /^\d+$/.test(segment)) {
      const item: TemplateNode | undefined = node.items[Number(segment)];
      if (!item) return undefined;
      range = item.range;
      node = item;
    } else {
      return undefined;
    }
  }
  return range;
}
