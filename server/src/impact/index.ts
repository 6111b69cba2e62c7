/** The impact engine: predicts CloudFormation's plan for an update. */
export { analyzeUpdate, compareSides, evaluateSide, DEFAULT_ACCOUNT_ID, DEFAULT_REGION, DEFAULT_STACK_NAME } from './analyze';
export type { AnalyzeOptions, EvaluatedSide, TemplateSide } from './analyze';
export { compareTemplates, summarize } from './compareTemplates';
export type * from './types';
