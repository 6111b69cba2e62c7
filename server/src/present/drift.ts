/**
 * Drift in words: what an update does to a property changed outside CloudFormation
 * (`MemorySize: live 512 → 384; the template said 256`), a stale or missing detection, and a
 * resource deleted outside CloudFormation. Values are drift detection's JSON and the engine's
 * rendering, as a change set writes them. Dates are the detection's day, so that the words do not
 * depend on the clock; a face that has the clock says how long ago.
 */
import type { DriftEffect } from '../impact/types';
import { ago } from './durations';
import { listSome } from './lists';

/** `MemorySize`, `Tags/1/Value`: a drift path as people read it. */
export function driftPropertyName(path: string): string {
  return path.replace(/^\//, '');
}

/** `2026-12-03`: the day a detection ran. */
export function detectionDay(checkedAt: number | undefined): string {
  return checkedAt === undefined ? 'an earlier detection' : new Date(checkedAt).toISOString().slice(0, 10);
}

const KEPT_BECAUSE = {
  'create-only': 'no update can change it (it requires replacement)',
  'aws-managed': 'AWS manages it (a scaling policy or automatic upgrades move it)',
  'external-tag': 'the template does not name this tag key',
} as const;

/** What the update does to one drifted property of `logicalId`. */
export function driftEffectText(logicalId: string, effect: DriftEffect): string {
  const name = driftPropertyName(effect.path);
  const live = effect.live ?? '(absent)';
  const previous = effect.previous ?? '(absent)';
  const next = effect.next ?? '(absent)';
  const when = ` (drift detected ${detectionDay(effect.checkedAt)})`;
  switch (effect.kind) {
    case 'overwritten':
      return `${logicalId} ${name}: live ${live} → ${next}; the template said ${previous}. The value changed outside CloudFormation is overwritten${when}`;
    case 'may-revert':
      return `${logicalId} ${name}: live ${live}, the template says ${next}. This update of ${logicalId} may write the template's value back, as its type's update handler decides${when}`;
    case 'stays':
      return `${logicalId} ${name}: live ${live}, the template says ${next}. This update leaves ${logicalId} alone, and the drift stays${when}`;
    case 'discarded':
      return `${logicalId} ${name}: live ${live}; ${logicalId} is replaced, and the new one is made as the template says (${next})${when}`;
    case 'reverted':
      return `${logicalId} ${name}: live ${live} → ${next}. REVERT_DRIFT sets it back to the template's value${when}`;
    case 'synced':
      return `${logicalId} ${name}: the template now says the live ${live}. REVERT_DRIFT resets its drift status without changing it${when}`;
    case 'kept':
      return `${logicalId} ${name}: live ${live}, the template says ${next}. REVERT_DRIFT leaves it: ${KEPT_BECAUSE[effect.why ?? 'aws-managed']}${when}`;
  }
}

/** The short form for a lens: `drift overwritten: MemorySize live 512`. */
export function driftLensSuffix(effects: readonly DriftEffect[] | undefined): string {
  const overwritten = (effects ?? []).filter((e) => e.kind === 'overwritten' || e.kind === 'reverted');
  if (overwritten.length > 0) return ` · overwrites drift: ${listSome(overwritten.map((e) => `${driftPropertyName(e.path)} live ${e.live ?? '(absent)'}`), 1)}`;
  const mayRevert = (effects ?? []).filter((e) => e.kind === 'may-revert');
  if (mayRevert.length > 0) return ` · may revert drift: ${listSome(mayRevert.map((e) => driftPropertyName(e.path)), 1)}`;
  return '';
}

/** A detection older than the resource's last update. */
export function staleDriftText(logicalId: string, checkedAt: number, lastUpdated: number): string {
  return `${logicalId}: the last drift detection (${detectionDay(checkedAt)}) is older than its last update (${detectionDay(lastUpdated)}), so it says nothing about ${logicalId} as it is now; detect drift again to see what was changed outside CloudFormation`;
}

/** A resource deleted outside CloudFormation, which the update leaves alone. */
export function deletedDriftText(logicalId: string, checkedAt: number | undefined): string {
  return `${logicalId} was deleted outside CloudFormation (drift detected ${detectionDay(checkedAt)}); the stack still lists it, and an update that modifies it fails`;
}

/** A stack's or resource's drift status in a word or two, with its age: `drifted (checked 3 d ago)`, `not checked`. */
export function driftStatusWords(drift: { status: string; checkedAt?: number } | undefined, now: number): string {
  const status = drift?.status ?? 'NOT_CHECKED';
  const word = { DRIFTED: 'drifted', MODIFIED: 'drifted', DELETED: 'deleted outside CloudFormation', IN_SYNC: 'in sync', NOT_CHECKED: 'not checked', UNKNOWN: 'unknown' }[status] ?? status.toLowerCase();
  return drift?.checkedAt !== undefined && status !== 'NOT_CHECKED' ? `${word} (checked ${ago(drift.checkedAt, now)})` : word;
}

/** A finished drift detection's verdict: `Drift detected: 2 resources changed outside CloudFormation.` */
export function driftDetectionMessage(stackDriftStatus: string | undefined, drifted: number): string {
  if (stackDriftStatus === 'IN_SYNC' || drifted === 0) return 'No drift: every checked resource is as the template says.';
  return `Drift detected: ${drifted} resource${drifted === 1 ? '' : 's'} changed outside CloudFormation.`;
}
