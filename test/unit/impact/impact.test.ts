/**
 * The impact engine against the rules of docs/update-rules.md: each test is a template pair in and
 * CloudFormation's observed behaviour out. The numbered describe blocks are the sections of that
 * page, the comment above each test cites its rule, and "(run N)" cites the experiment in
 * docs/update-rules.md#experiments.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport, ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

interface Sides {
  oldParameters?: Record<string, string>;
  newParameters?: Record<string, string>;
  stackStatus?: string;
}

/** Runs the engine on a template pair (YAML or JSON text) and returns the report. */
function impact(oldText: string, newText: string, sides: Sides = {}): ImpactReport {
  return analyzeUpdate(
    { text: oldText, parameters: sides.oldParameters },
    { text: newText, parameters: sides.newParameters },
    { spec, stackName: 'test-stack', stackStatus: sides.stackStatus },
  ).report;
}

function change(report: ImpactReport, logicalId: string): ResourceChange {
  const found = report.changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `expected a change for ${logicalId}, got ${report.changes.map((c) => c.logicalId).join(', ') || 'none'}`);
  return found;
}

const instances = `
AWSTemplateFormatVersion: '2010-09-09'
Description: two instances
Parameters:
  ImageId: { Type: String, Default: ami-11111111 }
  InstanceType: { Type: String, Default: t2.micro }
Resources:
  Instance1:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: !Ref ImageId
      InstanceType: !Ref InstanceType
  Instance2:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: !Ref ImageId
      InstanceType: !Ref InstanceType
Outputs:
  Id:
    Value: !Ref Instance1
`;

const network = `
Parameters:
  Cidr: { Type: String, Default: 10.0.0.0/16 }
  SubnetCidr: { Type: String, Default: 10.0.0.0/24 }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref Cidr
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: !Ref SubnetCidr
  Instance:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-11111111
      SubnetId: !Ref Subnet
`;

describe('1. no-op: "No updates are to be performed."', () => {
  // docs/update-rules.md#no-op
  test('the same template with the same parameter values is a no-op (run 1)', () => {
    const report = impact(instances, instances);
    assert.equal(report.status, 'noop');
    assert.equal(report.message, 'No updates are to be performed.');
    assert.deepEqual(report.changes, []);
  });

  // docs/update-rules.md#text-form
  test('whitespace, key order, JSON instead of YAML and long intrinsic forms are a no-op (run 11)', () => {
    const json = JSON.stringify({
      Resources: {
        Instance2: { Properties: { InstanceType: { Ref: 'InstanceType' }, ImageId: { Ref: 'ImageId' } }, Type: 'AWS::EC2::Instance' },
        Instance1: { Type: 'AWS::EC2::Instance', Properties: { ImageId: { Ref: 'ImageId' }, InstanceType: { Ref: 'InstanceType' } } },
      },
      Parameters: { InstanceType: { Type: 'String', Default: 't2.micro' }, ImageId: { Default: 'ami-11111111', Type: 'String' } },
    }, null, 4);
    assert.equal(impact(instances, json).status, 'noop');
  });

  // docs/update-rules.md#template-sections
  test('Description, AWSTemplateFormatVersion, top-level Metadata and Outputs alone are a no-op (runs 12-14, 22-24)', () => {
    const edited = instances
      .replace("AWSTemplateFormatVersion: '2010-09-09'\n", 'Metadata:\n  Owner: team-b\n')
      .replace('Description: two instances', 'Description: something else')
      .replace('Value: !Ref Instance1', 'Value: !Ref Instance2');
    assert.equal(impact(instances, edited).status, 'noop');
  });

  // docs/update-rules.md#template-sections
  test('an Outputs change rides along when a resource changes (run 15)', () => {
    const edited = instances.replace('Value: !Ref Instance1', 'Value: !Ref Instance2').replace('Description: two instances', 'Description: x');
    const report = impact(instances, edited, { newParameters: { InstanceType: 't2.small' } });
    assert.equal(report.status, 'update');
  });

  // docs/update-rules.md#unused-inputs
  test('changing a parameter, mapping or condition that no resource uses is a no-op (runs 16, 18, 21)', () => {
    const base = `
Parameters:
  Unused: { Type: String, Default: a }
Mappings:
  Sizes: { dev: { Type: t2.micro } }
Conditions:
  IsProd: !Equals [!Ref Unused, prod]
Resources:
  Queue:
    Type: AWS::SQS::Queue
`;
    const edited = base.replace('Default: a', 'Default: b').replace('t2.micro', 't2.large').replace('prod]', 'production]');
    assert.equal(impact(base, edited).status, 'noop');
    assert.equal(impact(base, base, { newParameters: { Unused: 'zzz' } }).status, 'noop');
  });

  // docs/update-rules.md#unused-inputs
  test('a parameter value that a resource uses makes an update (run 7)', () => {
    const report = impact(instances, instances, { newParameters: { InstanceType: 't2.small' } });
    assert.equal(report.status, 'update');
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Instance1', 'Instance2']);
  });

  // docs/update-rules.md#unused-inputs
  test('a mapping value that a resource uses makes an update (run 19)', () => {
    const base = `
Mappings:
  Sizes: { dev: { Type: t2.micro } }
Resources:
  Box:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-1
      InstanceType: !FindInMap [Sizes, dev, Type]
`;
    const report = impact(base, base.replace('t2.micro', 't2.large'));
    assert.equal(change(report, 'Box').impact, 'some-interruption');
  });

  // docs/update-rules.md#values-not-expressions
  test('values are compared, not expressions: Ref ImageId → Ref ImageId2 holding the same value is a no-op (run 17)', () => {
    const edited = instances
      .replace('  InstanceType: { Type: String, Default: t2.micro }', '  InstanceType: { Type: String, Default: t2.micro }\n  ImageId2: { Type: String, Default: ami-11111111 }')
      .replaceAll('ImageId: !Ref ImageId', 'ImageId: !Ref ImageId2');
    assert.equal(impact(instances, edited).status, 'noop');
  });

  // docs/update-rules.md#attributes-alone
  test('DependsOn, DeletionPolicy, UpdateReplacePolicy, CreationPolicy and UpdatePolicy alone are a no-op (runs 27-29)', () => {
    const edited = instances.replace(
      '  Instance2:\n    Type: AWS::EC2::Instance\n',
      '  Instance2:\n    Type: AWS::EC2::Instance\n    DependsOn: Instance1\n    DeletionPolicy: Retain\n    UpdateReplacePolicy: Retain\n    CreationPolicy: { ResourceSignal: { Timeout: PT5M } }\n    UpdatePolicy: { AutoScalingReplacingUpdate: { WillReplace: true } }\n',
    );
    assert.equal(impact(instances, edited).status, 'noop');
  });

  // docs/update-rules.md#resource-metadata
  test('resource-level Metadata triggers an update (run 26)', () => {
    const edited = instances.replace('  Instance2:\n    Type: AWS::EC2::Instance\n', '  Instance2:\n    Type: AWS::EC2::Instance\n    Metadata:\n      Note: hello\n');
    const report = impact(instances, edited);
    const c = change(report, 'Instance2');
    assert.equal(c.action, 'Modify');
    assert.deepEqual(c.scope, ['Metadata']);
    assert.equal(c.impact, 'no-interruption');
    assert.equal(c.details[0].target.attribute, 'Metadata');
  });

  // docs/update-rules.md#template-validation
  test('an unknown top-level key is a template validation error, not a no-op (run 25)', () => {
    const report = impact(instances, `${instances}\nResourcez:\n  X: 1\n`);
    assert.equal(report.status, 'error');
    assert.match(report.message ?? '', /Invalid template property or properties \[Resourcez\]/);
    assert.deepEqual(report.changes, []);
  });

  // docs/update-rules.md#scalars-as-text
  test('30 equals "30" and true equals "true"', () => {
    const base = `
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      DelaySeconds: 30
      FifoQueue: true
`;
    assert.equal(impact(base, base.replace('DelaySeconds: 30', 'DelaySeconds: "30"').replace('FifoQueue: true', "FifoQueue: 'true'")).status, 'noop');
  });
});

describe('2. preconditions', () => {
  // docs/update-rules.md#updatable-states
  test('a stack in a state that cannot be updated is rejected with CloudFormation\'s words (run 3)', () => {
    for (const status of ['CREATE_IN_PROGRESS', 'ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED', 'DELETE_FAILED', 'UPDATE_IN_PROGRESS']) {
      const report = impact(instances, instances, { newParameters: { InstanceType: 't2.small' }, stackStatus: status });
      assert.equal(report.status, 'error', status);
      assert.equal(report.message, `Stack:test-stack is in ${status} state and can not be updated.`);
    }
  });

  // docs/update-rules.md#updatable-states
  test('CREATE_COMPLETE, UPDATE_COMPLETE, UPDATE_ROLLBACK_COMPLETE and the IMPORT_ completes accept updates', () => {
    for (const status of ['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE']) {
      assert.equal(impact(instances, instances, { newParameters: { InstanceType: 't2.small' }, stackStatus: status }).status, 'update', status);
    }
  });

  // docs/update-rules.md#deploy-time-validation
  test('a changed value of an AWS-specific parameter type is flagged as checked only after the update starts (run 31)', () => {
    const base = instances.replace('ImageId: { Type: String', 'ImageId: { Type: AWS::EC2::Image::Id');
    const report = impact(base, base, { newParameters: { ImageId: 'ami-22222222' } });
    assert.deepEqual(report.notes, [{ kind: 'parameter-validated-late', parameter: 'ImageId', type: 'AWS::EC2::Image::Id' }]);
  });
});

describe('3. what happens to each resource', () => {
  // docs/update-rules.md#add-and-remove
  test('a resource only in the new template is added, one only in the old is removed during cleanup (run 4)', () => {
    const edited = instances.replace('  Instance1:\n', '  Instance3:\n').replace('!Ref Instance1', '!Ref Instance3');
    const report = impact(instances, edited);
    assert.equal(report.status, 'update');
    assert.equal(change(report, 'Instance3').action, 'Add');
    assert.equal(change(report, 'Instance3').impact, 'create');
    const removed = change(report, 'Instance1');
    assert.equal(removed.action, 'Remove');
    assert.equal(removed.rangeIn, 'old');
    assert.equal(removed.policyAction, 'Delete', 'deleted during cleanup');
    assert.equal(report.status, 'update');
  });

  // docs/update-rules.md#add-and-remove
  test('a Condition turning true adds the resource, turning false removes it (run 20)', () => {
    const base = `
Parameters:
  Env: { Type: String, Default: dev }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Alarm:
    Type: AWS::SNS::Topic
    Condition: IsProd
  Always:
    Type: AWS::SNS::Topic
`;
    const up = impact(base, base, { newParameters: { Env: 'prod' } });
    assert.equal(change(up, 'Alarm').action, 'Add');
    assert.equal(change(up, 'Alarm').conditionTurned, 'IsProd');
    const down = impact(base, base, { oldParameters: { Env: 'prod' } });
    assert.equal(change(down, 'Alarm').action, 'Remove');
    assert.equal(change(down, 'Alarm').conditionTurned, 'IsProd');
  });

  // docs/update-rules.md#update-behaviours
  test('InstanceType of an EBS-backed instance updates with some interruption (run 5)', () => {
    const c = change(impact(instances, instances, { newParameters: { InstanceType: 't2.small' } }), 'Instance2');
    assert.equal(c.action, 'Modify');
    assert.equal(c.impact, 'some-interruption');
    // The change set itself says Conditional: InstanceType is RequiresRecreation Conditionally, and
    // a parameter's readers get a Static ParameterReference and a Dynamic DirectModification detail
    // (UserGuide, Example change sets).
    assert.equal(c.replacement, 'Conditional');
    assert.deepEqual(c.details.map((d) => [d.target.name, d.changeSource, d.causingEntity, d.evaluation, d.target.requiresRecreation]), [
      ['InstanceType', 'ParameterReference', 'InstanceType', 'Static', 'Conditionally'],
      ['InstanceType', 'DirectModification', undefined, 'Dynamic', 'Conditionally'],
    ]);
  });

  // docs/update-rules.md#worst-property-decides
  test('replacement trumps some interruption (run 6)', () => {
    const c = change(impact(instances, instances, { newParameters: { InstanceType: 't2.small', ImageId: 'ami-22222222' } }), 'Instance1');
    assert.equal(c.replacement, 'True');
    assert.equal(c.impact, 'replacement');
    const image = c.details.find((d) => d.target.name === 'ImageId');
    assert.equal(image?.target.requiresRecreation, 'Always');
    assert.equal(image?.target.path, '/Properties/ImageId');
    assert.deepEqual(c.replacementCause, { root: { property: 'ImageId', changeSource: 'ParameterReference', causingEntity: 'ImageId' }, chain: ['Instance1'] });
  });

  // docs/update-rules.md#not-updatable
  test('a type that cannot be updated is accepted and then fails (run 32)', () => {
    const base = `
Parameters:
  Timeout: { Type: String, Default: '300' }
Resources:
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Handle: !Ref Handle
      Timeout: !Ref Timeout
`;
    const report = impact(base, base, { newParameters: { Timeout: '600' } });
    assert.equal(report.status, 'update');
    const c = change(report, 'Wait');
    assert.equal(c.impact, 'will-fail');
    assert.deepEqual(c.failure, { kind: 'type-not-updatable' });
  });

  // docs/update-rules.md#type-change
  test('changing a resource\'s Type under the same logical id is rejected', () => {
    const report = impact(instances, instances.replace('  Instance2:\n    Type: AWS::EC2::Instance', '  Instance2:\n    Type: AWS::SQS::Queue'));
    assert.equal(report.status, 'error');
    assert.match(report.message ?? '', /modifies resource type of the following resources: \[Instance2\]/);
  });

  // docs/update-rules.md#custom-named-replacement
  test('an explicitly named resource that must be replaced will fail', () => {
    const base = `
Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: orders
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
      KeySchema: [{ AttributeName: id, KeyType: HASH }]
`;
    const edited = base.replace('[{ AttributeName: id, KeyType: HASH }]', '[{ AttributeName: pk, KeyType: HASH }]').replace('AttributeName: id, AttributeType', 'AttributeName: pk, AttributeType');
    const c = change(impact(base, edited), 'Table');
    assert.equal(c.impact, 'will-fail');
    assert.deepEqual(c.failure, { kind: 'custom-name-replacement', property: 'TableName', name: 'orders' });
  });
});

describe('4. cascades through references', () => {
  // docs/update-rules.md#replacement-cascades
  test('a new VPC CIDR replaces the VPC, the Subnet (VpcId) and the Instance (SubnetId) (run 7)', () => {
    const report = impact(network, network, { newParameters: { Cidr: '10.1.0.0/16' } });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [
      ['VPC', 'replacement'],
      ['Subnet', 'replacement'],
      ['Instance', 'replacement'],
    ]);
    const subnet = change(report, 'Subnet');
    assert.deepEqual(subnet.details.map((d) => [d.target.name, d.changeSource, d.causingEntity, d.evaluation]), [['VpcId', 'ResourceReference', 'VPC', 'Static']]);
    assert.equal(subnet.impact, 'replacement');
    assert.deepEqual(change(report, 'Instance').replacementCause, {
      root: { property: 'CidrBlock', changeSource: 'ParameterReference', causingEntity: 'Cidr' },
      chain: ['VPC', 'Subnet', 'Instance'],
    });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [['VPC', 'replacement'], ['Subnet', 'replacement'], ['Instance', 'replacement']]);
  });

  // docs/update-rules.md#in-place-keeps-id
  test('an update without replacement keeps the physical id: Ref dependents are untouched (run 8)', () => {
    const edited = network.replace('      CidrBlock: !Ref Cidr\n', '      CidrBlock: !Ref Cidr\n      Tags: [{ Key: team, Value: net }]\n');
    const report = impact(network, edited);
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact, c.scope]), [['VPC', 'no-interruption', ['Tags']]]);
  });

  // docs/update-rules.md#replacement-cascades
  test('a replaced Role only updates a Policy that lists it, because Roles updates without interruption (run 9)', () => {
    const base = `
Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      Path: /
      AssumeRolePolicyDocument: { Statement: [{ Effect: Allow, Principal: { Service: ec2.amazonaws.com }, Action: sts:AssumeRole }] }
  Policy:
    Type: AWS::IAM::Policy
    Properties:
      PolicyName: p
      Roles: [!Ref Role]
      PolicyDocument: { Statement: [{ Effect: Allow, Action: 's3:*', Resource: '*' }] }
`;
    const report = impact(base, base.replace('Path: /', 'Path: /app/'));
    assert.equal(change(report, 'Role').impact, 'replacement');
    const policy = change(report, 'Policy');
    assert.equal(policy.impact, 'no-interruption');
    assert.deepEqual(policy.details.map((d) => [d.target.path, d.changeSource, d.causingEntity]), [['/Properties/Roles/0', 'ResourceReference', 'Role']]);
  });

  // docs/update-rules.md#in-place-keeps-id
  test('a Role updated in place leaves the Policy alone (run 10)', () => {
    const base = `
Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      Description: one
      AssumeRolePolicyDocument: { Statement: [] }
  Policy:
    Type: AWS::IAM::Policy
    Properties:
      PolicyName: p
      Roles: [!Ref Role]
      PolicyDocument: { Statement: [] }
`;
    const report = impact(base, base.replace('Description: one', 'Description: two'));
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Role']);
  });

  // docs/update-rules.md#replacement-cascades
  test('a replacement cascades through Fn::Sub and Fn::Join too', () => {
    const base = `
Parameters:
  Cidr: { Type: String, Default: 10.0.0.0/16 }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties: { CidrBlock: !Ref Cidr }
  Group:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: !Sub 'for \${VPC}'
      VpcId: !Join ['', [!Ref VPC]]
`;
    const report = impact(base, base, { newParameters: { Cidr: '10.9.0.0/16' } });
    const group = change(report, 'Group');
    assert.equal(group.impact, 'replacement');
    assert.deepEqual(group.details.map((d) => d.target.name).sort(), ['GroupDescription', 'VpcId']);
  });

  // docs/update-rules.md#attributes-of-updated
  test('Fn::GetAtt of a resource updated in place is marked Dynamic; identity attributes are not', () => {
    const base = `
Resources:
  Db:
    Type: AWS::RDS::DBInstance
    Properties:
      DBInstanceClass: db.t3.micro
      Engine: postgres
      AllocatedStorage: '20'
  Reader:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !GetAtt Db.Endpoint.Address
  ArnReader:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !GetAtt Db.DBInstanceArn
`;
    const report = impact(base, base.replace("AllocatedStorage: '20'", "AllocatedStorage: '30'"));
    const reader = change(report, 'Reader');
    assert.equal(reader.details[0].evaluation, 'Dynamic');
    assert.equal(reader.details[0].changeSource, 'ResourceAttribute');
    assert.equal(reader.details[0].causingEntity, 'Db.Endpoint.Address');
    assert.ok(!report.changes.some((c) => c.logicalId === 'ArnReader'));
  });
});

describe('5. custom resources', () => {
  const custom = `
Resources:
  Seed:
    Type: Custom::Seeder
    Properties:
      ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:seeder
      Rows: 10
`;
  // docs/update-rules.md#custom-unchanged
  test('no property change sends the provider nothing', () => {
    assert.equal(impact(custom, custom).status, 'noop');
  });

  // docs/update-rules.md#custom-provider-decides
  test('a property change is a conditional replacement: the provider decides', () => {
    const c = change(impact(custom, custom.replace('Rows: 10', 'Rows: 20')), 'Seed');
    assert.equal(c.replacement, 'Conditional');
    assert.equal(c.impact, 'conditional-replacement');
    assert.equal(c.details[c.decidedBy!].behavior, 'conditional-replacement', 'the provider decides');
  });

  // docs/update-rules.md#custom-service-token
  test('changing ServiceToken is not supported', () => {
    const c = change(impact(custom, custom.replace('function:seeder', 'function:seeder2')), 'Seed');
    assert.equal(c.impact, 'will-fail');
    assert.deepEqual(c.failure, { kind: 'service-token' });
  });
});

describe('update behaviour read from the documentation (issue 10)', () => {
  const version = `
Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      Role: arn:aws:iam::123456789012:role/lambda
      Runtime: python3.12
      Handler: index.handler
      Code: { ZipFile: 'def handler(event, context): return 1' }
  Version:
    Type: AWS::Lambda::Version
    Properties:
      FunctionName: !Ref Fn
      Description: first release
      CodeSha256: 2Lsc5PYZ2xBPaFyTDbQnHnbwWoGfaE4uA1tA/nZBJmk=
`;

  test('a new description replaces a Lambda version (Update requires: Replacement), it does not fail', () => {
    const report = impact(version, version.replace('first release', 'second release'));
    const c = change(report, 'Version');
    assert.equal(c.impact, 'replacement');
    assert.equal(c.replacement, 'True');
    assert.equal(c.details[0].target.requiresRecreation, 'Always');
    assert.ok(!report.changes.some((other) => other.impact === 'will-fail'));
  });

  test('a new code hash replaces a Lambda version (Update requires: Replacement), it does not fail', () => {
    const c = change(impact(version, version.replace('2Lsc5PYZ2xBPaFyTDbQnHnbwWoGfaE4uA1tA/nZBJmk=', 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=')), 'Version');
    assert.equal(c.impact, 'replacement');
    assert.equal(c.replacement, 'True');
  });

  test('a property whose Update requires line says updates are not supported still fails', () => {
    // Template Reference, AWS::VerifiedPermissions::Policy TemplateLinkedPolicyDefinition:
    // PolicyTemplateId, "Update requires: Updates are not supported."
    const policy = `
Resources:
  Policy:
    Type: AWS::VerifiedPermissions::Policy
    Properties:
      PolicyStoreId: PSEXAMPLEabcdefg111111
      Definition:
        TemplateLinked:
          PolicyTemplateId: PTEXAMPLEabcdefg111111
          Principal: { EntityType: User, EntityId: alice }
`;
    const c = change(impact(policy, policy.replace('PTEXAMPLEabcdefg111111', 'PTEXAMPLEabcdefg222222')), 'Policy');
    assert.equal(c.impact, 'will-fail');
    assert.equal(c.details[0].behavior, 'not-updatable');
    assert.deepEqual(c.failure, { kind: 'property-not-updatable', property: 'Definition' });
  });

  test('an EBS volume moved to another Availability Zone fails; a bigger one is updated without interruption', () => {
    // Archived guide, AWS::EC2::Volume (doc_source/aws-resource-ec2-volume.md):
    // AvailabilityZone "Update requires: Updates are not supported."; Size "No interruption".
    const volume = `
Resources:
  Data:
    Type: AWS::EC2::Volume
    Properties:
      AvailabilityZone: us-east-1a
      Size: 100
      VolumeType: gp3
`;
    const moved = change(impact(volume, volume.replace('us-east-1a', 'us-east-1b')), 'Data');
    assert.equal(moved.impact, 'will-fail');
    assert.equal(moved.details[0].behavior, 'not-updatable');
    assert.deepEqual(moved.failure, { kind: 'property-not-updatable', property: 'AvailabilityZone' });
    const grown = change(impact(volume, volume.replace('Size: 100', 'Size: 200')), 'Data');
    assert.equal(grown.impact, 'no-interruption');
    assert.equal(grown.replacement, 'False');
  });

  test('changing the key schema of a global table\'s existing global secondary index fails', () => {
    // Archived guide, AWS::DynamoDB::GlobalTable GlobalSecondaryIndex: KeySchema
    // "Update requires: Updates are not supported."
    const table = `
Resources:
  Table:
    Type: AWS::DynamoDB::GlobalTable
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions:
        - { AttributeName: pk, AttributeType: S }
        - { AttributeName: sk, AttributeType: S }
        - { AttributeName: gsi1, AttributeType: S }
      KeySchema:
        - { AttributeName: pk, KeyType: HASH }
        - { AttributeName: sk, KeyType: RANGE }
      GlobalSecondaryIndexes:
        - IndexName: byGsi1
          KeySchema:
            - { AttributeName: gsi1, KeyType: HASH }
          Projection: { ProjectionType: ALL }
      Replicas:
        - Region: us-east-1
`;
    const changed = table.replace('- { AttributeName: gsi1, KeyType: HASH }', '- { AttributeName: sk, KeyType: HASH }');
    assert.notEqual(changed, table);
    const c = change(impact(table, changed), 'Table');
    assert.equal(c.impact, 'will-fail');
    assert.ok(c.details.some((d) => d.behavior === 'not-updatable'));
    assert.deepEqual(c.failure, { kind: 'property-not-updatable', property: 'GlobalSecondaryIndexes' });
  });

  test('a new email address for an Organizations account fails', () => {
    // Archived guide, AWS::Organizations::Account: Email "Update requires: Updates are not supported."
    const account = `
Resources:
  Account:
    Type: AWS::Organizations::Account
    Properties:
      AccountName: sandbox
      Email: sandbox@example.com
`;
    const c = change(impact(account, account.replace('sandbox@example.com', 'sandbox-2@example.com')), 'Account');
    assert.equal(c.impact, 'will-fail');
    assert.equal(c.details[0].behavior, 'not-updatable');
  });

  test('any property change of a wait condition fails: the whole type cannot be updated (run 32)', () => {
    const wait = `
Resources:
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Handle: !Ref Handle
      Timeout: '300'
      Count: 1
`;
    const c = change(impact(wait, wait.replace('Count: 1', 'Count: 2')), 'Wait');
    assert.equal(c.impact, 'will-fail');
    assert.deepEqual(c.failure, { kind: 'type-not-updatable' });
  });
});

describe('references and unknowns', () => {
  // docs/update-rules.md#unknown-never-safe
  test('a type the specification does not know has unknown behaviour, never "safe"', () => {
    const base = `
Resources:
  Widget:
    Type: MyOrg::Things::Widget
    Properties: { Size: 1 }
`;
    const c = change(impact(base, base.replace('Size: 1', 'Size: 2')), 'Widget');
    assert.equal(c.details[0].behavior, 'unknown');
    assert.equal(c.impact, 'conditional-replacement');
    assert.equal(c.details[c.decidedBy!].behavior, 'unknown');
  });

  // docs/update-rules.md#template-validation
  test('a reference to a missing resource is rejected with CloudFormation\'s words', () => {
    const report = impact(network, network.replace('VpcId: !Ref VPC', 'VpcId: !Ref Vpc2'));
    assert.equal(report.status, 'error');
    assert.match(report.message ?? '', /Unresolved resource dependencies \[Vpc2\] in the Resources block of the template/);
    const diagnostic = report.diagnostics.find((d) => d.severity === 'error');
    assert.ok(diagnostic?.range, 'the rejection points at the reference');
  });

  // docs/update-rules.md#template-validation
  test('a text that does not parse (a key typed, before its colon) is rejected with the parser\'s message alone, not judged by the tree the parser recovered', () => {
    const queue = 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n  Policy:\n    Type: AWS::SQS::QueuePolicy\n    Properties:\n      Queues: [!Ref Queue]\n      PolicyDocument: {}\n';
    const typing = queue.replace('    Type: AWS::SQS::Queue\n', '    Type: AWS::SQS::Queue\n    Dela\n');
    const report = impact(queue, typing);
    assert.equal(report.status, 'error');
    // Read as it was recovered, `Dela` would also be an attribute CloudFormation does not know.
    assert.deepEqual(report.diagnostics.map((d) => [d.code, typing.slice(d.range!.start, d.range!.end)]), [['yaml-syntax', 'Dela']]);
    assert.equal(report.message, report.diagnostics[0]!.message);
    // Nothing of it is evaluated: the edited side holds none of the recovered tree's resources.
    const analysis = analyzeUpdate({ text: queue }, { text: typing }, { spec });
    assert.deepEqual([...analysis.after.resources.keys()], []);
    // A baseline that does not parse cannot be rejected: it is compared as the tree recovered, at its best, and said to have errors.
    const fromBroken = impact(typing, queue);
    assert.notEqual(fromBroken.status, 'error');
    assert.ok(fromBroken.diagnostics.some((d) => d.code === 'baseline-invalid' && d.severity === 'warning'));
  });

  // docs/update-rules.md#template-validation
  test('a dependency cycle is rejected', () => {
    const base = `
Resources:
  A:
    Type: AWS::SNS::Topic
    Properties: { DisplayName: !GetAtt B.TopicName }
  B:
    Type: AWS::SNS::Topic
    Properties: { DisplayName: !GetAtt A.TopicName }
`;
    const report = impact(base, base);
    assert.equal(report.status, 'error');
    assert.match(report.message ?? '', /Circular dependency between resources/);
  });

  test('ranges point at the changed value in the new template', () => {
    const edited = network.replace('ImageId: ami-11111111', 'ImageId: ami-22222222');
    const c = change(impact(network, edited), 'Instance');
    const detail = c.details[0];
    assert.equal(detail.rangeIn, 'new');
    assert.equal(edited.slice(detail.range!.start, detail.range!.end), 'ami-22222222');
    assert.equal(edited.slice(c.range.start, c.range.end), 'Instance');
  });

  // docs/update-rules.md#deploy-time-values
  test('SSM parameters resolved at deploy time are assumed unchanged, and the verdict says so', () => {
    const base = `
Parameters:
  Ami: { Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>', Default: /app/ami }
Resources:
  Box:
    Type: AWS::EC2::Instance
    Properties: { ImageId: !Ref Ami }
`;
    const report = impact(base, base);
    assert.equal(report.status, 'noop');
    assert.ok(report.notes.some((n) => n.kind === 'parameter-resolved-by-aws' && n.parameter === 'Ami'), JSON.stringify(report.notes));
  });

  // docs/update-rules.md#transforms
  test('a macro transform is not expanded and the verdict says so', () => {
    const base = `
Transform: MyOrgTagger
Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties: { Runtime: nodejs20.x, Handler: index.handler, Role: arn:aws:iam::123456789012:role/r, Code: { S3Bucket: b, S3Key: k } }
`;
    const report = impact(base, base.replace('nodejs20.x', 'nodejs22.x'));
    assert.equal(report.status, 'update');
    assert.ok(report.notes.some((n) => n.kind === 'transform-not-expanded' && n.transform === 'MyOrgTagger'), JSON.stringify(report.notes));
  });

  // docs/update-rules.md#transforms
  test('AWS::LanguageExtensions Fn::ForEach is expanded before comparing', () => {
    const base = `
Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::Queues:
    - Name
    - [Orders, Invoices]
    - \${Name}Queue:
        Type: AWS::SQS::Queue
        Properties:
          DelaySeconds: 5
`;
    const report = impact(base, base.replace('[Orders, Invoices]', '[Orders, Invoices, Refunds]'));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action]), [['RefundsQueue', 'Add']]);
  });
});

describe('review regressions', () => {
  // docs/update-rules.md#attributes-of-updated
  test('a nested stack updated in place may change any of its Outputs: readers are Dynamic', () => {
    const base = `
Resources:
  Net:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: https://s3.amazonaws.com/b/net-v1.yaml
  Box:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-1
      SubnetId: !GetAtt Net.Outputs.SubnetId
`;
    const report = impact(base, base.replace('net-v1', 'net-v2'));
    const box = change(report, 'Box');
    assert.equal(box.details[0].evaluation, 'Dynamic');
    assert.equal(box.details[0].causingEntity, 'Net.Outputs.SubnetId');
    assert.equal(box.impact, 'conditional-replacement');
  });

  // docs/update-rules.md#attributes-of-updated
  test('an instance restarted by an update may get a new public DNS name: readers are Dynamic', () => {
    const base = `
Resources:
  Box:
    Type: AWS::EC2::Instance
    Properties: { ImageId: ami-1, InstanceType: t3.micro }
  Dns:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: !GetAtt Box.PublicDnsName }
`;
    const report = impact(base, base.replace('t3.micro', 't3.small'));
    assert.equal(change(report, 'Dns').details[0].evaluation, 'Dynamic');
  });

  // docs/update-rules.md#type-change
  test('a resource whose Condition is false on one side is added or removed, not retyped', () => {
    const base = `
Parameters:
  Env: { Type: String, Default: dev }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Thing:
    Type: AWS::SNS::Topic
    Condition: IsProd
  Other:
    Type: AWS::SQS::Queue
`;
    const edited = base.replace('    Type: AWS::SNS::Topic\n    Condition: IsProd', '    Type: AWS::SQS::Queue\n    Condition: IsProd');
    const report = impact(base, edited, { newParameters: { Env: 'prod' } });
    assert.equal(report.status, 'update');
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.resourceType]), [['Thing', 'Add', 'AWS::SQS::Queue']]);
  });

  // docs/update-rules.md#resource-metadata
  test('an empty Metadata map compares as absent, like an empty Properties map', () => {
    const base = 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n';
    assert.equal(impact(base, 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Metadata: {}\n    Properties: {}\n').status, 'noop');
  });

  // docs/update-rules.md#secret-values
  test('values computed from a NoEcho parameter are never shown', () => {
    const base = `
Parameters:
  Password: { Type: String, NoEcho: true, Default: hunter22 }
Resources:
  Db:
    Type: AWS::RDS::DBInstance
    Properties:
      DBInstanceClass: db.t3.micro
      Engine: postgres
      MasterUserPassword: !Sub 'x-\${Password}'
`;
    const report = impact(base, base, { newParameters: { Password: 's3cret!!' } });
    const detail = change(report, 'Db').details[0];
    assert.equal(detail.target.beforeValue, '****');
    assert.equal(detail.target.afterValue, '****');
    assert.doesNotMatch(JSON.stringify(report), /hunter22|s3cret/);
  });

  // docs/update-rules.md#add-and-remove
  test('a removal says what happens to the resource: its DeletionPolicy', () => {
    const base = 'Resources:\n  Logs:\n    Type: AWS::S3::Bucket\n    DeletionPolicy: Retain\n  Keep:\n    Type: AWS::SNS::Topic\n';
    const report = impact(base, 'Resources:\n  Keep:\n    Type: AWS::SNS::Topic\n');
    assert.equal(change(report, 'Logs').policyAction, 'Retain');
    assert.equal(change(report, 'Logs').conditionTurned, undefined, 'removed from the template, not by its condition');
  });
});

