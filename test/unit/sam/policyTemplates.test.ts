/**
 * SAM policy templates become the statements SAM defines for them, with the values given for the
 * template's parameters put in (docs/update-rules.md#serverless-transform). Expectations follow
 * the AWS SAM policy template list: `DynamoDBCrudPolicy` allows the item and table actions on the
 * table and its indexes, its table named through an `Fn::Sub` variable `tableName`;
 * `SQSPollerPolicy` the polling actions on the queue. A template whose statements are not known
 * stays symbolic (its name and parameters), so a change to it still changes the role. An AWS
 * managed policy named in `Policies` becomes the ARN AWS's managed policy reference gives it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { processedResources, workerFunction } from './processedResources';

const spec = loadResourceSpec();

/** A function with the given `Policies` lines, beside a table and a queue. */
function template(policies: string): string {
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  Orders:
    Type: AWS::Serverless::SimpleTable
  Jobs:
    Type: AWS::SQS::Queue
${workerFunction(`      Policies:\n${policies}\n`)}`;
}

/** The inline policies of the role SAM generates for `Worker`. */
function rolePolicies(text: string): unknown {
  return processedResources(text).WorkerRole!.Properties.Policies;
}

const tableArn = (suffix: string, table: unknown) => ({ 'Fn::Sub': [`arn:\${AWS::Partition}:dynamodb:\${AWS::Region}:\${AWS::AccountId}:table/\${tableName}${suffix}`, { tableName: table }] });

describe('SAM policy templates', () => {
  test('DynamoDBCrudPolicy is the CRUD statement on the table and its indexes, the table given by reference', () => {
    assert.deepEqual(rolePolicies(template('        - DynamoDBCrudPolicy:\n            TableName: !Ref Orders')), [
      {
        PolicyName: 'WorkerRolePolicy0',
        PolicyDocument: {
          Statement: [
            {
              Effect: 'Allow',
              Action: [
                'dynamodb:GetItem',
                'dynamodb:DeleteItem',
                'dynamodb:PutItem',
                'dynamodb:Scan',
                'dynamodb:Query',
                'dynamodb:UpdateItem',
                'dynamodb:BatchWriteItem',
                'dynamodb:BatchGetItem',
                'dynamodb:DescribeTable',
                'dynamodb:ConditionCheckItem',
              ],
              Resource: [tableArn('', { Ref: 'Orders' }), tableArn('/index/*', { Ref: 'Orders' })],
            },
          ],
        },
      },
    ]);
  });

  test('each policy is named after its place in the list, templates and statements alike', () => {
    const policies = rolePolicies(
      template('        - Statement:\n            - Effect: Allow\n              Action: logs:CreateLogGroup\n              Resource: "*"\n        - SQSPollerPolicy:\n            QueueName: !GetAtt Jobs.QueueName'),
    ) as { PolicyName: string; PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } }[];
    assert.deepEqual(
      policies.map((p) => p.PolicyName),
      ['WorkerRolePolicy0', 'WorkerRolePolicy1'],
    );
    const poller = policies[1]!.PolicyDocument.Statement[0]!;
    assert.deepEqual(poller.Action, ['sqs:ChangeMessageVisibility', 'sqs:ChangeMessageVisibilityBatch', 'sqs:DeleteMessage', 'sqs:DeleteMessageBatch', 'sqs:GetQueueAttributes', 'sqs:ReceiveMessage']);
    assert.deepEqual(poller.Resource, { 'Fn::Sub': ['arn:${AWS::Partition}:sqs:${AWS::Region}:${AWS::AccountId}:${queueName}', { queueName: { 'Fn::GetAtt': ['Jobs', 'QueueName'] } }] });
  });

  test('a template whose statements are not known stays symbolic: its name and parameters', () => {
    assert.deepEqual(rolePolicies(template('        - EFSWriteAccessPolicy:\n            FileSystem: fs-1\n            AccessPoint: fsap-1')), [
      { PolicyName: 'WorkerRolePolicy0', PolicyDocument: { Statement: [{ Effect: 'Allow', SamPolicyTemplate: { EFSWriteAccessPolicy: { FileSystem: 'fs-1', AccessPoint: 'fsap-1' } } }] } },
    ]);
  });

  test('another table for the template is an update of the role without interruption, at the two ARNs that name it', () => {
    const before = template('        - DynamoDBReadPolicy:\n            TableName: !Ref Orders');
    const after = before.replace('TableName: !Ref Orders', 'TableName: archive-orders');
    const report = analyzeUpdate({ text: before }, { text: after }, { spec, stackName: 'worker' }).report;
    const changed = report.changes.filter((c) => c.impact !== 'none');
    assert.deepEqual(
      changed.map((c) => `${c.action} ${c.logicalId} ${c.impact}`),
      ['Modify WorkerRole no-interruption'],
    );
    // DynamoDBReadPolicy names the table twice: the table and its indexes.
    const statement = '/Properties/Policies/0/PolicyDocument/Statement/0';
    assert.deepEqual(
      changed[0]!.details.map((d) => d.target.path),
      [`${statement}/Resource/0`, `${statement}/Resource/1`],
    );
    assert.deepEqual(changed[0]!.generatedBy, { logicalId: 'Worker', property: 'Policies' });
  });
});

describe('AWS managed policies named in Policies', () => {
  /** The managed policy ARNs of `Worker`'s role after its own basic execution role. */
  const arns = (names: string[]) =>
    (processedResources(template(names.map((name) => `        - ${name}`).join('\n'))).WorkerRole!.Properties.ManagedPolicyArns as string[]).slice(1);

  test('a name becomes the ARN AWS gives that policy, with its path (AWS managed policy reference)', () => {
    assert.deepEqual(arns(['AWSLambdaExecute', 'AWSLambdaReplicator', 'AWSLambdaVPCAccessExecutionRole', 'AmazonS3ReadOnlyAccess', 'CloudWatchLambdaInsightsExecutionRolePolicy']), [
      'arn:aws:iam::aws:policy/AWSLambdaExecute',
      'arn:aws:iam::aws:policy/aws-service-role/AWSLambdaReplicator',
      'arn:aws:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole',
      'arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess',
      'arn:aws:iam::aws:policy/CloudWatchLambdaInsightsExecutionRolePolicy',
    ]);
  });

  test('a name that is no AWS managed policy known here stays as written, and an ARN as it is', () => {
    assert.deepEqual(arns(['MyTeamPolicy', 'arn:aws:iam::123456789012:policy/Custom']), ['MyTeamPolicy', 'arn:aws:iam::123456789012:policy/Custom']);
  });
});
