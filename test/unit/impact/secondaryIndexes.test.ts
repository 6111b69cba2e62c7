/**
 * A DynamoDB table's global secondary indexes (docs/update-rules.md#secondary-indexes). Expectations
 * come from the AWS page of AWS::DynamoDB::Table, GlobalSecondaryIndexes: "Updates are not
 * supported. The following are exceptions: If you update either the contributor insights
 * specification or the provisioned throughput values of global secondary indexes, you can update
 * the table without interruption. You can delete or add one global secondary index without
 * interruption. If you do both in the same update (for example, by changing the index's logical
 * ID), the update fails", and DynamoDB's own limit of one index created or deleted per UpdateTable
 * ("Cannot perform more than one GSI creation or deletion in a single update").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function tableChange(before: string, after: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  assert.equal(report.status, 'update', report.message);
  const table = report.changes.find((c) => c.logicalId === 'Table');
  assert.ok(table, 'expected a change for Table');
  return table;
}

/** An index on `attribute`, named `name`, with `extra` lines under it. */
const index = (name: string, attribute = 'email', extra = '') => `        - IndexName: ${name}
          KeySchema: [{ AttributeName: ${attribute}, KeyType: HASH }]
          Projection: { ProjectionType: ALL }
          ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 }
${extra}`;

/** A provisioned table with the indexes given. */
const table = (...indexes: string[]) => `Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 }
      AttributeDefinitions:
        - { AttributeName: pk, AttributeType: S }
        - { AttributeName: email, AttributeType: S }
        - { AttributeName: status, AttributeType: S }
      KeySchema: [{ AttributeName: pk, KeyType: HASH }]
${indexes.length > 0 ? `      GlobalSecondaryIndexes:\n${indexes.join('')}` : ''}`;

const byEmail = index('by-email');
const byStatus = index('by-status', 'status');

describe('one index created or deleted per update', () => {
  test('one index added is an update without interruption, wherever it is in the list', () => {
    assert.equal(tableChange(table(byEmail), table(byEmail, byStatus)).impact, 'no-interruption');
    assert.equal(tableChange(table(byEmail), table(byStatus, byEmail)).impact, 'no-interruption');
    assert.equal(tableChange(table(), table(byEmail)).impact, 'no-interruption');
  });

  test('one index deleted, even the first, is an update without interruption', () => {
    assert.equal(tableChange(table(byEmail, byStatus), table(byStatus)).impact, 'no-interruption');
  });

  test('two indexes added in one update fail it, in DynamoDB\'s words', () => {
    const change = tableChange(table(byEmail), table(byEmail, byStatus, index('by-status-2', 'status')));
    assert.equal(change.impact, 'will-fail');
    assert.deepEqual(change.failure, { kind: 'index-operations', created: ['by-status', 'by-status-2'], deleted: [] });
  });

  test('a renamed index is one deletion and one creation: the update fails', () => {
    const change = tableChange(table(byEmail), table(index('email-index')));
    assert.deepEqual(change.failure, { kind: 'index-operations', created: ['email-index'], deleted: ['by-email'] });
  });
});

describe('a table replaced', () => {
  test('is created with all its indexes at once: two new indexes are no failure when a new key replaces the table', () => {
    const change = tableChange(table(), table(byEmail, byStatus).replace('KeySchema: [{ AttributeName: pk, KeyType: HASH }]', 'KeySchema: [{ AttributeName: email, KeyType: HASH }]'));
    assert.equal(change.impact, 'replacement');
    assert.equal(change.failure, undefined);
  });
});

describe('the indexes an update keeps', () => {
  test('their order means nothing: two indexes swapped is an update that changes nothing of them, not a failure', () => {
    assert.equal(tableChange(table(byEmail, byStatus), table(byStatus, byEmail)).impact, 'no-interruption');
  });

  test('new throughput for a kept index is an update without interruption', () => {
    const change = tableChange(table(byEmail), table(byEmail.replace('ReadCapacityUnits: 5, WriteCapacityUnits: 5 }', 'ReadCapacityUnits: 10, WriteCapacityUnits: 5 }')));
    assert.equal(change.impact, 'no-interruption');
  });

  test('a new projection for a kept index is not supported: the update fails', () => {
    const change = tableChange(table(byEmail, byStatus), table(byStatus, byEmail.replace('ProjectionType: ALL', 'ProjectionType: KEYS_ONLY')));
    assert.equal(change.impact, 'will-fail');
    assert.deepEqual(change.failure, { kind: 'property-not-updatable', property: 'GlobalSecondaryIndexes' });
  });
});
