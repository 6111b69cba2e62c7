/**
 * The order in which CloudFormation can settle resources: every resource after the ones it
 * references, so a replacement is known before the resources that read its id are classified.
 */
import type { EvaluatedResource } from '../evaluate/types';

/**
 * Logical ids with dependencies first (Kahn's algorithm, iterative so deep chains cannot
 * overflow the stack). Resources caught in a cycle, which CloudFormation rejects anyway, follow
 * in template order.
 */
export function dependencyOrder(resources: ReadonlyMap<string, EvaluatedResource>): string[] {
  const pending = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const [id, resource] of resources) {
    let count = 0;
    for (const dep of new Set(resource.dependsOn)) {
      if (dep === id || !resources.has(dep)) continue;
      count++;
      const list = dependents.get(dep);
      if (list) list.push(id);
      else dependents.set(dep, [id]);
    }
    pending.set(id, count);
  }
  const order: string[] = [];
  const ready: string[] = [];
  for (const [id, count] of pending) if (count === 0) ready.push(id);
  for (let i = 0; i < ready.length; i++) {
    const id = ready[i];
    order.push(id);
    for (const next of dependents.get(id) ?? []) {
      const left = pending.get(next)! - 1;
      pending.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length < resources.size) {
    const placed = new Set(order);
    for (const id of resources.keys()) if (!placed.has(id)) order.push(id);
  }
  return order;
}
