/**
 * The IAM roles SAM generates for functions and state machines (role_utils, iam.py): the trust
 * policy, managed policy ARNs, inline policies from `Policies` (managed policy names and ARNs,
 * statements, policy templates, each possibly under `Fn::If`), the path, the boundary and tags.
 */
import type { SamResource } from './samResource';
import { invalidDocument, invalidResource, SamError } from './errors';
import type { GeneratedResource } from './generated';
import { expandPolicyTemplate, isConditionalPolicyTemplate, isPolicyTemplate } from './policyTemplates';
import { isIntrinsic, isIntrinsicIf, isList, isMap, isNoValue, plainEqual, type PlainMap } from './values';

/**
 * The paths of AWS managed policies a name may stand for, where they are not the root: SAM looks
 * every name up in the account's list of AWS managed policies, which we do not have. These are the
 * paths SAM's translator suite and AWS's managed policy reference show.
 */
const MANAGED_POLICY_PATHS: ReadonlyMap<string, string> = new Map([
  ['AWSLambdaBasicExecutionRole', 'service-role/'],
  ['AWSLambdaRole', 'service-role/'],
  ['AWSLambdaVPCAccessExecutionRole', 'service-role/'],
  ['AWSLambdaKinesisExecutionRole', 'service-role/'],
  ['AWSLambdaDynamoDBExecutionRole', 'service-role/'],
  ['AWSLambdaSQSQueueExecutionRole', 'service-role/'],
  ['AWSLambdaMSKExecutionRole', 'service-role/'],
  ['AWSLambdaENIManagementAccess', 'service-role/'],
  ['AWSCodeDeployRoleForLambda', 'service-role/'],
  ['AWSIoTRuleActions', 'service-role/'],
  ['AmazonAPIGatewayPushToCloudWatchLogs', 'service-role/'],
  ['AWSLambdaReplicator', 'aws-service-role/'],
]);

/**
 * AWS managed policies at the root whose names do not start with `AWS` or `Amazon` (any name
 * that does is taken for one at the root unless its path is known above); any other name is left
 * as written, as SAM leaves a name the list does not hold.
 */
const UNPREFIXED_ROOT_POLICIES: ReadonlySet<string> = new Set(['CloudWatchLambdaInsightsExecutionRolePolicy']);

/** `ArnGenerator.generate_aws_managed_policy_arn`. */
export function managedPolicyArn(partition: string, name: string): string {
  return `arn:${partition}:iam::aws:policy/${name}`;
}

/** The ARN of a managed policy named in `Policies`: an AWS managed policy by name, an ARN as written. */
function policyArnOf(partition: string, name: string): string {
  if (name.startsWith('arn:')) return name;
  const path = MANAGED_POLICY_PATHS.get(name);
  if (path !== undefined) return managedPolicyArn(partition, `${path}${name}`);
  if (/^(AWS|Amazon)/.test(name) || UNPREFIXED_ROOT_POLICIES.has(name)) return managedPolicyArn(partition, name);
  return name;
}

/** The trust policy of a function's role. */
export function assumeRolePolicy(service: string): PlainMap {
  return { Version: '2012-10-17', Statement: [{ Action: ['sts:AssumeRole'], Effect: 'Allow', Principal: { Service: [service] } }] };
}

/** An inline policy allowing one action on one resource, named `<logicalId><suffix>`. */
export function singleStatementPolicy(name: string, action: unknown, resource: unknown): PlainMap {
  return { PolicyName: name, PolicyDocument: { Statement: [{ Action: action, Effect: 'Allow', Resource: resource }] } };
}

/** The policy that lets a function send failed events to its `DeadLetterQueue` (a versioned document, unlike the event sources' ones). */
export function deadLetterQueuePolicy(action: unknown, targetArn: unknown): PlainMap {
  return { PolicyName: 'DeadLetterQueuePolicy', PolicyDocument: { Version: '2012-10-17', Statement: [{ Action: action, Resource: targetArn, Effect: 'Allow' }] } };
}

export const rolePolicies = {
  sqsSendMessage: (queueArn: unknown, logicalId: string) => singleStatementPolicy(`${logicalId}SQSPolicy`, 'sqs:SendMessage', queueArn),
  snsPublish: (topicArn: unknown, logicalId: string) => singleStatementPolicy(`${logicalId}SNSPolicy`, 'sns:publish', topicArn),
  eventBusPutEvents: (busArn: unknown, logicalId: string) => singleStatementPolicy(`${logicalId}EventBridgePolicy`, 'events:PutEvents', busArn),
  lambdaInvoke: (functionArn: unknown, logicalId: string) => singleStatementPolicy(`${logicalId}LambdaPolicy`, 'lambda:InvokeFunction', functionArn),
  s3SendEventPayload: (bucketArn: unknown, logicalId: string) => ({
    PolicyName: `${logicalId}S3Policy`,
    PolicyDocument: {
      Statement: [
        { Action: 's3:PutObject', Effect: 'Allow', Resource: { 'Fn::Join': ['/', [bucketArn, '*']] } },
        { Action: 's3:ListBucket', Effect: 'Allow', Resource: bucketArn },
      ],
    },
  }),
};

type PolicyKind = 'managed' | 'statement' | 'template' | 'unknown';

function kindOf(policy: unknown): PolicyKind | SamError {
  if (typeof policy === 'string') return 'managed';
  if (isIntrinsicIf(policy)) {
    const args = policy['Fn::If'];
    if (args.length !== 3) return invalidDocument('Fn::If requires 3 arguments');
    const a = kindOf(args[1]);
    const b = kindOf(args[2]);
    if (a instanceof SamError) return a;
    if (b instanceof SamError) return b;
    if (a === b) return a;
    if (isNoValue(args[1])) return b;
    if (isNoValue(args[2])) return a;
    return invalidDocument('Different policy types within the same Fn::If statement is unsupported. Separate different policy types into different Fn::If statements');
  }
  if (isIntrinsic(policy)) return 'managed';
  if (isMap(policy) && 'Statement' in policy) return 'statement';
  if (isPolicyTemplate(policy)) return 'template';
  return 'unknown';
}

/** The `Policies` property as a list, with policy templates expanded (symbolically) into statements. */
export function expandPolicies(sam: SamResource, policies: unknown): unknown[] | SamError {
  if (policies === undefined || policies === null || policies === '' || (isList(policies) && policies.length === 0)) return [];
  const list = isList(policies) ? policies : [policies];
  const out: unknown[] = [];
  for (const policy of list) {
    if (isPolicyTemplate(policy) || isConditionalPolicyTemplate(policy)) {
      const expanded = expandPolicyTemplate(sam.logicalId, policy);
      if (expanded instanceof SamError) return expanded;
      out.push(expanded);
    } else out.push(policy);
  }
  return out;
}

/** What goes into a generated role. */
export interface RoleInputs {
  partition: string;
  assumeRolePolicyDocument: unknown;
  /** `Policies` after policy templates were expanded. */
  policies: readonly unknown[];
  managedPolicyArns?: unknown[];
  policyDocuments?: unknown[];
  path?: unknown;
  permissionsBoundary?: unknown;
  tags?: unknown;
}

/** `construct_role_for_resource`: the role `<logicalId>Role` with the given policies. */
export function constructRole(sam: SamResource, role: GeneratedResource, inputs: RoleInputs): GeneratedResource | SamError {
  const managed: unknown[] = [...(inputs.managedPolicyArns ?? [])];
  const documents: unknown[] = [...(inputs.policyDocuments ?? [])];
  for (let index = 0; index < inputs.policies.length; index++) {
    const policy = inputs.policies[index];
    const kind = kindOf(policy);
    if (kind instanceof SamError) return kind;
    if (kind === 'statement') {
      const named = (value: unknown) => ({ PolicyName: `${role.logicalId}Policy${index}`, PolicyDocument: value });
      if (isIntrinsicIf(policy)) {
        const [condition, then, otherwise] = policy['Fn::If'];
        documents.push({ 'Fn::If': [condition, isNoValue(then) ? then : named(then), isNoValue(otherwise) ? otherwise : named(otherwise)] });
      } else documents.push(named(policy));
    } else if (kind === 'managed') {
      let arn: unknown = policy;
      if (typeof policy === 'string') arn = policyArnOf(inputs.partition, policy);
      else if (isIntrinsicIf(policy)) {
        const [condition, then, otherwise] = policy['Fn::If'];
        const convert = (value: unknown) => (typeof value === 'string' ? policyArnOf(inputs.partition, value) : value);
        arn = { 'Fn::If': [condition, convert(then), convert(otherwise)] };
      }
      if (!managed.some((m) => plainEqual(m, arn))) managed.push(arn);
    } else {
      return invalidResource(sam.logicalId, `Policy at index ${index} in the 'Policies' property is not valid`, ['Properties', 'Policies']);
    }
  }
  role.set('AssumeRolePolicyDocument', inputs.assumeRolePolicyDocument, 'AssumeRolePolicyDocument');
  role.set('ManagedPolicyArns', managed, 'Policies');
  role.set('Policies', documents.length > 0 ? documents : undefined, 'Policies');
  role.set('Path', inputs.path, 'RolePath');
  role.set('PermissionsBoundary', inputs.permissionsBoundary, 'PermissionsBoundary');
  role.set('Tags', inputs.tags, 'Tags');
  return role;
}

/** Adds a managed policy ARN to a generated role, once. */
export function addManagedPolicy(role: GeneratedResource, arn: string): void {
  const managed = (role.get('ManagedPolicyArns') as unknown[] | undefined) ?? [];
  if (!managed.includes(arn)) role.set('ManagedPolicyArns', [...managed, arn]);
}

/** Adds an inline policy to a generated role unless one with the same document is there. */
export function addInlinePolicy(role: GeneratedResource, policy: PlainMap): void {
  const policies = (role.get('Policies') as unknown[] | undefined) ?? [];
  const document = policy.PolicyDocument;
  if (policies.some((p) => plainEqual(p, policy) || (isMap(p) && plainEqual(p.PolicyDocument, document)))) return;
  role.set('Policies', [...policies, policy]);
}
