/**
 * Why a value changes, in one phrase form shared by every face: `VpcId ← VPC replaced`,
 * `CidrBlock ← parameter VpcCidr`, `CidrBlock ← VPC.CidrBlock`, `Tags changed`; and the chain of
 * a cascaded replacement, `CidrBlock ← parameter VpcCidr → new VPC → new Subnet`.
 */
import { shownDetails } from '../impact/claims';
import type { ChangeDetail, ChangeSource, ResourceChange } from '../impact/types';
import { lookupQualifier } from './values';

/** The name a detail is known by: its top-level property, or the section for Metadata. */
export function detailName(detail: ChangeDetail): string {
  return detail.target.name ?? detail.target.attribute;
}

/** The details that decide a change's impact: for a replacement, those that may recreate it; for a failure, those that cannot be updated. */
export function decisiveDetails(change: ResourceChange): ChangeDetail[] {
  const shown = shownDetails(change);
  if (change.impact === 'replacement' || change.impact === 'conditional-replacement') {
    const recreating = shown.filter((d) => d.behavior === 'replacement' || d.behavior === 'conditional-replacement' || d.behavior === 'unknown');
    if (recreating.length > 0) return recreating;
  }
  if (change.impact === 'will-fail') {
    const failing = shown.filter((d) => d.behavior === 'not-updatable');
    if (failing.length > 0) return failing;
  }
  return shown;
}

/** One cause: what changed `name`, given by what changed it and the resources this update replaces for certain. */
export function causePhrase(name: string, changeSource: ChangeSource, causingEntity: string | undefined, replaced: ReadonlySet<string>): string {
  if (changeSource === 'ParameterReference' && causingEntity) return `${name} ← parameter ${causingEntity}`;
  if ((changeSource === 'ResourceReference' || changeSource === 'ResourceAttribute') && causingEntity) {
    const logicalId = causingEntity.split('.', 1)[0];
    return replaced.has(logicalId) ? `${name} ← ${logicalId} replaced` : `${name} ← ${causingEntity}`;
  }
  return `${name} changed`;
}

/** One detail's cause: `VpcId ← VPC replaced`, `CidrBlock ← parameter Cidr`, `CidrBlock changed`. */
export function detailCause(detail: ChangeDetail, replaced: ReadonlySet<string>): string {
  return `${causePhrase(detailName(detail), detail.changeSource, detail.causingEntity, replaced)}${lookupQualifier(detail)}`;
}

/**
 * The chain of a replacement: the edit at its root, then each resource it replaces down to this
 * one, `new X` for a certain replacement and `maybe new X` for a possible one.
 */
export function replacementChain(change: ResourceChange, replaced: ReadonlySet<string>): string | undefined {
  const cause = change.replacementCause;
  if (cause === undefined) return undefined;
  const root = causePhrase(cause.root.property, cause.root.changeSource, cause.root.causingEntity, replaced);
  const steps = cause.chain.map((logicalId) => (replaced.has(logicalId) ? `new ${logicalId}` : `maybe new ${logicalId}`));
  return [root, ...steps].join(' → ');
}
