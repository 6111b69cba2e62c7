/**
 * The order of update behaviours from harmless to worst, shared by the spec lookups and by
 * anyone who combines the behaviours of several changed properties ("replacement trumps").
 */
import type { UpdateBehavior } from './types';

const RANK: Record<Exclude<UpdateBehavior, 'unknown'>, number> = {
  'no-interruption': 0,
  'some-interruption': 1,
  'conditional-replacement': 2,
  replacement: 3,
  'not-updatable': 4,
};

/** Position of a known behaviour in the order no-interruption < … < not-updatable. */
export function behaviorRank(behavior: Exclude<UpdateBehavior, 'unknown'>): number {
  return RANK[behavior];
}

/**
 * The worse of two behaviours. `unknown` wins over every known behaviour except `not-updatable`,
 * because an unknown property may well require replacement and must never read as safe.
 */
export function worseBehavior(a: UpdateBehavior, b: UpdateBehavior): UpdateBehavior {
  if (a === 'not-updatable' || b === 'not-updatable') return 'not-updatable';
  if (a === 'unknown' || b === 'unknown') return 'unknown';
  return RANK[a] >= RANK[b] ? a : b;
}
