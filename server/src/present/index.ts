/**
 * The one place that turns findings and deployment outcomes into words, for every face: code
 * lenses, diagnostics, hovers, CLI rows, Markdown and JSON. Free of LSP and `vscode`; the engine
 * returns structured causes and never sentences of its own (CloudFormation's own messages, which
 * it reproduces, excepted).
 */
export { decisiveDetails, replacementChain } from './causes';
export { changeLensTitle, changeProblem, changeReason, detailSummaryLine, moreLine, moreRemovalsTitle, replacementMessage, unchangedSummary } from './changes';
export { deploymentMessage, leftBehindCount, leftBehindLine, leftBehindText, operationHistoryLine, operationName, operationStatusShown, operationSummary, progressCounts, progressDetails, progressLine, rootCauseLine, statusWord, validationFailureLine } from './deployments';
export type { OperationFigures, ProgressFigures } from './deployments';
export { diagnosticText, noteSeverity, noteText, noteTexts } from './findings';
export { editSiteHoverText, editSiteLensTitle } from './editSites';
export { LENS_MAX_LENGTH } from './lens';
export { attributeHoverText, loopHoverText, propertyHoverText, resourceHoverText } from './hovers';
export { impactLabel } from './impacts';
export { listSome } from './lists';
export { samHoverText, samResourceLensTitle, type GeneratedResourceFacts } from './sam';
export { operationSummaryText, timelineLabels, timelinePartLabel, timelineRootCauseText, timelineRowText, timelineTitle } from './timeline';
export { changedValueLine, focusOnDifference } from './values';
export { stackRiskHoverText, stackRiskLensTitle, stackRiskText } from './risks';
export { markdownVerdict, unparsedVerdictLensTitle, verdictLensTitle, verdictLine, verdictMessage } from './verdict';
export { branchSummary, changeKind, changeKinds, changeSetLensTitle, changeSetVerdict, comparedResourceLine, changeTitle, diagnosticKind, disagreementText, fileHeading, fileNoticeTitle, fileVerdict, REJECTED_KIND, type FindingKind, type TemplateFileChange } from './review';
export { nestedSummary } from './nested';
export { ambiguousParentsNote, parentNotUsedNote, parentParametersLabel } from './parentTemplate';
export { ago, durationText, offsetText } from './durations';
