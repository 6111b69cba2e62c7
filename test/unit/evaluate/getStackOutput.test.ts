// Fn::GetStackOutput as the CloudFormation Template Reference Guide documents it
// (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-getstackoutput.html):
// a map of StackName and OutputName, optionally Region and RoleArn, resolved when the stack is
// created or updated. Here its value is unknown, equal to itself when its parameters are equal.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UnknownValue, valueKey } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

/** The evaluated Properties of resource `Probe`, by name. */
function probe(text: string, ctx: Parameters<typeof evaluateText>[1] = {}): Record<string, unknown> {
  return evaluateText(text, ctx).resources.get('Probe')!.properties as Record<string, unknown>;
}

/** Each error as its message and the text it points at. */
function errorsAt(text: string): [string, string][] {
  return evaluateText(text).errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]);
}

describe('Fn::GetStackOutput', () => {
  test('is a deploy-time value, equal for equal parameters, in the long and the short form', () => {
    const text = `
Parameters:
  Producer: { Type: String, Default: ProducerStack }
Resources:
  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      Long:
        Fn::GetStackOutput:
          StackName: ProducerStack
          OutputName: VpcId
      Short: !GetStackOutput
        StackName: ProducerStack
        OutputName: VpcId
      FromParameter:
        Fn::GetStackOutput:
          StackName: !Ref Producer
          OutputName: VpcId
      OtherOutput: !GetStackOutput { StackName: ProducerStack, OutputName: SubnetId }
      JsonStyle: { "Fn::GetStackOutput": { "OutputName": "VpcId", "StackName": "ProducerStack" } }
`;
    const result = evaluateText(text);
    assert.deepEqual(result.errors, []);
    const props = result.resources.get('Probe')!.properties as Record<string, UnknownValue>;
    assert.ok(props.Long instanceof UnknownValue);
    assert.equal(props.Long.reason, 'output VpcId of stack ProducerStack');
    assert.equal(valueKey(props.Short), valueKey(props.Long));
    assert.equal(valueKey(props.FromParameter), valueKey(props.Long));
    assert.equal(valueKey(props.JsonStyle), valueKey(props.Long));
    assert.notEqual(valueKey(props.OtherOutput), valueKey(props.Long));
    assert.deepEqual(result.resources.get('Probe')!.dependsOn, []);
  });

  test('an omitted Region is the stack\'s own Region; another Region or a role names another value', () => {
    const props = probe(`
Resources:
  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      Implicit: !GetStackOutput { StackName: P, OutputName: VpcId }
      Explicit: !GetStackOutput { StackName: P, OutputName: VpcId, Region: us-east-1 }
      Elsewhere: !GetStackOutput { StackName: P, OutputName: VpcId, Region: us-west-2 }
      CrossAccount: !GetStackOutput { StackName: P, OutputName: VpcId, RoleArn: "arn:aws:iam::111111111111:role/GetStackOutputRole" }
`);
    assert.equal(valueKey(props.Explicit as UnknownValue), valueKey(props.Implicit as UnknownValue));
    assert.notEqual(valueKey(props.Elsewhere as UnknownValue), valueKey(props.Implicit as UnknownValue));
    assert.notEqual(valueKey(props.CrossAccount as UnknownValue), valueKey(props.Implicit as UnknownValue));
    assert.equal((props.Elsewhere as UnknownValue).reason, 'output VpcId of stack P in us-west-2');
  });

  test('a parameter value that differs gives another value', () => {
    const text = `
Parameters:
  Producer: { Type: String, Default: blue }
Resources:
  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      Vpc: { "Fn::GetStackOutput": { StackName: !Ref Producer, OutputName: VpcId } }
`;
    const blue = probe(text).Vpc as UnknownValue;
    const green = probe(text, { parameters: { Producer: 'green' } }).Vpc as UnknownValue;
    assert.notEqual(valueKey(green), valueKey(blue));
  });

  test('without StackName or OutputName, or with another shape, it is malformed at its range', () => {
    const text = `
Resources:
  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      NoOutput: { "Fn::GetStackOutput": { StackName: P } }
      List: { "Fn::GetStackOutput": [P, VpcId] }
`;
    const shape = 'Template error: Fn::GetStackOutput requires a map with StackName and OutputName, and optionally Region and RoleArn';
    assert.deepEqual(errorsAt(text), [
      [shape, '{ "Fn::GetStackOutput": { StackName: P } }'],
      [shape, '{ "Fn::GetStackOutput": [P, VpcId] }'],
    ]);
    assert.ok(probe(text).NoOutput instanceof UnknownValue);
  });

  test('a parameter that is not a non-empty string is an error; an unknown key is a warning', () => {
    const text = `
Resources:
  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      EmptyName: { "Fn::GetStackOutput": { StackName: "", OutputName: VpcId } }
      ListOutput: { "Fn::GetStackOutput": { StackName: P, OutputName: [a, b] } }
      Extra: { "Fn::GetStackOutput": { StackName: P, OutputName: VpcId, Account: "111111111111" } }
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.severity, e.message, text.slice(e.range.start, e.range.end)]),
      [
        ['error', 'Template error: the StackName of Fn::GetStackOutput must be a non-empty string', '{ "Fn::GetStackOutput": { StackName: "", OutputName: VpcId } }'],
        ['error', 'Template error: the OutputName of Fn::GetStackOutput must be a non-empty string', '{ "Fn::GetStackOutput": { StackName: P, OutputName: [a, b] } }'],
        ['warning', 'Fn::GetStackOutput takes StackName, OutputName, Region and RoleArn; CloudFormation may reject Account', 'Account'],
      ],
    );
  });

  test('its parameters cannot depend on a resource', () => {
    const text = `
Resources:
  Names:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: ProducerStack }
  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      Vpc:
        Fn::GetStackOutput:
          StackName: !GetAtt Names.Value
          OutputName: VpcId
`;
    assert.deepEqual(errorsAt(text), [['Template error: the StackName of Fn::GetStackOutput cannot depend on a resource, and it reads Names', '!GetAtt Names.Value']]);
  });

  test('the short form cannot hold short-form functions, the long form can', () => {
    const text = `
Parameters:
  Producer: { Type: String, Default: ProducerStack }
Resources:
  Probe:
    Type: AWS::EC2::Subnet
    Properties:
      Short: !GetStackOutput
        StackName: !Ref Producer
        OutputName: VpcId
      Long:
        Fn::GetStackOutput:
          StackName: !Ref Producer
          OutputName: VpcId
`;
    assert.deepEqual(errorsAt(text), [
      ['Template error: the short form !GetStackOutput cannot hold short-form functions such as !Ref; write Fn::GetStackOutput in full', '!Ref Producer'],
    ]);
  });

  test('where CloudFormation cannot resolve it yet, deploying fails', () => {
    const text = `
Conditions:
  SameVpc: !Equals [!GetStackOutput { StackName: P, OutputName: VpcId }, vpc-1]
Resources:
  Probe:
    Type: AWS::EC2::Instance
    Properties:
      UserData: { "Fn::Base64": { "Fn::Join": ["", ["vpc=", { "Fn::GetStackOutput": { StackName: P, OutputName: VpcId } }]] } }
      Imported: { "Fn::ImportValue": { "Fn::GetStackOutput": { StackName: P, OutputName: ExportName } } }
      Variables: { "Fn::Sub": ["\${Vpc}", { Vpc: { "Fn::GetStackOutput": { StackName: P, OutputName: VpcId } } }] }
      Joined: { "Fn::Join": ["", [{ "Fn::GetStackOutput": { StackName: P, OutputName: VpcId } }]] }
Outputs:
  Direct:
    Value: { "Fn::GetStackOutput": { StackName: P, OutputName: VpcId } }
  Wrapped:
    Value: { "Fn::Join": ["", [{ "Fn::GetStackOutput": { StackName: P, OutputName: VpcId } }]] }
`;
    const failure = (where: string) => `Fn::GetStackOutput ${where} is not supported yet: CloudFormation fails the stack operation with an InternalFailure error`;
    assert.deepEqual(
      errorsAt(text).map(([message, at]) => [message, at.slice(0, 20)]),
      [
        [failure('inside Fn::Equals in the Conditions section'), '!GetStackOutput { St'],
        [failure('inside Fn::Base64'), '{ "Fn::Base64": { "F'],
        [failure('inside Fn::ImportValue'), '{ "Fn::ImportValue":'],
        [failure('inside an Fn::Sub variable map'), '{ "Fn::GetStackOutpu'],
        [failure('as the Value of an output'), '{ "Fn::GetStackOutpu'],
      ],
    );
  });

  test('a note says the value is read again at each update', () => {
    const result = evaluateText('Resources:\n  Probe:\n    Type: AWS::EC2::Subnet\n    Properties: { VpcId: !GetStackOutput { StackName: P, OutputName: VpcId } }\n');
    assert.deepEqual(result.notes.map(({ range: _range, ...note }) => note), [{ kind: 'stack-output-read-at-update' }]);
  });
});
