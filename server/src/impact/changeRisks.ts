/**
 * What a replacement or a removal puts at risk: the data the deleted physical resource holds
 * (docs/update-rules.md#data-loss), or a cleanup that cannot delete it
 * (docs/update-rules.md#cleanup-may-fail, docs/update-rules.md#deletion-protected).
 */
import type { EvaluatedResource } from '../evaluate/types';
import type { Value } from '../evaluate/value';
import { dataHoldingType, effectiveDeletionPolicy, effectiveReplacePolicy, type EffectivePolicy } from './dataHolding';
import { deletionProtection } from './deletionProtection';
import type { ChangeRisk, ResourceChange } from './types';

/**
 * The risks of a change: for a replacement, the old resource under the new template's
 * `UpdateReplacePolicy` (for a possible replacement the edit itself decides, each marked
 * `possible`); for a removal, the resource under its deployed `DeletionPolicy`. A deletion the
 * deployed resource's protection refuses is a cleanup that fails (deletionProtection.ts); data kept
 * (`Retain`) or snapshotted says so. Other changes, and types that hold no data, carry none.
 */
export function changeRisks(change: ResourceChange, before: EvaluatedResource, after: EvaluatedResource | undefined): ChangeRisk[] {
  const held = dataHoldingType(change.resourceType);
  if (change.action === 'Remove') {
    const written = writtenPolicy(before.attributes.DeletionPolicy);
    const { policy } = effectiveDeletionPolicy(change.resourceType, written, before.properties);
    return deletionRisks(change.resourceType, held, policy, 'DeletionPolicy', written, before.properties);
  }
  // A possible replacement counts when the edit itself may replace the resource (a Static detail
  // decides it), not when it only reads a value that may change: that doubt is the other resource's.
  const deciding = change.decidedBy !== undefined ? change.details[change.decidedBy] : undefined;
  const possible = change.impact === 'conditional-replacement' && deciding?.evaluation === 'Static';
  if (change.action === 'Modify' && (change.impact === 'replacement' || possible) && after !== undefined) {
    const written = writtenPolicy(after.attributes.UpdateReplacePolicy);
    // The old resource is deleted as it was deployed: its properties decide what blocks the delete.
    const risks = deletionRisks(change.resourceType, held, effectiveReplacePolicy(change.resourceType, written), 'UpdateReplacePolicy', written, before.properties);
    return possible ? risks.map((risk) => ({ ...risk, possible: true as const })) : risks;
  }
  return [];
}

function deletionRisks(
  resourceType: string,
  held: ReturnType<typeof dataHoldingType>,
  policy: EffectivePolicy,
  attribute: 'UpdateReplacePolicy' | 'DeletionPolicy',
  written: string | undefined,
  deployedProperties: Value,
): ChangeRisk[] {
  // What becomes of the data is said for every fate, so that a kept or snapshotted copy and an
  // empty new resource are as visible as a deletion; a resource that holds no data says nothing.
  if (policy === 'Retain') return held === undefined ? [] : [{ kind: 'data-kept', holds: held.holds, policy: attribute }];
  // The service refuses the delete before anything is done, a final snapshot included: the resource stays, its data with it.
  const protection = deletionProtection(resourceType, deployedProperties);
  if (protection !== undefined) return [{ kind: 'deletion-protected', protection }];
  if (held === undefined) return [];
  if (policy === 'Snapshot') return [{ kind: 'data-snapshot', holds: held.holds, policy: attribute }];
  if (held.refusesDeleteWhileHolding?.(deployedProperties)) return [{ kind: 'cleanup-may-fail', holds: held.holds }];
  return [{ kind: 'data-loss', holds: held.holds, policy: attribute, ...(written !== undefined ? { written } : {}) }];
}

/** A policy attribute as written, when it is a plain value. */
function writtenPolicy(value: Value | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
