// Registry modules, as the AWS CloudFormation User Guide describes referencing them
// (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/module-ref-resources.html):
// a resource inside module `MyBucket` named `S3Bucket` is `MyBucketS3Bucket`, also written
// `MyBucket.S3Bucket`, for Ref and Fn::GetAtt alike. Its definition is in the registry, not in the
// template, so here such names exist and their values are unknown.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceRef, UnknownValue, valueKey } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

const MODULE = `
  MyBucket:
    Type: My::S3::SampleBucket::MODULE
    Properties:
      BucketName: !Ref BucketName
`;

/** A template with the sample module of the User Guide and a resource `Probe` with the given properties. */
function withModule(probeProperties: string, extra = ''): string {
  return `
Parameters:
  BucketName: { Type: String, Default: sample }
Resources:
${MODULE}  Probe:
    Type: AWS::SQS::Queue
${extra}    Properties:
${probeProperties}`;
}

describe('references into a registry module', () => {
  test('Ref, Fn::GetAtt and Fn::Sub to its resources are not errors, in either spelling, and agree', () => {
    const result = evaluateText(
      withModule(`      RefJoined: !Ref MyBucketS3Bucket
      RefDotted: !Ref MyBucket.S3Bucket
      AttJoined: !GetAtt MyBucketS3Bucket.Arn
      AttDotted: !GetAtt MyBucket.S3Bucket.Arn
      AttList: { "Fn::GetAtt": [MyBucketS3Bucket, Arn] }
      AttListDotted: { "Fn::GetAtt": [MyBucket.S3Bucket, Arn] }
      SubRef: !Sub "\${MyBucketS3Bucket}"
      SubRefDotted: !Sub "\${MyBucket.S3Bucket}"
      SubAtt: !Sub "\${MyBucketS3Bucket.Arn}"
      SubAttDotted: !Sub "\${MyBucket.S3Bucket.Arn}"
`),
    );
    assert.deepEqual(result.errors, []);
    const props = result.resources.get('Probe')!.properties as Record<string, UnknownValue>;
    for (const name of ['RefDotted', 'SubRef', 'SubRefDotted']) assert.equal(valueKey(props[name]), valueKey(props.RefJoined), name);
    for (const name of ['AttDotted', 'AttList', 'AttListDotted', 'SubAtt', 'SubAttDotted']) assert.equal(valueKey(props[name]), valueKey(props.AttJoined), name);
    assert.notEqual(valueKey(props.AttJoined), valueKey(props.RefJoined));
    assert.ok(props.RefJoined instanceof UnknownValue);
    assert.equal(props.RefJoined.reason, 'MyBucketS3Bucket, a resource of registry module MyBucket');
    // What reads a module's resource is created after the module, as after the resource itself.
    assert.deepEqual(result.resources.get('Probe')!.dependsOn, ['MyBucket']);
  });

  test('DependsOn a module\'s resource is not an error and orders after the module', () => {
    const result = evaluateText(withModule('      QueueName: q\n', '    DependsOn: [MyBucketS3Bucket]\n'));
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.resources.get('Probe')!.dependsOn, ['MyBucket']);
  });

  test('one note names the modules', () => {
    const one = evaluateText(withModule('      QueueName: !Ref MyBucketS3Bucket\n'));
    assert.deepEqual(one.notes.map(({ range: _range, ...note }) => note), [{ kind: 'registry-modules', modules: ['MyBucket'] }]);
    const two = evaluateText(withModule('      QueueName: q\n').replace('  Probe:', '  Logs:\n    Type: My::Logs::Group::MODULE\n  Probe:'));
    assert.deepEqual(two.notes.map(({ range: _range, ...note }) => note), [{ kind: 'registry-modules', modules: ['MyBucket', 'Logs'] }]);
  });

  test('declared names come first, and names that start with no module stay unresolved', () => {
    const text = withModule(`      Declared: !Ref MyBucketPolicy
      Unknown: !Ref MyQueue
      AttributeOfRef: !Ref MyBucketS3Bucket.Arn
`).replace('  Probe:', '  MyBucketPolicy:\n    Type: AWS::SNS::Topic\n  Probe:');
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => text.slice(e.range.start, e.range.end)),
      ['MyQueue', 'MyBucketS3Bucket.Arn'],
    );
    assert.deepEqual((result.resources.get('Probe')!.properties as Record<string, unknown>).Declared, new ResourceRef('MyBucketPolicy'));
  });

  test('a module resource cannot be referenced from Conditions, like any resource', () => {
    const text = 'Conditions:\n  C: !Equals [!Ref MyBucketS3Bucket, x]\nResources:\n' + MODULE.replace('      BucketName: !Ref BucketName\n', '      BucketName: b\n');
    assert.deepEqual(evaluateText(text).errors.map((e) => e.message), [
      'Template format error: Unresolved dependencies [MyBucketS3Bucket]. Cannot reference resources in the Conditions block of the template',
    ]);
  });

  test('a reference through a module is not taken for a circular dependency', () => {
    // The queue reads a bucket of the module, and the module reads the queue: after expansion the
    // bucket need not read the queue, so CloudFormation may well accept this.
    const text = withModule('      QueueName: !Ref MyBucketS3Bucket\n').replace('BucketName: !Ref BucketName', 'BucketName: !GetAtt Probe.QueueName');
    assert.deepEqual(evaluateText(text).errors, []);
  });
});
