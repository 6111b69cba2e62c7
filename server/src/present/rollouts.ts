/**
 * How an update is carried out, in words: an alias's traffic shifted by CodeDeploy, an Auto
 * Scaling group's instances replaced or kept. The short phrase rides on lenses, the clause on the
 * change's one-line reason (rows, hovers, `--json`).
 */
import type { TrafficRouting, UpdateRollout } from '../impact/types';

type TrafficShift = Extract<UpdateRollout, { kind: 'traffic-shift' }>;

/** `5 minutes`, `1 minute`; `5 min` when short. */
function minutesText(minutes: number, short: boolean): string {
  if (short) return `${minutes} min`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** How traffic moves: `10 % for 5 minutes, then all`, `10 % more every minute`, `all at once`. */
function routingPhrase(routing: TrafficRouting, short: boolean): string {
  switch (routing.type) {
    case 'all-at-once':
      return 'all at once';
    case 'canary':
      return `${routing.percent} % for ${minutesText(routing.minutes, short)}, then all`;
    case 'linear':
      return `${routing.percent} % more every ${routing.minutes === 1 && !short ? 'minute' : minutesText(routing.minutes, short)}`;
  }
}

/** `1 instance`, `2 instances`. */
function instances(count: number): string {
  return count === 1 ? '1 instance' : `${count} instances`;
}

/** `a`, `a or b`, `a, b or c`. */
function eitherOf(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** `its alarm`, `one of 2 alarms`; nothing without alarms. */
function alarmsPhrase(alarms: number | undefined): string[] {
  if (alarms === undefined || alarms === 0) return [];
  return [alarms === 1 ? 'its alarm' : `one of ${alarms} alarms`];
}

/** The short phrase on a lens: `⇄ traffic shift: 10 % for 5 min, then all`, `⇄ rolling update: 2 instances at a time`. */
export function rolloutLensPart(rollout: UpdateRollout): string {
  switch (rollout.kind) {
    case 'traffic-shift':
      return rollout.config?.routing ? `⇄ traffic shift: ${routingPhrase(rollout.config.routing, true)}` : '⇄ traffic shift by CodeDeploy';
    case 'rolling-update':
      return `⇄ rolling update: ${instances(rollout.maxBatchSize)} at a time`;
    case 'replacing-update':
      return '⇄ new group and instances';
    case 'instance-refresh':
      return '⇄ instance refresh';
    case 'instances-kept':
      return 'running instances unchanged';
    case 'user-data-not-rerun':
      return 'restarted; new UserData not run by default';
  }
}

/** ` · ⇄ traffic shift: …` for a change's lens; empty without a rollout. */
export function rolloutLensSuffix(rollout: UpdateRollout | undefined): string {
  return rollout ? ` · ${rolloutLensPart(rollout)}` : '';
}

/** How CodeDeploy moves the alias's traffic, and what stops it. */
function trafficShiftClause(rollout: TrafficShift): string {
  const { config } = rollout;
  const how = config?.routing
    ? `: ${routingPhrase(config.routing, false)}${config.name ? ` (${config.name})` : ''}`
    : config?.name
      ? ` as ${config.name} says`
      : rollout.deploymentGroup
        ? ` as deployment group ${rollout.deploymentGroup} says`
        : '';
  const hooks = [rollout.hooks.beforeTraffic, rollout.hooks.afterTraffic].filter((hook): hook is string => hook !== undefined);
  const stoppers = [...hooks, ...alarmsPhrase(rollout.alarms)];
  return `CodeDeploy shifts its traffic to the new version${how}; the stack update waits for it and rolls back if ${stoppers.length > 0 ? `${eitherOf(stoppers)} stops it` : 'it fails'}`;
}

/** The pace of a rolling update: `keeping at least 1 in service, waiting up to PT5M for each batch's signals`. */
function rollingClause(rollout: Extract<UpdateRollout, { kind: 'rolling-update' }>): string {
  const kept = rollout.minInstancesInService === 0 ? 'with no minimum kept in service (MinInstancesInService: 0)' : `keeping at least ${rollout.minInstancesInService} in service`;
  const pause =
    rollout.pauseTime === undefined ? '' : rollout.waitsForSignals ? `, waiting up to ${rollout.pauseTime} for each batch's signals` : `, pausing ${rollout.pauseTime} after each batch`;
  return `CloudFormation replaces its instances ${rollout.maxBatchSize === 1 ? 'one at a time' : `in batches of up to ${rollout.maxBatchSize}`}, ${kept}${pause} (AutoScalingRollingUpdate)`;
}

/** An instance refresh: its strategy and minimum healthy share as written, and what rolls it back. */
function refreshClause(rollout: Extract<UpdateRollout, { kind: 'instance-refresh' }>): string {
  const written = [rollout.strategy, rollout.minHealthyPercentage === undefined ? undefined : `at least ${rollout.minHealthyPercentage} % healthy`].filter((part) => part !== undefined);
  const how = written.length > 0 ? ` (${written.join(', ')})` : '';
  const stoppers = ['it fails', ...alarmsPhrase(rollout.alarms).map((alarm) => `${alarm} goes off`)];
  return `Auto Scaling replaces its instances by an instance refresh${how}; the stack update waits for it and rolls back if ${eitherOf(stoppers)}`;
}

/**
 * The clause on a change's reason: `; CodeDeploy shifts its traffic to the new version: 10 % for
 * 5 minutes, then all (CodeDeployDefault.LambdaCanary10Percent5Minutes); the stack update waits
 * for it and rolls back if PreTraffic or one of 2 alarms stops it`. Empty without a rollout.
 */
export function rolloutClause(rollout: UpdateRollout | undefined): string {
  if (!rollout) return '';
  switch (rollout.kind) {
    case 'traffic-shift':
      return `; ${trafficShiftClause(rollout)}`;
    case 'rolling-update':
      return `; ${rollingClause(rollout)}`;
    case 'replacing-update':
      return '; CloudFormation replaces the whole group: it creates a new group with new instances, keeps this one until the new one is ready, and deletes it in cleanup (AutoScalingReplacingUpdate)';
    case 'instance-refresh':
      return `; ${refreshClause(rollout)}`;
    case 'instances-kept':
      return '; the running instances keep the configuration they were launched with: only instances launched from now on use the new one (no UpdatePolicy replaces them)';
    case 'user-data-not-rerun':
      return '; the instance is stopped and started for its new UserData, but by default user data scripts and cloud-init directives run only at first launch: the new ones do not run unless cloud-init runs them at every boot or cfn-hup applies the change';
  }
}
