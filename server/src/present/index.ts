/**
 * The one place that turns findings and deployment outcomes into words, for every face: code
 * lenses, diagnostics, hovers, CLI rows, Markdown and JSON. Free of LSP and `vscode`; the engine
 * returns structured causes and never sentences of its own (CloudFormation's own messages, which
 * it reproduces, excepted).
 */
export { decisiveDetails, replacementChain } from './causes';
export { changeLensTitle, changeProblem, changeReason, detailSummaryLine, moreLine, moreRemovalsTitle, replacementMessage, unchangedSummary } from './changes';
export { deploymentMessage, leftBehindCount, leftBehindLine, leftBehindText, rootCauseLine } from './deployments';
export { diagnosticText, noteText, noteTexts } from './findings';
export { attributeHoverText, propertyHoverText, resourceHoverText } from './hovers';
export { impactLabel } from './impacts';
export { listSome } from './lists';
export { samHoverText, samResourceLensTitle, type GeneratedResourceFacts } from './sam';
export { changedValueLine, focusOnDifference } from './values';
export { stackRiskHoverText, stackRiskLensTitle, stackRiskText } from './risks';
export { markdownVerdict, verdictLensTitle, verdictLine, verdictMessage } from './verdict';
export { nestedSummary } from './nested';
