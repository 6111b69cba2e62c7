import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluateText } from './evaluateText';

// Names that exercise every function and every kind of reference, valid or not.
const FUNCTION_KEYS = [
  'Ref', 'Condition', 'Fn::GetAtt', 'Fn::Sub', 'Fn::Join', 'Fn::Select', 'Fn::Split', 'Fn::Base64', 'Fn::Cidr', 'Fn::GetAZs',
  'Fn::ImportValue', 'Fn::FindInMap', 'Fn::If', 'Fn::Equals', 'Fn::Not', 'Fn::And', 'Fn::Or', 'Fn::Length', 'Fn::ToJsonString',
  'Fn::Transform', 'Fn::ForEach::Loop', 'Fn::GetStackOutput', 'Fn::Contains', 'Fn::Foo',
];
const NAMES = ['P', 'L', 'Ssm', 'A', 'B', 'C1', 'M', 'AWS::Region', 'AWS::NoValue', 'AWS::StackId', 'Missing', 'A.Arn', '${A}', '${P}-${A.Arn}', '{{resolve:ssm:/x}}', '10.0.0.0/16', '0', '2', '', 'ModRes', 'Mod.Res', 'Mod.Res.Arn', '${ModRes.Arn}'];

const expression = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>(...NAMES, 1, true, null),
    fc.array(tie('node'), { maxLength: 4 }),
    // Functions mostly take a short list of arguments, so those come up more often.
    fc.tuple(fc.constantFrom(...FUNCTION_KEYS), fc.oneof(tie('node'), fc.array(tie('node'), { minLength: 1, maxLength: 3 }), fc.array(tie('node'), { minLength: 2, maxLength: 2 })))
      .map(([key, value]) => ({ [key]: value })),
    fc.dictionary(fc.constantFrom('Key', 'Value', 'Name', 'DefaultValue', 'StackName', 'OutputName', 'Region', 'Fn::Transform'), tie('node'), { maxKeys: 3 }),
  ),
})).node;

describe('robustness', () => {
  test('no combination of functions, arguments and names makes evaluation fail internally', () => {
    fc.assert(
      fc.property(expression, expression, fc.boolean(), (properties, condition, languageExtensions) => {
        const template = {
          ...(languageExtensions ? { Transform: 'AWS::LanguageExtensions' } : {}),
          Parameters: {
            P: { Type: 'String', Default: 'x' },
            L: { Type: 'CommaDelimitedList', Default: 'a,b' },
            Ssm: { Type: 'AWS::SSM::Parameter::Value<String>', Default: '/x' },
          },
          Mappings: { M: { a: { b: 'c' } } },
          Conditions: { C1: condition },
          Resources: {
            A: { Type: 'AWS::SNS::Topic', Properties: properties },
            B: { Type: 'AWS::SNS::Topic', Condition: 'C1', Properties: { X: properties } },
            Mod: { Type: 'My::Org::Thing::MODULE', DependsOn: ['ModRes'], Properties: { X: properties } },
          },
          Outputs: { O: { Value: properties } },
        };
        const result = evaluateText(JSON.stringify(template));
        const internal = result.errors.filter((e) => e.code === 'internal-error');
        assert.deepEqual(internal, []);
        for (const error of result.errors) assert.ok(error.range.start <= error.range.end && error.range.end <= JSON.stringify(template).length);
      }),
      { numRuns: 500, seed: 20261121 },
    );
  });
});
