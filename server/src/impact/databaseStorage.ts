/**
 * A DB instance's new allocated storage, as RDS takes it (docs/update-rules.md#database-storage):
 * RDS never reduces the storage of a DB instance, and increases it by at least 10 percent.
 * CloudFormation accepts such an update and then fails it when RDS refuses the modification.
 */
import type { EvaluatedResource } from '../evaluate/types';
import type { UpdateFailure } from './types';
import { propertyOf, wholeNumber } from './writtenValues';


function allocated(resource: EvaluatedResource): number | undefined {
  return wholeNumber(propertyOf(resource.properties, 'AllocatedStorage'));
}

/**
 * Why RDS refuses a DB instance's new `AllocatedStorage`, when it does: less than before, or less
 * than 10 percent more. A member of an Aurora cluster, whose storage the cluster manages, is not
 * judged.
 */
export function allocatedStorageFailure(type: string, before: EvaluatedResource, after: EvaluatedResource): UpdateFailure | undefined {
  if (type !== 'AWS::RDS::DBInstance') return undefined;
  if (propertyOf(after.properties, 'DBClusterIdentifier') !== undefined) return undefined;
  const from = allocated(before);
  const to = allocated(after);
  if (from === undefined || to === undefined || from === to) return undefined;
  if (to < from) return { kind: 'storage-decrease', from, to };
  // At least 10 percent more, in whole numbers: 10 × to ≥ 11 × from.
  if (to * 10 < from * 11) return { kind: 'storage-increase-too-small', from, to };
  return undefined;
}
