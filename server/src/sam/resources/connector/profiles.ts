/**
 * Which source and destination types a connector can join, and what it generates for each pair
 * (SAM's connector profiles, samtranslator/model/connector_profiles): an IAM managed policy on a
 * role, an SQS queue policy, an SNS topic policy, or Lambda permissions. A policy's statements
 * are those SAM's suite shows for the pair and the access (profileStatements.json, read by
 * connector.ts); here each category names the variables its statements are about, which a
 * category whose statements are not known shows symbolically. Lambda permissions are written
 * out in full.
 */

/** What a connector generates for a pair of resource types. */
export type ProfileType = 'AWS_IAM_ROLE_MANAGED_POLICY' | 'AWS_SQS_QUEUE_POLICY' | 'AWS_SNS_TOPIC_POLICY' | 'AWS_LAMBDA_PERMISSION';

/** A reference variable of a profile: `Source.Arn`, `Destination.Name` and the like. */
export type ProfileVariable = `${'Source' | 'Destination'}.${'Arn' | 'ResourceId' | 'Name' | 'Qualifier'}`;

/** Every reference variable a profile may use. */
export const PROFILE_VARIABLES: readonly ProfileVariable[] = ['Source.Arn', 'Destination.Arn', 'Source.ResourceId', 'Destination.ResourceId', 'Source.Name', 'Destination.Name', 'Source.Qualifier', 'Destination.Qualifier'];

/** A Lambda permission a category grants. */
export interface PermissionGrant {
  principal: string;
  /** The source ARN, `%{...}` standing for reference variables. */
  sourceArn: string;
  sourceAccount?: string;
}

export interface ConnectorProfile {
  type: ProfileType;
  /** Whether the policy belongs to the source (its role) rather than the destination. */
  sourcePolicy: boolean;
  /** The access categories, in SAM's order, each with the reference variables its statements use (in order), or its permission. */
  categories: Record<string, ProfileVariable[] | PermissionGrant>;
  /** The only combinations of categories allowed, when SAM restricts them. */
  validCombinations?: string[][];
  /** What must wait for the policy: the destination function's event source mapping, or the source. */
  dependedBy?: 'DESTINATION_EVENT_SOURCE_MAPPING' | 'SOURCE';
}

const iam = (sourcePolicy: boolean, categories: Record<string, ProfileVariable[]>, extra: Partial<ConnectorProfile> = {}): ConnectorProfile => ({
  type: 'AWS_IAM_ROLE_MANAGED_POLICY',
  sourcePolicy,
  categories,
  ...extra,
});
const invoke = (principal: string, sourceArn: string, sourceAccount?: string): ConnectorProfile => ({
  type: 'AWS_LAMBDA_PERMISSION',
  sourcePolicy: false,
  categories: { Write: sourceAccount ? { principal, sourceArn, sourceAccount } : { principal, sourceArn } },
});
const write = ['Destination.Arn'] as ProfileVariable[];
const readWrite = { Read: write, Write: write };
const executeApi = 'arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:%{Source.ResourceId}/%{Source.Qualifier}';

/** The profiles, by source type and destination type. */
export const PROFILES: Record<string, Record<string, ConnectorProfile>> = {
  'AWS::DynamoDB::Table': {
    'AWS::Lambda::Function': iam(false, { Read: ['Source.Arn'] }, { dependedBy: 'DESTINATION_EVENT_SOURCE_MAPPING' }),
  },
  'AWS::Events::Rule': {
    'AWS::SNS::Topic': { type: 'AWS_SNS_TOPIC_POLICY', sourcePolicy: false, categories: { Write: ['Destination.Arn', 'Source.Arn'] } },
    'AWS::Events::EventBus': iam(true, { Write: write }),
    'AWS::StepFunctions::StateMachine': iam(true, { Write: write }),
    'AWS::Lambda::Function': invoke('events.amazonaws.com', '%{Source.Arn}'),
    'AWS::SQS::Queue': { type: 'AWS_SQS_QUEUE_POLICY', sourcePolicy: false, categories: { Write: ['Destination.Arn', 'Source.Arn'] } },
  },
  'AWS::Lambda::Function': {
    'AWS::Lambda::Function': iam(true, { Write: write }),
    'AWS::S3::Bucket': iam(true, readWrite),
    'AWS::DynamoDB::Table': iam(true, readWrite),
    'AWS::SQS::Queue': iam(true, readWrite),
    'AWS::SNS::Topic': iam(true, { Write: write }),
    'AWS::StepFunctions::StateMachine': iam(true, { Write: ['Destination.Arn', 'Destination.Name'], Read: ['Destination.Arn', 'Destination.Name'] }),
    'AWS::Events::EventBus': iam(true, { Write: write }),
    'AWS::Location::PlaceIndex': iam(true, { Read: write }),
  },
  'AWS::ApiGatewayV2::Api': { 'AWS::Lambda::Function': invoke('apigateway.amazonaws.com', executeApi) },
  'AWS::ApiGateway::RestApi': { 'AWS::Lambda::Function': invoke('apigateway.amazonaws.com', executeApi) },
  'AWS::SNS::Topic': {
    'AWS::SQS::Queue': { type: 'AWS_SQS_QUEUE_POLICY', sourcePolicy: false, categories: { Write: ['Destination.Arn', 'Source.Arn'] } },
    'AWS::Lambda::Function': invoke('sns.amazonaws.com', '%{Source.Arn}'),
  },
  'AWS::SQS::Queue': {
    'AWS::Lambda::Function': iam(false, { Write: ['Source.Arn'], Read: ['Source.Arn'] }, { validCombinations: [['Read', 'Write']], dependedBy: 'DESTINATION_EVENT_SOURCE_MAPPING' }),
  },
  'AWS::S3::Bucket': { 'AWS::Lambda::Function': invoke('s3.amazonaws.com', '%{Source.Arn}', '${AWS::AccountId}') },
  'AWS::StepFunctions::StateMachine': {
    'AWS::Lambda::Function': iam(true, { Write: write }),
    'AWS::SNS::Topic': iam(true, { Write: write }),
    'AWS::SQS::Queue': iam(true, { Write: write }),
    'AWS::S3::Bucket': iam(true, readWrite),
    'AWS::DynamoDB::Table': iam(true, readWrite),
    'AWS::StepFunctions::StateMachine': iam(true, { Read: ['Destination.Name'], Write: ['Destination.Arn', 'Destination.Name'] }, { validCombinations: [['Read'], ['Read', 'Write']], dependedBy: 'SOURCE' }),
    'AWS::Events::EventBus': iam(true, { Write: write }),
  },
  'AWS::AppSync::DataSource': {
    'AWS::DynamoDB::Table': iam(true, readWrite),
    'AWS::Lambda::Function': iam(true, { Write: write }),
    'AWS::Events::EventBus': iam(true, { Write: write }),
  },
  'AWS::AppSync::GraphQLApi': {
    'AWS::Lambda::Function': invoke('appsync.amazonaws.com', 'arn:${AWS::Partition}:appsync:${AWS::Region}:${AWS::AccountId}:apis/%{Source.ResourceId}'),
  },
};
