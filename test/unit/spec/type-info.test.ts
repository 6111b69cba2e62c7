/**
 * What the real compiled index says about resource types and their documentation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

describe('typeInfo', () => {
  test('a VPC lists its attributes and properties', () => {
    const info = spec.typeInfo('AWS::EC2::VPC');
    assert.equal(info.known, true);
    assert.equal(info.custom, false);
    for (const attribute of ['CidrBlock', 'DefaultSecurityGroup', 'VpcId']) assert.ok(info.attributes.includes(attribute), attribute);
    for (const property of ['CidrBlock', 'EnableDnsSupport', 'Tags']) assert.ok(info.properties.includes(property), property);
    assert.equal(info.documentationUrl, 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-vpc.html');
    assert.match(info.description ?? '', /virtual private cloud/);
  });

  test('attributes that echo a property an update in place cannot change: same name, same scalar shape, create-only', () => {
    assert.deepEqual(spec.typeInfo('AWS::EC2::VPC').propertyEchoes, ['CidrBlock']);
    assert.deepEqual(spec.typeInfo('AWS::EC2::Subnet').propertyEchoes, ['AvailabilityZone', 'AvailabilityZoneId', 'CidrBlock', 'OutpostArn', 'VpcId']);
    assert.deepEqual(spec.typeInfo('AWS::SNS::Topic').propertyEchoes, ['TopicName']);
  });

  test('a same-named attribute of a mutable property is not an echo: the service may maintain it', () => {
    // CurrentVersion advances with every update of an MSK cluster; an SSM parameter's Value is mutable.
    assert.equal(spec.typeInfo('AWS::MSK::Cluster').propertyEchoes, undefined);
    assert.equal(spec.typeInfo('AWS::SSM::Parameter').propertyEchoes, undefined);
  });

  test('a custom resource is not known to the spec and has no fixed attributes', () => {
    const info = spec.typeInfo('Custom::DatabaseUser');
    assert.equal(info.known, false);
    assert.equal(info.custom, true);
    assert.deepEqual(info.attributes, []);
    assert.ok(info.properties.includes('ServiceToken'));
  });

  test('AWS::CloudFormation::CustomResource is a custom resource too', () => {
    const info = spec.typeInfo('AWS::CloudFormation::CustomResource');
    assert.equal(info.known, false);
    assert.equal(info.custom, true);
  });

  test('a third-party type is unknown and not custom', () => {
    assert.deepEqual(spec.typeInfo('MyOrg::Thing::Widget'), {
      type: 'MyOrg::Thing::Widget',
      known: false,
      notUpdatable: false,
      attributes: [],
      properties: [],
      custom: false,
    });
  });

  test('SAM types carry the transform they need', () => {
    assert.equal(spec.typeInfo('AWS::Serverless::Function').transform, 'AWS::Serverless-2016-10-31');
    assert.equal(spec.typeInfo('AWS::Lambda::Function').transform, undefined);
  });
});

describe('propertyDocs', () => {
  test('a nested property has its first documentation paragraph and its own page', () => {
    const docs = spec.propertyDocs('AWS::EC2::Instance', ['BlockDeviceMappings', 'Ebs', 'VolumeSize']);
    assert.match(docs?.description ?? '', /size of the volume/);
    assert.equal(
      docs?.documentationUrl,
      'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-ec2-instance-ebs.html#cfn-ec2-instance-ebs-volumesize',
    );
  });

  test('descriptions are kept short for hovers', () => {
    for (const type of ['AWS::EC2::Instance', 'AWS::ECS::Service', 'AWS::Lambda::Function']) {
      for (const property of spec.typeInfo(type).properties) {
        const description = spec.propertyDocs(type, [property])?.description ?? '';
        assert.ok(description.length <= 400, `${type} ${property}: ${description.length} characters`);
      }
    }
  });

  test('unknown paths have no documentation', () => {
    assert.equal(spec.propertyDocs('AWS::EC2::VPC', ['CidrBlok']), undefined);
    assert.equal(spec.propertyDocs('AWS::IAM::Role', ['AssumeRolePolicyDocument', 'Statement']), undefined);
    assert.equal(spec.propertyDocs('MyOrg::Thing::Widget', ['Size']), undefined);
    assert.equal(spec.propertyDocs('Custom::DatabaseUser', ['UserName']), undefined);
  });

  test('the service token of a custom resource is documented', () => {
    assert.match(spec.propertyDocs('Custom::DatabaseUser', ['ServiceToken'])?.description ?? '', /\S/);
  });
});
