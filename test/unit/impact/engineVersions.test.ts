/**
 * A database's new engine version (docs/update-rules.md#engine-versions). Expectations come from the
 * AWS pages of AWS::RDS::DBInstance and AWS::RDS::DBCluster, AllowMajorVersionUpgrade ("Major
 * version upgrades must be allowed when specifying a value for the EngineVersion parameter that is
 * a different major version than the DB instance's current version"), RDS's numbering of major
 * versions (PostgreSQL 10 and later by the first number, MySQL and MariaDB by the first two), and
 * RDS's answers to ModifyDBInstance ("The AllowMajorVersionUpgrade flag must be present when
 * upgrading to a new major version", "Cannot find upgrade path from 15.4 to 15.2").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function dbChange(before: string, after: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  assert.equal(report.status, 'update', report.message);
  const db = report.changes.find((c) => c.logicalId === 'Db');
  assert.ok(db, 'expected a change for Db');
  return db;
}

const instance = (engine: string, version: string, more = '') => `Resources:
  Db:
    Type: AWS::RDS::DBInstance
    Properties:
      Engine: ${engine}
      EngineVersion: '${version}'
      DBInstanceClass: db.t3.micro
      AllocatedStorage: '20'
${more}`;

const allowMajor = '      AllowMajorVersionUpgrade: true\n';

describe('another major version needs AllowMajorVersionUpgrade', () => {
  test('PostgreSQL 15 to 16 without it fails, in RDS\'s words; with it, an update with some interruption', () => {
    const failed = dbChange(instance('postgres', '15.4'), instance('postgres', '16.1'));
    assert.equal(failed.impact, 'will-fail');
    assert.deepEqual(failed.failure, { kind: 'major-version-upgrade', from: '15.4', to: '16.1' });
    assert.equal(dbChange(instance('postgres', '15.4'), instance('postgres', '16.1', allowMajor)).impact, 'some-interruption');
  });

  test('a minor version is no major upgrade: PostgreSQL 15.4 to 15.5, MySQL 8.0.35 to 8.0.36', () => {
    assert.equal(dbChange(instance('postgres', '15.4'), instance('postgres', '15.5')).failure, undefined);
    assert.equal(dbChange(instance('mysql', '8.0.35'), instance('mysql', '8.0.36')).failure, undefined);
  });

  test('MySQL and MariaDB count majors by two numbers: 8.0 to 8.4 and MariaDB 10.6 to 10.11 are major upgrades', () => {
    assert.equal(dbChange(instance('mysql', '8.0.35'), instance('mysql', '8.4.3')).failure?.kind, 'major-version-upgrade');
    assert.equal(dbChange(instance('mariadb', '10.6.14'), instance('mariadb', '10.11.6')).failure?.kind, 'major-version-upgrade');
  });

  test('an Aurora MySQL cluster from 5.7 to 8.0 without it fails too', () => {
    const cluster = (version: string) => `Resources:
  Db:
    Type: AWS::RDS::DBCluster
    Properties:
      Engine: aurora-mysql
      EngineVersion: ${version}
      MasterUsername: admin
      ManageMasterUserPassword: true
`;
    assert.deepEqual(dbChange(cluster('5.7.mysql_aurora.2.11.2'), cluster('8.0.mysql_aurora.3.04.0')).failure, {
      kind: 'major-version-upgrade',
      from: '5.7.mysql_aurora.2.11.2',
      to: '8.0.mysql_aurora.3.04.0',
    });
  });
});

describe('what only deploy-time values or the numbering decide', () => {
  test('AllowMajorVersionUpgrade that a parameter without a value decides is not a certain failure', () => {
    const decided = (version: string) =>
      `Parameters:\n  Env: { Type: String }\nConditions:\n  Prod: !Equals [!Ref Env, prod]\n` +
      instance('postgres', version, '      AllowMajorVersionUpgrade: !If [Prod, true, false]\n');
    assert.equal(dbChange(decided('15.4'), decided('16.1')).failure, undefined);
  });

  test('Oracle 12.1 to 12.2 is a major upgrade; 19 to 21 too', () => {
    assert.equal(dbChange(instance('oracle-ee', '12.1.0.2.v1'), instance('oracle-ee', '12.2.0.1.ru-2021-10.rur-2021-10.r1')).failure?.kind, 'major-version-upgrade');
    assert.equal(dbChange(instance('oracle-ee', '19.0.0.0.ru-2023-10.rur-2023-10.r1'), instance('oracle-ee', '21.0.0.0.ru-2023-10.rur-2023-10.r1')).failure?.kind, 'major-version-upgrade');
  });
});

describe('RDS has no path to an earlier version', () => {
  test('PostgreSQL 15.4 to 15.2 fails, AllowMajorVersionUpgrade or not', () => {
    assert.deepEqual(dbChange(instance('postgres', '15.4'), instance('postgres', '15.2', allowMajor)).failure, { kind: 'engine-downgrade', from: '15.4', to: '15.2' });
  });

  test('a version written shorter (15.4 to 15) names whatever RDS picks in 15: not judged', () => {
    assert.equal(dbChange(instance('postgres', '15.4'), instance('postgres', '15')).failure, undefined);
  });
});

describe('what is left to RDS', () => {
  test('an Aurora cluster\'s member takes its version from the cluster: its own EngineVersion is not judged', () => {
    const member = (version: string) => instance('aurora-postgresql', version, '      DBClusterIdentifier: !Ref Cluster\n') + '  Cluster:\n    Type: AWS::RDS::DBCluster\n    Properties:\n      Engine: aurora-postgresql\n';
    assert.equal(dbChange(member('15.4'), member('16.1')).failure, undefined);
  });

  test('an engine whose numbering is not known here (Db2) is not judged', () => {
    assert.equal(dbChange(instance('db2-se', '11.5.9.0.sb00000000.r1'), instance('db2-se', '12.1.0.0.sb00000000.r1')).failure, undefined);
  });
});

describe('an EKS cluster moves one Kubernetes minor version up at a time', () => {
  const cluster = (version: string) => `Resources:
  Db:
    Type: AWS::EKS::Cluster
    Properties:
      Version: '${version}'
      RoleArn: arn:aws:iam::123456789012:role/eks
      ResourcesVpcConfig: { SubnetIds: [subnet-1, subnet-2] }
`;

  test('1.29 to 1.30 is an update', () => {
    assert.equal(dbChange(cluster('1.29'), cluster('1.30')).failure, undefined);
  });

  test('a version written as a number (YAML reads 1.30 as 1.3) is not judged', () => {
    const unquoted = (version: string) => cluster(version).replace(`'${version}'`, version);
    assert.equal(dbChange(unquoted('1.29'), unquoted('1.31')).failure, undefined);
  });

  test('1.29 to 1.31 skips a minor version, and 1.30 to 1.29 goes back: both fail, in EKS\'s words', () => {
    assert.deepEqual(dbChange(cluster('1.29'), cluster('1.31')).failure, { kind: 'kubernetes-version', from: '1.29', to: '1.31' });
    assert.deepEqual(dbChange(cluster('1.30'), cluster('1.29')).failure, { kind: 'kubernetes-version', from: '1.30', to: '1.29' });
  });
});
