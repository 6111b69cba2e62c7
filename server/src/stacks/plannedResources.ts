/**
 * The resources an operation rolls out: those the template being deployed declares (GetTemplate,
 * stage Processed, so that transforms such as SAM are expanded as CloudFormation expanded them),
 * under the conditions the stack's parameter values decide. The progress of an operation counts
 * them from its start, so that a create's total does not grow as it runs. Pure.
 */
import { evaluateTemplate } from '../evaluate';
import type { EvaluationContext } from '../evaluate/types';
import { parseTemplate, readTemplateModel } from '../template';
import { placeOfStackId } from './stackArn';

/** One resource the template being deployed declares. */
export interface PlannedResource {
  logicalId: string;
  resourceType: string;
}

/**
 * The resources `templateBody` declares that CloudFormation will create or keep: a resource
 * whose Condition is false is left out; one whose Condition only AWS decides is counted. A
 * template that cannot be read plans nothing (the progress then counts what events reveal).
 */
export function plannedResources(templateBody: string, stack: { stackId: string; stackName: string; parameters: Record<string, string> }): PlannedResource[] {
  const model = readTemplateModel(parseTemplate(templateBody));
  if (!model.isCloudFormation) return [];
  const { region, accountId } = placeOfStackId(stack.stackId);
  const context: EvaluationContext = { parameters: stack.parameters, stackName: stack.stackName, stackId: stack.stackId };
  if (region !== undefined) context.region = region;
  if (accountId !== undefined) context.accountId = accountId;
  const evaluated = evaluateTemplate(model, context);
  const planned: PlannedResource[] = [];
  for (const resource of evaluated.resources.values()) if (resource.active) planned.push({ logicalId: resource.logicalId, resourceType: resource.type });
  return planned;
}
