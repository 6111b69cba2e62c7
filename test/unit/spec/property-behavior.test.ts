/**
 * Update behaviour per property path, read from the real compiled index (npm run build:spec):
 * the CDK spec's replacement facts, the documentation overlay, nested paths, custom resources,
 * and what the spec does not know.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

describe('top-level properties', () => {
  test('a new VPC CIDR block replaces the VPC', () => {
    const result = spec.propertyBehavior('AWS::EC2::VPC', ['CidrBlock']);
    assert.equal(result.behavior, 'replacement');
    assert.equal(result.source, 'spec');
    assert.deepEqual(result.decidedAt, ['CidrBlock']);
  });

  test('VPC tags update without interruption', () => {
    assert.equal(spec.propertyBehavior('AWS::EC2::VPC', ['Tags']).behavior, 'no-interruption');
  });

  test('a new AMI replaces an instance', () => {
    assert.equal(spec.propertyBehavior('AWS::EC2::Instance', ['ImageId']).behavior, 'replacement');
  });

  test('a subnet moved to another VPC is replaced', () => {
    assert.equal(spec.propertyBehavior('AWS::EC2::Subnet', ['VpcId']).behavior, 'replacement');
  });

  test('the roles a policy is attached to update without interruption', () => {
    assert.equal(spec.propertyBehavior('AWS::IAM::Policy', ['Roles']).behavior, 'no-interruption');
  });

  test('a new role path replaces the role', () => {
    assert.equal(spec.propertyBehavior('AWS::IAM::Role', ['Path']).behavior, 'replacement');
  });

  test('the answer links to the property documentation', () => {
    assert.equal(
      spec.propertyBehavior('AWS::EC2::VPC', ['CidrBlock']).documentationUrl,
      'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-vpc.html#cfn-ec2-vpc-cidrblock',
    );
  });
});

describe('documentation overlay', () => {
  test('a new instance type stops and starts the instance (the spec only says "maybe")', () => {
    const result = spec.propertyBehavior('AWS::EC2::Instance', ['InstanceType']);
    assert.equal(result.behavior, 'some-interruption');
    assert.equal(result.source, 'docs');
  });

  test('a change set still says the specification\'s "maybe": RequiresRecreation Conditionally for InstanceType', () => {
    // AWS's example change sets print InstanceType with "RequiresRecreation": "Conditionally"
    // (UserGuide/using-cfn-updating-stacks-changesets-samples.html).
    assert.equal(spec.propertyBehavior('AWS::EC2::Instance', ['InstanceType']).requiresRecreation, 'Conditionally');
    assert.equal(spec.propertyBehavior('AWS::EC2::Instance', ['ImageId']).requiresRecreation, 'Always');
    assert.equal(spec.propertyBehavior('AWS::EC2::VPC', ['Tags']).requiresRecreation, 'Never');
  });

  test('RequiresRecreation follows the specification at the nested path', () => {
    // The spec states KmsKeyId inside Ebs as create-only; the rest of BlockDeviceMappings is "maybe".
    assert.equal(spec.propertyBehavior('AWS::EC2::Instance', ['BlockDeviceMappings', 'Ebs', 'KmsKeyId']).requiresRecreation, 'Always');
    assert.equal(spec.propertyBehavior('AWS::EC2::Instance', ['BlockDeviceMappings', 'Ebs', 'VolumeSize']).requiresRecreation, 'Conditionally');
  });

  test('a property whose Update requires line says updates are not supported is not-updatable', () => {
    // Template Reference, AWS::VerifiedPermissions::Policy TemplateLinkedPolicyDefinition:
    // PolicyTemplateId, "Update requires: Updates are not supported."
    const path = ['Definition', 'TemplateLinked', 'PolicyTemplateId'];
    const result = spec.propertyBehavior('AWS::VerifiedPermissions::Policy', path);
    assert.equal(result.behavior, 'not-updatable');
    assert.equal(result.source, 'docs');
    assert.deepEqual(result.decidedAt, path);
  });

  test('a Lambda version\'s description and code hash are replaced, as their Update requires lines say', () => {
    // The prose says "Updates are not supported for this property"; the line says "Replacement".
    for (const name of ['Description', 'CodeSha256']) {
      const result = spec.propertyBehavior('AWS::Lambda::Version', [name]);
      assert.equal(result.behavior, 'replacement', name);
      assert.equal(result.source, 'spec', name);
    }
  });

  test('a replacement the spec states stands against an archived line (superseded) or a line that says Replacement (dropped)', () => {
    // Archived guide: ProvisionedConcurrencyConfig "No interruption", DAX ClusterName and
    // Lightsail BundleId "Updates are not supported" (superseded); DeliveryChannel Name "Replacement".
    assert.equal(spec.propertyBehavior('AWS::Lambda::Version', ['ProvisionedConcurrencyConfig']).behavior, 'replacement');
    assert.equal(spec.propertyBehavior('AWS::DAX::Cluster', ['ClusterName']).behavior, 'replacement');
    assert.equal(spec.propertyBehavior('AWS::Lightsail::Instance', ['BundleId']).behavior, 'replacement');
    assert.equal(spec.propertyBehavior('AWS::Config::DeliveryChannel', ['Name']).behavior, 'replacement');
  });

  test('a global table index\'s projection cannot be updated, whatever changes inside it', () => {
    // GlobalTable GlobalSecondaryIndex, Projection: "Update requires: Updates are not supported."
    // (archived guide); the Projection page's ProjectionType line alone says Replacement, which
    // corrected the extraction but is the milder of the two.
    const result = spec.propertyBehavior('AWS::DynamoDB::GlobalTable', ['GlobalSecondaryIndexes', 'Projection', 'ProjectionType']);
    assert.equal(result.behavior, 'not-updatable');
    assert.equal(result.source, 'docs');
    assert.deepEqual(result.decidedAt, ['GlobalSecondaryIndexes', 'Projection']);
  });

  test('the documentation never weakens a replacement the spec states', () => {
    // The overlay lists DirectoryId as "Some interruptions"; the spec marks it create-only.
    const result = spec.propertyBehavior('AWS::WorkSpaces::Workspace', ['DirectoryId']);
    assert.equal(result.behavior, 'replacement');
    assert.equal(result.source, 'spec');
  });

  test('adding a DynamoDB global secondary index is an update, changing an existing one is not supported', () => {
    assert.equal(spec.propertyBehavior('AWS::DynamoDB::Table', ['GlobalSecondaryIndexes']).behavior, 'no-interruption');
    const keySchema = spec.propertyBehavior('AWS::DynamoDB::Table', ['GlobalSecondaryIndexes', 'KeySchema']);
    assert.equal(keySchema.behavior, 'not-updatable');
    assert.deepEqual(keySchema.decidedAt, ['GlobalSecondaryIndexes', 'KeySchema']);
  });

  test('a wait condition cannot be updated at all, whichever property changes', () => {
    assert.equal(spec.typeInfo('AWS::CloudFormation::WaitCondition').notUpdatable, true);
    for (const name of ['Count', 'Handle', 'Timeout']) {
      assert.equal(spec.propertyBehavior('AWS::CloudFormation::WaitCondition', [name]).behavior, 'not-updatable', name);
    }
  });

  test('an ordinary type is updatable', () => {
    assert.equal(spec.typeInfo('AWS::EC2::VPC').notUpdatable, false);
  });
});

describe('nested property paths', () => {
  test('a nested property that requires replacement decides inside a property that does not', () => {
    // EKS: ResourcesVpcConfig updates in place, but its SubnetIds are create-only.
    const result = spec.propertyBehavior('AWS::EKS::Cluster', ['ResourcesVpcConfig', 'SubnetIds']);
    assert.equal(result.behavior, 'replacement');
    assert.deepEqual(result.decidedAt, ['ResourcesVpcConfig', 'SubnetIds']);
  });

  test('a nested property the spec says nothing about behaves as its parent', () => {
    const result = spec.propertyBehavior('AWS::EKS::Cluster', ['ResourcesVpcConfig', 'EndpointPublicAccess']);
    assert.equal(result.behavior, 'no-interruption');
    assert.deepEqual(result.decidedAt, ['ResourcesVpcConfig']);
  });

  test('a replacing nested property is worse than its interrupting parent', () => {
    const path = ['BlockDeviceMappings', 'Ebs', 'KmsKeyId'];
    const result = spec.propertyBehavior('AWS::EC2::Instance', path);
    assert.equal(result.behavior, 'replacement');
    assert.deepEqual(result.decidedAt, path);
    assert.equal(
      result.documentationUrl,
      'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-ec2-instance-ebs.html#cfn-ec2-instance-ebs-kmskeyid',
    );
  });

  test('other block device settings only interrupt the instance, as the parent says', () => {
    const result = spec.propertyBehavior('AWS::EC2::Instance', ['BlockDeviceMappings', 'Ebs', 'VolumeSize']);
    assert.equal(result.behavior, 'some-interruption');
    assert.deepEqual(result.decidedAt, ['BlockDeviceMappings']);
  });

  test('a change anywhere inside a create-only object replaces the resource', () => {
    const result = spec.propertyBehavior('AWS::EC2::Instance', ['CpuOptions', 'CoreCount']);
    assert.equal(result.behavior, 'replacement');
    assert.deepEqual(result.decidedAt, ['CpuOptions']);
  });

  test('a path deeper than the spec describes is decided by the deepest known level', () => {
    const result = spec.propertyBehavior('AWS::IAM::Role', ['AssumeRolePolicyDocument', 'Statement', 'Principal']);
    assert.equal(result.behavior, 'no-interruption');
    assert.deepEqual(result.decidedAt, ['AssumeRolePolicyDocument']);
  });

  test('replacement paths the spec lists beside its property types apply (tags of a Redshift Serverless snapshot)', () => {
    assert.equal(spec.propertyBehavior('AWS::RedshiftServerless::Snapshot', ['Tags', 'Key']).behavior, 'replacement');
  });
});

describe('custom resources', () => {
  test('changing the service token is not supported', () => {
    for (const type of ['Custom::DatabaseUser', 'AWS::CloudFormation::CustomResource']) {
      const result = spec.propertyBehavior(type, ['ServiceToken']);
      assert.equal(result.behavior, 'not-updatable', type);
      assert.equal(result.source, 'custom-resource', type);
    }
  });

  test('any other property change may replace: the provider decides', () => {
    for (const type of ['Custom::DatabaseUser', 'AWS::CloudFormation::CustomResource']) {
      const result = spec.propertyBehavior(type, ['UserName']);
      assert.equal(result.behavior, 'conditional-replacement', type);
      assert.equal(result.source, 'custom-resource', type);
    }
  });

  test('a nested change is decided by its top-level property', () => {
    assert.deepEqual(spec.propertyBehavior('Custom::DatabaseUser', ['Grants', 'Tables']).decidedAt, ['Grants']);
  });
});

describe('what the spec does not know is never safe', () => {
  test('a third-party type is unknown', () => {
    const result = spec.propertyBehavior('MyOrg::Thing::Widget', ['Size']);
    assert.equal(result.behavior, 'unknown');
    assert.equal(result.source, 'unknown-type');
  });

  test('a made-up AWS type is unknown', () => {
    assert.equal(spec.propertyBehavior('AWS::Foo::Bar', ['Name']).source, 'unknown-type');
  });

  test('an unknown property of a known type is unknown', () => {
    const result = spec.propertyBehavior('AWS::EC2::VPC', ['CidrBlok']);
    assert.equal(result.behavior, 'unknown');
    assert.equal(result.source, 'unknown-property');
  });

  test('names of Object.prototype members are not properties', () => {
    assert.equal(spec.propertyBehavior('AWS::EC2::VPC', ['constructor']).behavior, 'unknown');
    assert.equal(spec.propertyBehavior('__proto__', ['Name']).source, 'unknown-type');
  });
});
