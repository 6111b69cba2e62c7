/**
 * Gradual Lambda deployments (docs/update-rules.md#traffic-shift): when an `AWS::Lambda::Alias`
 * with a `CodeDeployLambdaAliasUpdate` update policy moves to another version, CloudFormation does
 * not point the alias at it itself; CodeDeploy shifts the alias's traffic as the deployment
 * group's configuration says, and the stack update waits for that deployment and fails with it.
 * This reads, from the new template, what the deployment will be.
 */
import type { EvaluatedResource, EvaluatedTemplate } from '../evaluate/types';
import { isValueObject, ResourceRef, type Value } from '../evaluate/value';
import { isTrue, nameOf, propertyOf, wholeNumber, withoutAbsent } from './writtenValues';
import type { DeploymentConfiguration, ResourceChange, TrafficRouting, UpdateRollout } from './types';

const ALIAS = 'AWS::Lambda::Alias';
const DEPLOYMENT_GROUP = 'AWS::CodeDeploy::DeploymentGroup';
const DEPLOYMENT_CONFIG = 'AWS::CodeDeploy::DeploymentConfig';

/** CodeDeploy's predefined configurations for Lambda, and how each moves traffic. */
const PREDEFINED: ReadonlyMap<string, TrafficRouting> = new Map<string, TrafficRouting>([
  ['CodeDeployDefault.LambdaAllAtOnce', { type: 'all-at-once' }],
  ['CodeDeployDefault.LambdaCanary10Percent5Minutes', { type: 'canary', percent: 10, minutes: 5 }],
  ['CodeDeployDefault.LambdaCanary10Percent10Minutes', { type: 'canary', percent: 10, minutes: 10 }],
  ['CodeDeployDefault.LambdaCanary10Percent15Minutes', { type: 'canary', percent: 10, minutes: 15 }],
  ['CodeDeployDefault.LambdaCanary10Percent30Minutes', { type: 'canary', percent: 10, minutes: 30 }],
  ['CodeDeployDefault.LambdaLinear10PercentEvery1Minute', { type: 'linear', percent: 10, minutes: 1 }],
  ['CodeDeployDefault.LambdaLinear10PercentEvery2Minutes', { type: 'linear', percent: 10, minutes: 2 }],
  ['CodeDeployDefault.LambdaLinear10PercentEvery3Minutes', { type: 'linear', percent: 10, minutes: 3 }],
  ['CodeDeployDefault.LambdaLinear10PercentEvery10Minutes', { type: 'linear', percent: 10, minutes: 10 }],
]);

/**
 * The CodeDeploy deployment an alias's update is, when it is one: the alias is updated in place to
 * another version (a replaced alias is a new one, which CodeDeploy does not deploy) under a
 * `CodeDeployLambdaAliasUpdate` policy in the new template.
 */
export function trafficShiftOf(change: ResourceChange, after: EvaluatedTemplate): UpdateRollout | undefined {
  if (change.resourceType !== ALIAS || change.action !== 'Modify') return undefined;
  if (change.impact !== 'no-interruption' && change.impact !== 'some-interruption') return undefined;
  if (!change.details.some((d) => d.target.name === 'FunctionVersion' && !d.keepsValue)) return undefined;
  const policy = after.resources.get(change.logicalId)?.attributes.UpdatePolicy;
  const update = isValueObject(policy) ? policy.CodeDeployLambdaAliasUpdate : undefined;
  // ApplicationName and DeploymentGroupName are required: without them there is no deployment to speak of.
  if (!isValueObject(update) || update.ApplicationName === undefined || update.DeploymentGroupName === undefined) return undefined;
  const shift: Extract<UpdateRollout, { kind: 'traffic-shift' }> = {
    kind: 'traffic-shift',
    hooks: withoutAbsent({ beforeTraffic: nameOf(update.BeforeAllowTrafficHook), afterTraffic: nameOf(update.AfterAllowTrafficHook) }),
  };
  const groupName = nameOf(update.DeploymentGroupName);
  if (groupName !== undefined) shift.deploymentGroup = groupName;
  const group = declared(after, update.DeploymentGroupName, DEPLOYMENT_GROUP);
  if (group) {
    const config = configurationOf(after, propertyOf(group.properties, 'DeploymentConfigName'));
    if (config) shift.config = config;
    shift.alarms = alarmCount(propertyOf(group.properties, 'AlarmConfiguration'));
  }
  return shift;
}

/** The resource of that type a `Ref` names, when the template declares it. */
function declared(template: EvaluatedTemplate, value: Value | undefined, type: string): EvaluatedResource | undefined {
  if (!(value instanceof ResourceRef)) return undefined;
  const resource = template.resources.get(value.logicalId);
  return resource?.active && resource.type === type ? resource : undefined;
}

/** The deployment group's configuration: a predefined one, one the template declares, or another by name. */
function configurationOf(template: EvaluatedTemplate, value: Value | undefined): DeploymentConfiguration | undefined {
  const config = declared(template, value, DEPLOYMENT_CONFIG);
  if (config) {
    const written = propertyOf(config.properties, 'DeploymentConfigName');
    return withoutAbsent({ name: typeof written === 'string' ? written : config.logicalId, routing: routingOf(propertyOf(config.properties, 'TrafficRoutingConfig')) });
  }
  if (typeof value !== 'string' || value === '') return undefined;
  return withoutAbsent({ name: value, routing: PREDEFINED.get(value) });
}

/** `TrafficRoutingConfig` of an `AWS::CodeDeploy::DeploymentConfig`, when its numbers are known. */
function routingOf(value: Value | undefined): TrafficRouting | undefined {
  if (!isValueObject(value)) return undefined;
  switch (value.Type) {
    case 'AllAtOnce':
      return { type: 'all-at-once' };
    case 'TimeBasedCanary':
      return steps('canary', value.TimeBasedCanary, 'CanaryPercentage', 'CanaryInterval');
    case 'TimeBasedLinear':
      return steps('linear', value.TimeBasedLinear, 'LinearPercentage', 'LinearInterval');
    default:
      return undefined;
  }
}

function steps(type: 'canary' | 'linear', value: Value | undefined, percentKey: string, minutesKey: string): TrafficRouting | undefined {
  if (!isValueObject(value)) return undefined;
  const percent = wholeNumber(value[percentKey]);
  const minutes = wholeNumber(value[minutesKey]);
  return percent !== undefined && minutes !== undefined ? { type, percent, minutes } : undefined;
}

/** How many alarms can stop the deployment: those of an enabled `AlarmConfiguration`. */
function alarmCount(value: Value | undefined): number {
  if (!isValueObject(value)) return 0;
  return isTrue(value.Enabled) && Array.isArray(value.Alarms) ? value.Alarms.length : 0;
}
