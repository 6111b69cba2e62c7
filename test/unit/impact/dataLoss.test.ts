/**
 * Data loss, said before it happens (docs/update-rules.md#data-loss): a replacement deletes the
 * old physical resource unless `UpdateReplacePolicy` keeps it, a removal deletes the resource
 * unless its deployed `DeletionPolicy` keeps it. Expectations come from the AWS pages of the two
 * attributes: the default is `Delete`, except the `DeletionPolicy` of RDS clusters and of RDS
 * instances outside a cluster, which is `Snapshot`; `Snapshot` on a type that cannot be
 * snapshotted deletes. A bucket is not lost but left behind (docs/update-rules.md#cleanup-may-fail).
 * Data kept (`Retain`) or snapshotted says so too, as information: the new resource starts empty.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport, ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function impact(oldText: string, newText: string): ImpactReport {
  return analyzeUpdate({ text: oldText }, { text: newText }, { spec }).report;
}

function change(report: ImpactReport, logicalId: string): ResourceChange {
  const found = report.changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `expected a change for ${logicalId}`);
  return found;
}

const table = (attributes = '', key = 'id') => `Resources:
  Orders:
    Type: AWS::DynamoDB::Table
${attributes}    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: ${key}, AttributeType: S }]
      KeySchema: [{ AttributeName: ${key}, KeyType: HASH }]
  Topic:
    Type: AWS::SNS::Topic
`;

const onlyTopic = 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n';

describe('data loss on replacement and removal', () => {
  test('a table replaced (new KeySchema) with no UpdateReplacePolicy loses its items: Delete is the default', () => {
    const report = impact(table(), table('', 'orderId'));
    const orders = change(report, 'Orders');
    assert.equal(orders.impact, 'replacement');
    assert.deepEqual(orders.risks, [{ kind: 'data-loss', holds: 'table-items', policy: 'UpdateReplacePolicy' }]);
    const warning = report.diagnostics.find((d) => d.code === 'data-loss');
    assert.equal(warning?.severity, 'warning');
    assert.equal(warning?.logicalId, 'Orders');
  });

  test('a table removed with no DeletionPolicy loses its items', () => {
    const orders = change(impact(table(), onlyTopic), 'Orders');
    assert.equal(orders.policyAction, 'Delete');
    assert.deepEqual(orders.risks, [{ kind: 'data-loss', holds: 'table-items', policy: 'DeletionPolicy' }]);
  });

  test('Retain keeps the data, outside the stack: information, on a replacement under UpdateReplacePolicy: Retain or a removal under DeletionPolicy: Retain', () => {
    const report = impact(table('    UpdateReplacePolicy: Retain\n'), table('    UpdateReplacePolicy: Retain\n', 'orderId'));
    const replaced = change(report, 'Orders');
    assert.equal(replaced.policyAction, 'ReplaceAndRetain');
    assert.deepEqual(replaced.risks, [{ kind: 'data-kept', holds: 'table-items', policy: 'UpdateReplacePolicy' }]);
    assert.equal(report.diagnostics.find((d) => d.code === 'data-kept')?.severity, 'info');
    const removed = change(impact(table('    DeletionPolicy: Retain\n'), onlyTopic), 'Orders');
    assert.equal(removed.policyAction, 'Retain');
    assert.deepEqual(removed.risks, [{ kind: 'data-kept', holds: 'table-items', policy: 'DeletionPolicy' }]);
    // RetainExceptOnCreate retains a resource that existed before the update.
    assert.deepEqual(change(impact(table('    DeletionPolicy: RetainExceptOnCreate\n'), onlyTopic), 'Orders').risks, [{ kind: 'data-kept', holds: 'table-items', policy: 'DeletionPolicy' }]);
  });

  test('the policy of the new template decides a replacement: Retain added with the breaking edit keeps the old table', () => {
    assert.deepEqual(change(impact(table(), table('    UpdateReplacePolicy: Retain\n', 'orderId')), 'Orders').risks, [{ kind: 'data-kept', holds: 'table-items', policy: 'UpdateReplacePolicy' }]);
  });

  test('Snapshot on a table, which cannot be snapshotted, falls back to Delete', () => {
    const orders = change(impact(table('    UpdateReplacePolicy: Snapshot\n'), table('    UpdateReplacePolicy: Snapshot\n', 'orderId')), 'Orders');
    assert.deepEqual(orders.risks, [{ kind: 'data-loss', holds: 'table-items', policy: 'UpdateReplacePolicy', written: 'Snapshot' }]);
  });

  test('a type that holds no data carries no risk when it is replaced or removed', () => {
    const vpc = (cidr: string) => `Resources:\n  Net:\n    Type: AWS::EC2::VPC\n    Properties:\n      CidrBlock: ${cidr}\n`;
    const replaced = change(impact(vpc('10.0.0.0/16'), vpc('10.1.0.0/16')), 'Net');
    assert.equal(replaced.impact, 'replacement');
    assert.equal(replaced.risks, undefined);
    assert.equal(change(impact(vpc('10.0.0.0/16') + '  Topic:\n    Type: AWS::SNS::Topic\n', onlyTopic), 'Net').risks, undefined);
    assert.equal(impact(vpc('10.0.0.0/16'), vpc('10.1.0.0/16')).diagnostics.filter((d) => d.code === 'data-loss').length, 0);
  });

  test('an update in place of a data-holding resource carries no risk', () => {
    const withTags = table().replace('      BillingMode: PAY_PER_REQUEST\n', '      BillingMode: PAY_PER_REQUEST\n      Tags: [{ Key: team, Value: shop }]\n');
    const orders = change(impact(table(), withTags), 'Orders');
    assert.equal(orders.impact, 'no-interruption');
    assert.equal(orders.risks, undefined);
  });
});

describe('the RDS defaults', () => {
  const instance = (extra: string) => `Resources:
  Db:
    Type: AWS::RDS::DBInstance
    Properties:
      Engine: mysql
      DBInstanceClass: db.t3.micro
${extra}  Topic:
    Type: AWS::SNS::Topic
`;

  test('a DB instance outside a cluster, removed with no DeletionPolicy, is snapshotted first (the default): no data loss', () => {
    const db = change(impact(instance('      AllocatedStorage: "20"\n'), onlyTopic), 'Db');
    assert.equal(db.policyAction, 'Snapshot');
    assert.equal(db.policyDefaulted, true);
    assert.deepEqual(db.risks, [{ kind: 'data-snapshot', holds: 'database-instance', policy: 'DeletionPolicy' }]);
  });

  test('a DB instance in a cluster (DBClusterIdentifier set) removed with no DeletionPolicy is deleted: Delete is its default', () => {
    const db = change(impact(instance('      DBClusterIdentifier: shop\n'), onlyTopic), 'Db');
    assert.equal(db.policyAction, 'Delete');
    assert.equal(db.policyDefaulted, undefined);
    assert.deepEqual(db.risks, [{ kind: 'data-loss', holds: 'database-instance', policy: 'DeletionPolicy' }]);
  });

  test('a DB cluster removed with no DeletionPolicy is snapshotted first', () => {
    const cluster = 'Resources:\n  Cluster:\n    Type: AWS::RDS::DBCluster\n    Properties:\n      Engine: aurora-mysql\n  Topic:\n    Type: AWS::SNS::Topic\n';
    const removed = change(impact(cluster, onlyTopic), 'Cluster');
    assert.equal(removed.policyAction, 'Snapshot');
    assert.deepEqual(removed.risks, [{ kind: 'data-snapshot', holds: 'database-cluster', policy: 'DeletionPolicy' }]);
  });

  test('a DB instance replaced (new DBName) with no UpdateReplacePolicy loses its data: the Snapshot default is DeletionPolicy\'s only', () => {
    const db = change(impact(instance('      DBName: shop\n'), instance('      DBName: orders\n')), 'Db');
    assert.equal(db.impact, 'replacement');
    assert.equal(db.policyAction, 'ReplaceAndDelete');
    assert.deepEqual(db.risks, [{ kind: 'data-loss', holds: 'database-instance', policy: 'UpdateReplacePolicy' }]);
  });

  test('a possible replacement (a property that replaces only in some cases) carries the risk as possible', () => {
    const kms = (key: string) => instance(`      PerformanceInsightsKMSKeyId: ${key}\n`);
    const db = change(impact(kms('alias/a'), kms('alias/b')), 'Db');
    assert.equal(db.impact, 'conditional-replacement');
    assert.deepEqual(db.risks, [{ kind: 'data-loss', holds: 'database-instance', policy: 'UpdateReplacePolicy', possible: true }]);
  });

  test('a resource that only may be replaced because a value it reads may change carries no risk: the doubt is the other resource\'s', () => {
    const reading = (cidr: string) => `Resources:
  Custom:
    Type: Custom::Thing
    Properties:
      ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:thing
      Cidr: ${cidr}
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !GetAtt Custom.Name
`;
    const queue = change(impact(reading('10.0.0.0/16'), reading('10.1.0.0/16')), 'Queue');
    assert.equal(queue.impact, 'conditional-replacement');
    assert.equal(queue.risks, undefined);
  });

  test('a DB instance replaced under UpdateReplacePolicy: Snapshot is snapshotted: no data loss', () => {
    const snap = '      DBName: shop\n';
    const before = instance(snap).replace('    Properties:', '    UpdateReplacePolicy: Snapshot\n    Properties:');
    const db = change(impact(before, before.replace('DBName: shop', 'DBName: orders')), 'Db');
    assert.equal(db.policyAction, 'ReplaceAndSnapshot');
    assert.deepEqual(db.risks, [{ kind: 'data-snapshot', holds: 'database-instance', policy: 'UpdateReplacePolicy' }]);
  });
});

describe('a bucket that cannot be deleted while it holds objects', () => {
  const bucket = (name: string, attributes = '') => `Resources:\n  Uploads:\n    Type: AWS::S3::Bucket\n${attributes}    Properties:\n      ObjectLockEnabled: ${name}\n  Topic:\n    Type: AWS::SNS::Topic\n`;

  test('a replaced bucket may fail to be deleted in cleanup and be left behind, rather than lose its objects', () => {
    const report = impact(bucket('false'), bucket('true'));
    const uploads = change(report, 'Uploads');
    assert.equal(uploads.impact, 'replacement');
    assert.deepEqual(uploads.risks, [{ kind: 'cleanup-may-fail', holds: 'bucket-objects' }]);
    assert.ok(report.diagnostics.some((d) => d.code === 'cleanup-may-fail' && d.severity === 'warning'));
  });

  test('a removed bucket likewise; with DeletionPolicy: Retain it is kept on purpose, with its objects', () => {
    assert.deepEqual(change(impact(bucket('false'), onlyTopic), 'Uploads').risks, [{ kind: 'cleanup-may-fail', holds: 'bucket-objects' }]);
    assert.deepEqual(change(impact(bucket('false', '    DeletionPolicy: Retain\n'), onlyTopic), 'Uploads').risks, [{ kind: 'data-kept', holds: 'bucket-objects', policy: 'DeletionPolicy' }]);
  });
});
