/**
 * Gradual deployments (`DeploymentPreference`): each enabled preference adds a CodeDeploy
 * deployment group `<Function>DeploymentGroup` and an `UpdatePolicy` on the function's alias;
 * the template gets one `ServerlessDeploymentApplication` and, unless every preference names a
 * role, one `CodeDeployServiceRole` (deployment_preference_collection.py).
 */
import { invalidResource, type SamError } from './errors';
import { GeneratedResource } from './generated';
import { managedPolicyArn } from './iam';
import { deepCopy, isIntrinsic, isIntrinsicIf, isList, isMap, isNoValue, tagList, type PlainMap } from './values';
import { setEntry } from '../../template/tree';

export const CODEDEPLOY_APPLICATION = 'ServerlessDeploymentApplication';
export const CODEDEPLOY_SERVICE_ROLE = 'CodeDeployServiceRole';
const CODEDEPLOY_CONDITION = 'ServerlessCodeDeployCondition';
const PREDEFINED_CONFIGURATIONS = new Set([
  'Canary10Percent5Minutes',
  'Canary10Percent10Minutes',
  'Canary10Percent15Minutes',
  'Canary10Percent30Minutes',
  'Linear10PercentEvery1Minute',
  'Linear10PercentEvery2Minutes',
  'Linear10PercentEvery3Minutes',
  'Linear10PercentEvery10Minutes',
  'AllAtOnce',
]);

/** One resource's deployment preference. */
export interface DeploymentPreference {
  enabled: boolean;
  type?: unknown;
  preTrafficHook?: unknown;
  postTrafficHook?: unknown;
  alarms?: unknown;
  role?: unknown;
  triggerConfigurations?: unknown;
  condition?: string;
  /** The tags of a resource that propagates them, for its deployment group and the shared application. */
  tags?: PlainMap;
}

/** `DeploymentPreference.from_dict`. */
export function readDeploymentPreference(logicalId: string, preference: PlainMap, condition: unknown): DeploymentPreference | SamError {
  let enabled = preference.Enabled ?? true;
  if (enabled === 'false' || enabled === 'False') enabled = false;
  if (!enabled) return { enabled: false };
  if (!('Type' in preference)) return invalidResource(logicalId, "'DeploymentPreference' is missing required Property 'Type'", ['Properties', 'DeploymentPreference']);
  const hooks = preference.Hooks ?? {};
  if (!isMap(hooks)) return invalidResource(logicalId, "'Hooks' property of 'DeploymentPreference' must be a dictionary", ['Properties', 'DeploymentPreference', 'Hooks']);
  for (const key of Object.keys(hooks)) {
    if (key !== 'PreTraffic' && key !== 'PostTraffic') {
      return invalidResource(logicalId, `${key} is not a valid Hook for DeploymentPreference. Valid Hooks are PreTraffic and PostTraffic.`, ['Properties', 'DeploymentPreference', 'Hooks', key]);
    }
  }
  return {
    enabled: true,
    type: preference.Type,
    preTrafficHook: hooks.PreTraffic,
    postTrafficHook: hooks.PostTraffic,
    alarms: preference.Alarms,
    role: preference.Role,
    triggerConfigurations: preference.TriggerConfigurations,
    condition: preference.PassthroughCondition === true && typeof condition === 'string' ? condition : undefined,
  };
}

/** The deployment preferences of a template, by resource, and what they generate together. */
export class DeploymentPreferences {
  private readonly byResource = new Map<string, { preference: DeploymentPreference; origin: string }>();

  add(logicalId: string, preference: DeploymentPreference): void {
    this.byResource.set(logicalId, { preference, origin: logicalId });
  }

  get(logicalId: string): DeploymentPreference | undefined {
    return this.byResource.get(logicalId)?.preference;
  }

  private get preferences(): DeploymentPreference[] {
    return [...this.byResource.values()].map((v) => v.preference);
  }

  anyEnabled(): boolean {
    return this.preferences.some((p) => p.enabled);
  }

  canSkipServiceRole(): boolean {
    return this.preferences.every((p) => p.role || !p.enabled);
  }

  private needsCondition(): boolean {
    return this.byResource.size > 0 && !this.preferences.some((p) => !p.condition && p.enabled);
  }

  private conditions(): string[] {
    return [...new Set(this.preferences.map((p) => p.condition).filter((c): c is string => c !== undefined))];
  }

  /** The combined condition to add to the template, when resources under several conditions share the application. */
  combinedCondition(): PlainMap | undefined {
    if (!this.needsCondition()) return undefined;
    const conditions = this.conditions();
    if (conditions.length < 2) return undefined;
    return { [CODEDEPLOY_CONDITION]: { 'Fn::Or': conditions.map((c) => ({ Condition: c })) } };
  }

  private sharedCondition(): string | undefined {
    if (!this.needsCondition()) return undefined;
    const conditions = this.conditions();
    return conditions.length <= 1 ? conditions[0] : CODEDEPLOY_CONDITION;
  }

  /** The CodeDeploy application, its service role when needed, and each enabled resource's deployment group. */
  resources(partition: string): (GeneratedResource | SamError)[] {
    const first = [...this.byResource.keys()].find((id) => this.byResource.get(id)!.preference.enabled)!;
    const shared = { logicalId: first, property: 'DeploymentPreference' };
    const out: (GeneratedResource | SamError)[] = [];
    const condition = this.sharedCondition();
    const attributes = condition === undefined ? {} : { Condition: condition };
    const application = new GeneratedResource(CODEDEPLOY_APPLICATION, 'AWS::CodeDeploy::Application', shared, attributes).set('ComputePlatform', 'Lambda');
    const tagged = this.preferences.find((p) => p.enabled && p.tags !== undefined);
    if (tagged) application.set('Tags', tagList(tagged.tags));
    out.push(application);
    if (!this.canSkipServiceRole()) {
      const role = new GeneratedResource(CODEDEPLOY_SERVICE_ROLE, 'AWS::IAM::Role', shared, attributes);
      role.set('AssumeRolePolicyDocument', {
        Version: '2012-10-17',
        Statement: [{ Action: ['sts:AssumeRole'], Effect: 'Allow', Principal: { Service: ['codedeploy.amazonaws.com'] } }],
      });
      const policy = partition === 'aws-iso' || partition === 'aws-iso-b' ? 'service-role/AWSCodeDeployRoleForLambdaLimited' : 'service-role/AWSCodeDeployRoleForLambda';
      role.set('ManagedPolicyArns', [managedPolicyArn(partition, policy)]);
      out.push(role);
    }
    for (const [logicalId, { preference }] of this.byResource) {
      if (preference.enabled) out.push(this.deploymentGroup(logicalId, preference));
    }
    return out;
  }

  private deploymentGroup(logicalId: string, preference: DeploymentPreference): GeneratedResource | SamError {
    const group = new GeneratedResource(deploymentGroupId(logicalId), 'AWS::CodeDeploy::DeploymentGroup', { logicalId, property: 'DeploymentPreference' });
    const alarms = alarmConfiguration(preference.alarms);
    if (alarms instanceof AlarmsError) return invalidResource(logicalId, alarms.message, ['Properties', 'DeploymentPreference', 'Alarms']);
    group.set('AlarmConfiguration', alarms, 'DeploymentPreference.Alarms');
    group.set('ApplicationName', { Ref: CODEDEPLOY_APPLICATION });
    group.set('AutoRollbackConfiguration', { Enabled: true, Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_ALARM', 'DEPLOYMENT_STOP_ON_REQUEST'] });
    group.set('DeploymentConfigName', replaceDeploymentTypes(deepCopy(preference.type)), 'DeploymentPreference.Type');
    group.set('DeploymentStyle', { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' });
    group.set('ServiceRoleArn', preference.role ? preference.role : { 'Fn::GetAtt': [CODEDEPLOY_SERVICE_ROLE, 'Arn'] }, 'DeploymentPreference.Role');
    if (preference.triggerConfigurations) group.set('TriggerConfigurations', preference.triggerConfigurations, 'DeploymentPreference.TriggerConfigurations');
    if (preference.tags) group.set('Tags', tagList(preference.tags), 'Tags');
    if (preference.condition) group.setAttribute('Condition', preference.condition);
    return group;
  }

  /** The alias's `UpdatePolicy` for a resource with an enabled preference. */
  updatePolicy(logicalId: string): PlainMap {
    const preference = this.get(logicalId)!;
    const update: PlainMap = { ApplicationName: { Ref: CODEDEPLOY_APPLICATION }, DeploymentGroupName: { Ref: deploymentGroupId(logicalId) } };
    if (preference.preTrafficHook !== undefined && preference.preTrafficHook !== null) update.BeforeAllowTrafficHook = preference.preTrafficHook;
    if (preference.postTrafficHook !== undefined && preference.postTrafficHook !== null) update.AfterAllowTrafficHook = preference.postTrafficHook;
    return { CodeDeployLambdaAliasUpdate: update };
  }
}

function deploymentGroupId(logicalId: string): string {
  return `${logicalId}DeploymentGroup`;
}

/** Why `Alarms` cannot be read (SAM's ValueError, reported for the function). */
class AlarmsError {
  constructor(readonly message: string) {}
}

function alarmConfiguration(alarms: unknown): unknown {
  if (!alarms || isNoValue(alarms)) return undefined;
  if (isIntrinsicIf(alarms)) {
    const copy = deepCopy(alarms);
    const args = copy['Fn::If'];
    if (args.length !== 3) return new AlarmsError('Fn::If requires 3 arguments');
    const a = buildAlarms(args[1]);
    if (a instanceof AlarmsError) return a;
    const b = buildAlarms(args[2]);
    if (b instanceof AlarmsError) return b;
    args[1] = a;
    args[2] = b;
    return copy;
  }
  return buildAlarms(alarms);
}

function buildAlarms(alarms: unknown): unknown {
  if (!isList(alarms)) return new AlarmsError('Alarms must be a list');
  if (alarms.length === 0 || isNoValue(alarms[0])) return {};
  return { Enabled: true, Alarms: alarms.map((name) => ({ Name: name })) };
}

function replaceDeploymentTypes(value: unknown, key?: string): unknown {
  if (isList(value)) return value.map((item) => replaceDeploymentTypes(item));
  if (isIntrinsic(value)) {
    const out: PlainMap = {};
    for (const [k, v] of Object.entries(value as PlainMap)) setEntry(out, k, replaceDeploymentTypes(v, k));
    return out;
  }
  if (typeof value === 'string' && PREDEFINED_CONFIGURATIONS.has(value)) {
    if (key === 'Fn::Sub') return ['CodeDeployDefault.Lambda${ConfigName}', { ConfigName: value }];
    return { 'Fn::Sub': ['CodeDeployDefault.Lambda${ConfigName}', { ConfigName: value }] };
  }
  return value;
}
