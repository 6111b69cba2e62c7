/**
 * A child template opened on its own takes the parameter values its parent passes: the parent's
 * stack resources whose local `TemplateURL` names the child, and what their evaluated `Parameters`
 * give it (docs/update-rules.md#nested-stacks). The same values the parent's own analysis passes
 * down (nested.ts), so the child's findings agree with the parent's.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import { isValueObject, type Value } from '../evaluate/value';
import { folderOf, isRemote, joinPath, markChangedUnknowns, passedParameters } from './nested';
import type { ImpactReport } from './types';

/** One stack resource of a parent that nests the child, and the values it passes, known or not. */
export interface NestingStack {
  logicalId: string;
  passed: Map<string, Value>;
}

const STACK_TYPE = 'AWS::CloudFormation::Stack';

/**
 * The active stack resources of `parent` (evaluated, so a SAM application is already a stack)
 * whose local template is `childPath`; both paths are relative to the same folder, with `/`
 * separators. A value only AWS knows (a `GetAtt` of a parent resource) stays an unknown, keyed as
 * in the parent's analysis.
 */
export function stacksNesting(parent: EvaluatedTemplate, parentPath: string, childPath: string): NestingStack[] {
  const target = joinPath('', childPath);
  const found: NestingStack[] = [];
  for (const [logicalId, resource] of parent.resources) {
    if (!resource.active || resource.type !== STACK_TYPE || !isValueObject(resource.properties)) continue;
    const url: Value | undefined = resource.properties.TemplateURL;
    if (typeof url !== 'string' || isRemote(url)) continue;
    if (joinPath(folderOf(parentPath), url) !== target) continue;
    found.push({ logicalId, passed: passedParameters(resource.properties) });
  }
  return found;
}

/** A parent's analysis: its new side, and with a baseline its old side and its plan. */
export interface ParentAnalysis {
  before?: EvaluatedTemplate;
  after: EvaluatedTemplate;
  report?: ImpactReport;
}

/**
 * What the parent passes to the child on each side, as the parent's own analysis passes it: the
 * parent as edited to the child as edited, the parent at its baseline to the child at its
 * baseline (the same stack resource on both sides when it is still there). A value only AWS knows
 * that the parent's plan changes (the `Ref` of a replaced resource) differs on the new side
 * although it reads the same. A side on which no stack resource nests the child passes nothing.
 */
export function parametersPassedToChild(parent: ParentAnalysis, parentPath: string, childPath: string): { before?: Map<string, Value>; after?: Map<string, Value> } {
  const [next] = stacksNesting(parent.after, parentPath, childPath);
  const previous = parent.before ? stacksNesting(parent.before, parentPath, childPath) : [];
  const prev = previous.find((stack) => stack.logicalId === next?.logicalId) ?? previous[0];
  if (!next || !prev) return { before: prev?.passed, after: next?.passed };
  const change = prev.logicalId === next.logicalId ? parent.report?.changes.find((c) => c.logicalId === next.logicalId && c.action === 'Modify') : undefined;
  return { before: prev.passed, after: markChangedUnknowns(prev.passed, next.passed, change) };
}
