/**
 * `AWS::Serverless::Function` (SamFunction in sam_resources.py): the Lambda function, its role,
 * version and alias, URL, deployment preference, event invoke config and every event source.
 */
import { noteParameterWithoutValue, type SamResource, type TranslationContext } from '../../model/context';
import { invalidResource, malformedIf, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { assumeRolePolicy, constructRole, deadLetterQueuePolicy, expandPolicies, managedPolicyArn } from '../../model/iam';
import { parameterWithoutValue, resolveFindInMap, resolveParameterRefs, standInText } from '../../model/intrinsics';
import { NotCovered } from '../../model/notCovered';
import { ANY, dictOf, IS_BOOL, IS_DICT, IS_STR, listOf, oneOf, PASS_THROUGH, strict, typed, checkProperties, type PropertySpec } from '../../model/properties';
import { isIntrinsic, isIntrinsicIf, isMap, isNoValue, tagList, type PlainMap } from '../../model/values';
import { checkFunctionEvents, functionEvents } from './events';
import { checkPackageType, functionCode } from './code';
import { readDeploymentPreference } from '../../model/deploymentPreference';
import { constructEventInvokeConfig } from './eventInvokeConfig';
import { constructFunctionUrl } from './functionUrl';
import { checkTenancy } from './tenancy';
import { constructAlias, constructVersion, resolvedAliasName, type AliasName } from './version';

const FUNCTION_PROPERTIES: Record<string, PropertySpec> = {
  FunctionName: typed(oneOf(IS_STR, IS_DICT)),
  Handler: PASS_THROUGH,
  Runtime: PASS_THROUGH,
  CodeUri: PASS_THROUGH,
  ImageUri: PASS_THROUGH,
  PackageType: PASS_THROUGH,
  InlineCode: PASS_THROUGH,
  DeadLetterQueue: typed(IS_DICT),
  Description: PASS_THROUGH,
  MemorySize: PASS_THROUGH,
  Timeout: PASS_THROUGH,
  VpcConfig: PASS_THROUGH,
  Role: typed(IS_STR),
  AssumeRolePolicyDocument: typed(IS_DICT),
  Policies: typed(oneOf(IS_STR, IS_DICT, listOf(oneOf(IS_STR, IS_DICT)))),
  RolePath: PASS_THROUGH,
  PermissionsBoundary: typed(IS_STR),
  Environment: typed(dictOf(IS_STR, IS_DICT)),
  Events: typed(dictOf(IS_STR, IS_DICT)),
  Tags: typed(IS_DICT),
  PropagateTags: typed(IS_BOOL),
  Tracing: typed(oneOf(IS_DICT, IS_STR)),
  KmsKeyArn: PASS_THROUGH,
  DeploymentPreference: typed(IS_DICT),
  ReservedConcurrentExecutions: PASS_THROUGH,
  Layers: typed(listOf(oneOf(IS_STR, IS_DICT))),
  EventInvokeConfig: typed(IS_DICT),
  EphemeralStorage: PASS_THROUGH,
  AutoPublishAlias: typed(IS_STR),
  AutoPublishCodeSha256: typed(IS_STR),
  AutoPublishAliasAllProperties: strict(IS_BOOL),
  VersionDescription: PASS_THROUGH,
  ProvisionedConcurrencyConfig: PASS_THROUGH,
  FileSystemConfigs: PASS_THROUGH,
  ImageConfig: PASS_THROUGH,
  CodeSigningConfigArn: PASS_THROUGH,
  Architectures: PASS_THROUGH,
  SnapStart: typed(IS_DICT),
  FunctionUrlConfig: typed(IS_DICT),
  RuntimeManagementConfig: PASS_THROUGH,
  LoggingConfig: PASS_THROUGH,
  RecursiveLoop: PASS_THROUGH,
  SourceKMSKeyArn: PASS_THROUGH,
  TenancyConfig: PASS_THROUGH,
  DurableConfig: PASS_THROUGH,
  CapacityProviderConfig: typed(IS_DICT),
  FunctionScalingConfig: PASS_THROUGH,
  PublishToLatestPublished: PASS_THROUGH,
  VersionDeletionPolicy: typed(ANY),
};

/** Function properties copied to the Lambda function under the same name. */
const PASSED_THROUGH = [
  'Handler', 'Runtime', 'Description', 'MemorySize', 'Timeout', 'VpcConfig', 'Role', 'Environment', 'KmsKeyArn', 'ReservedConcurrentExecutions',
  'Layers', 'FileSystemConfigs', 'ImageConfig', 'PackageType', 'Architectures', 'SnapStart', 'EphemeralStorage', 'CodeSigningConfigArn',
  'RuntimeManagementConfig', 'LoggingConfig', 'RecursiveLoop', 'TenancyConfig', 'DurableConfig', 'FunctionScalingConfig',
  'PublishToLatestPublished',
];

/** Tag keys SAM keeps for itself. */
const RESERVED_TAGS = ['lambda:createdBy', 'serverlessrepo:applicationId', 'serverlessrepo:semanticVersion'];

const DLQ_ACTIONS: Record<string, string> = { SQS: 'sqs:SendMessage', SNS: 'sns:Publish' };

/** SAM's `_construct_tag_list`: `lambda:createdBy: SAM` first, then the resource's tags; reserved keys are an error. */
export function samTagList(sam: SamResource, tags: unknown, additional: PlainMap = {}): PlainMap[] | SamError {
  const given = isMap(tags) ? tags : {};
  for (const reserved of RESERVED_TAGS) {
    if (reserved in given) {
      return invalidResource(sam.logicalId, `${reserved} is a reserved Tag key name and cannot be set on your resource. Please change the tag key in the input.`, ['Properties', 'Tags']);
    }
  }
  return [...tagList({ 'lambda:createdBy': 'SAM' }), ...tagList(additional), ...tagList(given)];
}

/** SAM's `propagate_tags`: every generated resource that takes tags gets the resource's tags. */
export function propagateTags(resources: readonly GeneratedResource[], tags: unknown, propagate: unknown, takesTags: (type: string) => boolean): void {
  if (!propagate || !isMap(tags) || Object.keys(tags).length === 0) return;
  for (const resource of resources) if (takesTags(resource.type)) resource.set('Tags', tagList(tags), 'Tags');
}

/** Generated types whose `Tags` SAM sets when tags propagate (those with a list-of-tags `Tags` property). */
const TAGGABLE = new Set([
  'AWS::Lambda::Function', 'AWS::IAM::Role', 'AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::S3::Bucket', 'AWS::IoT::TopicRule',
  'AWS::CodeDeploy::Application', 'AWS::CodeDeploy::DeploymentGroup', 'AWS::ApiGateway::RestApi', 'AWS::ApiGateway::Stage',
  'AWS::ApiGateway::DomainName', 'AWS::ApiGateway::UsagePlan', 'AWS::ApiGateway::ApiKey', 'AWS::StepFunctions::StateMachine',
]);

/** Translates one SAM function. */
export function translateFunction(ctx: TranslationContext, sam: SamResource): GeneratedResource[] | SamError | NotCovered {
  const p = sam.properties;
  const invalid = checkProperties(sam.logicalId, sam.type, p, FUNCTION_PROPERTIES);
  if (invalid) return invalid;
  // SAM links the events to what they name before it translates the function.
  const unlinked = checkFunctionEvents(ctx, sam);
  if (unlinked) return unlinked;
  const tenancy = checkTenancy(sam, p);
  if (tenancy) return tenancy;
  const malformedRole = malformedIf(sam.logicalId, 'Role', p.Role, ['Properties', 'Role']);
  if (malformedRole) return malformedRole;
  if (p.DeadLetterQueue) {
    const dlq = p.DeadLetterQueue as PlainMap;
    if (!dlq.Type || !dlq.TargetArn) return invalidResource(sam.logicalId, "'DeadLetterQueue' requires Type and TargetArn properties to be specified.", ['Properties', 'DeadLetterQueue']);
    if (typeof dlq.Type !== 'string') return invalidResource(sam.logicalId, "Property 'DeadLetterQueue.Type' should be a string.", ['Properties', 'DeadLetterQueue', 'Type']);
    if (!(dlq.Type in DLQ_ACTIONS)) return invalidResource(sam.logicalId, "'DeadLetterQueue' requires Type of ['SQS', 'SNS']", ['Properties', 'DeadLetterQueue', 'Type']);
  }

  const fn = sam.generate(sam.logicalId, 'AWS::Lambda::Function', undefined, sam.attributes());
  if (sam.dependsOn !== undefined) fn.setAttribute('DependsOn', sam.dependsOn);
  if (p.FunctionName) fn.set('FunctionName', p.FunctionName, 'FunctionName');
  for (const name of PASSED_THROUGH) fn.set(name, p[name], name);
  const code = functionCode(ctx, sam, p);
  if (code instanceof SamError) return code;
  // The key that encrypts the code in S3 is part of the code's location.
  if (p.SourceKMSKeyArn !== undefined && p.SourceKMSKeyArn !== null && 'S3Bucket' in code) code.SourceKMSKeyArn = p.SourceKMSKeyArn;
  fn.set('Code', code, p.InlineCode !== undefined ? 'InlineCode' : p.ImageUri !== undefined ? 'ImageUri' : 'CodeUri');
  const tags = samTagList(sam, p.Tags);
  if (tags instanceof SamError) return tags;
  fn.set('Tags', tags, 'Tags');
  if (tracingEnabled(ctx, p.Tracing)) fn.set('TracingConfig', { Mode: p.Tracing }, 'Tracing');
  if (p.DeadLetterQueue) fn.set('DeadLetterConfig', { TargetArn: (p.DeadLetterQueue as PlainMap).TargetArn }, 'DeadLetterQueue');
  if (isMap(p.CapacityProviderConfig)) fn.set('CapacityProviderConfig', capacityProviderConfig(p.CapacityProviderConfig), 'CapacityProviderConfig');
  const packaging = checkPackageType(sam.logicalId, fn.properties);
  if (packaging) return packaging;
  const resources: GeneratedResource[] = [fn];

  // Lambda managed instances scale by the capacity provider, which provisioned concurrency would contradict.
  if (p.CapacityProviderConfig && p.ProvisionedConcurrencyConfig) {
    return invalidResource(sam.logicalId, "Cannot specify 'CapacityProviderConfig' and 'ProvisionedConcurrencyConfig' together.", ['Properties', 'ProvisionedConcurrencyConfig']);
  }
  if (p.ProvisionedConcurrencyConfig && !p.AutoPublishAlias) {
    return invalidResource(sam.logicalId, 'To set ProvisionedConcurrencyConfig AutoPublishALias must be defined on the function', ['Properties', 'ProvisionedConcurrencyConfig']);
  }
  if (p.VersionDeletionPolicy !== undefined && p.VersionDeletionPolicy !== null && p.VersionDeletionPolicy !== 'Delete' && p.VersionDeletionPolicy !== 'Retain') {
    return invalidResource(sam.logicalId, "Property 'VersionDeletionPolicy' should be a one of the strings: 'Delete' or 'Retain'.", ['Properties', 'VersionDeletionPolicy']);
  }
  if (p.VersionDeletionPolicy !== undefined && p.VersionDeletionPolicy !== null && !p.AutoPublishAlias) {
    return invalidResource(sam.logicalId, "'VersionDeletionPolicy' requires 'AutoPublishAlias'.", ['Properties', 'VersionDeletionPolicy']);
  }

  let alias: GeneratedResource | undefined;
  let aliasName: AliasName = '';
  if (p.AutoPublishAlias) {
    const name = resolvedAliasName(sam, 'AutoPublishAlias', p.AutoPublishAlias, ctx.parameters);
    if (name instanceof SamError) return name;
    if (typeof name !== 'string') noteParameterWithoutValue(ctx, sam, 'AutoPublishAlias', name.parameter);
    aliasName = name;
    let codeSha256: string | undefined;
    if (p.AutoPublishCodeSha256) {
      const resolved = resolveParameterRefs(p.AutoPublishCodeSha256, ctx.parameters);
      const withoutValue = parameterWithoutValue(resolved, ctx.parameters);
      if (withoutValue !== undefined) noteParameterWithoutValue(ctx, sam, 'AutoPublishCodeSha256', withoutValue);
      else if (typeof resolved !== 'string') return invalidResource(sam.logicalId, 'AutoPublishCodeSha256 must be a string', ['Properties', 'AutoPublishCodeSha256']);
      // The version's id hashes the value; the parameter's name stands in for a value not at hand.
      codeSha256 = withoutValue === undefined ? (resolved as string) : standInText(resolved);
      // Lambda publishes no new version for unchanged function settings, so SAM puts the hash in the
      // description: new code under the same CodeUri then changes the function too.
      const description = resolveParameterRefs(p.Description, ctx.parameters);
      if (!description) fn.set('Description', resolved, 'AutoPublishCodeSha256');
      else if (typeof description === 'string' && typeof resolved === 'string') fn.set('Description', `${description} ${resolved}`, 'AutoPublishCodeSha256');
      else fn.set('Description', { 'Fn::Join': [' ', [description, resolved]] }, 'AutoPublishCodeSha256');
    }
    const version = constructVersion(sam, fn, ctx.parameters, codeSha256, ctx.resources);
    if (version instanceof SamError) return version;
    const constructed = constructAlias(sam, aliasName, fn, version);
    if (constructed instanceof SamError) return constructed;
    alias = constructed;
    resources.push(version, alias);
  }

  if (p.FunctionUrlConfig) {
    const url = constructFunctionUrl(sam, fn, alias, p.FunctionUrlConfig as PlainMap);
    if (url instanceof SamError) return url;
    resources.push(...url);
  }

  const preference = deploymentPreference(ctx, sam, alias);
  if (preference instanceof SamError) return preference;

  let invokePolicies: PlainMap[] = [];
  if (p.EventInvokeConfig) {
    const invoke = constructEventInvokeConfig(ctx, sam, fn.logicalId, aliasName, alias);
    if (invoke instanceof SamError) return invoke;
    resources.push(...invoke.resources);
    invokePolicies = invoke.policies;
  }

  let role: GeneratedResource | undefined;
  const conditionalRole = roleCondition(ctx, fn.get('Role'));
  if (fn.get('Role') === undefined || conditionalRole) {
    const constructed = functionRole(ctx, sam, invokePolicies);
    if (constructed instanceof SamError) return constructed;
    role = constructed;
    if (conditionalRole) {
      // `Role: !If [C, Arn, !Ref AWS::NoValue]`: SAM's role exists when the given one does not.
      role.setAttribute('Condition', conditionalRole.condition);
      fn.set('Role', conditionalRole.role(role.getAtt('Arn')), 'Role');
    } else fn.set('Role', role.getAtt('Arn'), 'Policies');
    resources.push(role);
  }

  const events = functionEvents(ctx, sam, alias ?? fn, alias !== undefined, role);
  if (events instanceof SamError || events instanceof NotCovered) return events;
  resources.push(...events);

  propagateTags(resources, p.Tags, p.PropagateTags, (type) => TAGGABLE.has(type));
  // SAM's list of what the function generated includes the template resources its events edit.
  if (p.PropagateTags && isMap(p.Tags) && Object.keys(p.Tags).length > 0) {
    for (const { entry, editors } of ctx.edited.values()) {
      if (editors.has(sam.logicalId) && TAGGABLE.has(entry.Type as string) && isMap(entry.Properties)) entry.Properties.Tags = tagList(p.Tags);
    }
  }
  if (alias) ctx.references.add(sam.logicalId, 'Alias', alias.logicalId);
  const version = resources.find((r) => r.type === 'AWS::Lambda::Version');
  if (version) ctx.references.add(sam.logicalId, 'Version', version.logicalId);
  for (const r of resources) {
    if (r.type === 'AWS::SNS::Topic' && r.origin.property === 'EventInvokeConfig') ctx.references.add(sam.logicalId, 'DestinationTopic', r.logicalId);
    if (r.type === 'AWS::SQS::Queue' && r.origin.property === 'EventInvokeConfig') ctx.references.add(sam.logicalId, 'DestinationQueue', r.logicalId);
  }
  return resources;
}

/**
 * A `Role` that is an `Fn::If` with `AWS::NoValue` in one branch: the condition under which SAM
 * creates its own role (the negation, added to the template, when the role is given in the first
 * branch), and the function's `Role` with SAM's role in place of `AWS::NoValue`.
 */
function roleCondition(ctx: TranslationContext, role: unknown): { condition: string; role: (arn: PlainMap) => PlainMap } | undefined {
  if (!isIntrinsicIf(role)) return undefined;
  const [condition, then, otherwise] = role['Fn::If'];
  if (typeof condition !== 'string') return undefined;
  if (isNoValue(otherwise) && !isNoValue(then)) {
    const negated = `NOT${condition}`;
    ctx.conditions[negated] = { 'Fn::Not': [{ Condition: condition }] };
    return { condition: negated, role: (arn) => ({ 'Fn::If': [condition, then, arn] }) };
  }
  if (isNoValue(then) && !isNoValue(otherwise)) return { condition, role: (arn) => ({ 'Fn::If': [condition, arn, otherwise] }) };
  return undefined;
}

/** `CapacityProviderConfig` as Lambda takes it. */
function capacityProviderConfig(config: PlainMap): PlainMap {
  const { Arn, ...rest } = config;
  return { LambdaManagedInstancesCapacityProviderConfig: { CapacityProviderArn: Arn, ...rest } };
}

function deploymentPreference(ctx: TranslationContext, sam: SamResource, alias: GeneratedResource | undefined): SamError | undefined {
  const given = sam.properties.DeploymentPreference;
  if (!given || !isMap(given)) return undefined;
  const preference: PlainMap = { ...given };
  // A parameter with no value at hand stands in as SAM's default: enabled (when a Type and an alias
  // make that valid; else disabled, the one value CloudFormation would accept), the type as
  // written, no passthrough.
  const resolve = (value: unknown) => resolveFindInMap(resolveParameterRefs(value, ctx.parameters), ctx.mappings);
  const withoutValue = (key: string): boolean => {
    const parameter = parameterWithoutValue(resolve(preference[key]), ctx.parameters, { findInMap: true });
    if (parameter !== undefined) noteParameterWithoutValue(ctx, sam, `DeploymentPreference.${key}`, parameter);
    return parameter !== undefined;
  };
  for (const key of ['Enabled', 'Type']) {
    if (!(key in preference)) continue;
    if (!withoutValue(key)) preference[key] = resolve(preference[key]);
    else if (key === 'Enabled') preference.Enabled = 'Type' in preference && Boolean(sam.properties.AutoPublishAlias);
  }
  if ('PassthroughCondition' in preference && withoutValue('PassthroughCondition')) preference.PassthroughCondition = false;
  else if ('PassthroughCondition' in preference) {
    const value = resolve(preference.PassthroughCondition);
    if (value === true || value === 'true' || value === 'True') preference.PassthroughCondition = true;
    else if (value === false || value === 'false' || value === 'False') preference.PassthroughCondition = false;
    else if (isIntrinsic(value)) {
      return invalidResource(sam.logicalId, 'Unsupported intrinsic: the only intrinsic functions supported for property PassthroughCondition are FindInMap and parameter Refs.', ['Properties', 'DeploymentPreference', 'PassthroughCondition']);
    } else return invalidResource(sam.logicalId, 'Invalid value for property PassthroughCondition.', ['Properties', 'DeploymentPreference', 'PassthroughCondition']);
  } else preference.PassthroughCondition = false;
  const read = readDeploymentPreference(sam.logicalId, preference, sam.condition);
  if (read instanceof SamError) return read;
  // The function's propagated tags reach its deployment group and the CodeDeploy application.
  const tags = sam.properties.Tags;
  if (read.enabled && sam.properties.PropagateTags && isMap(tags) && Object.keys(tags).length > 0) read.tags = tags;
  ctx.deploymentPreferences.add(sam.logicalId, read);
  if (!read.enabled) return undefined;
  if (!sam.properties.AutoPublishAlias) return invalidResource(sam.logicalId, "'DeploymentPreference' requires AutoPublishAlias property to be specified.", ['Properties', 'DeploymentPreference']);
  alias?.setAttribute('UpdatePolicy', ctx.deploymentPreferences.updatePolicy(sam.logicalId));
  return undefined;
}

/** Whether `Tracing` turns tracing on: `Disabled` (also through a parameter) is the same as no `Tracing`. */
function tracingEnabled(ctx: TranslationContext, tracing: unknown): boolean {
  return Boolean(tracing) && resolveParameterRefs(tracing, ctx.parameters) !== 'Disabled';
}

function functionRole(ctx: TranslationContext, sam: SamResource, invokePolicies: PlainMap[]): GeneratedResource | SamError {
  const p = sam.properties;
  // A durable function's role has the durable variant of the basic execution policy.
  const basic = p.DurableConfig ? 'service-role/AWSLambdaBasicDurableExecutionRolePolicy' : 'service-role/AWSLambdaBasicExecutionRole';
  const managed: unknown[] = [managedPolicyArn(ctx.partition, basic)];
  if (tracingEnabled(ctx, p.Tracing)) managed.push(managedPolicyArn(ctx.partition, 'AWSXrayWriteOnlyAccess'));
  if (p.VpcConfig) managed.push(managedPolicyArn(ctx.partition, 'service-role/AWSLambdaVPCAccessExecutionRole'));
  const documents: unknown[] = [];
  if (p.DeadLetterQueue) {
    const dlq = p.DeadLetterQueue as PlainMap;
    documents.push(deadLetterQueuePolicy(DLQ_ACTIONS[dlq.Type as string], dlq.TargetArn));
  }
  documents.push(...invokePolicies);
  const policies = expandPolicies(sam, p.Policies);
  if (policies instanceof SamError) return policies;
  const tags = samTagList(sam, p.Tags);
  if (tags instanceof SamError) return tags;
  const role = sam.generate(`${sam.logicalId}Role`, 'AWS::IAM::Role', 'Policies');
  return constructRole(sam, role, {
    partition: ctx.partition,
    assumeRolePolicyDocument: p.AssumeRolePolicyDocument ?? assumeRolePolicy('lambda.amazonaws.com'),
    policies,
    managedPolicyArns: managed,
    policyDocuments: documents,
    path: p.RolePath,
    permissionsBoundary: p.PermissionsBoundary,
    tags,
  });
}
