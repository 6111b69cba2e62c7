/**
 * How an update is carried out, in words: an alias's traffic shifted by CodeDeploy. The short
 * phrase rides on lenses, the clause on the change's one-line reason (rows, hovers, `--json`).
 */
import type { TrafficRouting, UpdateRollout } from '../impact/types';

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

/** The short phrase on a lens: `⇄ traffic shift: 10 % for 5 min, then all`. */
export function rolloutLensPart(rollout: UpdateRollout): string {
  const routing = rollout.config?.routing;
  return routing ? `⇄ traffic shift: ${routingPhrase(routing, true)}` : '⇄ traffic shift by CodeDeploy';
}

/** ` · ⇄ traffic shift: …` for a change's lens; empty without a rollout. */
export function rolloutLensSuffix(rollout: UpdateRollout | undefined): string {
  return rollout ? ` · ${rolloutLensPart(rollout)}` : '';
}

/** What can stop the deployment: `PreTraffic, PostTraffic or one of 2 alarms`. */
function stoppers(rollout: UpdateRollout): string | undefined {
  const hooks = [rollout.hooks.beforeTraffic, rollout.hooks.afterTraffic].filter((hook): hook is string => hook !== undefined);
  const alarms = rollout.alarms === undefined || rollout.alarms === 0 ? [] : [rollout.alarms === 1 ? 'its alarm' : `one of ${rollout.alarms} alarms`];
  const all = [...hooks, ...alarms];
  if (all.length === 0) return undefined;
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}`;
}

/**
 * The clause on a change's reason:
 * `; CodeDeploy shifts its traffic to the new version: 10 % for 5 minutes, then all
 * (CodeDeployDefault.LambdaCanary10Percent5Minutes); the stack update waits for it and rolls back
 * if PreTraffic or one of 2 alarms stops it`. Empty without a rollout.
 */
export function rolloutClause(rollout: UpdateRollout | undefined): string {
  if (!rollout) return '';
  const { config } = rollout;
  const how = config?.routing
    ? `: ${routingPhrase(config.routing, false)}${config.name ? ` (${config.name})` : ''}`
    : config?.name
      ? ` as ${config.name} says`
      : rollout.deploymentGroup
        ? ` as deployment group ${rollout.deploymentGroup} says`
        : '';
  const stop = stoppers(rollout);
  return `; CodeDeploy shifts its traffic to the new version${how}; the stack update waits for it and rolls back if ${stop ? `${stop} stops it` : 'it fails'}`;
}
