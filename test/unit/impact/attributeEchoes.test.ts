/**
 * Attributes that echo an unchanged property: a template pair in, what a change set lists and
 * what actually changes out. A change set lists every reader of a resource it may replace, and
 * every `Fn::GetAtt` reader of a resource it updates, as `Dynamic` (API reference,
 * ResourceChangeDetail: Evaluation), and its Replacement is `Conditional` when a `Dynamic` detail
 * has RequiresRecreation `Always` (ResourceChange: Replacement). Those readers stay in the report
 * as the change set has them; when what they read is known to keep its value (the resource is not
 * replaced, or the attribute echoes a create-only property, which an update in place cannot
 * change) their impact is `none` and the verdict does not count them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verdictMessage } from '../../../server/src/present';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport, ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function impact(oldText: string, newText: string, newParameters?: Record<string, string>): ImpactReport {
  return analyzeUpdate({ text: oldText }, { text: newText, parameters: newParameters }, { spec }).report;
}

function change(report: ImpactReport, logicalId: string): ResourceChange {
  const found = report.changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `expected a change for ${logicalId}, got ${report.changes.map((c) => c.logicalId).join(', ') || 'none'}`);
  return found;
}

/** The common layout: subnets carve their CIDR out of the VPC's with Fn::Cidr. */
const network = `
Parameters:
  Cidr: { Type: String, Default: 10.0.0.0/16 }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref Cidr
  SubnetA:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: !Select [0, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]
  SubnetB:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: !Select [1, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]
  Web:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-11111111
      SubnetId: !Ref SubnetA
`;
const tagged = network.replace('      CidrBlock: !Ref Cidr\n', '      CidrBlock: !Ref Cidr\n      Tags: [{ Key: team, Value: net }]\n');

describe('a VPC updated in place: VPC.CidrBlock echoes its unchanged CidrBlock', () => {
  test('tagging the VPC is one modify; nothing is said to be replaced', () => {
    const report = impact(network, tagged);
    assert.equal(report.status, 'update');
    assert.equal(verdictMessage(report), '1 modify');
    assert.equal(change(report, 'VPC').impact, 'no-interruption');
  });

  test('the subnets stay listed as a change set lists them: Dynamic ResourceAttribute VPC.CidrBlock, with impact none', () => {
    const report = impact(network, tagged);
    for (const id of ['SubnetA', 'SubnetB']) {
      const subnet = change(report, id);
      assert.equal(subnet.action, 'Modify');
      assert.equal(subnet.impact, 'none', id);
      assert.equal(subnet.replacement, 'Conditional', 'RequiresRecreation Always with a Dynamic evaluation');
      assert.equal(subnet.replacementCause, undefined);
      assert.deepEqual(
        subnet.details.map((d) => [d.target.name, d.evaluation, d.changeSource, d.causingEntity, d.target.requiresRecreation, d.keepsValue]),
        [['CidrBlock', 'Dynamic', 'ResourceAttribute', 'VPC.CidrBlock', 'Always', true]],
      );
      assert.equal(subnet.impact, 'none', 'nothing changes: it re-reads VPC.CidrBlock');
    }
  });

  test('a resource that only re-reads an unchanged subnet changes nothing either', () => {
    const web = change(impact(network, tagged), 'Web');
    assert.equal(web.impact, 'none');
    assert.deepEqual(web.details.map((d) => [d.target.name, d.evaluation, d.changeSource, d.causingEntity, d.keepsValue]), [
      ['SubnetId', 'Dynamic', 'ResourceReference', 'SubnetA', true],
    ]);
  });

  test('a subnet with an edit of its own is judged by that edit', () => {
    const edited = tagged.replace(
      '      CidrBlock: !Select [0, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]\n',
      '      CidrBlock: !Select [0, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]\n      MapPublicIpOnLaunch: true\n',
    );
    const subnet = change(impact(network, edited), 'SubnetA');
    assert.equal(subnet.impact, 'no-interruption');
    assert.deepEqual(subnet.details.filter((d) => !d.keepsValue).map((d) => d.target.name), ['MapPublicIpOnLaunch']);
    assert.equal(subnet.replacement, 'Conditional');
  });
});

describe('cascades through an echo that changes', () => {
  test('a new VPC CIDR replaces the VPC, both subnets and the instance', () => {
    const report = impact(network, network, { Cidr: '10.1.0.0/16' });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [
      ['VPC', 'replacement'],
      ['SubnetA', 'replacement'],
      ['SubnetB', 'replacement'],
      ['Web', 'replacement'],
    ]);
    const cidr = change(report, 'SubnetA').details.find((d) => d.target.name === 'CidrBlock');
    assert.deepEqual([cidr?.evaluation, cidr?.changeSource, cidr?.causingEntity, cidr?.keepsValue], ['Static', 'ResourceAttribute', 'VPC.CidrBlock', undefined]);
    assert.equal(verdictMessage(report), '4 modify (4 replace)');
  });

  test('a VPC that may be replaced may change its CidrBlock: the subnets may be replaced', () => {
    // The VPC's CIDR comes from a parameter store entry that is updated in place; its Value is a
    // mutable property, not an echo the spec can vouch for, so the VPC may be replaced.
    const base = `
Resources:
  Settings:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: 10.0.0.0/16, Description: one }
  VPC:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !GetAtt Settings.Value
  SubnetA:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: !Select [0, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]
`;
    const report = impact(base, base.replace('Description: one', 'Description: two'));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [
      ['Settings', 'no-interruption'],
      ['VPC', 'conditional-replacement'],
      ['SubnetA', 'conditional-replacement'],
    ]);
    const subnet = change(report, 'SubnetA');
    assert.ok(subnet.details.every((d) => d.evaluation === 'Dynamic' && !d.keepsValue));
    assert.equal(verdictMessage(report), '3 modify (2 may replace)');
  });
});

describe('a resource a change set may replace but that is updated in place', () => {
  // InstanceType is RequiresRecreation Conditionally in a change set (the spec says "maybe"); the
  // documentation says the instance is stopped and started, not replaced.
  const base = `
Parameters:
  Size: { Type: String, Default: t3.micro }
Resources:
  Box:
    Type: AWS::EC2::Instance
    Properties: { ImageId: ami-11111111, InstanceType: !Ref Size }
  Address:
    Type: AWS::EC2::EIPAssociation
    Properties: { InstanceId: !Ref Box, EIP: 203.0.113.10 }
  Zone:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: !GetAtt Box.AvailabilityZone }
  Dns:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: !GetAtt Box.PublicDnsName }
`;

  test('its physical id and the create-only attributes it echoes keep their values; other attributes may change', () => {
    const report = impact(base, base, { Size: 't3.small' });
    const box = change(report, 'Box');
    assert.equal(box.replacement, 'Conditional');
    assert.equal(box.impact, 'some-interruption');
    assert.equal(change(report, 'Address').impact, 'none');
    assert.equal(change(report, 'Address').details[0].changeSource, 'ResourceReference');
    assert.equal(change(report, 'Zone').impact, 'none');
    const dns = change(report, 'Dns');
    assert.equal(dns.impact, 'no-interruption');
    assert.equal(dns.details[0].keepsValue, undefined);
    assert.equal(verdictMessage(report), '2 modify');
  });
});
