/**
 * The Serverless transform (`AWS::Serverless-2016-10-31`) as an engine stage: expandServerless
 * turns a SAM template into the processed template with a source map back to the SAM lines.
 */
export { expandServerless, languageExtensionsBeforeServerless, runsServerlessTransform, type SamExpansion } from './expand';
export { generatedByOf, pointDetailsAtSamProperties, pointFindingsAtSamProperties } from './output/generatedBy';
export type { SamSource, SamSourceMap } from './output/sourceMap';
export type { LocalArtifacts, SamNote } from './model/context';
export { artifactPathCandidates, localArtifactPaths } from './localArtifacts';
