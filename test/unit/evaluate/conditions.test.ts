import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceRef, UnknownValue, valueKey, type Value } from '../../../server/src/evaluate/index';
import { evaluateText } from './evaluateText';

const template = `
Parameters:
  Env: { Type: String, Default: dev }
  Size: { Type: Number, Default: 3 }
  Ami: { Type: 'AWS::SSM::Parameter::Value<String>', Default: /app/ami }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  IsDev: !Not [!Condition IsProd]
  IsBig: !Equals [!Ref Size, 3]
  DevAndBig: !And [!Condition IsDev, !Condition IsBig]
  ProdOrBig: !Or [!Condition IsProd, !Condition IsBig]
  UsesDefaultAmi: !Equals [!Ref Ami, ami-123]
  DefaultAmiOrDev: !Or [!Condition UsesDefaultAmi, !Condition IsDev]
  DefaultAmiAndProd: !And [!Condition UsesDefaultAmi, !Condition IsProd]
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      Name: !If [IsProd, prod-topic, dev-topic]
      Extra: !If [IsProd, extra, !Ref AWS::NoValue]
  ProdOnly:
    Type: AWS::SNS::Topic
    Condition: IsProd
Outputs:
  ProdTopic:
    Condition: IsProd
    Value: !Ref ProdOnly
  Name:
    Value: !If [IsDev, dev, prod]
`;

describe('conditions', () => {
  test('Equals (with numbers compared as text), Not, And, Or and Condition references', () => {
    const result = evaluateText(template);
    assert.deepEqual(Object.fromEntries(result.conditions), {
      IsProd: false,
      IsDev: true,
      IsBig: true,
      DevAndBig: true,
      ProdOrBig: true,
      UsesDefaultAmi: false,
      DefaultAmiOrDev: true,
      DefaultAmiAndProd: false,
    });
  });

  test('a condition on a value known only at deploy time is undecided, false in `conditions`, keyed by what it computes, and noted; Kleene logic decides what it can', () => {
    const result = evaluateText(template);
    assert.deepEqual([...result.undecidedConditions.keys()], ['UsesDefaultAmi']);
    assert.equal(result.conditions.get('UsesDefaultAmi'), false);
    assert.deepEqual(result.notes.map(({ range: _range, ...note }) => note), [{ kind: 'condition-undecided', condition: 'UsesDefaultAmi' }]);
  });

  test('undecided conditions that compute the same thing from the same deploy-time values have the same key', () => {
    const text = `
Parameters:
  Env: { Type: String }
  Other: { Type: String }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  AlsoProd: !Equals [!Ref Env, prod]
  NotProd: !Not [!Condition IsProd]
  OtherProd: !Equals [!Ref Other, prod]
  IsStaging: !Equals [!Ref Env, staging]
  ProdAndTrue: !And [!Condition IsProd, !Equals [a, a]]
Resources:
  Topic: { Type: AWS::SNS::Topic }
`;
    const keys = evaluateText(text).undecidedConditions;
    assert.equal(keys.get('IsProd'), keys.get('AlsoProd'));
    assert.equal(keys.get('IsProd'), keys.get('ProdAndTrue'), 'a decided operand of And that is true does not change the value');
    const distinct = new Set([keys.get('IsProd'), keys.get('NotProd'), keys.get('OtherProd'), keys.get('IsStaging')]);
    assert.equal(distinct.size, 4);
  });

  test('a resource under an undecided condition is evaluated as present and marked with the condition', () => {
    const result = evaluateText(`
Parameters:
  Env: { Type: String }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Alarm:
    Type: AWS::SNS::Topic
    Condition: IsProd
    Properties: { TopicName: alarms }
`);
    const alarm = result.resources.get('Alarm')!;
    assert.equal(alarm.active, true);
    assert.deepEqual(alarm.properties, { TopicName: 'alarms' });
    assert.equal(alarm.undecidedCondition?.name, 'IsProd');
  });

  test('Fn::If over an undecided condition depends on both branches and equals itself only when both branches are unchanged', () => {
    const text = (prod: string) => `
Parameters:
  Env: { Type: String }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Big: { Type: AWS::SNS::Topic }
  Small: { Type: AWS::SNS::Topic }
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: !If [IsProd, ${prod}, dev]
      DisplayName: !If [IsProd, same, same]
      KmsMasterKeyId: !If [IsProd, !Ref Big, !Ref Small]
`;
    const one = evaluateText(text('prod')).resources.get('Topic')!;
    const again = evaluateText(text('prod')).resources.get('Topic')!;
    const other = evaluateText(text('production')).resources.get('Topic')!;
    const props = (r: typeof one) => r.properties as Record<string, Value>;
    assert.ok(props(one).TopicName instanceof UnknownValue);
    assert.equal(valueKey(props(one).TopicName), valueKey(props(again).TopicName));
    assert.notEqual(valueKey(props(one).TopicName), valueKey(props(other).TopicName));
    assert.equal(props(one).DisplayName, 'same', 'branches that agree give their value');
    assert.deepEqual(one.dependsOn, ['Big', 'Small']);
  });

  test('Fn::If picks its branch and AWS::NoValue removes the property', () => {
    const dev = evaluateText(template);
    assert.deepEqual(dev.resources.get('Topic')!.properties, { Name: 'dev-topic' });
    const prod = evaluateText(template, { parameters: { Env: 'prod' } });
    assert.deepEqual(prod.resources.get('Topic')!.properties, { Name: 'prod-topic', Extra: 'extra' });
  });

  test('a resource Condition decides whether it exists; outputs with a false Condition are absent', () => {
    const dev = evaluateText(template);
    assert.equal(dev.resources.get('ProdOnly')!.active, false);
    assert.deepEqual(Object.fromEntries(dev.outputs), { Name: 'dev' });
    assert.deepEqual(dev.errors, []);
    const prod = evaluateText(template, { parameters: { Env: 'prod' } });
    assert.equal(prod.resources.get('ProdOnly')!.active, true);
    assert.deepEqual(Object.fromEntries(prod.outputs), { ProdTopic: new ResourceRef('ProdOnly'), Name: 'prod' });
  });

  test('a reference to a resource whose Condition is false is an error, unless it sits in the branch not taken', () => {
    const text = `
Parameters:
  Env: { Type: String, Default: dev }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Condition: IsProd
  Guarded:
    Type: AWS::SNS::Topic
    Properties: { Name: !If [IsProd, !Ref Bucket, none] }
  Unguarded:
    Type: AWS::SNS::Topic
    Properties: { Name: !Ref Bucket }
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [['Template format error: Unresolved resource dependencies [Bucket] in the Resources block of the template', 'Bucket']],
    );
    assert.equal(result.errors[0].range.start, text.lastIndexOf('Bucket'));
    assert.deepEqual(result.resources.get('Guarded')!.dependsOn, []);
    assert.deepEqual(result.resources.get('Unguarded')!.dependsOn, ['Bucket']);
  });

  test('a reference to a resource whose Condition is undecided is not reported: only AWS can tell', () => {
    const result = evaluateText(`
Parameters:
  Mode: { Type: 'AWS::SSM::Parameter::Value<String>', Default: /app/mode }
Conditions:
  WantsBucket: !Equals [!Ref Mode, bucket]
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Condition: WantsBucket
  Topic:
    Type: AWS::SNS::Topic
    DependsOn: Bucket
    Properties: { Name: !Ref Bucket }
`);
    assert.deepEqual(result.errors, []);
    assert.equal(result.resources.get('Bucket')!.undecidedCondition?.name, 'WantsBucket');
    assert.deepEqual([...result.undecidedConditions.keys()], ['WantsBucket']);
  });

  test('the branch not taken is still validated', () => {
    const text = `
Conditions:
  Never: !Equals [a, b]
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties: { Name: !If [Never, !Ref Missing, ok] }
`;
    const result = evaluateText(text);
    assert.deepEqual(result.resources.get('Topic')!.properties, { Name: 'ok' });
    assert.deepEqual(result.errors.map((e) => e.message), ['Template format error: Unresolved resource dependencies [Missing] in the Resources block of the template']);
  });

  test('undeclared conditions are errors, at the name', () => {
    const text = `
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Condition: Nowhere
    Properties: { Name: !If [Absent, a, b] }
`;
    const result = evaluateText(text);
    assert.deepEqual(
      result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]),
      [
        ['Template format error: Unresolved condition dependency Nowhere in the Resources block of the template', 'Nowhere'],
        ['Template format error: Unresolved condition dependency Absent in Fn::If', 'Absent'],
      ],
    );
  });

  test('conditions cannot reference resources', () => {
    const text = `
Conditions:
  HasTopic: !Equals [!Ref Topic, x]
Resources:
  Topic: { Type: AWS::SNS::Topic }
`;
    assert.deepEqual(evaluateText(text).errors.map((e) => e.message), [
      'Template format error: Unresolved dependencies [Topic]. Cannot reference resources in the Conditions block of the template',
    ]);
  });

  test('a cycle of conditions is an error and its members are false', () => {
    const text = `
Conditions:
  A: !Not [!Condition B]
  B: !And [!Condition C, !Equals [x, x]]
  C: !Condition A
  D: !Equals [x, x]
Resources:
  Topic: { Type: AWS::SNS::Topic }
`;
    const result = evaluateText(text);
    assert.deepEqual(result.errors.map((e) => [e.message, text.slice(e.range.start, e.range.end)]), [['Circular dependency between conditions: [A, B, C]', 'A']]);
    assert.deepEqual(Object.fromEntries(result.conditions), { A: false, B: false, C: false, D: true });
  });

  test('a chain of 5,000 conditions evaluates without overflowing the stack', () => {
    const lines = ['Conditions:', '  C0: !Equals [a, a]'];
    for (let i = 1; i < 5000; i++) lines.push(`  C${i}: !Not [!Condition C${i - 1}]`);
    lines.push('Resources:', '  Topic:', '    Type: AWS::SNS::Topic', '    Condition: C4999');
    const result = evaluateText(lines.join('\n') + '\n');
    assert.deepEqual(result.errors, []);
    assert.equal(result.conditions.get('C4999'), false);
    assert.equal(result.conditions.get('C4998'), true);
    assert.equal(result.resources.get('Topic')!.active, false);
  });
});
