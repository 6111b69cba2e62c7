/**
 * The one place that turns findings and deployment outcomes into words, for every face: code
 * lenses, diagnostics, hovers, CLI rows, Markdown and JSON. Free of LSP and `vscode`; the engine
 * returns structured causes and never sentences of its own (CloudFormation's own messages, which
 * it reproduces, excepted).
 */
export { behaviorSourceNote, behaviorText } from './behaviors';
export { causePhrase, decisiveDetails, detailCause, detailName, replacementChain } from './causes';
export {
  changeCauses,
  changeLensTitle,
  changeProblem,
  changeReason,
  conditionQualifier,
  detailSummaryLine,
  failureText,
  moreLine,
  moreRemovalsTitle,
  replacementMessage,
  unchangedSummary,
} from './changes';
export {
  deploymentMessage,
  leftBehindCount,
  leftBehindLine,
  leftBehindText,
  rootCauseLine,
  rootCauseText,
  type DeploymentOutcome,
  type LeftBehind,
  type RootCause,
} from './deployments';
export { diagnosticText, findingText, noteText, noteTexts } from './findings';
export { attributeHoverText, code, propertyHoverText, resourceHoverText, type PropertyHoverFacts } from './hovers';
export { impactHeading, impactLabel, type ImpactLabel } from './impacts';
export { listSome, NAMES_SHOWN } from './lists';
export { changedValueLine, describeValueChange, focusOnDifference } from './values';
export { markdownVerdict, summarize, verdictLensTitle, verdictLine, verdictMessage, verdictTitle } from './verdict';
