/**
 * Resource types that hold data, and what CloudFormation does with that data when it deletes
 * one: the defaults of `DeletionPolicy` and `UpdateReplacePolicy` and which types can be
 * snapshotted, as the AWS documentation gives them (docs/update-rules.md#data-loss).
 */
import type { Value } from '../evaluate/value';
import { isTrue, propertyOf } from './writtenValues';

/** What a data-holding resource holds, as data: `present/` words each kind. */
export type HeldData =
  | 'bucket-objects'
  | 'table-items'
  | 'database-instance'
  | 'database-cluster'
  | 'data-warehouse'
  | 'volume'
  | 'file-system'
  | 'cache'
  | 'search-domain'
  | 'stream-records'
  | 'queue-messages'
  | 'log-events'
  | 'secret-value'
  | 'key'
  | 'user-pool'
  | 'repository-images'
  | 'backup-vault';

interface DataHoldingType {
  holds: HeldData;
  /**
   * The resource supports the `Snapshot` policy. The types are those both policy pages list
   * (EC2 volumes, ElastiCache clusters and replication groups, Neptune and RDS clusters, RDS
   * instances, Redshift clusters); for any other type `UpdateReplacePolicy: Snapshot` falls back
   * to `Delete`, as its page says.
   */
  snapshot?: true;
  /**
   * The `DeletionPolicy` CloudFormation applies when none is written, when it is not `Delete`:
   * `Snapshot` for RDS clusters and for RDS instances that are not members of a cluster
   * (`DBClusterIdentifier` not set), per the DeletionPolicy page.
   */
  defaultDeletion?: (properties: Value) => 'Snapshot' | undefined;
  /**
   * CloudFormation cannot delete the resource while it holds data, so deleting it does not lose
   * the data: the delete fails instead (an S3 bucket with objects, per both policy pages; a
   * backup vault with recovery points; an ECR repository with images unless `EmptyOnDelete`).
   */
  refusesDeleteWhileHolding?: (properties: Value) => boolean;
}

const DATA_HOLDING_TYPES: ReadonlyMap<string, DataHoldingType> = new Map<string, DataHoldingType>([
  ['AWS::S3::Bucket', { holds: 'bucket-objects', refusesDeleteWhileHolding: () => true }],
  ['AWS::DynamoDB::Table', { holds: 'table-items' }],
  ['AWS::DynamoDB::GlobalTable', { holds: 'table-items' }],
  ['AWS::RDS::DBInstance', { holds: 'database-instance', snapshot: true, defaultDeletion: (p) => (hasProperty(p, 'DBClusterIdentifier') ? undefined : 'Snapshot') }],
  ['AWS::RDS::DBCluster', { holds: 'database-cluster', snapshot: true, defaultDeletion: () => 'Snapshot' }],
  ['AWS::Neptune::DBCluster', { holds: 'database-cluster', snapshot: true }],
  ['AWS::DocDB::DBCluster', { holds: 'database-cluster' }],
  ['AWS::Redshift::Cluster', { holds: 'data-warehouse', snapshot: true }],
  ['AWS::EC2::Volume', { holds: 'volume', snapshot: true }],
  ['AWS::EFS::FileSystem', { holds: 'file-system' }],
  ['AWS::FSx::FileSystem', { holds: 'file-system' }],
  ['AWS::ElastiCache::CacheCluster', { holds: 'cache', snapshot: true }],
  ['AWS::ElastiCache::ReplicationGroup', { holds: 'cache', snapshot: true }],
  ['AWS::OpenSearchService::Domain', { holds: 'search-domain' }],
  ['AWS::Elasticsearch::Domain', { holds: 'search-domain' }],
  ['AWS::Kinesis::Stream', { holds: 'stream-records' }],
  ['AWS::SQS::Queue', { holds: 'queue-messages' }],
  ['AWS::Logs::LogGroup', { holds: 'log-events' }],
  ['AWS::SecretsManager::Secret', { holds: 'secret-value' }],
  ['AWS::KMS::Key', { holds: 'key' }],
  ['AWS::Cognito::UserPool', { holds: 'user-pool' }],
  ['AWS::ECR::Repository', { holds: 'repository-images', refusesDeleteWhileHolding: (p) => !isTrue(propertyOf(p, 'EmptyOnDelete')) }],
  ['AWS::Backup::BackupVault', { holds: 'backup-vault', refusesDeleteWhileHolding: () => true }],
]);

/** What CloudFormation does with a deleted resource's physical instance, once defaults and fallbacks are applied. */
export type EffectivePolicy = 'Delete' | 'Retain' | 'Snapshot';

/** A data-holding type's entry, or undefined for a type that holds no data of its own. */
export function dataHoldingType(resourceType: string): DataHoldingType | undefined {
  return DATA_HOLDING_TYPES.get(resourceType);
}

/**
 * The policy that applies when a replacement deletes the old resource: the new template's
 * `UpdateReplacePolicy`, `Delete` when none is written, and `Delete` for `Snapshot` on a type
 * that cannot be snapshotted.
 */
export function effectiveReplacePolicy(resourceType: string, written: string | undefined): EffectivePolicy {
  if (written === 'Retain') return 'Retain';
  if (written === 'Snapshot' && dataHoldingType(resourceType)?.snapshot) return 'Snapshot';
  return 'Delete';
}

/**
 * The policy that applies when an update removes the resource: the deployed `DeletionPolicy`
 * (`RetainExceptOnCreate` retains, since the resource existed before this update), else the
 * type's default. `defaulted` says CloudFormation's default decided it.
 */
export function effectiveDeletionPolicy(resourceType: string, written: string | undefined, properties: Value): { policy: EffectivePolicy; defaulted: boolean } {
  if (written === 'Retain' || written === 'RetainExceptOnCreate') return { policy: 'Retain', defaulted: false };
  if (written === 'Snapshot') return { policy: dataHoldingType(resourceType)?.snapshot ? 'Snapshot' : 'Delete', defaulted: false };
  if (written === 'Delete') return { policy: 'Delete', defaulted: false };
  const fallback = dataHoldingType(resourceType)?.defaultDeletion?.(properties);
  return { policy: fallback ?? 'Delete', defaulted: true };
}

function hasProperty(properties: Value, name: string): boolean {
  return propertyOf(properties, name) !== undefined;
}
