/**
 * What an Auto Scaling group's update does to its instances (docs/update-rules.md#group-instances):
 * a new launch template or configuration reaches the running instances only through an
 * `UpdatePolicy` that replaces them (a rolling update, a replacing update, an instance refresh),
 * each started by the changes the AWS page of the attribute lists. Without one, the instances
 * running keep what they were launched with.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import { isValueObject, type Value } from '../evaluate/value';
import type { ResourceChange, UpdateRollout } from './types';
import { flag, isTrue, wholeNumber, withoutAbsent } from './writtenValues';

const GROUP = 'AWS::AutoScaling::AutoScalingGroup';
/** The changes that start a rolling or a replacing update. */
const ROLLING_TRIGGERS = new Set(['LaunchConfigurationName', 'LaunchTemplate', 'VPCZoneIdentifier', 'PlacementGroup']);
/** The changes that start an instance refresh. */
const REFRESH_TRIGGERS = new Set(['LaunchTemplate', 'MixedInstancesPolicy', 'VPCZoneIdentifier', 'AvailabilityZones', 'AvailabilityZoneIds', 'PlacementGroup']);
/** The changes that give instances launched from now on another configuration. */
const NEW_CONFIGURATION = new Set(['LaunchConfigurationName', 'LaunchTemplate']);

/** What the update of an Auto Scaling group updated in place does to its instances, under the new template's `UpdatePolicy`. */
export function autoScalingRolloutOf(change: ResourceChange, after: EvaluatedTemplate): UpdateRollout | undefined {
  if (change.resourceType !== GROUP || change.action !== 'Modify') return undefined;
  if (change.impact !== 'no-interruption' && change.impact !== 'some-interruption') return undefined;
  const changed = new Set(change.details.filter((d) => !d.keepsValue && d.target.name !== undefined).map((d) => d.target.name!));
  const any = (triggers: ReadonlySet<string>) => [...changed].some((name) => triggers.has(name));
  const written = after.resources.get(change.logicalId)?.attributes.UpdatePolicy;
  const policy = isValueObject(written) ? written : {};
  const replacing = policy.AutoScalingReplacingUpdate;
  const willReplace = isValueObject(replacing) ? flag(replacing.WillReplace) : false;
  // WillReplace takes precedence over a rolling update when both are written; one only deploy-time values decide leaves the way open.
  if (any(ROLLING_TRIGGERS) && willReplace !== false) return willReplace ? { kind: 'replacing-update' } : undefined;
  if (isValueObject(policy.AutoScalingInstanceRefresh) && any(REFRESH_TRIGGERS)) return instanceRefresh(policy.AutoScalingInstanceRefresh);
  if (isValueObject(policy.AutoScalingRollingUpdate) && any(ROLLING_TRIGGERS)) return rollingUpdate(policy.AutoScalingRollingUpdate);
  return any(NEW_CONFIGURATION) ? { kind: 'instances-kept' } : undefined;
}

/** `AutoScalingRollingUpdate` with its defaults: one instance at a time, none kept in service, `PT5M` when it waits for signals. */
function rollingUpdate(policy: Record<string, Value>): UpdateRollout {
  const waitsForSignals = isTrue(policy.WaitOnResourceSignals);
  const pauseTime = typeof policy.PauseTime === 'string' ? policy.PauseTime : waitsForSignals ? 'PT5M' : undefined;
  return withoutAbsent({
    kind: 'rolling-update' as const,
    maxBatchSize: wholeNumber(policy.MaxBatchSize) ?? 1,
    minInstancesInService: wholeNumber(policy.MinInstancesInService) ?? 0,
    pauseTime,
    waitsForSignals,
  });
}

/** `AutoScalingInstanceRefresh`: its strategy, the minimum healthy share written, and its alarms. */
function instanceRefresh(policy: Record<string, Value>): UpdateRollout {
  const preferences = isValueObject(policy.Preferences) ? policy.Preferences : {};
  const alarms = isValueObject(preferences.AlarmSpecification) ? preferences.AlarmSpecification.Alarms : undefined;
  return withoutAbsent({
    kind: 'instance-refresh' as const,
    strategy: typeof policy.Strategy === 'string' ? policy.Strategy : undefined,
    minHealthyPercentage: wholeNumber(preferences.MinHealthyPercentage),
    alarms: Array.isArray(alarms) ? alarms.length : 0,
  });
}
