/**
 * `AWS::Serverless::CapacityProvider` (sam_resources.py `SamCapacityProvider`, capacity_provider/
 * generators.py): an `AWS::Lambda::CapacityProvider` for Lambda Managed Instances and, unless
 * `OperatorRole` names one, the role Lambda assumes to run the instances (`<Id>OperatorRole`, with
 * the `AWSLambdaManagedEC2ResourceOperator` managed policy). SAM's property names become
 * CloudFormation's (`AllowedTypes` → `AllowedInstanceTypes`, `ScalingConfig` →
 * `CapacityProviderScalingConfig`, a target CPU utilisation → a manual scaling policy); values,
 * intrinsics included, pass through unresolved.
 */
import type { SamResource } from '../model/context';
import { invalidResource, type SamError } from '../model/errors';
import type { GeneratedResource } from '../model/generated';
import { assumeRolePolicy, managedPolicyArn } from '../model/iam';
import { checkProperties, IS_BOOL, IS_DICT, IS_STR, oneOf, strict, type PropertySpec } from '../model/properties';
import { isMap, type PlainMap } from '../model/values';

const CAPACITY_PROVIDER_PROPERTIES: Record<string, PropertySpec> = {
  CapacityProviderName: strict(oneOf(IS_STR, IS_DICT)),
  VpcConfig: strict(IS_DICT, true),
  OperatorRole: strict(oneOf(IS_STR, IS_DICT)),
  Tags: strict(IS_DICT),
  PropagateTags: strict(IS_BOOL),
  InstanceRequirements: strict(IS_DICT),
  ScalingConfig: strict(IS_DICT),
  KmsKeyArn: strict(oneOf(IS_STR, IS_DICT)),
};

/** The tag SAM puts on what it creates. */
const SAM_TAG = { 'lambda:createdBy': 'SAM' };

/** Translates an `AWS::Serverless::CapacityProvider`. */
export function translateCapacityProvider(sam: SamResource, partition: string): GeneratedResource[] | SamError {
  const p = sam.properties;
  const invalid = checkProperties(sam.logicalId, sam.type, p, CAPACITY_PROVIDER_PROPERTIES);
  if (invalid) return invalid;
  const vpc = p.VpcConfig as PlainMap;
  if (vpc.SubnetIds === undefined || vpc.SubnetIds === null) return invalidResource(sam.logicalId, "Property 'VpcConfig.SubnetIds' is required.", ['Properties', 'VpcConfig']);
  const requirements = isMap(p.InstanceRequirements) ? p.InstanceRequirements : {};
  if (requirements.AllowedTypes !== undefined && requirements.ExcludedTypes !== undefined) {
    return invalidResource(sam.logicalId, "Cannot specify 'InstanceRequirements.AllowedTypes' and 'InstanceRequirements.ExcludedTypes' together.", ['Properties', 'InstanceRequirements']);
  }

  const resources: GeneratedResource[] = [];
  let operatorRole = p.OperatorRole;
  if (!operatorRole) {
    const role = sam.generate(`${sam.logicalId}OperatorRole`, 'AWS::IAM::Role');
    role.set('AssumeRolePolicyDocument', assumeRolePolicy('lambda.amazonaws.com'));
    role.set('ManagedPolicyArns', [managedPolicyArn(partition, 'AWSLambdaManagedEC2ResourceOperator')]);
    role.set('Tags', tags({}));
    resources.push(role);
    operatorRole = role.getAtt('Arn');
  }

  const provider = sam.generate(sam.logicalId, 'AWS::Lambda::CapacityProvider', undefined, { ...sam.attributes(), ...sam.passThroughAttributes() });
  if (sam.dependsOn !== undefined) provider.setAttribute('DependsOn', sam.dependsOn);
  if (p.CapacityProviderName) provider.set('CapacityProviderName', p.CapacityProviderName, 'CapacityProviderName');
  const vpcConfig: PlainMap = { SubnetIds: vpc.SubnetIds };
  if (vpc.SecurityGroupIds !== undefined && vpc.SecurityGroupIds !== null) vpcConfig.SecurityGroupIds = vpc.SecurityGroupIds;
  provider.set('VpcConfig', vpcConfig, 'VpcConfig');
  provider.set('PermissionsConfig', { CapacityProviderOperatorRoleArn: operatorRole }, p.OperatorRole ? 'OperatorRole' : undefined);
  provider.set('Tags', tags(isMap(p.Tags) ? p.Tags : {}), p.Tags ? 'Tags' : undefined);
  const instanceRequirements = renamed(requirements, { Architectures: 'Architectures', AllowedTypes: 'AllowedInstanceTypes', ExcludedTypes: 'ExcludedInstanceTypes' });
  if (Object.keys(instanceRequirements).length > 0) provider.set('InstanceRequirements', instanceRequirements, 'InstanceRequirements');
  if (isMap(p.ScalingConfig) && Object.keys(p.ScalingConfig).length > 0) provider.set('CapacityProviderScalingConfig', scalingConfig(p.ScalingConfig), 'ScalingConfig');
  if (p.KmsKeyArn) provider.set('KmsKeyArn', p.KmsKeyArn, 'KmsKeyArn');
  resources.push(provider);

  // `PropagateTags` gives the template's tags to every generated resource, next to SAM's own.
  if (p.PropagateTags === true && isMap(p.Tags) && Object.keys(p.Tags).length > 0) {
    for (const resource of resources) resource.set('Tags', combinedTags(resource.get('Tags'), p.Tags), 'Tags');
  }
  return resources;
}

/** The template's tags followed by SAM's, as a tag list. */
function tags(given: PlainMap): PlainMap[] {
  return Object.entries({ ...given, ...SAM_TAG }).map(([Key, Value]) => ({ Key, Value }));
}

/** A resource's tag list with more tags: a key already there keeps its place and takes the new value. */
function combinedTags(existing: unknown, more: PlainMap): PlainMap[] {
  const byKey = new Map<unknown, unknown>();
  for (const tag of Array.isArray(existing) ? existing : []) if (isMap(tag)) byKey.set(tag.Key, tag.Value);
  for (const [key, value] of Object.entries(more)) byKey.set(key, value);
  return [...byKey].map(([Key, Value]) => ({ Key, Value }));
}

/** The given entries of `source` under CloudFormation's names. */
function renamed(source: PlainMap, names: Record<string, string>): PlainMap {
  const out: PlainMap = {};
  for (const [from, to] of Object.entries(names)) if (source[from] !== undefined && source[from] !== null) out[to] = source[from];
  return out;
}

/** `ScalingConfig` as CloudFormation's `CapacityProviderScalingConfig`: manual with a CPU target, automatic otherwise. */
function scalingConfig(given: PlainMap): PlainMap {
  const out: PlainMap = {};
  if (given.MaxVCpuCount !== undefined && given.MaxVCpuCount !== null) out.MaxVCpuCount = given.MaxVCpuCount;
  if (given.AverageCPUUtilization !== undefined && given.AverageCPUUtilization !== null) {
    out.ScalingMode = 'Manual';
    out.ScalingPolicies = [{ PredefinedMetricType: 'LambdaCapacityProviderAverageCPUUtilization', TargetValue: given.AverageCPUUtilization }];
  } else out.ScalingMode = 'Auto';
  return out;
}
