import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, toPlain } from '../../../server/src/template';

/** The plain long-form value of `Value:` in a one-line YAML document, with the errors seen. */
function valueOf(yaml: string): { value: unknown; errors: string[] } {
  const parsed = parseTemplate(`Value: ${yaml}\n`);
  const root = toPlain(parsed.root!) as { Value: unknown };
  return { value: root.Value, errors: parsed.errors.map((e) => e.code) };
}

describe('short forms become the long form they stand for', () => {
  const cases: [string, unknown][] = [
    ['!Ref MyBucket', { Ref: 'MyBucket' }],
    ['!Condition IsProd', { Condition: 'IsProd' }],
    ['!GetAtt MyBucket.Arn', { 'Fn::GetAtt': ['MyBucket', 'Arn'] }],
    ['!GetAtt Nested.Outputs.BucketName', { 'Fn::GetAtt': ['Nested', 'Outputs.BucketName'] }],
    ['!GetAtt [MyBucket, Arn]', { 'Fn::GetAtt': ['MyBucket', 'Arn'] }],
    ['!Sub "${AWS::StackName}-logs"', { 'Fn::Sub': '${AWS::StackName}-logs' }],
    ['!Sub ["${A}-x", {A: !Ref B}]', { 'Fn::Sub': ['${A}-x', { A: { Ref: 'B' } }] }],
    ['!Join [",", [a, b]]', { 'Fn::Join': [',', ['a', 'b']] }],
    ['!If [IsProd, 3, 1]', { 'Fn::If': ['IsProd', 3, 1] }],
    ['!Equals [!Ref Env, prod]', { 'Fn::Equals': [{ Ref: 'Env' }, 'prod'] }],
    ['!Not [!Condition IsProd]', { 'Fn::Not': [{ Condition: 'IsProd' }] }],
    ['!And [!Condition A, !Condition B]', { 'Fn::And': [{ Condition: 'A' }, { Condition: 'B' }] }],
    ['!Or [!Condition A, !Condition B]', { 'Fn::Or': [{ Condition: 'A' }, { Condition: 'B' }] }],
    ['!FindInMap [RegionMap, !Ref "AWS::Region", AMI]', { 'Fn::FindInMap': ['RegionMap', { Ref: 'AWS::Region' }, 'AMI'] }],
    ['!Select [0, !GetAZs ""]', { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] }],
    ['!Split [",", "a,b"]', { 'Fn::Split': [',', 'a,b'] }],
    ['!Base64 hello', { 'Fn::Base64': 'hello' }],
    ['!Cidr [10.0.0.0/16, 4, 8]', { 'Fn::Cidr': ['10.0.0.0/16', 4, 8] }],
    ['!GetAZs us-east-1', { 'Fn::GetAZs': 'us-east-1' }],
    ['!ImportValue SharedVpcId', { 'Fn::ImportValue': 'SharedVpcId' }],
    ['!Transform {Name: AWS::Include, Parameters: {Location: s3://b/k}}', { 'Fn::Transform': { Name: 'AWS::Include', Parameters: { Location: 's3://b/k' } } }],
    ['!Length [a, b]', { 'Fn::Length': ['a', 'b'] }],
    ['!ToJsonString {a: 1}', { 'Fn::ToJsonString': { a: 1 } }],
    ['!ForEach [X, [a, b], {}]', { 'Fn::ForEach': ['X', ['a', 'b'], {}] }],
    ['!Contains [[a], a]', { 'Fn::Contains': [['a'], 'a'] }],
    ['!EachMemberEquals [[a], a]', { 'Fn::EachMemberEquals': [['a'], 'a'] }],
    ['!EachMemberIn [[a], [a]]', { 'Fn::EachMemberIn': [['a'], ['a']] }],
    ['!RefAll AWS::EC2::VPC::Id', { 'Fn::RefAll': 'AWS::EC2::VPC::Id' }],
    ['!ValueOf [P, Tags]', { 'Fn::ValueOf': ['P', 'Tags'] }],
    ['!ValueOfAll [AWS::EC2::VPC::Id, Tags]', { 'Fn::ValueOfAll': ['AWS::EC2::VPC::Id', 'Tags'] }],
  ];
  for (const [yaml, expected] of cases) {
    test(yaml, () => {
      assert.deepEqual(valueOf(yaml), { value: expected, errors: [] });
    });
  }

  test('a short-form scalar stays a string whatever it looks like', () => {
    assert.deepEqual(valueOf('!Ref 123').value, { Ref: '123' });
    assert.deepEqual(valueOf('!Base64 true').value, { 'Fn::Base64': 'true' });
  });

  test('block sequences and block scalars take short forms too', () => {
    const parsed = parseTemplate('Value: !If\n  - IsProd\n  - !Sub |\n    line ${X}\n  - !Ref AWS::NoValue\n');
    assert.deepEqual(toPlain(parsed.root!), { Value: { 'Fn::If': ['IsProd', { 'Fn::Sub': 'line ${X}\n' }, { Ref: 'AWS::NoValue' }] } });
    assert.deepEqual(parsed.errors, []);
  });

  test('the map made from a short form records the tag, with the tag as its key range', () => {
    const text = 'Value: !GetAtt Bucket.Arn\n';
    const node = parseTemplate(text).root;
    assert.equal(node?.kind, 'map');
    const value = node.kind === 'map' ? node.entries[0]!.value : undefined;
    assert.equal(value?.kind, 'map');
    if (value?.kind !== 'map') return;
    assert.equal(value.shortForm, '!GetAtt');
    assert.equal(text.slice(value.range.start, value.range.end), '!GetAtt Bucket.Arn');
    const entry = value.entries[0]!;
    assert.equal(text.slice(entry.keyRange.start, entry.keyRange.end), '!GetAtt');
    assert.equal(entry.value.kind, 'seq');
    if (entry.value.kind !== 'seq') return;
    const [id, attribute] = entry.value.items;
    assert.equal(text.slice(id!.range.start, id!.range.end), 'Bucket');
    assert.equal(text.slice(attribute!.range.start, attribute!.range.end), 'Arn');
  });

  test('a tag followed by an anchor and a comment still finds its own range', () => {
    const text = 'Value: !Sub &s # why\n  "x-${Y}"\nOther: *s\n';
    const parsed = parseTemplate(text);
    assert.deepEqual(toPlain(parsed.root!), { Value: { 'Fn::Sub': 'x-${Y}' }, Other: { 'Fn::Sub': 'x-${Y}' } });
    const value = parsed.root?.kind === 'map' ? parsed.root.entries[0]!.value : undefined;
    const keyRange = value?.kind === 'map' ? value.entries[0]!.keyRange : undefined;
    assert.equal(keyRange && text.slice(keyRange.start, keyRange.end), '!Sub');
  });

  test('a long form written out is not marked as a short form', () => {
    const parsed = parseTemplate('{"Value": {"Fn::GetAtt": ["Bucket", "Arn"]}}');
    const value = parsed.root?.kind === 'map' ? parsed.root.entries[0]!.value : undefined;
    assert.equal(value?.kind === 'map' ? value.shortForm : 'not a map', undefined);
  });

  test('an unknown tag is an error at the tag, and its value is kept untagged', () => {
    const text = 'Value: !Reff Bucket\n';
    const parsed = parseTemplate(text);
    assert.deepEqual(toPlain(parsed.root!), { Value: 'Bucket' });
    assert.equal(parsed.errors.length, 1);
    const [error] = parsed.errors;
    assert.equal(error!.code, 'unknown-tag');
    assert.equal(error!.severity, 'error');
    assert.equal(text.slice(error!.range.start, error!.range.end), '!Reff');
    assert.match(error!.message, /!Reff/);
  });

  test('Rain preprocessor tags become Rain:: keys with a warning, as rain pkg reads them', () => {
    const text = 'Value: !Rain::Embed script.sh\n';
    const parsed = parseTemplate(text);
    assert.deepEqual(toPlain(parsed.root!), { Value: { 'Rain::Embed': 'script.sh' } });
    assert.deepEqual(
      parsed.errors.map((e) => [e.code, e.severity, text.slice(e.range.start, e.range.end)]),
      [['preprocessor-tag', 'warning', '!Rain::Embed']],
    );
  });
});
