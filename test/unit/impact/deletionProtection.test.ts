/**
 * Deletion that the service refuses (docs/update-rules.md#deletion-protected). Expectations come
 * from the AWS pages of each protection ("The database can't be deleted when deletion protection is
 * enabled", RDS; "When enabled, the table cannot be deleted by any user or process", DynamoDB;
 * "If you set this parameter to true, you can't terminate the instance", EC2) and from the cleanup
 * rule: a delete that fails in cleanup leaves the resource behind while the update completes
 * (docs/update-rules.md#cleanup-may-fail).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function changeOf(before: string, after: string, logicalId: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const found = report.changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `expected a change for ${logicalId} (${report.status})`);
  return found;
}

const table = (key: string, protection: string, policy = '') => `Resources:
  Orders:
    Type: AWS::DynamoDB::Table
${policy}    Properties:
      BillingMode: PAY_PER_REQUEST
      DeletionProtectionEnabled: ${protection}
      AttributeDefinitions: [{ AttributeName: ${key}, AttributeType: S }]
      KeySchema: [{ AttributeName: ${key}, KeyType: HASH }]
  Topic:
    Type: AWS::SNS::Topic
`;
const onlyTopic = 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n';

describe('a protected resource is not deleted: the cleanup fails and leaves it behind, with its data', () => {
  test('a protected table replaced: no data loss, the old table stays', () => {
    const orders = changeOf(table('id', 'true'), table('orderId', 'true'), 'Orders');
    assert.equal(orders.impact, 'replacement');
    assert.deepEqual(orders.risks, [{ kind: 'deletion-protected', protection: 'DeletionProtectionEnabled' }]);
  });

  test('the deployed protection decides: turned off in the same update as the replacement, the old table keeps it', () => {
    assert.deepEqual(changeOf(table('id', 'true'), table('orderId', 'false'), 'Orders').risks, [{ kind: 'deletion-protected', protection: 'DeletionProtectionEnabled' }]);
  });

  test('a protected table removed: the cleanup fails', () => {
    assert.deepEqual(changeOf(table('id', 'true'), onlyTopic, 'Orders').risks, [{ kind: 'deletion-protected', protection: 'DeletionProtectionEnabled' }]);
  });

  test('an instance with termination protection, replaced for a new image', () => {
    const box = (image: string) => `Resources:\n  Box:\n    Type: AWS::EC2::Instance\n    Properties:\n      ImageId: ${image}\n      DisableApiTermination: true\n`;
    assert.deepEqual(changeOf(box('ami-11111111'), box('ami-22222222'), 'Box').risks, [{ kind: 'deletion-protected', protection: 'DisableApiTermination' }]);
  });
});

describe('other protected types', () => {
  test('a log group with DeletionProtectionEnabled, removed', () => {
    const logs = `Resources:\n  Logs:\n    Type: AWS::Logs::LogGroup\n    Properties:\n      DeletionProtectionEnabled: true\n  Topic:\n    Type: AWS::SNS::Topic\n`;
    assert.deepEqual(changeOf(logs, onlyTopic, 'Logs').risks, [{ kind: 'deletion-protected', protection: 'DeletionProtectionEnabled' }]);
  });
});

describe('what is deleted or kept as before', () => {
  test('an unprotected table replaced loses its items', () => {
    assert.deepEqual(changeOf(table('id', 'false'), table('orderId', 'false'), 'Orders').risks, [{ kind: 'data-loss', holds: 'table-items', policy: 'UpdateReplacePolicy' }]);
  });

  test('Retain keeps the protected table without trying to delete it: its data is kept, and no cleanup fails', () => {
    const retained = (key: string) => table(key, 'true', '    UpdateReplacePolicy: Retain\n');
    assert.deepEqual(changeOf(retained('id'), retained('orderId'), 'Orders').risks, [{ kind: 'data-kept', holds: 'table-items', policy: 'UpdateReplacePolicy' }]);
  });
});
