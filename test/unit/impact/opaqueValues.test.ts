/**
 * Values only something else knows, through a whole update: another stack's output
 * (Fn::GetStackOutput), a registry module's resources, a macro's output. Each is equal to itself
 * on both sides, and a changed argument changes what reads it with that property's own behaviour.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport, ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

/** Runs the engine on a template pair and returns the report. */
function impact(oldText: string, newText: string, newParameters?: Record<string, string>, region?: string): ImpactReport {
  return analyzeUpdate({ text: oldText }, { text: newText, parameters: newParameters }, { spec, stackName: 'test-stack', ...(region ? { region } : {}) }).report;
}

function change(report: ImpactReport, logicalId: string): ResourceChange {
  const found = report.changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `expected a change for ${logicalId}, got ${report.changes.map((c) => c.logicalId).join(', ') || 'none'} (${report.message})`);
  return found;
}

describe('Fn::GetStackOutput through an update', () => {
  const consumer = `
Parameters:
  Producer: { Type: String, Default: network }
Resources:
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      CidrBlock: 10.0.0.0/24
      VpcId:
        Fn::GetStackOutput:
          StackName: !Ref Producer
          OutputName: VpcId
  Setting:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !GetStackOutput { StackName: network, OutputName: VpcId }
`;

  test('the same template is a no-op, with a note that the output is read again at update time', () => {
    const report = impact(consumer, consumer);
    assert.equal(report.status, 'noop');
    assert.ok(report.notes.some((n) => n.kind === 'stack-output-read-at-update'));
  });

  test("writing out the stack's own Region is a no-op", () => {
    assert.equal(impact(consumer, consumer.replace('OutputName: VpcId }', 'OutputName: VpcId, Region: us-east-1 }'), undefined, 'us-east-1').status, 'noop');
  });

  test('writing out a Region when the stack\'s is not known may read another stack: the reading property changes', () => {
    const report = impact(consumer, consumer.replace('OutputName: VpcId }', 'OutputName: VpcId, Region: us-east-1 }'));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [['Setting', 'no-interruption']]);
  });

  test('another output read by a create-only property replaces the resource (Subnet VpcId requires replacement)', () => {
    const report = impact(consumer, consumer.replace('OutputName: VpcId\n', 'OutputName: SharedVpcId\n'));
    const subnet = change(report, 'Subnet');
    assert.equal(subnet.impact, 'replacement');
    assert.deepEqual(subnet.details.map((d) => [d.target.path, d.evaluation, d.changeSource]), [['/Properties/VpcId', 'Static', 'DirectModification']]);
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Subnet']);
  });

  test('another producer stack through a parameter is a parameter-caused change with the property\'s behaviour', () => {
    const subnet = change(impact(consumer, consumer, { Producer: 'network-v2' }), 'Subnet');
    assert.equal(subnet.impact, 'replacement');
    // A changed parameter value gives the reading property a Static ParameterReference and a Dynamic DirectModification, as change sets do.
    assert.deepEqual(subnet.details.map((d) => [d.evaluation, d.changeSource, d.causingEntity]), [['Static', 'ParameterReference', 'Producer'], ['Dynamic', 'DirectModification', undefined]]);
  });

  test('another Region read by an updatable property is an update without interruption (SSM Parameter Value)', () => {
    const report = impact(consumer, consumer.replace('OutputName: VpcId }', 'OutputName: VpcId, Region: eu-west-1 }'));
    const setting = change(report, 'Setting');
    assert.equal(setting.impact, 'no-interruption');
    assert.equal(setting.replacement, 'False');
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Setting']);
  });

  test('a malformed Fn::GetStackOutput rejects the update', () => {
    const report = impact(consumer, consumer.replace('          OutputName: VpcId\n', ''));
    assert.equal(report.status, 'error');
    assert.equal(report.message, 'Template error: Fn::GetStackOutput requires a map with StackName and OutputName, and optionally Region and RoleArn');
  });
});

describe('registry modules through an update', () => {
  // The sample of the User Guide's "Reference module resources in CloudFormation templates".
  const template = `
Parameters:
  BucketName: { Type: String, Default: sample }
Resources:
  MyBucket:
    Type: My::S3::SampleBucket::MODULE
    Properties:
      BucketName: !Ref BucketName
  exampleQueue:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Ref MyBucket.S3Bucket
Outputs:
  BucketArn:
    Value: !GetAtt MyBucket.S3Bucket.Arn
`;

  test('a template with a module and references into it is valid, and the same template is a no-op', () => {
    const report = impact(template, template);
    assert.equal(report.status, 'noop');
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.notes.some((n) => n.kind === 'registry-modules' && n.modules.join() === 'MyBucket'));
  });

  test('writing a module resource\'s name the other way is a no-op', () => {
    assert.equal(impact(template, template.replace('!Ref MyBucket.S3Bucket', '!Ref MyBucketS3Bucket')).status, 'noop');
  });

  test('a changed module property is a Modify of unknown behaviour, and what reads its resources may change with it', () => {
    const report = impact(template, template, { BucketName: 'other' });
    const module = change(report, 'MyBucket');
    assert.equal(module.action, 'Modify');
    assert.equal(module.replacement, 'Conditional');
    assert.equal(module.impact, 'conditional-replacement');
    assert.deepEqual(module.details.map((d) => [d.target.path, d.behavior, d.target.requiresRecreation, d.evaluation, d.changeSource]), [
      ['/Properties/BucketName', 'unknown', 'Conditionally', 'Static', 'ParameterReference'],
      ['/Properties/BucketName', 'unknown', 'Conditionally', 'Dynamic', 'DirectModification'],
    ]);
    assert.equal(module.details[module.decidedBy!].behavior, 'unknown', 'how a change updates the resources a module expands into is unknown');
    // QueueName requires replacement; the bucket's name may change if the module replaces the bucket.
    const queue = change(report, 'exampleQueue');
    assert.equal(queue.impact, 'conditional-replacement');
    assert.deepEqual(queue.details.map((d) => [d.evaluation, d.changeSource, d.causingEntity]), [['Dynamic', 'ResourceReference', 'MyBucket']]);
  });
});

describe('macros inside values through an update', () => {
  // After the String macro sample of aws-cloudformation-templates (MacrosExamples/StringFunctions).
  const template = `
Parameters:
  InputString: { Type: String, Default: This is a test input string }
Resources:
  S3Bucket:
    Type: AWS::S3::Bucket
    Properties:
      Tags:
        - Key: Upper
          Value:
            Fn::Sub:
              Fn::Transform:
                Name: String
                Parameters:
                  InputString: !Ref InputString
                  Operation: Upper
`;

  test('Fn::Sub over a macro\'s output is valid, and the same template is a no-op with a note naming the macro', () => {
    const report = impact(template, template);
    assert.equal(report.status, 'noop');
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.notes.some((n) => n.kind === 'macro-not-expanded' && n.macros.join() === 'String'));
  });

  test('another input to the macro changes what reads its output, with that property\'s behaviour (S3 Bucket Tags: no interruption)', () => {
    const bucket = change(impact(template, template.replace('Operation: Upper', 'Operation: Lower')), 'S3Bucket');
    assert.equal(bucket.impact, 'no-interruption');
    assert.deepEqual(bucket.details.map((d) => [d.target.path, d.evaluation]), [['/Properties/Tags/0/Value', 'Static']]);
  });
});
