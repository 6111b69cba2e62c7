/**
 * How CloudFormation carries out an update where an `UpdatePolicy` decides it: an alias's traffic
 * shifted by CodeDeploy, an Auto Scaling group's instances replaced or kept.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import { autoScalingRolloutOf } from './autoScalingRollout';
import { trafficShiftOf } from './trafficShift';
import type { ResourceChange, UpdateRollout } from './types';

/** How the change is carried out, when its type has an update policy that decides it; undefined otherwise. */
export function rolloutOf(change: ResourceChange, after: EvaluatedTemplate): UpdateRollout | undefined {
  return trafficShiftOf(change, after) ?? autoScalingRolloutOf(change, after);
}
