/**
 * An EC2 instance's new user data (docs/update-rules.md#user-data): CloudFormation stops and starts
 * an EBS-backed instance to give it new `UserData`, and by default the instance runs user data
 * scripts and cloud-init directives only at its first boot, so the new ones do not run.
 */
import type { ResourceChange, UpdateRollout } from './types';

/** What an instance's update in place with new `UserData` does: a restart whose new scripts do not run by default. */
export function userDataRolloutOf(change: ResourceChange): UpdateRollout | undefined {
  if (change.resourceType !== 'AWS::EC2::Instance' || change.action !== 'Modify') return undefined;
  if (change.impact !== 'some-interruption' && change.impact !== 'no-interruption') return undefined;
  return change.details.some((d) => d.target.name === 'UserData' && !d.keepsValue) ? { kind: 'user-data-not-rerun' } : undefined;
}
