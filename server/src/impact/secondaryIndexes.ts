/**
 * A DynamoDB table's global secondary indexes, compared as DynamoDB compares them: by index name,
 * not by their place in the list (docs/update-rules.md#secondary-indexes). An update may create
 * or delete one index, or change the throughput and contributor insights of the indexes it keeps;
 * two creations or deletions in one update (a renamed index is both) make it fail, and any other
 * change to a kept index is not supported. The list's order means nothing.
 */
import { isSymbolic, isValueObject, type Value } from '../evaluate/value';
import type { ResourceSpec, UpdateBehavior } from '../spec/types';
import type { UpdateFailure } from './types';
import { diffValues, UNCHANGED } from './valueDiff';

export const TABLE = 'AWS::DynamoDB::Table';
export const INDEXES = 'GlobalSecondaryIndexes';

/** What the update does to a table's global secondary indexes: the behaviour every detail under them takes, and the failure, if any. */
export interface IndexVerdict {
  behavior: UpdateBehavior;
  failure?: Extract<UpdateFailure, { kind: 'index-operations' }>;
}

/** The indexes of a list whose every index has a plain name, by name; undefined when a name is not known here. */
function byName(list: Value | undefined): Map<string, Value> | undefined {
  if (list === undefined) return new Map();
  if (!Array.isArray(list)) return undefined;
  const indexes = new Map<string, Value>();
  for (const index of list) {
    const name = isValueObject(index) ? index.IndexName : undefined;
    // A name known only at deploy time, or written twice (DynamoDB rejects that), leaves the list to be judged by place.
    if (typeof name !== 'string' || isSymbolic(name) || indexes.has(name)) return undefined;
    indexes.set(name, index);
  }
  return indexes;
}

/**
 * The verdict on a table's `GlobalSecondaryIndexes` going from `before` to `after`; undefined
 * when an index name is known only at deploy time (each change is then judged where it stands).
 */
export function indexVerdict(before: Value | undefined, after: Value | undefined, spec: ResourceSpec): IndexVerdict | undefined {
  const old = byName(before);
  const next = byName(after);
  if (!old || !next) return undefined;
  const created = [...next.keys()].filter((name) => !old.has(name));
  const deleted = [...old.keys()].filter((name) => !next.has(name));
  if (created.length + deleted.length > 1) return { behavior: 'not-updatable', failure: { kind: 'index-operations', created, deleted } };
  // A kept index may change only where the specification says a change is supported.
  for (const [name, index] of next) {
    if (!old.has(name)) continue;
    for (const difference of diffValues(old.get(name), index, () => UNCHANGED)) {
      const names = difference.path.filter((step): step is string => typeof step === 'string');
      const behavior = spec.propertyBehavior(TABLE, [INDEXES, ...names]).behavior;
      if (behavior !== 'no-interruption') return { behavior };
    }
  }
  return { behavior: 'no-interruption' };
}
