// The Rules section (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-rules.html):
// CloudFormation checks its assertions against the parameter values before it creates or
// updates anything. They decide nothing about resources, so they are read but not evaluated.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateText } from './evaluateText';

describe('the Rules section', () => {
  test('every rule-specific function, long and short, is accepted in Rules', () => {
    const result = evaluateText(`
Parameters:
  Environment: { Type: String, Default: test }
  InstanceType: { Type: String, Default: t2.micro }
  Subnets: { Type: 'List<AWS::EC2::Subnet::Id>', Default: 'subnet-1,subnet-2' }
  Vpc: { Type: 'AWS::EC2::VPC::Id', Default: vpc-1 }
Rules:
  ProdInstanceType:
    RuleCondition: !Equals [!Ref Environment, prod]
    Assertions:
      - Assert: !Contains [[m5.large, m5.xlarge], !Ref InstanceType]
        AssertDescription: production needs m5.large or m5.xlarge
  SubnetsInVpc:
    Assertions:
      - Assert: !EachMemberEquals [!ValueOf [Subnets, VpcId], !Ref Vpc]
      - Assert:
          Fn::EachMemberIn:
            - Fn::ValueOfAll: [AWS::EC2::Subnet::Id, VpcId]
            - Fn::RefAll: AWS::EC2::VPC::Id
      - Assert: !And [!Not [!Equals [!Ref Environment, x]], !Or [!Equals [!Ref Environment, test], !Equals [!Ref Environment, prod]]]
Resources:
  Box:
    Type: AWS::EC2::Instance
    Properties: { ImageId: ami-1, InstanceType: !Ref InstanceType }
`);
    assert.deepEqual([...result.model.errors, ...result.errors], []);
  });

  test('a rule-specific function outside Rules is unsupported, and the error says where it belongs', () => {
    const result = evaluateText('Resources:\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties: { A: !Contains [[a], a] }\n');
    assert.deepEqual(result.errors.map((e) => e.message), ['Template format error: Encountered unsupported function: Fn::Contains (it can be used only in the Rules section)']);
  });
});
