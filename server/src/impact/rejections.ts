/**
 * What CloudFormation rejects synchronously, before any resource is touched.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import { canUpdate, updateRejectionMessage } from '../cloudformation/updatePrecondition';
import type { ImpactDiagnostic } from './types';

/** Rejections of the update as a whole: a resource's Type changed, a new parameter has no value, or the stack cannot be updated now. */
export function synchronousRejections(before: EvaluatedTemplate, after: EvaluatedTemplate, options: { stackStatus?: string; stackName?: string }): ImpactDiagnostic[] {
  const out: ImpactDiagnostic[] = [];
  if (options.stackStatus && !canUpdate(options.stackStatus)) {
    out.push({
      severity: 'error',
      message: updateRejectionMessage(options.stackName ?? 'stack', options.stackStatus),
      code: 'stack-status',
      rangeIn: 'new',
    });
  }
  out.push(...missingParameterValues(before, after));
  // A SAM template the transform rejects is rejected with the transform's message alone; its SAM
  // resources, left as written, are not a change of type CloudFormation would get to see.
  if (after.model.errors.some((e) => e.code === 'sam-invalid')) return out;
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

/**
 * Parameters of the new template with no value, no Default and no previous value: the deployed
 * template did not declare them, so `UsePreviousValue` cannot apply and CloudFormation rejects
 * the update. One message names them all, as CloudFormation's does; each gets a diagnostic.
 */
function missingParameterValues(before: EvaluatedTemplate, after: EvaluatedTemplate): ImpactDiagnostic[] {
  const missing = [...after.parameters.values()].filter((p) => p.source === 'missing' && !before.model.parameters.has(p.name)).map((p) => p.name);
  if (missing.length === 0) return [];
  const message = `Parameters: [${missing.join(', ')}] must have values`;
  return missing.map((name) => ({ severity: 'error', message, code: 'parameter-missing-value', range: after.model.parameters.get(name)?.keyRange, rangeIn: 'new' }));
}
