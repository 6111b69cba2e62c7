/**
 * A child template opened on its own takes the values its parent passes
 * (docs/update-rules.md#nested-stacks): the parent's `Parameters` on the stack resource whose
 * local `TemplateURL` names the child, evaluated as the parent's analysis evaluates them. A value
 * only AWS knows at deploy time stays unknown, and the child analysed alone with these values on
 * both sides has the plan the parent's analysis rolls up for it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, evaluateSide, parametersPassedToChild, stacksNesting, type ChildTemplate } from '../../../server/src/impact';
import { UnknownValue } from '../../../server/src/evaluate/value';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

const parent = (cidr = '10.0.0.0/16', url = './network.yaml', topicName = 'alerts') => `Parameters:
  Cidr:
    Type: String
    Default: ${cidr}
Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ${url}
      Parameters:
        VpcCidr: !Ref Cidr
        SubnetCidr: !Select [0, !Cidr [!Ref Cidr, 2, 8]]
        TopicArn: !Ref Topic
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: ${topicName}
`;

const network = `Parameters:
  VpcCidr:
    Type: String
  SubnetCidr:
    Type: String
  TopicArn:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref VpcCidr
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: !Ref SubnetCidr
  Alarm:
    Type: AWS::CloudWatch::Alarm
    Properties:
      AlarmActions: [!Ref TopicArn]
      ComparisonOperator: GreaterThanThreshold
      EvaluationPeriods: 1
      Threshold: 1
      MetricName: Errors
      Namespace: App
      Period: 60
      Statistic: Sum
`;

function passedBy(parentText: string, parentPath: string, childPath: string) {
  return stacksNesting(evaluateSide({ text: parentText }, { spec }), parentPath, childPath);
}

/** The parts of a change that say what happens to a resource. */
function outcome(changes: readonly ResourceChange[]): Array<[string, string, string | undefined]> {
  return changes.map((c) => [c.logicalId, c.action, c.impact]);
}

describe('the parameter values a parent passes to a child opened on its own', () => {
  test('values the parent computes from its own parameters are known, as the parent evaluates them', () => {
    const [stack, ...others] = passedBy(parent('10.1.0.0/16'), 'parent.yaml', 'network.yaml');
    assert.equal(others.length, 0);
    assert.equal(stack.logicalId, 'Network');
    assert.equal(stack.passed.get('VpcCidr'), '10.1.0.0/16');
    // Fn::Cidr splits 10.1.0.0/16 into /24 blocks (8 host bits); the first is 10.1.0.0/24.
    assert.equal(stack.passed.get('SubnetCidr'), '10.1.0.0/24');
  });

  test("a value only AWS knows (the Ref of a parent's topic) stays unknown", () => {
    const [stack] = passedBy(parent(), 'parent.yaml', 'network.yaml');
    assert.ok(stack.passed.get('TopicArn') instanceof UnknownValue);
  });

  test('the TemplateURL is resolved from the parent\'s folder; a stack naming another file does not nest this one', () => {
    assert.equal(passedBy(parent('10.0.0.0/16', 'stacks/../nested/network.yaml'), 'infra/parent.yaml', 'infra/nested/network.yaml').length, 1);
    assert.equal(passedBy(parent('10.0.0.0/16', './other.yaml'), 'parent.yaml', 'network.yaml').length, 0);
    assert.equal(passedBy(parent('10.0.0.0/16', 'https://bucket.s3.amazonaws.com/network.yaml'), 'parent.yaml', 'network.yaml').length, 0);
  });

  test("the child analysed alone with its parent's values has the plan the parent's analysis rolls up for it", () => {
    const files = (cidr: string) => ({ 'parent.yaml': parent(cidr), 'network.yaml': network });
    const reader = (set: Record<string, string>) => (path: string): ChildTemplate => (path in set ? { text: set[path] } : { problem: 'missing' });
    const before = files('10.0.0.0/16');
    const after = files('10.1.0.0/16');
    const whole = analyzeUpdate(
      { text: before['parent.yaml'] },
      { text: after['parent.yaml'] },
      { spec, nested: { templatePath: 'parent.yaml', readOld: reader(before), readNew: reader(after) } },
    ).report;
    const rolledUp = whole.changes.find((c) => c.logicalId === 'Network')?.nested;
    assert.ok(rolledUp);

    const [oldStack] = passedBy(before['parent.yaml'], 'parent.yaml', 'network.yaml');
    const [newStack] = passedBy(after['parent.yaml'], 'parent.yaml', 'network.yaml');
    const alone = analyzeUpdate({ text: network, passedParameters: oldStack.passed }, { text: network, passedParameters: newStack.passed }, { spec }).report;
    assert.deepEqual(outcome(alone.changes), outcome(rolledUp.changes));
    // The parent's new CIDR replaces the VPC and, through VpcId, its subnet; the alarm's topic is unchanged.
    assert.deepEqual(outcome(alone.changes), [
      ['Vpc', 'Modify', 'replacement'],
      ['Subnet', 'Modify', 'replacement'],
    ]);
  });

  test("a parent resource the parent's plan replaces passes a new value, though its Ref reads the same, as in the parent's analysis", () => {
    // TopicName is create-only: a new name replaces the topic, and its Ref (the ARN) changes.
    const before = { 'parent.yaml': parent('10.0.0.0/16', './network.yaml', 'alerts'), 'network.yaml': network };
    const after = { 'parent.yaml': parent('10.0.0.0/16', './network.yaml', 'alerts-v2'), 'network.yaml': network };
    const reader = (set: Record<string, string>) => (path: string): ChildTemplate => (path in set ? { text: set[path] } : { problem: 'missing' });
    const whole = analyzeUpdate(
      { text: before['parent.yaml'] },
      { text: after['parent.yaml'] },
      { spec, nested: { templatePath: 'parent.yaml', readOld: reader(before), readNew: reader(after) } },
    ).report;
    const rolledUp = whole.changes.find((c) => c.logicalId === 'Network')?.nested;
    assert.ok(rolledUp);

    const parentAnalysis = analyzeUpdate({ text: before['parent.yaml'] }, { text: after['parent.yaml'] }, { spec });
    const passed = parametersPassedToChild(parentAnalysis, 'parent.yaml', 'network.yaml');
    assert.ok(passed.before && passed.after);
    const alone = analyzeUpdate({ text: network, passedParameters: passed.before }, { text: network, passedParameters: passed.after }, { spec }).report;
    assert.deepEqual(outcome(alone.changes), outcome(rolledUp.changes));
    // The alarm's action names the new topic: it is updated in place (AlarmActions needs no replacement).
    assert.deepEqual(outcome(alone.changes), [['Alarm', 'Modify', 'no-interruption']]);
  });
});
