/**
 * Words for CDK apps: resources named by their construct paths (`Svc/Orders`, not
 * `OrdersA9B65338`), renamed constructs said as such, and a stack's line in an app's summary.
 */
import { isCdkMetadata } from '../cdk/cdkTemplate';
import type { ConstructRename } from '../cdk/renames';
import type { PlacedChange, SourcePlacement } from '../cdk/sourcePlacements';
import type { StackComparison } from '../cdk/stackComparison';
import { replacedIds } from '../impact/claims';
import type { ImpactReport, ResourceChange } from '../impact/types';
import { changeLensTitle, changeProblem, changeReason } from './changes';
import { impactHeading, impactLabel } from './impacts';
import { fittedLensKeeping } from './lens';
import { listSome } from './lists';
import { verdictMessage, verdictTitle } from './verdict';

/** Logical id → the name a CDK app's words give the resource: its construct path. */
export type ResourceNames = ReadonlyMap<string, string>;

/**
 * The change as a CDK app's words name its resources: each cause (`OrdersA9B65338.Arn` →
 * `Svc/Orders.Arn`), each resource of its replacement chain and each resource symbol in a value
 * (`${OrdersA9B65338.Arn}`) by construct path. Only what names a resource is renamed: a literal
 * value that happens to contain a logical id is shown as it is.
 */
export function namedByConstruct(change: ResourceChange, names: ResourceNames): ResourceChange {
  const entity = (value: string | undefined) => {
    if (value === undefined) return undefined;
    const dot = value.indexOf('.');
    const id = dot < 0 ? value : value.slice(0, dot);
    const name = names.get(id);
    return name === undefined ? value : `${name}${dot < 0 ? '' : value.slice(dot)}`;
  };
  const symbols = (value: string | undefined) => value?.replace(RESOURCE_SYMBOL, (whole, id: string, rest: string) => (names.has(id) ? `\${${names.get(id)}${rest}}` : whole));
  const named: ResourceChange = {
    ...change,
    details: change.details.map((d) => {
      const detail = { ...d, target: { ...d.target } };
      if (d.causingEntity !== undefined) detail.causingEntity = entity(d.causingEntity)!;
      if (d.target.beforeValue !== undefined) detail.target.beforeValue = symbols(d.target.beforeValue)!;
      if (d.target.afterValue !== undefined) detail.target.afterValue = symbols(d.target.afterValue)!;
      return detail;
    }),
  };
  if (change.replacementCause) {
    const { root, chain } = change.replacementCause;
    named.replacementCause = { root: { ...root, ...(root.causingEntity !== undefined ? { causingEntity: entity(root.causingEntity)! } : {}) }, chain: chain.map((id) => names.get(id) ?? id) };
  }
  return named;
}

/** The replaced resources, by the names `namedByConstruct` gives them. */
export function namedReplaced(replaced: ReadonlySet<string>, names: ResourceNames): Set<string> {
  return new Set([...replaced].map((id) => names.get(id) ?? id));
}

/** How the engine renders a resource in a value: `${VPC}`, `${VPC.Arn}` (evaluate/render.ts). */
const RESOURCE_SYMBOL = /\$\{([A-Za-z0-9]+)((?:\.[^}]*)?)\}/g;

/** A change's reason in a CDK app: half of a renamed construct says so; every reason names resources by construct. */
export function constructChangeReason(change: ResourceChange, replaced: ReadonlySet<string>, renames: readonly ConstructRename[], names: ResourceNames): string {
  const rename = renameOf(change, renames);
  if (rename) return renameReason(change, rename);
  const moved = movedConstruct(change);
  if (moved) return moved;
  return `${changeReason(namedByConstruct(withAssetsAsEdits(change), names), namedReplaced(replaced, names))}${assetClause(change)}`;
}

/**
 * The change with what the legacy synthesizer's asset parameters feed said as an edit: a new
 * parameter name is a new asset (its hash is in the name), which `assetClause` names.
 */
function withAssetsAsEdits(change: ResourceChange): ResourceChange {
  if (!change.details.some(isAssetParameterDetail)) return change;
  return { ...change, details: change.details.map((d) => (isAssetParameterDetail(d) ? { ...d, changeSource: 'DirectModification' as const, causingEntity: undefined } : d)) };
}

function isAssetParameterDetail(detail: ResourceChange['details'][number]): boolean {
  return detail.changeSource === 'ParameterReference' && /^AssetParameters[0-9a-f]{64}/.test(detail.causingEntity ?? '');
}

const PATH_METADATA_DETAIL = '/Metadata/aws:cdk:path';

/**
 * A construct that moved but kept its logical id (`overrideLogicalId`), or a stack that moved into
 * a stage: only the resource's `aws:cdk:path` metadata changes. A resource's own metadata does
 * update it (docs/update-rules.md#resource-metadata), without touching its properties.
 */
function movedConstruct(change: ResourceChange): string | undefined {
  if (change.action !== 'Modify' || change.details.length === 0 || !change.details.every((d) => d.target.path === PATH_METADATA_DETAIL)) return undefined;
  const before = /^"(.*)"$/.exec(change.details[0]!.target.beforeValue ?? '')?.[1];
  const path = before !== undefined ? before.replace(/\/(?:Resource|Default)$/, '') : 'another path';
  return `moved from ${path} with its logical id kept: only its aws:cdk:path metadata is updated, its properties stay`;
}

const ASSET_HASH = /[0-9a-f]{64}/;

/**
 * What a changed asset hash means: the CDK names an asset (a function's code, a file, an image)
 * by the hash of its content, so a new hash in `S3Key` or `ImageUri` is new content: `; new
 * asset 4f2a9c1e (the code changed)`.
 */
function assetClause(change: ResourceChange): string {
  for (const detail of change.details) {
    if (!/\/(?:S3Key|ImageUri|Key)$/.test(detail.target.path)) continue;
    const after = ASSET_HASH.exec(detail.target.afterValue ?? '')?.[0];
    const before = ASSET_HASH.exec(detail.target.beforeValue ?? '')?.[0];
    if (after !== undefined && after !== before) return `; new asset ${after.slice(0, 8)} (its content changed)`;
  }
  return '';
}

/** The rename a change is half of, if any. */
export function renameOf(change: ResourceChange, renames: readonly ConstructRename[]): ConstructRename | undefined {
  if (change.action === 'Add') return renames.find((r) => r.to.logicalId === change.logicalId);
  if (change.action === 'Remove') return renames.find((r) => r.from.logicalId === change.logicalId);
  return undefined;
}

/**
 * `renamed from Svc/Orders: a new logical id, so CloudFormation creates a new resource and removes
 * OrdersA9B65338 (kept in the account); cdk refactor or overrideLogicalId('OrdersA9B65338') keeps it`.
 */
function renameReason(change: ResourceChange, rename: ConstructRename): string {
  const keep = `\`cdk refactor\`, or overrideLogicalId('${rename.from.logicalId}') on the moved construct, keeps the resource`;
  if (change.action === 'Add') {
    return `renamed from ${rename.from.path}: a new logical id, so CloudFormation creates a new resource here and removes the old one (${rename.from.logicalId}); ${keep}`;
  }
  const fate = change.policyAction === 'Retain' ? 'kept in the account, outside the stack' : change.policyAction === 'Snapshot' ? 'snapshotted, then deleted' : 'deleted, with its data';
  return `renamed to ${rename.to.path}: a new logical id, so this resource is removed (${fate}) and a new one created; ${keep}`;
}

/** An app's summary over its stacks: `2 stacks: Svc updated, Edge new`. */
export function assemblySummary(stacks: readonly { stack: string; status: 'update' | 'noop' | 'error' | 'create' | 'deleted' }[]): string {
  if (stacks.length === 0) return 'The assembly holds no CloudFormation stack.';
  const words = { update: 'updated', noop: 'no changes', error: 'rejected', create: 'new', deleted: 'removed' } as const;
  const changed = stacks.filter((s) => s.status !== 'noop');
  if (changed.length === 0) return `${stacks.length === 1 ? '1 stack' : `${stacks.length} stacks`}: no changes.`;
  return `${stacks.length === 1 ? '1 stack' : `${stacks.length} stacks`}: ${listSome(changed.map((s) => `${s.stack} ${words[s.status]}`), 6)}${changed.length < stacks.length ? `; ${stacks.length - changed.length} unchanged` : ''}.`;
}

/** A stack's heading in an app's review: `Svc`, `Edge (new stack)`, `Old (removed from the app)`. */
export function stackHeading(stack: string, change: 'changed' | 'added' | 'deleted'): string {
  return change === 'changed' ? stack : `${stack} (${change === 'added' ? 'new stack' : 'removed from the app'})`;
}

/** A stack's verdict in an app's review. `cdk deploy` never deletes a stack the app no longer has. */
export function stackVerdict(change: 'changed' | 'added' | 'deleted', report: ImpactReport | undefined): string {
  if (change === 'deleted' || !report) return 'Removed from the app: cdk deploy leaves the deployed stack running; cdk destroy, or deleting it, removes it.';
  if (change === 'added') {
    if (report.status === 'error') return `New stack, rejected: ${report.message ?? ''}`;
    const created = report.changes.filter((c) => !isCdkMetadata(c)).length;
    return `New stack: ${created} resource${created === 1 ? '' : 's'} created.`;
  }
  return verdictMessage(report);
}

/** Impacts from the weightiest down, to choose what a line's lens leads with. */
const WEIGHT: Record<ResourceChange['impact'], number> = { 'will-fail': 7, replacement: 6, 'conditional-replacement': 5, delete: 4, 'some-interruption': 3, 'no-interruption': 2, create: 1, none: 0 };

/** The changes of one place in an app's source, weightiest first. */
function byWeight(placed: readonly PlacedChange[]): PlacedChange[] {
  return [...placed].sort((a, b) => WEIGHT[b.change.impact] - WEIGHT[a.change.impact]);
}

/**
 * The lens at the line of an app's code that created changed constructs: the weightiest change's
 * lens, its resources named by construct, and how many more changes the line makes:
 * `⟳ Replace — KeySchema changed · old table kept · new one empty`, `≈ ✎ Update — MemorySize changed · +2 more`.
 */
export function constructLensTitle(placement: SourcePlacement): string {
  const [first, ...rest] = byWeight(placement.changes);
  if (!first) return '';
  const { change, stack } = first;
  const names = namesOf(stack);
  const rename = renameOf(change, stack.renames);
  const title = rename ? `${impactHeading(change.impact)} — renamed from ${rename.from.path}: replaces the ${resourceNoun(change.resourceType)}` : changeLensTitle(namedByConstruct(change, names), namedReplaced(replacedIds(stack.report?.changes ?? []), names));
  const more = rest.length > 0 ? ` · +${rest.length} more` : '';
  const approximate = placement.approximate ? '≈ ' : '';
  return fittedLensKeeping(`${approximate}${title}`, more);
}

/** The hover at such a line: each changed resource of the constructs created there, and what happens to it. */
export function constructHoverText(placement: SourcePlacement): string {
  const lines = byWeight(placement.changes).map(({ stack, change, constructPath }) => {
    const replaced = replacedIds(stack.report?.changes ?? []);
    const { symbol, label } = impactLabel(change.impact);
    return `- ${symbol} **${constructPath}** (${change.resourceType}, ${change.logicalId}): ${label} — ${constructChangeReason(change, replaced, stack.renames, namesOf(stack))}`;
  });
  if (placement.approximate) {
    lines.push('', '_Placed at the first string in this file that is the construct\'s id: synthesize with `CDK_DEBUG=true` for the exact line._');
  }
  return lines.join('\n');
}

/** The problem at such a line for a change that replaces or fails, named by construct. */
export function constructProblem(placed: PlacedChange): { severity: 'error' | 'warning' | 'info'; message: string } | undefined {
  const { stack, change, constructPath } = placed;
  const rename = renameOf(change, stack.renames);
  if (rename) return { severity: 'warning', message: `${constructPath}: ${constructChangeReason(change, replacedIds(stack.report?.changes ?? []), stack.renames, namesOf(stack))}` };
  const names = namesOf(stack);
  const problem = changeProblem(namedByConstruct(change, names), namedReplaced(replacedIds(stack.report?.changes ?? []), names));
  return problem ? { severity: problem.severity, message: `${constructPath}: ${problem.message}` } : undefined;
}

/** A stack's summary lens in the app's source: `Svc: 5 modify (2 replace) · against cdk.baseline`. */
export function stackLensTitle(stack: StackComparison, baseline: string): string {
  const verdict = stack.change === 'added' ? stackVerdict('added', stack.report) : stack.report ? verdictTitle(stack.report) : stackVerdict('deleted', undefined);
  return fittedLensKeeping(`${stack.stack}: ${verdict}`, ` · against ${baseline}`);
}

const stackNames = new WeakMap<StackComparison, ResourceNames>();

/** Logical id → construct path for a stack's comparison, both sides. */
export function namesOf(stack: StackComparison): ResourceNames {
  let names = stackNames.get(stack);
  if (!names) {
    const map = new Map<string, string>();
    for (const [logicalId, info] of stack.constructs.old) map.set(logicalId, info.path);
    for (const [logicalId, info] of stack.constructs.new) map.set(logicalId, info.path);
    names = map;
    stackNames.set(stack, names);
  }
  return names;
}

/** `AWS::DynamoDB::Table` → `table`, for a sentence. */
function resourceNoun(resourceType: string): string {
  const name = resourceType.split('::')[2] ?? 'resource';
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
