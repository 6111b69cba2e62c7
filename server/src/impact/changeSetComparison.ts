/**
 * How a real change set compares with the prediction, resource by resource: whether both list the
 * resource, with the same action, the same `Replacement` and changes to the same properties. The
 * change set is plain data as DescribeChangeSet describes it (the caller reads it); nothing here
 * does I/O.
 */
import { sameDriftValue } from './drift';
import type { ResourceChange } from './types';

/** One `ResourceChange` of a change set, as far as the comparison reads it. */
export interface ChangeSetChange {
  logicalId: string;
  resourceType: string;
  action: string;
  replacement?: string;
  /** A drift-aware change set's drift status of the resource. */
  driftStatus?: string;
  details: { target: { attribute: string; name?: string; path?: string; beforeValue?: string; beforeValueFrom?: string; drift?: { actualValue?: string } } }[];
  /** The nested stacks the change is inside, outermost first; empty for the stack's own resources. */
  nestedIn: readonly string[];
}

/** How the prediction and a change set differ for one resource. */
export type ChangeSetDisagreement =
  | { kind: 'only-in-change-set'; action: string }
  | { kind: 'only-predicted'; action: string }
  | { kind: 'action'; changeSet: string; predicted: string }
  | { kind: 'replacement'; changeSet: string; predicted: string }
  | { kind: 'details'; onlyInChangeSet: string[]; onlyPredicted: string[] }
  /** A drift-aware change set: the resource's drift status differs from what the last detection found. */
  | { kind: 'drift-status'; changeSet: string; predicted: string }
  /** A drift-aware change set: a property's live value differs from the one the last detection found. */
  | { kind: 'live-value'; property: string; changeSet: string; predicted: string };

/** One resource of the comparison: agreed when `disagreements` is empty. */
export interface ComparedResource {
  logicalId: string;
  resourceType: string;
  disagreements: ChangeSetDisagreement[];
}

export interface ChangeSetComparison {
  resources: ComparedResource[];
  /** Changes inside nested stacks, which the prediction of this stack's template does not cover. */
  nested: ChangeSetChange[];
  agrees: boolean;
}

/**
 * Compares a change set's changes with the predicted ones. Details are compared by what they
 * change (the property name, or `Tags`), not by how many details name it: a change set writes a
 * parameter's effect as a Static and a Dynamic detail on the same target.
 */
export function compareWithChangeSet(predicted: readonly ResourceChange[], changeSet: readonly ChangeSetChange[]): ChangeSetComparison {
  const own = changeSet.filter((c) => c.nestedIn.length === 0);
  const nested = changeSet.filter((c) => c.nestedIn.length > 0);
  const byId = new Map(predicted.map((c) => [c.logicalId, c]));
  const seen = new Set<string>();
  const resources: ComparedResource[] = [];
  for (const actual of own) {
    seen.add(actual.logicalId);
    const prediction = byId.get(actual.logicalId);
    if (!prediction) {
      resources.push({ logicalId: actual.logicalId, resourceType: actual.resourceType, disagreements: [{ kind: 'only-in-change-set', action: actual.action }] });
      continue;
    }
    resources.push({ logicalId: actual.logicalId, resourceType: actual.resourceType, disagreements: disagreements(prediction, actual) });
  }
  for (const prediction of predicted) {
    if (seen.has(prediction.logicalId)) continue;
    resources.push({ logicalId: prediction.logicalId, resourceType: prediction.resourceType, disagreements: [{ kind: 'only-predicted', action: prediction.action }] });
  }
  return { resources, nested, agrees: resources.every((r) => r.disagreements.length === 0) };
}

function disagreements(prediction: ResourceChange, actual: ChangeSetChange): ChangeSetDisagreement[] {
  // A drift-aware change set names a resource whose drift status only is reset `SyncWithActual`.
  const predictedAction = prediction.syncWithActual ? 'SyncWithActual' : prediction.action;
  if (predictedAction !== actual.action) return [{ kind: 'action', changeSet: actual.action, predicted: predictedAction }];
  const found: ChangeSetDisagreement[] = [...driftDisagreements(prediction, actual)];
  if (actual.action === 'Modify' && (actual.replacement ?? 'False') !== (prediction.replacement ?? 'False')) {
    found.push({ kind: 'replacement', changeSet: actual.replacement ?? 'False', predicted: prediction.replacement ?? 'False' });
  }
  const changed = new Set(actual.details.map((d) => targetName(d.target)));
  const predictedChanged = new Set(prediction.details.map((d) => targetName(d.target)));
  const onlyInChangeSet = [...changed].filter((name) => !predictedChanged.has(name)).sort();
  const onlyPredicted = [...predictedChanged].filter((name) => !changed.has(name)).sort();
  if (onlyInChangeSet.length > 0 || onlyPredicted.length > 0) found.push({ kind: 'details', onlyInChangeSet, onlyPredicted });
  return found;
}

/**
 * Where a drift-aware change set (which reads the live state when it is created) and the last
 * drift detection disagree: the resource's drift status, and each live value it starts from.
 */
function driftDisagreements(prediction: ResourceChange, actual: ChangeSetChange): ChangeSetDisagreement[] {
  const found: ChangeSetDisagreement[] = [];
  const drifted = (prediction.drift ?? []).length > 0;
  if (actual.driftStatus === 'MODIFIED' && !drifted) found.push({ kind: 'drift-status', changeSet: 'MODIFIED', predicted: 'no drift found by the last detection' });
  if (actual.driftStatus === 'IN_SYNC' && drifted) found.push({ kind: 'drift-status', changeSet: 'IN_SYNC', predicted: 'MODIFIED' });
  for (const detail of actual.details) {
    const live = detail.target.drift?.actualValue ?? (detail.target.beforeValueFrom === 'ACTUAL_STATE' ? detail.target.beforeValue : undefined);
    if (live === undefined || detail.target.path === undefined) continue;
    const ours = prediction.details.find((d) => d.target.path === detail.target.path && d.target.beforeValueFrom === 'ACTUAL_STATE');
    if (ours?.target.beforeValue !== undefined && !sameDriftValue(ours.target.beforeValue, live)) {
      found.push({ kind: 'live-value', property: detail.target.path.replace(/^\/Properties\//, ''), changeSet: live, predicted: ours.target.beforeValue });
    }
  }
  return found;
}

/** What a detail changes: the property's name, `Tags` for the tags (which change sets write without a name), else the attribute. */
function targetName(target: { attribute: string; name?: string }): string {
  if (target.attribute === 'Tags') return 'Tags';
  return target.name ?? target.attribute;
}
