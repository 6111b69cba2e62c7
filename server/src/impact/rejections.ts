/**
 * What CloudFormation rejects synchronously, before any resource is touched.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import { canUpdate, updateRejectionMessage } from '../stacks/lifecycle';
import type { CompareOptions } from './compareTemplates';
import type { ImpactDiagnostic } from './types';

/** Rejections of the update as a whole: a resource's Type changed, or the stack cannot be updated now. */
export function synchronousRejections(before: EvaluatedTemplate, after: EvaluatedTemplate, options: CompareOptions): ImpactDiagnostic[] {
  const out: ImpactDiagnostic[] = [];
  if (options.stackStatus && !canUpdate(options.stackStatus)) {
    out.push({
      severity: 'error',
      message: updateRejectionMessage(options.stackName ?? 'stack', options.stackStatus),
      code: 'stack-status',
      rangeIn: 'new',
    });
  }
  const retyped: string[] = [];
  for (const [logicalId, next] of after.resources) {
    // A resource whose Condition is false on either side is not in the stack then: it is added
    // or removed, not retyped.
    const prev = before.resources.get(logicalId);
    if (prev?.active && next.active && prev.type !== next.type) retyped.push(logicalId);
  }
  if (retyped.length > 0) {
    const message = `Update of resource type is not permitted. The new template modifies resource type of the following resources: [${retyped.join(', ')}]`;
    for (const logicalId of retyped) {
      const decl = after.model.resources.get(logicalId);
      out.push({ severity: 'error', message, code: 'type-changed', range: decl?.typeRange ?? decl?.keyRange, rangeIn: 'new', logicalId });
    }
  }
  return out;
}
