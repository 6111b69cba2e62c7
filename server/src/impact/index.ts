/** The impact engine: predicts CloudFormation's plan for an update. */
export { analyzeCreation, analyzeUpdate, compareSides, evaluateSide } from './analyze';
export type { AnalyzeOptions, BaselineCache, BaselineCaching, EvaluatedSide, SideRole, TemplateSide, UpdateAnalysis } from './analyze';
export { compareTemplates, NO_UPDATES } from './compareTemplates';
export { changesSomething, isCompanionDetail, replacedIds, shownDetails, stackRiskFails } from './claims';
export type * from './types';
export { compareWithChangeSet } from './changeSetComparison';
export type { ChangeSetChange, ChangeSetComparison, ChangeSetDisagreement, ComparedResource } from './changeSetComparison';
export { childStackPath, DEFAULT_NESTED_DEPTH, DEFAULT_NESTED_STACKS, folderOf, joinPath, mayNestStacks, writtenChildPaths } from './nested';
export type { ChildTemplate, DeployedChildStack, NestedTemplates } from './nested';
export { readAhead, type ReadChild } from './nestedReadAhead';
export { parametersPassedToChild, stacksNesting } from './parentParameters';
export type { NestingStack, ParentAnalysis } from './parentParameters';
export type { LastOperationFailure } from './lastOperation';
