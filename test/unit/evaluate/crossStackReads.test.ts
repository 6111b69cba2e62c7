/**
 * Which stacks a template reads through `Fn::GetStackOutput`, so that a caller with an account
 * reads their outputs (docs/update-rules.md#cross-stack-values). Only what CloudFormation reads in
 * the stack's own Region with the stack's own role can be read that way.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stackOutputStacks } from '../../../server/src/evaluate/crossStackReads';
import { parseTemplate } from '../../../server/src/template';

const read = (text: string) => stackOutputStacks(parseTemplate(text).root);

describe('stacks a template reads with Fn::GetStackOutput', () => {
  test('literal stack names in long and short form, each once, in order', () => {
    const text = `Resources:
  A:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !GetStackOutput { StackName: network, OutputName: VpcId }
      Tags:
        - Key: peer
          Value: { 'Fn::GetStackOutput': { StackName: base, OutputName: Name } }
        - Key: again
          Value: !GetStackOutput { StackName: network, OutputName: Other }
`;
    assert.deepEqual(read(text), ['base', 'network']);
  });

  test('another Region, a role, or a name computed from a parameter are not read', () => {
    const text = `Parameters:
  Net: { Type: String }
Resources:
  A:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !GetStackOutput { StackName: far, OutputName: VpcId, Region: eu-west-1 }
      CidrBlock: !GetStackOutput { StackName: roled, OutputName: Cidr, RoleArn: arn:aws:iam::123456789012:role/r }
      AvailabilityZone: !GetStackOutput { StackName: !Ref Net, OutputName: Az }
`;
    assert.deepEqual(read(text), []);
  });

  test('a reference nested 200 lists deep is found', () => {
    const depth = 200;
    const text = `Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Metadata: ${'['.repeat(depth)}{ 'Fn::GetStackOutput': { StackName: deep, OutputName: X } }${']'.repeat(depth)}\n`;
    assert.deepEqual(read(text), ['deep']);
  });
});
