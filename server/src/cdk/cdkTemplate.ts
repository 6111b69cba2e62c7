/**
 * What the CDK puts in every template for its own use, understood as `cdk deploy` deploys it:
 *
 * - `BootstrapVersion`, an SSM-typed parameter AWS resolves at deploy, and the `CDKMetadataAvailable`
 *   condition, which reads the Region: machinery the app's author did not write, so the notes
 *   the engine gives about them (the value is assumed unchanged, the condition is compared as
 *   written) are not repeated to CDK users.
 * - The legacy synthesizer's asset parameters (`AssetParameters<hash>S3Bucket…`), which have no
 *   default: `cdk deploy` gives their values, known only then. They are unknown and the same on
 *   both sides; their names carry the asset's hash, so a changed asset is a reference to
 *   another parameter, and its code or file is said to change.
 * - `AWS::CDK::Metadata` (the `CDKMetadata` resource, the CDK's version report) changes with the
 *   CDK's version: it is counted, never a finding to read (`isCdkMetadata`).
 */
import { UnknownValue, type Value } from '../evaluate/value';
import type { ImpactReport, ReportNote, ResourceChange } from '../impact/types';

const BOOTSTRAP_PARAMETER = /\/cdk-bootstrap\//;
const METADATA_CONDITION = 'CDKMetadataAvailable';
const ASSET_PARAMETER = /"(AssetParameters[0-9a-f]{64}(?:S3Bucket|S3VersionKey|ArtifactHash|ImageUri)[0-9A-F]{8})"\s*:\s*\{/g;

/** The CDK's version report resource type. */
export const CDK_METADATA_TYPE = 'AWS::CDK::Metadata';

/** Values for the legacy synthesizer's asset parameters a template declares: unknown, given by `cdk deploy`. */
export function cdkParameterValues(text: string): { passedParameters?: ReadonlyMap<string, Value> } {
  const values = new Map<string, Value>();
  for (const match of text.matchAll(ASSET_PARAMETER)) {
    const name = match[1]!;
    values.set(name, new UnknownValue(`cdk-asset:${name}`, `asset parameter ${name}, given by cdk deploy`, [], undefined, `!Ref ${name}`));
  }
  return values.size > 0 ? { passedParameters: values } : {};
}

/** The report without the notes about the CDK's own machinery. */
export function withoutCdkMachinery(report: ImpactReport): ImpactReport {
  const notes = report.notes.filter((note) => !isCdkMachineryNote(note));
  return notes.length === report.notes.length ? report : { ...report, notes };
}

function isCdkMachineryNote(note: ReportNote): boolean {
  if (note.kind === 'condition-undecided') return note.condition === METADATA_CONDITION;
  if (note.kind === 'parameter-resolved-by-aws') return BOOTSTRAP_PARAMETER.test(note.value) || note.value.startsWith('asset parameter AssetParameters');
  return false;
}

/** Whether a change is to the CDK's version report, which users need not read. */
export function isCdkMetadata(change: ResourceChange): boolean {
  return change.resourceType === CDK_METADATA_TYPE;
}
