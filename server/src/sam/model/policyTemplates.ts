/**
 * SAM policy templates (`- DynamoDBCrudPolicy: {TableName: !Ref Table}`). A template becomes the
 * statements SAM defines for it, each `{"Ref": "<Parameter>"}` of the definition replaced by the
 * value given for that parameter (SAM's `Template.to_statement`). The definitions are those SAM's
 * own translator suite shows (policyTemplateDefinitions.json, derived by
 * server/scripts/derive-policy-templates.ts); a template the suite does not show becomes a
 * symbolic statement that holds its name and parameters, so a change to either is still a change
 * to the role's policies. What is checked is what the translator checks: that the name is a
 * template, and that the parameters it requires have values.
 */
import definitions from './policyTemplateDefinitions.json';
import { invalidResource, SamError } from './errors';
import { pyList } from '../python/pyRepr';
import { isIntrinsicIf, isMap, isNoValue, type PlainMap } from './values';
import { setEntry } from '../../template/tree';

/** The statement documents of the templates SAM's suite shows, by name. */
const DEFINITIONS: Readonly<Record<string, unknown>> = (definitions as { templates: Record<string, unknown> }).templates;

/** Each policy template SAM defines, with the parameters it requires. */
const TEMPLATE_PARAMETERS: Record<string, readonly string[]> = {
  SQSPollerPolicy: ['QueueName'],
  LambdaInvokePolicy: ['FunctionName'],
  CloudWatchDescribeAlarmHistoryPolicy: [],
  CloudWatchPutMetricPolicy: [],
  EC2DescribePolicy: [],
  DynamoDBCrudPolicy: ['TableName'],
  DynamoDBReadPolicy: ['TableName'],
  SESSendBouncePolicy: ['IdentityName'],
  ElasticsearchHttpPostPolicy: ['DomainName'],
  S3ReadPolicy: ['BucketName'],
  S3CrudPolicy: ['BucketName'],
  AMIDescribePolicy: [],
  CloudFormationDescribeStacksPolicy: [],
  RekognitionNoDataAccessPolicy: ['CollectionId'],
  RekognitionReadPolicy: ['CollectionId'],
  RekognitionWriteOnlyAccessPolicy: ['CollectionId'],
  SQSSendMessagePolicy: ['QueueName'],
  SNSPublishMessagePolicy: ['TopicName'],
  VPCAccessPolicy: [],
  DynamoDBStreamReadPolicy: ['TableName', 'StreamName'],
  KinesisStreamReadPolicy: ['StreamName'],
  SESCrudPolicy: ['IdentityName'],
  SNSCrudPolicy: ['TopicName'],
  KinesisCrudPolicy: ['StreamName'],
  KMSDecryptPolicy: ['KeyId'],
  KMSEncryptPolicy: ['KeyId'],
  KMSEncryptPolicy_v2: ['KeyId'],
  PollyFullAccessPolicy: ['LexiconName'],
  S3FullAccessPolicy: ['BucketName'],
  S3WritePolicy: ['BucketName'],
  CodePipelineLambdaExecutionPolicy: [],
  ServerlessRepoReadWriteAccessPolicy: [],
  EC2CopyImagePolicy: ['ImageId'],
  CodePipelineReadOnlyPolicy: ['PipelineName'],
  CloudWatchDashboardPolicy: [],
  RekognitionFacesPolicy: [],
  RekognitionLabelsPolicy: [],
  DynamoDBBackupFullAccessPolicy: ['TableName'],
  DynamoDBRestoreFromBackupPolicy: ['TableName'],
  DynamoDBReconfigurePolicy: ['TableName'],
  DynamoDBWritePolicy: ['TableName'],
  ComprehendBasicAccessPolicy: [],
  AWSSecretsManagerRotationPolicy: ['FunctionName'],
  AWSSecretsManagerGetSecretValuePolicy: ['SecretArn'],
  MobileAnalyticsWriteOnlyAccessPolicy: [],
  PinpointEndpointAccessPolicy: ['PinpointApplicationId'],
  RekognitionDetectOnlyPolicy: [],
  RekognitionFacesManagementPolicy: ['CollectionId'],
  EKSDescribePolicy: [],
  CostExplorerReadOnlyPolicy: [],
  OrganizationsListAccountsPolicy: [],
  SESBulkTemplatedCrudPolicy: ['IdentityName'],
  SESBulkTemplatedCrudPolicy_v2: ['IdentityName', 'TemplateName'],
  SESEmailTemplateCrudPolicy: [],
  FilterLogEventsPolicy: ['LogGroupName'],
  SSMParameterReadPolicy: ['ParameterName'],
  SSMParameterWithSlashPrefixReadPolicy: ['ParameterName'],
  StepFunctionsExecutionPolicy: ['StateMachineName'],
  StepFunctionsExecutionPolicy_v2: ['StateMachineName'],
  StepFunctionsCallbackPolicy: ['StateMachineName'],
  CodeCommitCrudPolicy: ['RepositoryName'],
  CodeCommitReadPolicy: ['RepositoryName'],
  AthenaQueryPolicy: ['WorkGroupName'],
  EventBridgePutEventsPolicy: ['EventBusName'],
  AcmGetCertificatePolicy: ['CertificateArn'],
  Route53ChangeResourceRecordSetsPolicy: ['HostedZoneId'],
  TextractPolicy: [],
  TextractDetectAnalyzePolicy: [],
  TextractGetResultPolicy: [],
  ElasticMapReduceModifyInstanceFleetPolicy: ['ClusterId'],
  ElasticMapReduceSetTerminationProtectionPolicy: ['ClusterId'],
  ElasticMapReduceModifyInstanceGroupsPolicy: ['ClusterId'],
  ElasticMapReduceCancelStepsPolicy: ['ClusterId'],
  ElasticMapReduceTerminateJobFlowsPolicy: ['ClusterId'],
  ElasticMapReduceAddJobFlowStepsPolicy: ['ClusterId'],
  SageMakerCreateEndpointPolicy: ['EndpointName'],
  SageMakerCreateEndpointConfigPolicy: ['EndpointConfigName'],
  EcsRunTaskPolicy: ['TaskDefinition'],
  EFSWriteAccessPolicy: ['FileSystem', 'AccessPoint'],
};

/** Whether a name is one of SAM's policy templates. */
export function isPolicyTemplateName(name: string): boolean {
  return Object.hasOwn(TEMPLATE_PARAMETERS, name);
}

/** Whether a policy entry is a template: a map with one key that names a template. */
export function isPolicyTemplate(policy: unknown): policy is PlainMap {
  if (!isMap(policy)) return false;
  const keys = Object.keys(policy);
  return keys.length === 1 && isPolicyTemplateName(keys[0]!);
}

/**
 * The statement document a policy template stands for (symbolic, naming the template and its
 * parameters, when its definition is not known); an `Fn::If` over templates keeps its shape.
 */
export function expandPolicyTemplate(logicalId: string, policy: unknown): PlainMap | SamError {
  if (isIntrinsicIf(policy)) {
    const [condition, then, otherwise] = policy['Fn::If'];
    const branch = (value: unknown): unknown | SamError => (isPolicyTemplate(value) ? expandPolicyTemplate(logicalId, value) : value);
    const a = branch(then);
    if (a instanceof SamError) return a;
    const b = branch(otherwise);
    if (b instanceof SamError) return b;
    return { 'Fn::If': [condition, a, b] };
  }
  const [name] = Object.keys(policy as PlainMap);
  const parameters = (policy as PlainMap)[name!];
  if (parameters !== null && parameters !== undefined && !isMap(parameters)) {
    return invalidResource(logicalId, `Must specify valid parameter values for policy template '${name}'`, ['Properties', 'Policies']);
  }
  const given = isMap(parameters) ? parameters : {};
  const missing = TEMPLATE_PARAMETERS[name!]!.filter((p) => given[p] === undefined || given[p] === null);
  if (missing.length > 0) {
    return invalidResource(logicalId, `Following required parameters of template '${name}' don't have values: ${pyList(missing)}`, ['Properties', 'Policies']);
  }
  const definition = DEFINITIONS[name!];
  if (definition === undefined) return { Statement: [{ Effect: 'Allow', SamPolicyTemplate: { [name!]: given } }] };
  // Only the template's own parameters are put in (SAM's `necessary_parameter_values`).
  const declared: PlainMap = {};
  for (const parameter of TEMPLATE_PARAMETERS[name!]!) declared[parameter] = given[parameter];
  return withParameterValues(definition, declared) as PlainMap;
}

/**
 * A copy of a definition with each `{"Ref": P}` to one of the given parameters replaced by P's
 * value, as SAM's resolver does with only `Ref` supported; a value put in is not walked again.
 */
function withParameterValues(value: unknown, parameters: PlainMap): unknown {
  if (Array.isArray(value)) return value.map((item) => withParameterValues(item, parameters));
  if (!isMap(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'Ref' && typeof value.Ref === 'string' && Object.hasOwn(parameters, value.Ref)) return parameters[value.Ref];
  const copy: PlainMap = {};
  for (const key of keys) setEntry(copy, key, withParameterValues(value[key], parameters));
  return copy;
}

/** Whether an `Fn::If` policy entry has a template in a branch (the other may be `AWS::NoValue`). */
export function isConditionalPolicyTemplate(policy: unknown): boolean {
  if (!isIntrinsicIf(policy)) return false;
  const [, then, otherwise] = policy['Fn::If'];
  return (isPolicyTemplate(then) || isNoValue(then)) && (isPolicyTemplate(otherwise) || isNoValue(otherwise)) && (isPolicyTemplate(then) || isPolicyTemplate(otherwise));
}
