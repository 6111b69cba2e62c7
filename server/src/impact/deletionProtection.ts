/**
 * Resources whose service refuses to delete them while a protection is on
 * (docs/update-rules.md#deletion-protected): CloudFormation deletes a removed resource, or the old
 * resource of a replacement, in cleanup, and a refused delete there leaves the resource behind,
 * outside the stack, while the update completes. The protection read is the deployed resource's.
 */
import { isValueObject, type Value } from '../evaluate/value';
import { isTrue, propertyOf } from './writtenValues';

/** `DeletionProtection: true` and its like: the property that protects, when it is on. */
const on = (name: string) => (properties: Value) => (isTrue(propertyOf(properties, name)) ? name : undefined);

/** By type: the protection of a deployed resource, as the property that turns it on, when it is on. */
const PROTECTIONS: ReadonlyMap<string, (properties: Value) => string | undefined> = new Map([
  ['AWS::RDS::DBInstance', on('DeletionProtection')],
  ['AWS::RDS::DBCluster', on('DeletionProtection')],
  ['AWS::Neptune::DBCluster', on('DeletionProtection')],
  ['AWS::DocDB::DBCluster', on('DeletionProtection')],
  ['AWS::RDS::GlobalCluster', on('DeletionProtection')],
  ['AWS::EKS::Cluster', on('DeletionProtection')],
  ['AWS::DynamoDB::Table', on('DeletionProtectionEnabled')],
  ['AWS::Logs::LogGroup', on('DeletionProtectionEnabled')],
  ['AWS::NetworkFirewall::Firewall', on('DeleteProtection')],
  ['AWS::EC2::Instance', on('DisableApiTermination')],
  ['AWS::Cognito::UserPool', (p: Value) => (propertyOf(p, 'DeletionProtection') === 'ACTIVE' ? 'DeletionProtection' : undefined)],
  [
    'AWS::ElasticLoadBalancingV2::LoadBalancer',
    (p: Value) => {
      const attributes = propertyOf(p, 'LoadBalancerAttributes');
      const on = Array.isArray(attributes) && attributes.some((a) => isValueObject(a) && a.Key === 'deletion_protection.enabled' && isTrue(a.Value));
      return on ? 'LoadBalancerAttributes deletion_protection.enabled' : undefined;
    },
  ],
  [
    'AWS::DynamoDB::GlobalTable',
    (p: Value) => {
      const replicas = propertyOf(p, 'Replicas');
      const on = Array.isArray(replicas) && replicas.some((r) => isValueObject(r) && isTrue(r.DeletionProtectionEnabled));
      return on ? 'Replicas DeletionProtectionEnabled' : undefined;
    },
  ],
]);

/** The protection that stops the deployed resource's deletion, by the property that turns it on; undefined when none is on. */
export function deletionProtection(resourceType: string, deployedProperties: Value): string | undefined {
  return PROTECTIONS.get(resourceType)?.(deployedProperties);
}
