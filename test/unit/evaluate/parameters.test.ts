import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Concatenation, UnknownValue, type Value } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

describe('parameter values', () => {
  const template = `
Parameters:
  Name:
    Type: String
    Default: fallback
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: !Ref Name
`;

  test('a supplied value wins over the Default', () => {
    const result = evaluateText(template, { parameters: { Name: 'given' } });
    const props = result.resources.get('Topic')!.properties as Record<string, unknown>;
    assert.equal(props.TopicName, 'given');
    assert.equal(result.parameters.get('Name')!.source, 'supplied');
  });

  test('the Default applies when no value is supplied', () => {
    const result = evaluateText(template);
    const props = result.resources.get('Topic')!.properties as Record<string, unknown>;
    assert.equal(props.TopicName, 'fallback');
    assert.equal(result.parameters.get('Name')!.source, 'default');
  });

  test("a parameter with neither value nor Default is the stack's current value: an unknown named after it, and no error", () => {
    const text = 'Parameters:\n  Name:\n    Type: String\n    AllowedValues: [a, b]\nResources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      TopicName: !Ref Name\n';
    const result = evaluateText(text);
    const props = result.resources.get('Topic')!.properties as Record<string, unknown>;
    assert.deepEqual(result.errors, [], 'whether a missing value is an error depends on the deployed template, which the comparison knows');
    assert.ok(props.TopicName instanceof UnknownValue);
    assert.equal(props.TopicName.key, 'param:Name');
    assert.equal(result.parameters.get('Name')!.source, 'missing');
  });

  test('with the deployed values at hand, a parameter with neither value nor Default takes the previous one, unchecked; UsePreviousValue beats a Default', () => {
    const text = 'Parameters:\n  Name: { Type: String, AllowedValues: [a] }\n  Size: { Type: String, Default: small }\nResources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties: { TopicName: !Ref Name, DisplayName: !Ref Size }\n';
    const previous = { values: new Map<string, Value>([['Name', 'deployed'], ['Size', 'large']]) };
    const kept = evaluateText(text, { previous });
    assert.deepEqual(kept.resources.get('Topic')!.properties, { TopicName: 'deployed', DisplayName: 'small' });
    assert.deepEqual(kept.errors, [], 'constraints were checked when the previous value was deployed');
    assert.equal(kept.parameters.get('Name')!.source, 'previous');
    const usePrevious = evaluateText(text, { previous: { ...previous, usePrevious: new Set(['Size']) } });
    assert.deepEqual(usePrevious.resources.get('Topic')!.properties, { TopicName: 'deployed', DisplayName: 'large' });
  });

  test('a supplied name the template does not declare is an error', () => {
    const result = evaluateText(template, { parameters: { Name: 'x', Other: 'y' } });
    assert.deepEqual(result.errors.map((e) => e.message), ['Parameters: [Other] do not exist in the template']);
  });

  test('a Number keeps its text form, whether supplied or a YAML number Default', () => {
    const text = `
Parameters:
  Size: { Type: Number, Default: 30 }
  Count: { Type: Number }
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties: { A: !Ref Size, B: !Ref Count }
`;
    const props = evaluateText(text, { parameters: { Count: '5' } }).resources.get('Topic')!.properties;
    assert.deepEqual(props, { A: '30', B: '5' });
  });

  test('CommaDelimitedList and List<...> types become lists with members trimmed', () => {
    const text = `
Parameters:
  Names: { Type: CommaDelimitedList, Default: "a, b ,c" }
  Ports: { Type: List<Number> }
  Subnets: { Type: List<AWS::EC2::Subnet::Id> }
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties: { Names: !Ref Names, Ports: !Ref Ports, Subnets: !Ref Subnets }
`;
    const props = evaluateText(text, { parameters: { Ports: '80,443', Subnets: 'subnet-1, subnet-2' } }).resources.get('Topic')!.properties;
    assert.deepEqual(props, { Names: ['a', 'b', 'c'], Ports: ['80', '443'], Subnets: ['subnet-1', 'subnet-2'] });
  });

  test('AWS-specific types are plain strings', () => {
    const text = `
Parameters:
  Image: { Type: 'AWS::EC2::Image::Id', Default: ami-123 }
Resources:
  Topic: { Type: AWS::SNS::Topic, Properties: { Image: !Ref Image } }
`;
    assert.deepEqual(evaluateText(text).resources.get('Topic')!.properties, { Image: 'ami-123' });
  });

  test('an SSM parameter type is unknown, keyed by the SSM parameter name', () => {
    const text = `
Parameters:
  Image:
    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>
    Default: /aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64
Resources:
  Topic: { Type: AWS::SNS::Topic, Properties: { Image: !Ref Image } }
`;
    const image = (evaluateText(text).resources.get('Topic')!.properties as Record<string, unknown>).Image as UnknownValue;
    assert.ok(image instanceof UnknownValue);
    assert.equal(image.key, 'ssm:/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64');
    assert.equal(image.reason, 'SSM parameter /aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64');
  });

  test('dynamic references in parameter values are unknown, alone or inside text', () => {
    const text = `
Parameters:
  Secret: { Type: String }
  Url: { Type: String }
Resources:
  Topic: { Type: AWS::SNS::Topic, Properties: { Secret: !Ref Secret, Url: !Ref Url } }
`;
    const parameters = { Secret: '{{resolve:secretsmanager:db:SecretString:password}}', Url: 'https://{{resolve:ssm:/app/host}}/api' };
    const props = evaluateText(text, { parameters }).resources.get('Topic')!.properties as Record<string, unknown>;
    const secret = props.Secret as UnknownValue;
    assert.equal(secret.key, 'dynamic:{{resolve:secretsmanager:db:SecretString:password}}');
    assert.equal(secret.reason, 'Secrets Manager secret db:SecretString:password');
    const url = props.Url as Concatenation;
    assert.ok(url instanceof Concatenation);
    assert.equal(url.parts[0], 'https://');
    assert.equal((url.parts[1] as UnknownValue).key, 'dynamic:{{resolve:ssm:/app/host}}');
    assert.equal(url.parts[2], '/api');
  });
});

describe('parameter constraints', () => {
  // Each case declares one parameter P with a constraint and supplies a value for it.
  const messages = (parameter: string, value: string) =>
    evaluateText(`Parameters:\n  P: ${parameter}\nResources:\n  Topic: { Type: AWS::SNS::Topic }\n`, { parameters: { P: value } }).errors.map((e) => e.message);

  test('AllowedValues', () => {
    const p = '{ Type: String, AllowedValues: [small, large] }';
    assert.deepEqual(messages(p, 'large'), []);
    assert.deepEqual(messages(p, 'medium'), ["Parameter 'P' must be one of AllowedValues"]);
  });

  test('AllowedPattern must match the whole value', () => {
    const p = "{ Type: String, AllowedPattern: '[a-z]+' }";
    assert.deepEqual(messages(p, 'abc'), []);
    assert.deepEqual(messages(p, 'abc1'), ["Parameter 'P' must match pattern [a-z]+"]);
  });

  test('a catastrophic AllowedPattern is matched in linear time', () => {
    const started = performance.now();
    assert.deepEqual(messages("{ Type: String, AllowedPattern: '(a+)+b' }", `${'a'.repeat(50_000)}!`), ["Parameter 'P' must match pattern (a+)+b"]);
    assert.ok(performance.now() - started < 2_000, 'a backtracking engine would take longer than the age of the universe');
  });

  test('a pattern RE2 cannot read (a back-reference) is not checked rather than guessed', () => {
    assert.deepEqual(messages("{ Type: String, AllowedPattern: '(a)\\1' }", 'ab'), []);
  });

  test('a ConstraintDescription replaces the message', () => {
    const p = "{ Type: String, AllowedPattern: '[a-z]+', ConstraintDescription: lower-case letters only }";
    assert.deepEqual(messages(p, 'ABC'), ['Parameter P failed to satisfy constraint: lower-case letters only']);
  });

  test('lengths and numeric bounds', () => {
    assert.deepEqual(messages('{ Type: String, MinLength: 3 }', 'ab'), ["Parameter 'P' must contain at least 3 characters"]);
    assert.deepEqual(messages('{ Type: String, MaxLength: 3 }', 'abcd'), ["Parameter 'P' must contain at most 3 characters"]);
    assert.deepEqual(messages('{ Type: Number, MinValue: 1 }', '0'), ["Parameter 'P' must be a number not less than 1"]);
    assert.deepEqual(messages('{ Type: Number, MaxValue: 10 }', '11'), ["Parameter 'P' must be a number not greater than 10"]);
    assert.deepEqual(messages('{ Type: Number, MaxValue: 10 }', 'ten'), ["Parameter 'P' must be a number"]);
  });

  test('each member of a list is checked', () => {
    const p = '{ Type: CommaDelimitedList, AllowedValues: [a, b] }';
    assert.deepEqual(messages(p, 'a,b'), []);
    assert.deepEqual(messages(p, 'a,c'), ["Parameter 'P' must be one of AllowedValues"]);
  });
});
