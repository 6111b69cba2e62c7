/**
 * One changed resource in words, for every face: the one-line reason (CLI rows, Markdown,
 * hovers, `--json`), the code lens title and the problem message. They are built from the same
 * phrases (causes.ts), so a finding reads the same wherever it is shown.
 */
import { isModuleType } from '../evaluate/modules';
import { decidingUpdatePolicy } from '../impact/policyBehaviors';
import { isCustomResourceType } from '../spec/index';
import type { ChangeDetail, ChangeRisk, ResourceChange, UpdateFailure } from '../impact/types';
import { describeValueChange } from './values';
import { decisiveDetails, detailCause, detailName, replacementChain } from './causes';
import { impactHeading, impactLabel } from './impacts';
import { fittedLens } from './lens';
import { listSome } from './lists';
import { detectionDay, driftLensSuffix } from './drift';
import { nestedSuffix, nestedSummary } from './nested';
import { riskLensPhrase, risksSuffix } from './risks';
import { rolloutClause, rolloutLensSuffix } from './rollouts';

/** ` · if IsProd holds` for a change that happens only if a condition decided at deploy time holds; empty otherwise. */
export function conditionQualifier(change: ResourceChange): string {
  return change.condition !== undefined ? ` · if ${change.condition} holds` : '';
}

/** Why CloudFormation will accept the update and then fail it, in its own words where it has them. */
export function failureText(failure: UpdateFailure, resourceType: string): string {
  switch (failure.kind) {
    case 'type-not-updatable':
      return `Update to resource type ${resourceType} is not supported.`;
    case 'service-token':
      return 'Modifying service token is not allowed.';
    case 'property-not-updatable':
      return `${failure.property} of ${resourceType} cannot be updated.`;
    case 'replacement-conflict':
      return `The CIDR '${failure.value}' conflicts with another subnet: the replacement is created while the old subnet, whose block it overlaps, still exists in the VPC. Replace it in two updates (a free block first), or give it a block that does not overlap.`;
    case 'index-operations': {
      const operations = [...failure.created.map((name) => `creates ${name}`), ...failure.deleted.map((name) => `deletes ${name}`)];
      return `Cannot perform more than one GSI creation or deletion in a single update (this update ${listSome(operations, operations.length)}). Add or remove one index per update.`;
    }
    case 'major-version-upgrade':
      return `The AllowMajorVersionUpgrade flag must be present when upgrading to a new major version (EngineVersion ${failure.from} → ${failure.to}). Set AllowMajorVersionUpgrade: true in the same update.`;
    case 'engine-downgrade':
      return `Cannot find upgrade path from ${failure.from} to ${failure.to}. RDS does not move a database to an earlier engine version.`;
    case 'storage-decrease':
      return `RDS cannot reduce a DB instance's storage once allocated (AllocatedStorage ${failure.from} → ${failure.to} GiB), and refuses the modification.`;
    case 'storage-increase-too-small':
      return `RDS grows a DB instance's storage by at least 10 percent (AllocatedStorage ${failure.from} → ${failure.to} GiB; at least ${Math.ceil((failure.from * 11) / 10)}), and refuses the modification.`;
    case 'kubernetes-version':
      return `Unsupported Kubernetes minor version update from ${failure.from} to ${failure.to}. EKS moves a cluster one minor version up at a time.`;
    case 'deployment-controller':
      return deploymentControllerText(failure.controller, failure.property);
    case 'custom-name-replacement':
      return `CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${failure.name} and update the stack again (${failure.property} is set explicitly and unchanged).`;
    case 'deleted-outside':
      return `The resource was deleted outside CloudFormation (drift detected ${detectionDay(failure.checkedAt)}): the update finds nothing to update and fails. Remove it from the template, or recreate it under a new logical id.`;
  }
}

/** What ECS answers a change its service's deployment controller owns, in ECS's words where they are known. */
function deploymentControllerText(controller: 'CODE_DEPLOY' | 'EXTERNAL', property: string): string {
  const what = ECS_PARAMETERS[property] ?? property;
  if (controller === 'CODE_DEPLOY') return `Unable to update ${what} on services with a CODE_DEPLOY deployment controller. Use AWS CodeDeploy to trigger a new deployment.`;
  return `Unable to update ${what} on services with an EXTERNAL deployment controller: create a new task set to deploy it.`;
}

/** How ECS names a service's parameters in its refusals. */
const ECS_PARAMETERS: Readonly<Record<string, string>> = {
  TaskDefinition: 'task definition',
  NetworkConfiguration: 'network parameters',
  PlatformVersion: 'platform version',
  LoadBalancers: 'load balancers',
  LaunchType: 'launch type',
  DeploymentConfiguration: 'deployment configuration',
  CapacityProviderStrategy: 'capacity provider strategy',
};

/** What becomes of the old physical resource of a replacement or a removal, when a policy keeps it or snapshots it. */
function keptOldResource(change: ResourceChange): string {
  // A resource that holds data says what becomes of it, in its risks.
  if (change.risks?.some((risk) => risk.kind === 'data-kept' || risk.kind === 'data-snapshot')) return '';
  switch (change.policyAction) {
    case 'ReplaceAndRetain':
      return '; the old resource is kept (UpdateReplacePolicy: Retain)';
    case 'ReplaceAndSnapshot':
      return '; the old resource is snapshotted before deletion (UpdateReplacePolicy: Snapshot)';
    default:
      return '';
  }
}

/** Why a resource is added: new in the template, its Condition turned true, or it exists only if a condition holds. */
function additionReason(change: ResourceChange): string {
  if (change.condition !== undefined) return `created if condition ${change.condition} holds (decided at deploy time)`;
  if (change.conditionTurned !== undefined) return `created: condition ${change.conditionTurned} is now true`;
  return 'created: new in the template';
}

/** Why a resource is removed and what becomes of it (its DeletionPolicy). */
function removalReason(change: ResourceChange): string {
  const why =
    change.condition !== undefined
      ? `removed from the template (it existed only if ${change.condition} held)`
      : change.conditionTurned !== undefined
        ? `condition ${change.conditionTurned} is now false`
        : 'removed from the template';
  const fate =
    change.policyAction === 'Retain'
      ? 'kept in the account (DeletionPolicy: Retain)'
      : change.policyAction === 'Snapshot'
        ? `deleted during cleanup after a final snapshot (DeletionPolicy: Snapshot${change.policyDefaulted ? ', the default for this type' : ''})`
        : 'deleted during cleanup';
  return `${why}; ${fate}`;
}

/** What becomes of a removed resource, in a few words, for a lens: `deleted`, `kept in the account`, `snapshotted, then deleted`. */
function removalFate(change: ResourceChange): string {
  if (change.policyAction === 'Retain') return 'kept in the account';
  if (change.policyAction === 'Snapshot') return 'snapshotted, then deleted';
  return 'deleted';
}

/** What a change set lists although nothing changes: the values it re-reads, which keep theirs. */
function unchangedReason(change: ResourceChange): string {
  const read = [...new Set(change.details.map((d) => d.causingEntity).filter((entity): entity is string => entity !== undefined))];
  if (read.length === 0) return 'nothing changes: the values it re-reads keep their values';
  return `nothing changes: it re-reads ${listSome(read)}, which ${read.length === 1 ? 'keeps its value' : 'keep their values'}`;
}

/**
 * Why the update behaviour of a possible replacement is not known: a registry module, a custom
 * resource whose provider decides, or a type the specification does not describe.
 */
function unknownBehaviorClause(change: ResourceChange): string {
  const deciding = change.decidedBy !== undefined ? change.details[change.decidedBy] : undefined;
  if (isCustomResourceType(change.resourceType)) return '; the custom resource provider decides whether that replaces it';
  if (deciding?.behavior !== 'unknown') return '';
  if (isModuleType(change.resourceType)) return `; ${change.resourceType} is a registry module, and how that updates the resources it expands into is unknown`;
  return `; the update behaviour of ${detailName(deciding)} is unknown (${change.resourceType} is not in the resource specification)`;
}

/**
 * ` · UpdatePolicy EnableVersionUpgrade: true would update it in place`, for a replacement that
 * the resource's update policy would have avoided (docs/update-rules.md#policy-decides-behaviour).
 */
function avoidableReplacement(change: ResourceChange): string {
  if (change.impact !== 'replacement' && change.impact !== 'conditional-replacement') return '';
  for (const detail of decisiveDetails(change)) {
    const policy = detail.target.name === undefined ? undefined : decidingUpdatePolicy(change.resourceType, detail.target.name);
    if (policy) return ` · UpdatePolicy ${policy}: true would update it in place`;
  }
  return '';
}

/** The causes of a modification in one phrase list: `VpcId ← VPC replaced, CidrBlock changed and 2 more`. */
export function changeCauses(change: ResourceChange, replaced: ReadonlySet<string>, shown?: number): string {
  return listSome(groupedCauses(decisiveDetails(change), replaced), shown);
}

/**
 * The causes of a change, one per property: a property that follows several replaced resources
 * names them together, `Environment ← Orders, Data replaced`, rather than once each.
 */
function groupedCauses(details: readonly ChangeDetail[], replaced: ReadonlySet<string>): string[] {
  // Each cause in order of its first detail: a text, or a property and the replaced resources it follows.
  const causes: (string | { name: string; followed: string[] })[] = [];
  const groups = new Map<string, { name: string; followed: string[] }>();
  for (const detail of details) {
    const entity = detail.causingEntity?.split('.', 1)[0];
    const follows = (detail.changeSource === 'ResourceReference' || detail.changeSource === 'ResourceAttribute') && entity !== undefined && replaced.has(entity) && detail.when === undefined;
    if (!follows) {
      causes.push(detailCause(detail, replaced));
      continue;
    }
    const name = detailName(detail);
    const group = groups.get(name);
    if (group === undefined) {
      const created = { name, followed: [entity] };
      groups.set(name, created);
      causes.push(created);
    } else if (!group.followed.includes(entity)) {
      group.followed.push(entity);
    }
  }
  return causes.map((cause) => (typeof cause === 'string' ? cause : `${cause.name} ← ${cause.followed.join(', ')} replaced`));
}

/** The one-line reason of a change, for CLI rows, Markdown rows, hovers and `--json`. */
export function changeReason(change: ResourceChange, replaced: ReadonlySet<string>): string {
  if (change.action === 'Add') return additionReason(change);
  if (change.action === 'Remove') return `${removalReason(change)}${risksSuffix(shownRisks(change), change.action)}`;
  if (change.impact === 'none') return unchangedReason(change);
  if (change.failure) return failureText(change.failure, change.resourceType);
  if (change.nested && change.details.length === 0) return nestedSummary(change.nested);
  return `${changeCauses(change, replaced)}${avoidableReplacement(change)}${unknownBehaviorClause(change)}${keptOldResource(change)}${rolloutClause(change.rollout)}${conditionQualifier(change)}${risksSuffix(shownRisks(change), change.action)}${dynamicReferencesClause(change)}${nestedSuffix(change.nested)}${driftLensSuffix(change.drift)}`;
}

/**
 * What an update may read anew: `; updated, it resolves {{resolve:ssm:/app/version}} again: a
 * value stored there since the last deployment may go live with it`. The reference only, never a
 * value; "may", because AWS's own pages disagree on it (docs/update-rules.md#dynamic-references).
 */
export function dynamicReferencesClause(change: ResourceChange): string {
  const references = change.dynamicReferences;
  if (!references || references.length === 0) return '';
  const those = references.length === 1 ? 'a value stored there' : 'values stored there';
  return `; updated, it resolves ${listSome(references, 2)} again: ${those} since the last deployment may go live with it`;
}

/** The code lens above a changed resource: `⟳ Replace — VpcId ← VPC replaced`; a removal names the resource and its fate. */
export function changeLensTitle(change: ResourceChange, replaced: ReadonlySet<string>): string {
  const heading = impactHeading(change.impact);
  if (change.action === 'Add') return `${heading}${conditionQualifier(change)}`;
  if (change.action === 'Remove') {
    const risks = risksLensSuffix(change);
    return fittedLens([`${heading} ${change.logicalId} — ${removalReason(change)}${risks}`, `${heading} ${change.logicalId} — ${removalFate(change)}${risks}`]);
  }
  if (change.failure) return fittedLens([`${heading} — ${failureText(change.failure, change.resourceType)}`]);
  // A stack updated only because its child changed is titled by the child's plan: `✎ nested: 1 replace · 2 modify`.
  if (change.nested && change.details.length === 0) return `${impactLabel(change.impact).symbol} ${nestedSummary(change.nested)}`;
  // What must stay: the impact, its causes, where it applies and what becomes of the data. The
  // rest gives way first, then causes beyond the first; the hover says everything.
  const titled = (causes: string, extras: string) => `${causes ? `${heading} — ${causes}` : heading}${extras}${conditionQualifier(change)}${risksLensSuffix(change)}`;
  const causes = changeCauses(change, replaced);
  const firstCause = changeCauses(change, replaced, 1);
  const names = changedNames(change);
  const rollout = rolloutLensSuffix(change.rollout);
  // Overwriting what someone changed outside CloudFormation is what a lens must not lose.
  const drift = driftLensSuffix(change.drift);
  const extras = `${avoidableReplacement(change)}${rollout}${nestedSuffix(change.nested)}${drift}`;
  return fittedLens([titled(causes, extras), titled(firstCause, extras), titled(names, extras), titled(names, `${rollout}${drift}`), titled('', `${rollout}${drift}`), titled(names, drift), titled(names, '')]);
}

/** The properties that decide a change, by name only: `LaunchTemplate changed`, `Tags, Timeout and 2 more changed`. */
function changedNames(change: ResourceChange): string {
  const names = [...new Set(decisiveDetails(change).map(detailName))];
  return names.length === 0 ? '' : `${listSome(names, 2)} changed`;
}

/**
 * What becomes of the data, on a lens: ` · old table kept · new one empty`. A removal's reason
 * already says whether it is kept or snapshotted: only a loss, or a cleanup that fails, is added.
 */
function risksLensSuffix(change: ResourceChange): string {
  return shownRisks(change).map((risk) => ` · ${riskLensPhrase(risk, change.action)}`).join('');
}

/** The risks a change's words add to its reason: all, but the kept or snapshotted data a removal's reason says itself. */
function shownRisks(change: ResourceChange): ChangeRisk[] {
  const risks = change.risks ?? [];
  return change.action === 'Remove' ? risks.filter((risk) => risk.kind !== 'data-kept' && risk.kind !== 'data-snapshot') : risks;
}

/** Resources named in the quiet line about resources that change nothing, before the rest are counted. */
const UNCHANGED_SHOWN = 6;

/**
 * One quiet line for the resources a change set lists although nothing changes for them, so that
 * a person comparing with the change set knows why they are not rows: `No change: SubnetA, Box …`.
 */
export function unchangedSummary(logicalIds: readonly string[]): string {
  const them = logicalIds.length === 1 ? 'it as Dynamic; the values it re-reads stay' : 'them as Dynamic; the values they re-read stay';
  return `No change: ${listSome(logicalIds, UNCHANGED_SHOWN)}. A change set lists ${them} the same.`;
}

/** One changed value under a CLI row: `/Properties/CidrBlock [replacement]: "10.0.0.0/16" → "10.1.0.0/16"`. */
export function detailSummaryLine(detail: ChangeDetail): string {
  const values = describeValueChange(detail);
  const dynamic = detail.evaluation === 'Dynamic' ? ' (known at deploy time)' : '';
  return `${detail.target.path} [${detail.behavior}]${dynamic}${values ? `: ${values}` : ''}`;
}

/** What stands for the items of a list past those shown: `… and 3 more`. */
export function moreLine(count: number): string {
  return `… and ${count} more`;
}

/** The lens that names removals beyond those given a lens of their own: `− Remove 4 more: A, B, C and 1 more`. */
export function moreRemovalsTitle(logicalIds: readonly string[]): string {
  return `${impactHeading('delete')} ${logicalIds.length} more: ${listSome(logicalIds)}`;
}

/**
 * The chain a replacement comes from, for problems and the CLI's cause line:
 * `Replacement: CidrBlock ← parameter Cidr → new VPC`; down a cascade the whole chain and the
 * properties that carry it, `… → new VPC → new Subnet (VpcId, CidrBlock)`. A possible one reads
 * `Possible replacement`, and a step only possibly replaced `maybe new Subnet`.
 */
export function replacementMessage(change: ResourceChange, replaced: ReadonlySet<string>): string {
  const prefix = change.impact === 'conditional-replacement' ? 'Possible replacement' : 'Replacement';
  const chain = replacementChain(change, replaced);
  const names = listSome(decisiveDetails(change).map(detailName));
  const carried = change.replacementCause && change.replacementCause.chain.length > 1 && names ? ` (${names})` : '';
  const body = chain ?? `${changeCauses(change, replaced)} → ${replaced.has(change.logicalId) ? 'new' : 'maybe new'} ${change.logicalId}`;
  return `${prefix}: ${body}${carried}${conditionQualifier(change)}${avoidableReplacement(change)}`;
}

/**
 * The problem a change is, when it is one: a replacement, a failure or an interruption (updates
 * without interruption, additions and removals are not problems: the lenses show them).
 */
export function changeProblem(change: ResourceChange, replaced: ReadonlySet<string>): { severity: 'error' | 'warning' | 'info'; message: string } | undefined {
  if (change.action !== 'Modify') return undefined;
  switch (change.impact) {
    case 'replacement':
    case 'conditional-replacement':
      return { severity: 'warning', message: replacementMessage(change, replaced) };
    case 'will-fail':
      return { severity: 'error', message: `Update will fail: ${change.failure ? failureText(change.failure, change.resourceType) : changeCauses(change, replaced)}` };
    case 'some-interruption':
      return { severity: 'info', message: `Update with some interruption: ${changeCauses(change, replaced)}${conditionQualifier(change)}` };
    default:
      return undefined;
  }
}
