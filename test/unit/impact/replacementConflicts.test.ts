/**
 * Replacements whose new resource cannot exist beside the old one (docs/update-rules.md#coexistence).
 * Expectations come from the replacement rule (the new resource is created before the old one is
 * deleted, docs/update-rules.md#replacement) and EC2's CreateSubnet, which refuses a CIDR block that
 * overlaps another subnet's in the VPC ("The CIDR '10.0.0.0/24' conflicts with another subnet").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function subnetChange(before: string, after: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const subnet = report.changes.find((c) => c.logicalId === 'Subnet');
  assert.ok(subnet, `expected a change for Subnet (${report.status})`);
  return subnet;
}

const network = (cidr: string, zone = 'us-east-1a', vpcCidr = '10.0.0.0/16') => `Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: ${vpcCidr}
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: ${cidr}
      AvailabilityZone: ${zone}
`;

describe('a subnet replaced in the same VPC', () => {
  test('into another zone with the same block: the new subnet conflicts with the old one, the update fails', () => {
    const subnet = subnetChange(network('10.0.0.0/24'), network('10.0.0.0/24', 'us-east-1b'));
    assert.equal(subnet.impact, 'will-fail');
    assert.deepEqual(subnet.failure, { kind: 'replacement-conflict', conflict: 'subnet-cidr', value: '10.0.0.0/24' });
  });

  test('with a larger block that holds the old one: the update fails', () => {
    assert.equal(subnetChange(network('10.0.0.0/24'), network('10.0.0.0/23')).failure?.kind, 'replacement-conflict');
  });

  test('with a block apart from the old one: a replacement', () => {
    const subnet = subnetChange(network('10.0.0.0/24'), network('10.0.1.0/24'));
    assert.equal(subnet.impact, 'replacement');
    assert.equal(subnet.failure, undefined);
  });
});

describe('a subnet replaced with its VPC', () => {
  test('a new VPC holds the new subnet: the same block is no conflict', () => {
    const subnet = subnetChange(network('10.0.0.0/24'), network('10.0.0.0/24', 'us-east-1a', '10.0.0.0/8'));
    assert.equal(subnet.impact, 'replacement');
    assert.equal(subnet.failure, undefined);
  });
});
