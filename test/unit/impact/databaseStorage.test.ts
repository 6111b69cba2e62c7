/**
 * A DB instance's new allocated storage (docs/update-rules.md#database-storage). Expectations come
 * from the RDS User Guide, "Working with storage for Amazon RDS DB instances": "You can't reduce
 * the amount of storage for a DB instance after storage has been allocated. When you increase the
 * allocated storage, it must be by at least 10 percent. If you try to increase the value by less
 * than 10 percent, you get an error."
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function dbChange(before: string, after: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const db = report.changes.find((c) => c.logicalId === 'Db');
  assert.ok(db, `expected a change for Db (${report.status})`);
  return db;
}

const instance = (storage: string, more = '') => `Resources:
  Db:
    Type: AWS::RDS::DBInstance
    Properties:
      Engine: postgres
      DBInstanceClass: db.t3.micro
      AllocatedStorage: '${storage}'
${more}`;

describe('RDS storage only grows, by at least a tenth', () => {
  test('100 GiB to 200 is an update', () => {
    assert.equal(dbChange(instance('100'), instance('200')).failure, undefined);
  });

  test('100 GiB to 50 fails: storage is never reduced', () => {
    const db = dbChange(instance('100'), instance('50'));
    assert.equal(db.impact, 'will-fail');
    assert.deepEqual(db.failure, { kind: 'storage-decrease', from: 100, to: 50 });
  });

  test('100 GiB to 105 fails: less than 10 percent more; 110 is enough', () => {
    assert.deepEqual(dbChange(instance('100'), instance('105')).failure, { kind: 'storage-increase-too-small', from: 100, to: 105 });
    assert.equal(dbChange(instance('100'), instance('110')).failure, undefined);
  });

  test('an Aurora cluster\'s member is not judged: the cluster manages its storage', () => {
    const member = (storage: string) => instance(storage, '      DBClusterIdentifier: shared\n');
    assert.equal(dbChange(member('100'), member('50')).failure, undefined);
  });
});
