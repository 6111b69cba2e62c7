import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResourceAttribute, ResourceRef, UnknownValue } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

describe('Fn::ForEach', () => {
  test('repeats resources, substituting ${Id} and &{Id} in keys and Ref/Fn::Sub in values', () => {
    const text = `
Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::Topics:
    - Name
    - [Alpha, beta.2]
    - Topic&{Name}:
        Type: AWS::SNS::Topic
        Properties:
          TopicName: !Ref Name
          DisplayName: !Sub "\${Name}-\${AWS::Region}-\${!Name}"
`;
    const result = evaluateText(text);
    assert.deepEqual(result.errors, []);
    assert.deepEqual([...result.resources.keys()], ['TopicAlpha', 'Topicbeta2']);
    assert.deepEqual(result.resources.get('TopicAlpha')!.properties, { TopicName: 'Alpha', DisplayName: 'Alpha-us-east-1-${Name}' });
    assert.deepEqual(result.resources.get('Topicbeta2')!.properties, { TopicName: 'beta.2', DisplayName: 'beta.2-us-east-1-${Name}' });
    // Generated resources point at the fragment that produced them.
    const keyRange = result.model.resources.get('TopicAlpha')!.keyRange;
    assert.equal(text.slice(keyRange.start, keyRange.end), 'Topic&{Name}');
  });

  test('takes its collection from a CommaDelimitedList parameter and nests loops, also in Outputs', () => {
    const result = evaluateText(`
Transform: AWS::LanguageExtensions
Parameters:
  Names: { Type: CommaDelimitedList, Default: "a, b" }
Resources:
  Fn::ForEach::Buckets:
    - Id
    - !Ref Names
    - Bucket\${Id}:
        Type: AWS::S3::Bucket
Outputs:
  Fn::ForEach::Out:
    - Id
    - !Ref Names
    - Fn::ForEach::Attrs:
        - Attr
        - [Arn, DomainName]
        - Bucket\${Id}\${Attr}:
            Value: !GetAtt [!Sub "Bucket\${Id}", !Ref Attr]
`);
    assert.deepEqual(result.errors, []);
    assert.deepEqual([...result.resources.keys()], ['Bucketa', 'Bucketb']);
    assert.deepEqual(Object.fromEntries(result.outputs), {
      BucketaArn: new ResourceAttribute('Bucketa', 'Arn'),
      BucketaDomainName: new ResourceAttribute('Bucketa', 'DomainName'),
      BucketbArn: new ResourceAttribute('Bucketb', 'Arn'),
      BucketbDomainName: new ResourceAttribute('Bucketb', 'DomainName'),
    });
  });

  test('expands inside Properties and in Conditions', () => {
    const result = evaluateText(`
Transform: AWS::LanguageExtensions
Parameters:
  Env: { Type: String, Default: prod }
Conditions:
  Fn::ForEach::Envs:
    - E
    - [prod, dev]
    - Is\${E}: !Equals [!Ref Env, !Ref E]
Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Condition: Isprod
    Properties:
      Tags:
        Fn::ForEach::Tags:
          - Key
          - [Owner, Team]
          - \${Key}: !Sub "\${Key}-value"
`);
    assert.deepEqual(result.errors, []);
    assert.deepEqual(Object.fromEntries(result.conditions), { Isprod: true, Isdev: false });
    assert.deepEqual(result.resources.get('Table')!.properties, { Tags: { Owner: 'Owner-value', Team: 'Team-value' } });
  });

  test('a collection known only at deploy time cannot be expanded here: a warning at the collection, not a rejection (CloudFormation expands it with the deployed value)', () => {
    const text = `
Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::Zones:
    - Zone
    - !GetAZs ""
    - Subnet\${Zone}: { Type: AWS::EC2::Subnet }
  Other: { Type: AWS::SNS::Topic }
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.severity, e.message, text.slice(e.range.start, e.range.end)]),
      [['warning', 'Fn::ForEach::Zones iterates over a value known only at deploy time: the entries it generates are not compared', '!GetAZs ""']],
    );
    assert.deepEqual([...result.resources.keys()], ['Other']);
  });

  test('a loop generating the same key twice is an error', () => {
    const result = evaluateText(`
Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::Twice:
    - N
    - [a, a]
    - Topic\${N}: { Type: AWS::SNS::Topic }
`);
    assert.deepEqual(result.errors.map((e) => e.message), ['Template format error: Fn::ForEach generates the key Topica more than once']);
    assert.deepEqual([...result.resources.keys()], ['Topica']);
  });
});

describe('other AWS::LanguageExtensions functions', () => {
  test('Fn::Length, Fn::ToJsonString and the DefaultValue of Fn::FindInMap', () => {
    const result = evaluateText(`
Transform: AWS::LanguageExtensions
Parameters:
  Names: { Type: CommaDelimitedList, Default: "a,b,c" }
Mappings:
  Sizes:
    prod: { Count: 3 }
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      Count: { "Fn::Length": !Ref Names }
      Zones: { "Fn::Length": !GetAZs "" }
      Policy: !ToJsonString { Version: "2012-10-17", Items: [1, true] }
      WithRef: !ToJsonString { Queue: !Ref AWS::StackName }
      Found: !FindInMap [Sizes, prod, Count, { DefaultValue: 1 }]
      Defaulted: !FindInMap [Sizes, dev, Count, { DefaultValue: 1 }]
`);
    assert.deepEqual(result.errors, []);
    const props = result.resources.get('Queue')!.properties as Record<string, unknown>;
    assert.equal(props.Count, 3);
    assert.ok(props.Zones instanceof UnknownValue);
    assert.equal(props.Policy, '{"Version":"2012-10-17","Items":[1,true]}');
    assert.equal(props.WithRef, '{"Queue":"demo"}');
    assert.equal(props.Found, 3);
    assert.equal(props.Defaulted, 1);
  });

  test('Fn::ToJsonString of values holding symbols is unknown, keeping their dependencies', () => {
    const result = evaluateText(`
Transform: AWS::LanguageExtensions
Resources:
  Topic: { Type: AWS::SNS::Topic }
  Queue:
    Type: AWS::SQS::Queue
    Properties: { Policy: !ToJsonString { Topic: !Ref Topic } }
`);
    const policy = (result.resources.get('Queue')!.properties as Record<string, UnknownValue>).Policy;
    assert.ok(policy instanceof UnknownValue);
    assert.deepEqual(policy.resourceDeps, [new ResourceRef('Topic')]);
    assert.deepEqual(result.resources.get('Queue')!.dependsOn, ['Topic']);
  });
});

const corpusDir = '/work/shared/corpus/aws-cloudformation-templates/CloudFormation';
const corpusAbsent = existsSync(corpusDir) ? false : `the shared corpus is not present at ${corpusDir}`;
if (corpusAbsent) console.log(`# skipping the fn-foreach corpus templates: ${corpusAbsent}`);

describe('the fn-foreach templates of the corpus', { skip: corpusAbsent }, () => {
  for (const format of ['yaml', 'json']) {
    test(`fn-foreach-ddb.${format} creates one table per name`, () => {
      const result = evaluateText(readFileSync(join(corpusDir, `fn-foreach-ddb.${format}`), 'utf8'));
      assert.deepEqual(result.errors, []);
      assert.deepEqual([...result.resources.keys()], ['DynamoDBPoints', 'DynamoDBScore', 'DynamoDBName', 'DynamoDBLeaderboard']);
      assert.equal((result.resources.get('DynamoDBScore')!.properties as Record<string, unknown>).TableName, 'Score');
    });

    test(`fn-foreach-s3-outputs.${format} creates buckets and an Arn output for each`, () => {
      const result = evaluateText(readFileSync(join(corpusDir, `fn-foreach-s3-outputs.${format}`), 'utf8'));
      assert.deepEqual(result.errors, []);
      assert.deepEqual([...result.resources.keys()], ['S3BucketA', 'S3BucketB', 'S3BucketC']);
      assert.deepEqual(result.resources.get('S3BucketB')!.attributes, { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
      assert.deepEqual(Object.fromEntries(result.outputs), {
        S3BucketAArn: new ResourceAttribute('S3BucketA', 'Arn'),
        S3BucketBArn: new ResourceAttribute('S3BucketB', 'Arn'),
        S3BucketCArn: new ResourceAttribute('S3BucketC', 'Arn'),
      });
    });
  }
});
