/**
 * A connector's policy holds the statements SAM's connector profiles define for the pair of types
 * and the access granted, with the two sides' ARNs put in (docs/update-rules.md#serverless-transform).
 * Expectations follow the AWS SAM connector reference: from a function to a DynamoDB table, `Read`
 * allows the item reads, queries, scans and PartiQL selects on the table and its indexes, `Write`
 * the puts, updates and deletes. A pair whose statements are not known stays symbolic.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { processedResources, workerFunction } from './processedResources';

const spec = loadResourceSpec();

/** A function connected to `Destination` with the given permissions. */
function template(destination: string, permissions: string): string {
  return `Transform: AWS::Serverless-2016-10-31
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]
      KeySchema: [{AttributeName: id, KeyType: HASH}]
      BillingMode: PAY_PER_REQUEST
  Bus:
    Type: AWS::Events::EventBus
    Properties:
      Name: orders
${workerFunction()}  WorkerTo:
    Type: AWS::Serverless::Connector
    Properties:
      Source:
        Id: Worker
      Destination:
        Id: ${destination}
      Permissions: [${permissions}]
`;
}

const tableArn = { 'Fn::GetAtt': ['Orders', 'Arn'] };
const tableResources = [tableArn, { 'Fn::Sub': ['${DestinationArn}/index/*', { DestinationArn: tableArn }] }];
const reads = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:PartiQLSelect'];

describe('SAM connector policies', () => {
  test('Read from a function to a table is a managed policy on the function\'s role with the table\'s read actions', () => {
    const policy = processedResources(template('Orders', 'Read')).WorkerToPolicy!;
    assert.equal(policy.Type, 'AWS::IAM::ManagedPolicy');
    assert.deepEqual(policy.Properties.Roles, [{ Ref: 'WorkerRole' }]);
    assert.deepEqual(policy.Properties.PolicyDocument, { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: reads, Resource: tableResources }] });
  });

  test('Write too adds the write actions in a second statement: an update of the policy without interruption', () => {
    const before = template('Orders', 'Read');
    const after = template('Orders', 'Read, Write');
    const statements = (processedResources(after).WorkerToPolicy!.Properties.PolicyDocument as { Statement: { Action: string[] }[] }).Statement;
    assert.equal(statements.length, 2);
    assert.deepEqual(statements[0]!.Action, reads);
    assert.ok(statements[1]!.Action.includes('dynamodb:PutItem') && statements[1]!.Action.includes('dynamodb:DeleteItem'), JSON.stringify(statements[1]));
    const report = analyzeUpdate({ text: before }, { text: after }, { spec, stackName: 'worker' }).report;
    assert.deepEqual(
      report.changes.filter((c) => c.impact !== 'none').map((c) => `${c.action} ${c.logicalId} ${c.impact}`),
      ['Modify WorkerToPolicy no-interruption'],
    );
  });

  test('a pair whose statements are not known stays symbolic: the access and what it is on', () => {
    const policy = processedResources(template('Bus', 'Write')).WorkerToPolicy!;
    assert.deepEqual(policy.Properties.PolicyDocument, {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', SamConnectorAccess: { Category: 'Write', From: 'AWS::Lambda::Function', To: 'AWS::Events::EventBus', On: { 'Destination.Arn': { 'Fn::GetAtt': ['Bus', 'Arn'] } } } }],
    });
  });
});
