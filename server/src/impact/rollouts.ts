/**
 * How CloudFormation carries out an update where an `UpdatePolicy` decides it, or what an update
 * leaves as it was: an alias's traffic shifted by CodeDeploy, an Auto Scaling group's instances
 * replaced or kept, an instance's new user data that does not run.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import { autoScalingRolloutOf } from './autoScalingRollout';
import { userDataRolloutOf } from './instanceUserData';
import { trafficShiftOf } from './trafficShift';
import type { ResourceChange, UpdateRollout } from './types';

/** How the change is carried out, when its type has an update policy that decides it; undefined otherwise. */
export function rolloutOf(change: ResourceChange, after: EvaluatedTemplate): UpdateRollout | undefined {
  return trafficShiftOf(change, after) ?? autoScalingRolloutOf(change, after) ?? userDataRolloutOf(change);
}
