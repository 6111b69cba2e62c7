// Fn::Transform inside a value (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-transform.html):
// CloudFormation replaces the map holding it with the macro's output before it resolves other
// functions, so a function whose argument is that output is valid, and its value is known only to
// the macro. Here it is unknown, equal to itself when what the macro receives is equal.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UnknownValue, valueKey } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

const MACRO = '{ "Fn::Transform": { Name: String, Parameters: { InputString: !Ref Input, Operation: Upper } } }';

/** A template whose resource `Probe` has one property per entry, with a parameter `Input` for the macro. */
function template(properties: Record<string, string>, head = ''): string {
  const lines = Object.entries(properties).map(([name, expression]) => `      ${name}: ${expression}`);
  return `${head}Parameters:\n  Input: { Type: String, Default: hello }\nMappings:\n  Map: { a: { b: c } }\nResources:\n  Other:\n    Type: AWS::SNS::Topic\n  Probe:\n    Type: AWS::SNS::Topic\n    Properties:\n${lines.join('\n')}\n`;
}

function properties(text: string, parameters: Record<string, string> = {}): Record<string, unknown> {
  return evaluateText(text, { parameters }).resources.get('Probe')!.properties as Record<string, unknown>;
}

describe('a macro\'s output as the argument of a function', () => {
  test('Fn::Sub over Fn::Transform is not an error: a value only the macro knows, equal to itself, and a note names the macro', () => {
    const text = template({ Name: `{ "Fn::Sub": ${MACRO} }`, Short: '!Sub { "Fn::Transform": { Name: String, Parameters: { InputString: !Ref Input, Operation: Upper } } }' });
    const result = evaluateText(text);
    assert.deepEqual(result.errors, []);
    const props = result.resources.get('Probe')!.properties as Record<string, UnknownValue>;
    assert.ok(props.Name instanceof UnknownValue);
    assert.equal(props.Name.reason, 'Fn::Sub of the output of Fn::Transform String');
    assert.equal(valueKey(props.Short), valueKey(props.Name));
    assert.equal(valueKey((properties(text).Name as UnknownValue)), valueKey(props.Name));
    assert.deepEqual(result.notes.map(({ range: _range, ...note }) => note), [{ kind: 'macro-not-expanded', macros: ['String'] }]);
  });

  test('every function whose argument, or the part of it that must be written out, is a macro\'s output evaluates without error', () => {
    const expressions: Record<string, string> = {
      Ref: `{ Ref: ${MACRO} }`,
      GetAtt: `{ "Fn::GetAtt": ${MACRO} }`,
      GetAttName: `{ "Fn::GetAtt": [${MACRO}, Arn] }`,
      GetAttAttribute: `{ "Fn::GetAtt": [Other, ${MACRO}] }`,
      Sub: `{ "Fn::Sub": ${MACRO} }`,
      SubText: `{ "Fn::Sub": [${MACRO}, { A: b }] }`,
      SubVariables: `{ "Fn::Sub": ["\${Undeclared}-\${Input}", ${MACRO}] }`,
      Join: `{ "Fn::Join": ${MACRO} }`,
      JoinDelimiter: `{ "Fn::Join": [${MACRO}, [a, b]] }`,
      JoinList: `{ "Fn::Join": [",", ${MACRO}] }`,
      Select: `{ "Fn::Select": ${MACRO} }`,
      SelectIndex: `{ "Fn::Select": [${MACRO}, [a, b]] }`,
      Split: `{ "Fn::Split": ${MACRO} }`,
      SplitDelimiter: `{ "Fn::Split": [${MACRO}, "a,b"] }`,
      Cidr: `{ "Fn::Cidr": ${MACRO} }`,
      FindInMap: `{ "Fn::FindInMap": ${MACRO} }`,
      FindInMapKey: `{ "Fn::FindInMap": [Map, ${MACRO}, b] }`,
      If: `{ "Fn::If": ${MACRO} }`,
      IfCondition: `{ "Fn::If": [${MACRO}, a, b] }`,
      Base64: `{ "Fn::Base64": ${MACRO} }`,
      GetAZs: `{ "Fn::GetAZs": ${MACRO} }`,
      ImportValue: `{ "Fn::ImportValue": ${MACRO} }`,
      GetStackOutput: `{ "Fn::GetStackOutput": ${MACRO} }`,
      GetStackOutputName: `{ "Fn::GetStackOutput": { StackName: ${MACRO}, OutputName: VpcId } }`,
      Equals: `{ "Fn::Equals": ${MACRO} }`,
      Not: `{ "Fn::Not": ${MACRO} }`,
    };
    const result = evaluateText(template(expressions));
    assert.deepEqual(result.errors, []);
    const props = result.resources.get('Probe')!.properties as Record<string, unknown>;
    for (const name of Object.keys(expressions)) assert.ok(props[name] instanceof UnknownValue, name);
  });

  test('with Transform: AWS::LanguageExtensions, the options of Fn::FindInMap and the argument of Fn::Length may be a macro\'s output', () => {
    const result = evaluateText(template({ Options: `{ "Fn::FindInMap": [Map, x, y, ${MACRO}] }`, Length: `{ "Fn::Length": ${MACRO} }` }, 'Transform: AWS::LanguageExtensions\n'));
    assert.deepEqual(result.errors, []);
    const props = result.resources.get('Probe')!.properties as Record<string, unknown>;
    assert.ok(props.Options instanceof UnknownValue);
    assert.ok(props.Length instanceof UnknownValue);
  });

  test('what the macro receives keys its output: another parameter value or another written parameter is another value', () => {
    const text = template({ Name: `{ "Fn::Sub": ${MACRO} }` });
    const before = properties(text).Name as UnknownValue;
    assert.notEqual(valueKey(properties(text, { Input: 'bye' }).Name as UnknownValue), valueKey(before));
    assert.notEqual(valueKey(properties(text.replace('Operation: Upper', 'Operation: Lower')).Name as UnknownValue), valueKey(before));
  });

  test('variables a macro writes may define any name; names declared here still key the value', () => {
    const text = template({ Name: `{ "Fn::Sub": ["\${Undeclared}-\${Input}", { "Fn::Transform": { Name: Vars } }] }` });
    assert.deepEqual(evaluateText(text).errors, []);
    assert.notEqual(valueKey(properties(text, { Input: 'bye' }).Name as UnknownValue), valueKey(properties(text).Name as UnknownValue));
  });

  test('a macro\'s output in a branch of Fn::If leaves the condition deciding', () => {
    const text = template({ Pick: `{ "Fn::If": [Never, ${MACRO}, plain] }` }).replace('Resources:', 'Conditions:\n  Never: !Equals [a, b]\nResources:');
    assert.equal(properties(text).Pick, 'plain');
  });

  test('a list of macros is noted by name; the macro runs on the map beside it too', () => {
    const text = template({
      Dated: '{ "Fn::Transform": [{ Name: Date, Parameters: { Operation: Current } }, { Name: Upper }] }',
      WithSibling: `{ Tag: one, "Fn::Transform": { Name: String } }`,
      OtherSibling: `{ Tag: two, "Fn::Transform": { Name: String } }`,
    });
    const result = evaluateText(text);
    assert.deepEqual(result.errors, []);
    assert.ok(result.notes.some((n) => n.kind === 'macro-not-expanded' && n.macros.join(', ') === 'Date, Upper'));
    const props = result.resources.get('Probe')!.properties as Record<string, UnknownValue>;
    assert.notEqual(valueKey(props.WithSibling), valueKey(props.OtherSibling));
  });

  test('shapes that are wrong whatever the macro writes stay errors', () => {
    const text = template({
      JoinOne: `{ "Fn::Join": [${MACRO}] }`,
      SelectThree: `{ "Fn::Select": [0, ${MACRO}, x] }`,
      SubThree: `{ "Fn::Sub": [${MACRO}, {}, x] }`,
      IfTwo: `{ "Fn::If": [${MACRO}, a] }`,
      Unsupported: `{ "Fn::Foo": ${MACRO} }`,
    });
    assert.deepEqual(
      evaluateText(text).errors.map((e) => [e.code, e.message.match(/Fn::\w+/)?.[0]]),
      [
        ['malformed-intrinsic', 'Fn::Join'],
        ['malformed-intrinsic', 'Fn::Select'],
        ['malformed-intrinsic', 'Fn::Sub'],
        ['malformed-intrinsic', 'Fn::If'],
        ['unsupported-function', 'Fn::Foo'],
      ],
    );
  });
});
