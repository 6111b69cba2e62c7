/**
 * Functions that fail on the values they are given fail only where the value is deployed:
 * CloudFormation resolves nothing in a resource whose Condition is false or in the branch of
 * Fn::If not taken. Templates from AWS (the VPC Quick Start, the VPC peering samples) pick
 * `!Select [2, !Ref Subnets]` under a "three subnets" condition and are deployed with two.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import { diagnosticText } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

const HEADER = `Parameters:
  Subnets:
    Type: CommaDelimitedList
    Default: subnet-a,subnet-b
  Count:
    Type: String
    AllowedValues: ['2', '3']
    Default: '2'
Conditions:
  ThreeSubnets: !Equals [!Ref Count, '3']
Resources:
`;

/** The error codes of a template compared with itself. */
function errorCodes(text: string): string[] {
  const { report } = analyzeUpdate({ text }, { text }, { spec });
  return report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
}

describe('value errors in code that is not deployed', () => {
  test('an out-of-range Fn::Select in a resource whose Condition is false is not an error', () => {
    const text = `${HEADER}  Third:
    Type: AWS::EC2::RouteTable
    Condition: ThreeSubnets
    Properties:
      VpcId: !Select [2, !Ref Subnets]
`;
    assert.deepEqual(errorCodes(text), []);
  });

  test('an out-of-range Fn::Select in the Fn::If branch not taken is not an error', () => {
    const text = `${HEADER}  Table:
    Type: AWS::EC2::RouteTable
    Properties:
      VpcId: !If [ThreeSubnets, !Select [2, !Ref Subnets], !Select [1, !Ref Subnets]]
`;
    assert.deepEqual(errorCodes(text), []);
  });

  test('the same Fn::Select in a deployed resource is an error', () => {
    const text = `${HEADER}  Third:
    Type: AWS::EC2::RouteTable
    Properties:
      VpcId: !Select [2, !Ref Subnets]
`;
    assert.deepEqual(errorCodes(text), ['malformed-intrinsic']);
  });

  test('a malformed Fn::ForEach collection is reported as what it is', () => {
    const text = `Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::Topics:
    - Name
    - !Split ["", "a,b"]
    - Topic\${Name}:
        Type: AWS::SNS::Topic
`;
    const { report } = analyzeUpdate({ text }, { text }, { spec });
    const messages = report.diagnostics.filter((d) => d.severity === 'error').map(diagnosticText);
    assert.ok(messages.some((m) => m.includes('Fn::Split')), messages.join('\n'));
  });
});
