/**
 * Words for CDK apps: resources named by their construct paths (`Svc/Orders`, not
 * `OrdersA9B65338`), renamed constructs said as such, and a stack's line in an app's summary.
 */
import { isCdkMetadata } from '../cdk/cdkTemplate';
import type { ConstructRename } from '../cdk/renames';
import type { ImpactReport, ResourceChange } from '../impact/types';
import { changeReason } from './changes';
import { listSome } from './lists';
import { verdictMessage } from './verdict';

/** The names a text's logical ids are given, in a CDK app their construct paths. */
export type ResourceNames = ReadonlyMap<string, string>;

const patterns = new WeakMap<ResourceNames, RegExp | null>();

/** The text with each logical id the map knows replaced by its name, whole words only: `Environment ← OrdersA9B65338 replaced` → `Environment ← Svc/Orders replaced`. */
export function withResourceNames(text: string, names: ResourceNames): string {
  let pattern = patterns.get(names);
  if (pattern === undefined) {
    // Longest first, so that an id that begins another id never takes its place.
    const ids = [...names.keys()].sort((a, b) => b.length - a.length).map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = ids.length > 0 ? new RegExp(`(?<![A-Za-z0-9])(?:${ids.join('|')})(?![A-Za-z0-9])`, 'g') : null;
    patterns.set(names, pattern);
  }
  return pattern === null ? text : text.replace(pattern, (id) => names.get(id) ?? id);
}

/** A change's reason in a CDK app: half of a renamed construct says so; every reason names resources by construct. */
export function constructChangeReason(change: ResourceChange, replaced: ReadonlySet<string>, renames: readonly ConstructRename[], names: ResourceNames): string {
  const rename = renameOf(change, renames);
  if (rename) return renameReason(change, rename);
  const moved = movedConstruct(change);
  if (moved) return moved;
  return `${withResourceNames(changeReason(change, replaced), names)}${assetClause(change)}`;
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
  if (change === 'added') return report.status === 'error' ? `New stack, rejected: ${report.message ?? ''}` : `New stack: ${report.changes.filter((c) => !isCdkMetadata(c)).length} resources created.`;
  return verdictMessage(report);
}
