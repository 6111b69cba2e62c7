import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, readTemplateModel } from '../../../server/src/template/index';
import { Concatenation, ResourceAttribute, ResourceRef, UnknownValue, expressionInputs, renderValue } from '../../../server/src/evaluate/index';

describe('renderValue', () => {
  test('renders data compactly and symbols as placeholders', () => {
    assert.equal(renderValue('text'), '"text"');
    assert.equal(renderValue(30), '30');
    assert.equal(renderValue(new ResourceRef('VPC')), '${VPC}');
    assert.equal(renderValue(new ResourceAttribute('VPC', 'CidrBlock')), '${VPC.CidrBlock}');
    assert.equal(renderValue(new UnknownValue('ssm:/x', 'SSM parameter /x')), '<SSM parameter /x>');
    assert.equal(renderValue(new Concatenation(['arn:', new ResourceRef('Bucket'), '/*'])), '"arn:${Bucket}/*"');
    assert.equal(renderValue({ Key: 'a', Values: [1, null, true] }), '{Key: "a", Values: [1, null, true]}');
  });

  test('cuts long values with an ellipsis', () => {
    const rendered = renderValue(Array.from({ length: 1000 }, (_, i) => `item-${i}`), 40);
    assert.equal(rendered.length, 40);
    assert.ok(rendered.endsWith('…'));
  });
});

describe('expressionInputs', () => {
  test('finds parameters, pseudo parameters, resources, attributes, mappings and conditions, also inside Fn::Sub and through conditions', () => {
    const model = readTemplateModel(
      parseTemplate(`
Parameters:
  Env: { Type: String }
  Size: { Type: String }
Mappings:
  M: { a: { b: c } }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  VPC: { Type: AWS::EC2::VPC }
  Probe:
    Type: AWS::SNS::Topic
    Properties:
      A: !If [IsProd, !FindInMap [M, !Ref Size, b], !Sub "\${VPC}-\${VPC.CidrBlock}-\${AWS::Region}-\${Local}"]
      B: !Sub ["\${Local}", { Local: !GetAtt [VPC, DefaultSecurityGroup] }]
`),
    );
    const properties = model.resources.get('Probe')!.properties!;
    assert.deepEqual(expressionInputs(properties, model), {
      parameters: ['Size', 'Env'],
      pseudoParameters: ['AWS::Region'],
      resources: ['VPC'],
      attributes: ['VPC.CidrBlock', 'VPC.DefaultSecurityGroup'],
      mappings: ['M'],
      conditions: ['IsProd'],
    });
  });
});
