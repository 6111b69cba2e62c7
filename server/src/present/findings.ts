/**
 * Findings and notes of an analysis in words: what this analysis found about the pair (as
 * opposed to template errors, which reproduce CloudFormation's messages), and what qualifies the
 * verdict.
 */
import type { Finding, ImpactDiagnostic, ReportNote, UnpublishedFunction } from '../impact/types';
import { listSome } from './lists';
import { deletedDriftText, driftEffectText, staleDriftText } from './drift';
import { nestedFindingText } from './nested';
import { changeRiskText, stackRiskText } from './risks';

/** Parameter names listed in the current-value note before the rest are counted. */
const PARAMETERS_SHOWN = 10;

/** A finding in words. */
export function findingText(finding: Finding): string {
  switch (finding.kind) {
    case 'early-validation-failed':
      return `Early validation (${finding.check}) rejected the stack's last operation here${finding.reason ? `: ${finding.reason}` : ''}`;
    case 'parameters-current-value': {
      const names = listSome(finding.parameters, PARAMETERS_SHOWN);
      const subject = finding.parameters.length === 1 ? `Parameter ${names} has no value here: it is` : `Parameters ${names} have no value here: each is`;
      return (
        `${subject} compared as the stack's current value, the same before and after (as UsePreviousValue). ` +
        'To compare real values, give a parameters file (the cfnImpact.parameters.files setting, or --parameters in the CLI) or link the deployed stack.'
      );
    }
    case 'condition-may-change':
      return `${finding.logicalId} may also be created or deleted: whether it exists depends on condition ${finding.condition}, which changed and reads values known only at deploy time`;
    case 'unknown-resource-type':
      return `Unrecognized resource type ${finding.resourceType}: CloudFormation rejects the template unless the type is newer than this extension's resource specification`;
    case 'drift':
      return driftEffectText(finding.logicalId, finding.effect);
    case 'drift-stale':
      return staleDriftText(finding.logicalId, finding.checkedAt, finding.lastUpdated);
    case 'drift-deleted':
      return deletedDriftText(finding.logicalId, finding.checkedAt);
    case 'baseline-not-a-template':
      return `The baseline is not a CloudFormation template (${finding.reason}); every resource counts as new.`;
    case 'baseline-invalid':
      return `The baseline template has ${finding.errors} error(s) (first: ${finding.first}); the comparison may be incomplete.`;
    case 'change-risk':
      return changeRiskText(finding.logicalId, finding.action, finding.risk);
    case 'version-not-republished':
      return unpublishedText(finding.functions, finding.sam === true);
    case 'api-not-redeployed': {
      const what = finding.changed.length === 1 && finding.changed[0] === finding.restApi ? `REST API ${finding.restApi}` : `REST API ${finding.restApi} (${listSome(finding.changed)})`;
      const deployments = finding.deployments.length === 1 ? `its deployment ${finding.deployments[0]} is not` : `none of its deployments (${listSome(finding.deployments)}) is`;
      return (
        `Not deployed: this update changes ${what}, but ${deployments} created anew, and a deployment is a snapshot of the API: ` +
        'its stages keep serving the API as it was. A new AWS::ApiGateway::Deployment (a new logical id) deploys the change.'
      );
    }
    case 'export-changes':
    case 'export-in-use':
      return stackRiskText(finding);
    case 'nested-template-remote':
    case 'nested-cycle':
    case 'nested-too-deep':
    case 'nested-too-many':
    case 'nested-template-unreadable':
    case 'nested-template-invalid':
      return nestedFindingText(finding);
  }
}

/**
 * `Not published: this update changes Fn's Code, but its version V1 is not created anew…`; for
 * several functions (a Globals edit), their names counted.
 */
function unpublishedText(functions: readonly UnpublishedFunction[], sam: boolean): string {
  const hint = sam
    ? ' SAM publishes a new version only when the code, the environment variables, the memory size or SnapStart change as written in the template, unless AutoPublishAliasAllProperties is true.'
    : ' A new AWS::Lambda::Version (a new logical id) publishes the change.';
  const changed = listSome([...new Set(functions.flatMap((f) => f.changed))]);
  const readers = [...new Set(functions.flatMap((f) => f.readers))];
  const read = `${listSome(readers)} still ${readers.length === 1 ? 'points' : 'point'} at`;
  const only = functions.length === 1 ? functions[0] : undefined;
  if (only) {
    const versions = only.versions.length === 1 ? `its version ${only.versions[0]} is not` : `none of its versions (${listSome(only.versions)}) is`;
    return `Not published: this update changes ${only.function}'s ${changed}, but ${versions} created anew, and a version is a snapshot of the function: ${read} the function as it was.${hint}`;
  }
  const names = listSome(functions.map((f) => f.function));
  return `Not published: this update changes the ${changed} of ${functions.length} functions (${names}), but none of their versions is created anew, and a version is a snapshot of its function: ${read} the functions as they were.${hint}`;
}

/** A diagnostic's message: a template error in CloudFormation's words, or a finding worded here. */
export function diagnosticText(diagnostic: ImpactDiagnostic): string {
  return diagnostic.finding ? findingText(diagnostic.finding) : diagnostic.message;
}

/** A note that qualifies the verdict, in words. */
export function noteText(note: ReportNote): string {
  switch (note.kind) {
    case 'transform-not-expanded':
      return `Transform ${note.transform} is not expanded: the template is analysed as written`;
    case 'macro-not-expanded':
      return `Fn::Transform ${note.macros.join(', ')} is not expanded: its output is a value only the macro knows, the same before and after while what it is given is the same`;
    case 'condition-undecided':
      return `Condition ${note.condition} depends on values known only at deploy time: what it guards is compared as written, as if it held`;
    case 'packaged-artifact':
      return `${note.logicalId}: ${note.property} ${note.path} is a local path that aws cloudformation package (or sam package) uploads to S3 before deploying: the path stands for that upload here, so a change to the files there is not visible to this comparison`;
    case 'stack-output-read-at-update':
      return 'Fn::GetStackOutput is read from the other stack when this stack is updated: an output that changed since the last deployment changes what reads it, which is not visible here';
    case 'registry-modules':
      return note.modules.length === 1
        ? `${note.modules[0]} is a registry module: the resources it expands into are not visible here; references to them are assumed valid`
        : `${listSome(note.modules, 5)} are registry modules: the resources they expand into are not visible here; references to them are assumed valid`;
    case 'sam-feature-not-expanded':
      return `${note.logicalId}: ${note.feature} is not expanded yet: it is analysed as written, and references to what SAM generates for it are assumed valid`;
    case 'sam-application-url':
      return `${note.logicalId}: the template URL of a Serverless Application Repository application is a pre-signed URL that only AWS knows; the nested stack reads it as the application id and version, and CloudFormation updates the nested stack on every deployment (a new URL each time), with no change inside when the version is the same`;
    case 'sam-parameter-without-value':
      if (note.parameter.startsWith('AWS::')) {
        return `${note.logicalId}: ${note.property} reads ${note.parameter}, known only where the stack is deployed: SAM needs the value to generate what depends on it, so a stand-in is shown, the same before and after; give the Region (--region in the CLI, the cfnImpact.analysis.regions setting, or a linked stack) to see exactly what CloudFormation will do`;
      }
      return `${note.logicalId}: ${note.property} is parameter ${note.parameter}, which has no value here: SAM needs the value to generate what depends on it, so a stand-in is shown, the same before and after (the parameter's name in a generated name, SAM's default for a setting); give the parameter a value to see exactly what CloudFormation will do`;
    case 'sam-always-deploy':
      return `${note.logicalId}: AlwaysDeploy creates a new deployment on every deploy; this comparison does not show it`;
    case 'sam-local-artifact':
      return `${note.logicalId}: ${note.property} ${note.path} is a local path that sam deploy uploads: a change to the files there is not visible to this comparison`;
    case 'sam-packaged-folder':
      return `${note.logicalId}: no ${note.property}: sam build and sam deploy package the template's folder (${note.property} defaults to .), so a change to the files there is not visible to this comparison`;
    case 'sam-image-uri-ignored':
      return `${note.logicalId}: ImageUri is read only with PackageType: Image; without it the function is a Zip function (PackageType defaults to Zip), which needs code, a Runtime and a Handler`;
    case 'sam-local-image':
      return `${note.logicalId}: the image is built by sam build from ${note.path} and pushed by sam deploy, which names it in ImageUri: a change to the files there is not visible to this comparison; a new DockerTag is`;
    case 'sam-local-artifact-missing':
      return `${note.logicalId}: ${note.property} ${note.path} is neither a file nor a folder beside the template: sam deploy will find nothing there to upload, unless a build step makes it first`;
    case 'parameter-resolved-by-aws':
      return `Parameter ${note.parameter} is resolved by AWS at deploy time (${note.value}); it is assumed unchanged.`;
    case 'parameter-validated-late':
      return `Parameter ${note.parameter} (${note.type}) is validated by AWS only after the update starts; a wrong value rolls the update back.`;
    case 'drift-never-checked':
      return 'No drift detection has checked this stack: the REVERT_DRIFT preview knows of no drift to set back (Detect Drift first; a drift-aware change set reads the live state itself)';
    case 'drift-not-checked':
      return `No drift detection checked ${listSome(note.logicalIds, 5)} (drift detection may not support ${note.logicalIds.length === 1 ? 'its type' : 'their types'}): compared template to template, as a change set that cannot compare live state does`;
  }
}

/** How loudly a note is shown: a local artifact that is not there is a warning (it may be a typo), every other note is information. */
export function noteSeverity(note: ReportNote): 'warning' | 'info' {
  return note.kind === 'sam-local-artifact-missing' || note.kind === 'sam-image-uri-ignored' ? 'warning' : 'info';
}

/** The notes of a report in words, each once. */
export function noteTexts(notes: readonly ReportNote[]): string[] {
  return [...new Set(notes.map(noteText))];
}
