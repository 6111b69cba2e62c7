/**
 * Deterministic benchmark templates: a stack of `size` resources shaped like real ones (VPCs with
 * subnets, route tables and security groups; application units of queues, topics, IAM roles and
 * policies, Lambda functions and EC2 instances; conditions, mappings, `Fn::Sub`, many
 * cross-references), and an edited copy that changes a handful of things the way a person does:
 *
 * - the `VpcCidr` parameter's default, which feeds the first VPC's CIDR (a replacement that
 *   cascades to its subnets, security groups and instances);
 * - a tag on the second VPC;
 * - the instance type of one instance;
 * - one queue added, one log group removed.
 *
 * Run directly (`tsx bench/generate.ts [outDir]`) to write the pairs as files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toYaml, type Plain } from './yamlText';

/** Issue 6 asks for 50, 200, 500 (the per-stack maximum) and 2,000; 1,000 is the language-server figure of issue 3. */
export const BENCH_SIZES = [50, 200, 500, 1000, 2000] as const;

export interface TemplatePair {
  name: string;
  size: number;
  before: string;
  after: string;
  /** What the edit does, for people reading the results. */
  edits: string[];
}

type Template = { [key: string]: Plain };
type Resource = { Type: string; [key: string]: Plain };

/** mulberry32: a tiny seeded PRNG, so every run sees the same templates. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ref = (name: string): Plain => ({ Ref: name });
const getAtt = (resource: string, attribute: string): Plain => ({ 'Fn::GetAtt': [resource, attribute] });
const sub = (text: string): Plain => ({ 'Fn::Sub': text });
const findInMap = (map: string, top: Plain, second: Plain): Plain => ({ 'Fn::FindInMap': [map, top, second] });
const ifCondition = (condition: string, whenTrue: Plain, whenFalse: Plain): Plain => ({ 'Fn::If': [condition, whenTrue, whenFalse] });
const tags = (pairs: [string, Plain][]): Plain => pairs.map(([Key, Value]) => ({ Key, Value }));

const REGIONS = ['us-east-1', 'us-east-2', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-2'];
const TEAMS = ['payments', 'search', 'ledger', 'identity', 'catalog', 'shipping', 'billing'];
const RUNTIMES = ['python3.12', 'nodejs20.x', 'python3.11', 'nodejs22.x'];
const SUBNETS_PER_NETWORK = 4;

/** How many VPCs a stack of this size has: two at least, so that some edits are outside the cascade. */
function networkCount(size: number): number {
  return Math.max(2, Math.ceil(size / 250));
}

const NETWORK_RESOURCES = 5 + SUBNETS_PER_NETWORK * 2 + 3;
const UNIT_RESOURCES = 14;

function header(networks: number, random: () => number): Template {
  const regionMap: { [key: string]: Plain } = {};
  for (const region of REGIONS) {
    regionMap[region] = { AMI: `ami-${Math.floor(random() * 0xffffffff).toString(16).padStart(8, '0')}0abc1234`, Arch: 'x86_64' };
  }
  const networkMap: { [key: string]: Plain } = {};
  for (let n = 1; n < networks; n++) networkMap[`Net${n}`] = { Cidr: `10.${100 + n}.0.0/16` };
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: 'Benchmark stack: networks, queues, topics, functions and instances with cross-references.',
    Parameters: {
      EnvName: { Type: 'String', Default: 'dev', AllowedValues: ['dev', 'staging', 'prod'], Description: 'Deployment environment.' },
      VpcCidr: { Type: 'String', Default: '10.0.0.0/16', AllowedPattern: '^(\\d{1,3}\\.){3}\\d{1,3}/\\d{1,2}$', Description: 'CIDR of the primary VPC.' },
      InstanceType: { Type: 'String', Default: 't3.micro', AllowedValues: ['t3.micro', 't3.small', 't3.medium', 'm5.large'] },
      AlarmEmail: { Type: 'String', Default: '', Description: 'Where alarms go; empty for none.' },
      LambdaMemory: { Type: 'Number', Default: 256, MinValue: 128, MaxValue: 10240 },
    },
    Mappings: {
      RegionMap: regionMap,
      EnvConfig: {
        dev: { Retention: 345600, LogRetention: 7, Concurrency: 2 },
        staging: { Retention: 604800, LogRetention: 14, Concurrency: 5 },
        prod: { Retention: 1209600, LogRetention: 90, Concurrency: 50 },
      },
      ...(networks > 1 ? { NetworkMap: networkMap } : {}),
    },
    Conditions: {
      IsProd: { 'Fn::Equals': [ref('EnvName'), 'prod'] },
      IsNotProd: { 'Fn::Not': [{ Condition: 'IsProd' }] },
      HasAlarmEmail: { 'Fn::Not': [{ 'Fn::Equals': [ref('AlarmEmail'), ''] }] },
      CreateAlarms: { 'Fn::Or': [{ Condition: 'IsProd' }, { Condition: 'HasAlarmEmail' }] },
    },
  };
}

function addNetwork(resources: { [id: string]: Resource }, n: number): void {
  const vpc = `Vpc${n}`;
  resources[vpc] = {
    Type: 'AWS::EC2::VPC',
    Properties: {
      CidrBlock: n === 0 ? ref('VpcCidr') : findInMap('NetworkMap', `Net${n}`, 'Cidr'),
      EnableDnsHostnames: true,
      EnableDnsSupport: true,
      Tags: tags([['Name', sub(`\${AWS::StackName}-vpc-${n}`)], ['Environment', ref('EnvName')], ['CostCenter', `cc-${1000 + n}`]]),
    },
  };
  resources[`Igw${n}`] = { Type: 'AWS::EC2::InternetGateway', Properties: { Tags: tags([['Name', sub(`\${AWS::StackName}-igw-${n}`)]]) } };
  resources[`IgwAttachment${n}`] = { Type: 'AWS::EC2::VPCGatewayAttachment', Properties: { VpcId: ref(vpc), InternetGatewayId: ref(`Igw${n}`) } };
  resources[`PublicRoutes${n}`] = { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref(vpc), Tags: tags([['Name', sub(`\${AWS::StackName}-public-${n}`)]]) } };
  resources[`DefaultRoute${n}`] = {
    Type: 'AWS::EC2::Route',
    DependsOn: `IgwAttachment${n}`,
    Properties: { RouteTableId: ref(`PublicRoutes${n}`), DestinationCidrBlock: '0.0.0.0/0', GatewayId: ref(`Igw${n}`) },
  };
  for (let s = 0; s < SUBNETS_PER_NETWORK; s++) {
    const subnet = `Subnet${n}x${s}`;
    resources[subnet] = {
      Type: 'AWS::EC2::Subnet',
      Properties: {
        VpcId: ref(vpc),
        CidrBlock: { 'Fn::Select': [s, { 'Fn::Cidr': [getAtt(vpc, 'CidrBlock'), SUBNETS_PER_NETWORK, 8] }] },
        AvailabilityZone: { 'Fn::Select': [s % 2, { 'Fn::GetAZs': '' }] },
        MapPublicIpOnLaunch: s < 2,
        Tags: tags([['Name', sub(`\${AWS::StackName}-subnet-${n}-${s}`)]]),
      },
    };
    resources[`${subnet}Routes`] = {
      Type: 'AWS::EC2::SubnetRouteTableAssociation',
      Properties: { SubnetId: ref(subnet), RouteTableId: ref(`PublicRoutes${n}`) },
    };
  }
  resources[`WebSg${n}`] = {
    Type: 'AWS::EC2::SecurityGroup',
    Properties: {
      GroupDescription: `Web tier of network ${n}`,
      VpcId: ref(vpc),
      SecurityGroupIngress: [
        { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' },
        { IpProtocol: 'tcp', FromPort: 80, ToPort: 80, CidrIp: '0.0.0.0/0' },
      ],
      Tags: tags([['Name', sub(`\${AWS::StackName}-web-${n}`)]]),
    },
  };
  resources[`AppSg${n}`] = {
    Type: 'AWS::EC2::SecurityGroup',
    Properties: { GroupDescription: `App tier of network ${n}`, VpcId: ref(vpc), Tags: tags([['Name', sub(`\${AWS::StackName}-app-${n}`)]]) },
  };
  resources[`AppFromWeb${n}`] = {
    Type: 'AWS::EC2::SecurityGroupIngress',
    Properties: { GroupId: getAtt(`AppSg${n}`, 'GroupId'), IpProtocol: 'tcp', FromPort: 8080, ToPort: 8080, SourceSecurityGroupId: getAtt(`WebSg${n}`, 'GroupId') },
  };
}

function addUnit(resources: { [id: string]: Resource }, u: number, network: number, random: () => number): void {
  const id = (kind: string) => `${kind}${u}`;
  const team = TEAMS[Math.floor(random() * TEAMS.length)];
  const subnetA = `Subnet${network}x2`;
  const subnetB = `Subnet${network}x3`;
  resources[id('DeadLetters')] = { Type: 'AWS::SQS::Queue', Properties: { MessageRetentionPeriod: 1209600, Tags: tags([['Team', team]]) } };
  resources[id('Jobs')] = {
    Type: 'AWS::SQS::Queue',
    Properties: {
      VisibilityTimeout: 30 + Math.floor(random() * 10) * 30,
      MessageRetentionPeriod: findInMap('EnvConfig', ref('EnvName'), 'Retention'),
      RedrivePolicy: { deadLetterTargetArn: getAtt(id('DeadLetters'), 'Arn'), maxReceiveCount: 3 + Math.floor(random() * 5) },
      Tags: tags([['Team', team], ['Unit', String(u)]]),
    },
  };
  resources[id('Events')] = {
    Type: 'AWS::SNS::Topic',
    Properties: { DisplayName: sub(`\${EnvName} events ${u}`), Tags: tags([['Team', team]]) },
  };
  resources[id('JobsSubscription')] = {
    Type: 'AWS::SNS::Subscription',
    Properties: { TopicArn: ref(id('Events')), Protocol: 'sqs', Endpoint: getAtt(id('Jobs'), 'Arn'), RawMessageDelivery: true },
  };
  resources[id('JobsPolicy')] = {
    Type: 'AWS::SQS::QueuePolicy',
    Properties: {
      Queues: [ref(id('Jobs'))],
      PolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: 'sns.amazonaws.com' },
            Action: 'sqs:SendMessage',
            Resource: getAtt(id('Jobs'), 'Arn'),
            Condition: { ArnEquals: { 'aws:SourceArn': ref(id('Events')) } },
          },
        ],
      },
    },
  };
  resources[id('WorkerRole')] = {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      },
      ManagedPolicyArns: [sub('arn:${AWS::Partition}:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole')],
      Policies: [
        {
          PolicyName: 'publish',
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Action: ['sns:Publish'], Resource: ref(id('Events')) }],
          },
        },
      ],
      Tags: tags([['Team', team]]),
    },
  };
  resources[id('WorkerQueueAccess')] = {
    Type: 'AWS::IAM::Policy',
    Properties: {
      PolicyName: sub(`\${AWS::StackName}-jobs-${u}`),
      Roles: [ref(id('WorkerRole'))],
      PolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'],
            Resource: [getAtt(id('Jobs'), 'Arn'), getAtt(id('DeadLetters'), 'Arn')],
          },
        ],
      },
    },
  };
  resources[id('Worker')] = {
    Type: 'AWS::Lambda::Function',
    Properties: {
      Runtime: RUNTIMES[u % RUNTIMES.length],
      Handler: 'index.handler',
      Role: getAtt(id('WorkerRole'), 'Arn'),
      MemorySize: ref('LambdaMemory'),
      Timeout: 30,
      ReservedConcurrentExecutions: findInMap('EnvConfig', ref('EnvName'), 'Concurrency'),
      Code: { ZipFile: `def handler(event, context):\n    # unit ${u}\n    return {"records": len(event.get("Records", []))}\n` },
      Environment: {
        Variables: {
          QUEUE_URL: ref(id('Jobs')),
          TOPIC_ARN: ref(id('Events')),
          STAGE: ref('EnvName'),
          TABLE_PREFIX: sub(`\${AWS::StackName}-\${EnvName}-${team}`),
        },
      },
      VpcConfig: { SubnetIds: [ref(subnetA), ref(subnetB)], SecurityGroupIds: [getAtt(`AppSg${network}`, 'GroupId')] },
      Tags: tags([['Team', team]]),
    },
  };
  resources[id('WorkerEvents')] = {
    Type: 'AWS::Lambda::EventSourceMapping',
    Properties: { EventSourceArn: getAtt(id('Jobs'), 'Arn'), FunctionName: ref(id('Worker')), BatchSize: 10 },
  };
  resources[id('HostRole')] = {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: ['ec2.amazonaws.com'] }, Action: ['sts:AssumeRole'] }],
      },
      ManagedPolicyArns: [sub('arn:${AWS::Partition}:iam::aws:policy/AmazonSSMManagedInstanceCore')],
    },
  };
  resources[id('HostProfile')] = { Type: 'AWS::IAM::InstanceProfile', Properties: { Roles: [ref(id('HostRole'))] } };
  resources[id('Host')] = {
    Type: 'AWS::EC2::Instance',
    Properties: {
      ImageId: findInMap('RegionMap', ref('AWS::Region'), 'AMI'),
      // Every third host pins its own type; the rest follow the environment.
      InstanceType: u % 3 === 0 ? 't3.small' : ifCondition('IsProd', 'm5.large', ref('InstanceType')),
      SubnetId: ref(subnetA),
      SecurityGroupIds: [ref(`AppSg${network}`), ref(`WebSg${network}`)],
      IamInstanceProfile: ref(id('HostProfile')),
      UserData: {
        'Fn::Base64': sub(`#!/bin/bash\nset -euo pipefail\necho "QUEUE=\${${id('Jobs')}}" >> /etc/environment\necho "REGION=\${AWS::Region}" >> /etc/environment\n`),
      },
      Tags: tags([['Name', sub(`\${AWS::StackName}-host-${u}`)], ['Team', team]]),
    },
  };
  resources[id('QueueDepthAlarm')] = {
    Type: 'AWS::CloudWatch::Alarm',
    Condition: 'CreateAlarms',
    Properties: {
      AlarmDescription: sub(`Backlog on \${${id('Jobs')}.QueueName}`),
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: getAtt(id('Jobs'), 'QueueName') }],
      Statistic: 'Maximum',
      Period: 60,
      EvaluationPeriods: 5,
      Threshold: 100,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [ref(id('Events'))],
    },
  };
  resources[id('WorkerLogs')] = {
    Type: 'AWS::Logs::LogGroup',
    Properties: {
      LogGroupName: sub(`/aws/lambda/\${${id('Worker')}}`),
      RetentionInDays: ifCondition('IsProd', 90, findInMap('EnvConfig', ref('EnvName'), 'LogRetention')),
    },
  };
}

function addFiller(resources: { [id: string]: Resource }, f: number, units: number): void {
  const unit = units > 0 ? f % units : -1;
  resources[`Setting${f}`] = {
    Type: 'AWS::SSM::Parameter',
    Properties: {
      Name: sub(`/\${AWS::StackName}/setting/${f}`),
      Type: 'String',
      Value: unit >= 0 ? { 'Fn::Join': [',', [ref(`Jobs${unit}`), ref(`Events${unit}`)]] } : ref('EnvName'),
    },
  };
}

/** The "before" template as data, plus the layout the edits need. */
function buildBefore(size: number): { template: Template; units: number; networks: number } {
  const random = seededRandom(size * 7919 + 17);
  let networks = networkCount(size);
  while (networks > 1 && networks * NETWORK_RESOURCES > size) networks--;
  const units = Math.max(0, Math.floor((size - networks * NETWORK_RESOURCES) / UNIT_RESOURCES));
  const fillers = size - networks * NETWORK_RESOURCES - units * UNIT_RESOURCES;
  const template = header(networks, random);
  const resources: { [id: string]: Resource } = {};
  for (let n = 0; n < networks; n++) addNetwork(resources, n);
  // Unit 0 lives in network 1, so the first unit's edits are not swallowed by network 0's replacement.
  for (let u = 0; u < units; u++) addUnit(resources, u, (u + 1) % networks, random);
  for (let f = 0; f < fillers; f++) addFiller(resources, f, units);
  template.Resources = resources;
  const outputs: { [key: string]: Plain } = {};
  for (let n = 0; n < networks; n++) {
    outputs[`Vpc${n}Id`] = { Value: ref(`Vpc${n}`), Export: { Name: sub(`\${AWS::StackName}-vpc-${n}`) } };
  }
  for (let u = 0; u < Math.min(units, 20); u++) outputs[`Worker${u}Arn`] = { Value: getAtt(`Worker${u}`, 'Arn') };
  template.Outputs = outputs;
  return { template, units, networks };
}

/** Inserts `entries` right after the key `after` (order matters for the text, as in an editor). */
function insertAfter<T>(map: { [key: string]: T }, after: string, entries: { [key: string]: T }): { [key: string]: T } {
  const out: { [key: string]: T } = {};
  for (const [key, value] of Object.entries(map)) {
    out[key] = value;
    if (key === after) Object.assign(out, entries);
  }
  return out;
}

/** The edited copy: a handful of changes a person makes in one sitting. */
function applyEdits(before: Template, units: number): { after: Template; edits: string[] } {
  const after = structuredClone(before) as Template & { Resources: { [id: string]: Resource } };
  const edits: string[] = [];
  const parameters = after.Parameters as { [key: string]: { [key: string]: Plain } };
  parameters.VpcCidr.Default = '10.20.0.0/16';
  edits.push('parameter VpcCidr default 10.0.0.0/16 → 10.20.0.0/16 (feeds Vpc0.CidrBlock)');

  const vpcTags = (after.Resources.Vpc1.Properties as { Tags: { Key: string; Value: Plain }[] }).Tags;
  vpcTags.find((tag) => tag.Key === 'CostCenter')!.Value = 'cc-2001';
  edits.push('tag CostCenter on Vpc1 changed');

  if (units > 0) {
    (after.Resources.Host0.Properties as { [key: string]: Plain }).InstanceType = 't3.medium';
    edits.push('Host0 InstanceType t3.small → t3.medium');
    after.Resources = insertAfter(after.Resources, 'Jobs0', {
      Jobs0Priority: {
        Type: 'AWS::SQS::Queue',
        Properties: { VisibilityTimeout: 60, RedrivePolicy: { deadLetterTargetArn: getAtt('DeadLetters0', 'Arn'), maxReceiveCount: 2 } },
      },
    });
    edits.push('added Jobs0Priority (AWS::SQS::Queue)');
    const removed = `WorkerLogs${units - 1}`;
    delete after.Resources[removed];
    edits.push(`removed ${removed} (AWS::Logs::LogGroup)`);
  }
  return { after, edits };
}

/** The benchmark pair for one size: YAML text before and after the edit. */
export function generatePair(size: number): TemplatePair {
  const { template, units } = buildBefore(size);
  const { after, edits } = applyEdits(template, units);
  return { name: `stack-${size}`, size, before: toYaml(template), after: toYaml(after), edits };
}

/** How many functions the SAM pair declares: about five generated resources each, about 1,000 in all. */
export const SAM_FUNCTIONS = 200;

/**
 * A SAM template of `functions` functions, each with an `Api` event on the implicit REST API and
 * an `SQS` event on a queue of its own (function, role, permission, event source mapping and
 * queue: about five resources each once expanded).
 */
function samStack(functions: number): Template {
  const random = seededRandom(functions);
  const template: Template = {
    AWSTemplateFormatVersion: '2010-09-09',
    Transform: 'AWS::Serverless-2016-10-31',
    Description: 'generated SAM benchmark',
    Parameters: { Stage: { Type: 'String', Default: 'prod' } },
    Globals: { Function: { Timeout: 10, MemorySize: 256, Runtime: 'python3.12', Environment: { Variables: { STAGE: ref('Stage') } } } },
    Resources: {},
  };
  const resources = template.Resources as { [id: string]: Resource };
  for (let f = 0; f < functions; f++) {
    const team = TEAMS[Math.floor(random() * TEAMS.length)]!;
    resources[`Jobs${f}`] = { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 60 + f } };
    resources[`Handler${f}`] = {
      Type: 'AWS::Serverless::Function',
      Properties: {
        CodeUri: `s3://artifacts-${team}/handler${f}.zip`,
        Handler: 'app.handler',
        Policies: ['AWSLambdaBasicExecutionRole', { SQSPollerPolicy: { QueueName: getAtt(`Jobs${f}`, 'QueueName') } }],
        Events: {
          Read: { Type: 'Api', Properties: { Path: `/${team}/items${f}/{id}`, Method: 'get' } },
          Work: { Type: 'SQS', Properties: { Queue: getAtt(`Jobs${f}`, 'Arn'), BatchSize: 10 } },
        },
      },
    };
  }
  return template;
}

/** The properties of one function of a copy of `samStack`'s template. */
function functionProperties(template: Template, f: number): { [key: string]: Plain } {
  return (template.Resources as { [id: string]: Resource })[`Handler${f}`]!.Properties as { [key: string]: Plain };
}

/**
 * The SAM stack and an edit that changes its API: one function's timeout, a new `Api` event on
 * another (a new path, so the API is redeployed) and one `SQS` event removed. `size` is the
 * number of resources the transform generates.
 */
export function generateSamPair(functions: number = SAM_FUNCTIONS): TemplatePair {
  const template = samStack(functions);
  const after = JSON.parse(JSON.stringify(template)) as Template;
  const edits: string[] = [];
  functionProperties(after, 0).Timeout = 30;
  edits.push('Handler0 Timeout 10 → 30');
  (functionProperties(after, 1).Events as { [key: string]: Plain }).Write = { Type: 'Api', Properties: { Path: '/items1', Method: 'post' } };
  edits.push('Handler1: a new Api event (POST /items1), so the API is redeployed');
  delete (functionProperties(after, functions - 1).Events as { [key: string]: Plain }).Work;
  edits.push(`Handler${functions - 1}: its SQS event removed`);
  return { name: `sam-${functions}-functions`, size: functions * 5 + 3, before: toYaml(template), after: toYaml(after), edits };
}

/** The SAM stack of `functions` functions, as YAML text. */
export function generateSamStack(functions: number): string {
  return toYaml(samStack(functions));
}

// Bundled (bench/samAlone.ts), every module is the main one: the file's own name says it was run.
if (require.main === module && /generate\.[jt]s$/.test(process.argv[1] ?? '')) {
  const outDir = process.argv[2] ?? join(__dirname, '..', 'test', 'fixtures', 'generated');
  mkdirSync(outDir, { recursive: true });
  for (const size of BENCH_SIZES) {
    const pair = generatePair(size);
    writeFileSync(join(outDir, `${pair.name}.before.yaml`), pair.before);
    writeFileSync(join(outDir, `${pair.name}.after.yaml`), pair.after);
    console.log(`${pair.name}: ${pair.before.length} → ${pair.after.length} characters; ${pair.edits.join('; ')}`);
  }
}
