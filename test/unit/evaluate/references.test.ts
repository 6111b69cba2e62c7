import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UnknownValue } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

describe('unresolved references', () => {
  test('Ref to an undeclared name is an error at the name, worded by the block it is in', () => {
    const text = `
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties: { Name: !Ref Nothing }
Outputs:
  Out:
    Value: !Ref Elsewhere
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [
        ['Template format error: Unresolved resource dependencies [Nothing] in the Resources block of the template', 'Nothing'],
        ['Template format error: Unresolved resource dependencies [Elsewhere] in the Outputs block of the template', 'Elsewhere'],
      ],
    );
    assert.ok((result.resources.get('Topic')!.properties as Record<string, unknown>).Name instanceof UnknownValue);
  });

  test('DependsOn naming a missing resource is an error at the name', () => {
    const text = `
Resources:
  A: { Type: AWS::SNS::Topic }
  B:
    Type: AWS::SNS::Topic
    DependsOn: [A, Ghost]
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [['Template format error: Unresolved resource dependencies [Ghost] in the Resources block of the template', 'Ghost']],
    );
    assert.deepEqual(result.resources.get('B')!.dependsOn, ['A']);
  });

  test('dependsOn lists explicit dependencies first, then references, without repeats', () => {
    const result = evaluateText(`
Resources:
  A: { Type: AWS::SNS::Topic }
  B: { Type: AWS::SNS::Topic }
  C:
    Type: AWS::SNS::Topic
    DependsOn: B
    Metadata: { Uses: !Ref A }
    Properties: { X: !GetAtt A.TopicName, Y: !Sub "\${B}-\${A.TopicArn}" }
`);
    assert.deepEqual(result.resources.get('C')!.dependsOn, ['B', 'A']);
  });
});

describe('dependency cycles', () => {
  test('a cycle through Ref, Fn::GetAtt, Fn::Sub and DependsOn is reported once, in CloudFormation words', () => {
    const text = `
Resources:
  A:
    Type: AWS::SNS::Topic
    Properties: { X: !Ref B }
  B:
    Type: AWS::SNS::Topic
    Properties: { X: !GetAtt C.TopicName }
  C:
    Type: AWS::SNS::Topic
    Properties: { X: !Sub "\${D}" }
  D:
    Type: AWS::SNS::Topic
    DependsOn: A
  Free:
    Type: AWS::SNS::Topic
    Properties: { X: !Ref A }
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, e.code, text.slice(e.range.start, e.range.end)]),
      [['Circular dependency between resources: [A, B, C, D]', 'circular-dependency', 'A']],
    );
  });

  test('a resource referring to itself is a cycle', () => {
    const result = evaluateText('Resources:\n  Self:\n    Type: AWS::SNS::Topic\n    Properties: { X: !Ref Self }\n');
    assert.deepEqual(result.errors.map((e) => e.message), ['Circular dependency between resources: [Self]']);
  });

  test('a reference in the branch not taken does not close a cycle', () => {
    const result = evaluateText(`
Conditions:
  Never: !Equals [a, b]
Resources:
  A:
    Type: AWS::SNS::Topic
    Properties: { X: !If [Never, !Ref B, none] }
  B:
    Type: AWS::SNS::Topic
    Properties: { X: !Ref A }
`);
    assert.deepEqual(result.errors, []);
  });

  test('a chain of 5,000 resources closed into a loop is found without overflowing the stack', () => {
    const lines = ['Resources:'];
    for (let i = 0; i < 5000; i++) lines.push(`  R${i}:`, '    Type: AWS::SNS::Topic', `    Properties: { X: !Ref R${(i + 1) % 5000} }`);
    const result = evaluateText(lines.join('\n') + '\n');
    assert.equal(result.errors.length, 1);
    assert.ok(result.errors[0].message.startsWith('Circular dependency between resources: [R0, R1, R2, '));
    assert.ok(result.errors[0].message.endsWith(', R49, ... 4950 more]'));
  });
});

describe('bounded work', () => {
  test('intrinsic functions nested 200 levels deep are an error, not a stack overflow', () => {
    const expression = '{ "Fn::Base64": '.repeat(200) + '"x"' + ' }'.repeat(200);
    const result = evaluateText(`{"Resources": {"Topic": {"Type": "AWS::SNS::Topic", "Properties": {"Data": ${expression}}}}}`);
    assert.deepEqual(
      result.errors.map((e) => e.code),
      ['depth-limit'],
    );
    assert.match(result.errors[0].message, /nested more than \d+ levels deep/);
  });
});
