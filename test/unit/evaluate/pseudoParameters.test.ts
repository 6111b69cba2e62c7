import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UnknownValue } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

const template = `
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      Region: !Ref AWS::Region
      Account: !Ref AWS::AccountId
      Stack: !Ref AWS::StackName
      StackId: !Ref AWS::StackId
      Partition: !Ref AWS::Partition
      Suffix: !Ref AWS::URLSuffix
      Notify: !Ref AWS::NotificationARNs
`;

describe('pseudo parameters', () => {
  test('take their values from the deployment context', () => {
    const props = evaluateText(template, { stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/demo/1', notificationArns: ['arn:aws:sns:us-east-1:123456789012:t'] })
      .resources.get('Topic')!.properties;
    assert.deepEqual(props, {
      Region: 'us-east-1',
      Account: '123456789012',
      Stack: 'demo',
      StackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/demo/1',
      Partition: 'aws',
      Suffix: 'amazonaws.com',
      Notify: ['arn:aws:sns:us-east-1:123456789012:t'],
    });
  });

  test('the partition and URL suffix follow the region', () => {
    const china = evaluateText(template, { region: 'cn-north-1' }).resources.get('Topic')!.properties as Record<string, unknown>;
    assert.equal(china.Partition, 'aws-cn');
    assert.equal(china.Suffix, 'amazonaws.com.cn');
    const govCloud = evaluateText(template, { region: 'us-gov-west-1' }).resources.get('Topic')!.properties as Record<string, unknown>;
    assert.equal(govCloud.Partition, 'aws-us-gov');
    assert.equal(govCloud.Suffix, 'amazonaws.com');
  });

  test('an explicit partition and URL suffix win over the region', () => {
    const props = evaluateText(template, { partition: 'aws-x', urlSuffix: 'example.com' }).resources.get('Topic')!.properties as Record<string, unknown>;
    assert.equal(props.Partition, 'aws-x');
    assert.equal(props.Suffix, 'example.com');
  });

  test('without an account or a stack name, each is unknown: the same value before and after, never one made up', () => {
    const props = evaluateText(template, { accountId: undefined, stackName: undefined }).resources.get('Topic')!.properties as Record<string, unknown>;
    assert.deepEqual(props.Account, new UnknownValue('pseudo:AWS::AccountId', "the account's id, known where the stack is deployed"));
    assert.deepEqual(props.Stack, new UnknownValue('pseudo:AWS::StackName', "the stack's name, known where the stack is deployed"));
  });

  test('without a stack id, AWS::StackId is unknown; without notification ARNs the list is empty', () => {
    const props = evaluateText(template).resources.get('Topic')!.properties as Record<string, unknown>;
    assert.deepEqual(props.StackId, new UnknownValue('pseudo:AWS::StackId', 'the stack id, known once the stack exists'));
    assert.deepEqual(props.Notify, []);
  });
});

describe('AWS::NoValue', () => {
  test('removes the enclosing property and list item, and an absent Properties reads as empty', () => {
    const result = evaluateText(`
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: !Ref AWS::NoValue
      Tags:
        - !Ref AWS::NoValue
        - { Key: a, Value: b }
  Queue:
    Type: AWS::SQS::Queue
    Properties: !Ref AWS::NoValue
`);
    assert.deepEqual(result.resources.get('Topic')!.properties, { Tags: [{ Key: 'a', Value: 'b' }] });
    assert.deepEqual(result.resources.get('Queue')!.properties, {});
    assert.deepEqual(result.errors, []);
  });
});
