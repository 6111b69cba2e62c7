/**
 * Conditions SAM adds to a template: an `Fn::Or` over the conditions of the resources a generated
 * resource serves (the implicit API under several functions' conditions), split into chained
 * conditions of at most ten each (SAM's `make_combined_condition`).
 */
import type { PlainMap } from './values';

const MAX_CONDITIONS = 10;

/** The conditions to add so that `name` holds when any of `conditions` holds; none for fewer than two. */
export function makeCombinedCondition(conditions: readonly string[], name: string): PlainMap | undefined {
  if (conditions.length < 2) return undefined;
  let pending: string[] = [...conditions];
  let remaining = conditionCount(pending.length) - 1;
  const out: PlainMap = {};
  while (pending.length > 1) {
    let conditionName = name;
    if (remaining > 0) {
      conditionName = `${name}${remaining}`;
      remaining--;
    }
    out[conditionName] = { 'Fn::Or': pending.slice(0, MAX_CONDITIONS).map((c) => ({ Condition: c })) };
    pending = [...pending.slice(MAX_CONDITIONS), conditionName];
  }
  return out;
}

function conditionCount(length: number): number {
  let count = 1;
  while (length > MAX_CONDITIONS) {
    count++;
    length = length - MAX_CONDITIONS + 1;
  }
  return count;
}
