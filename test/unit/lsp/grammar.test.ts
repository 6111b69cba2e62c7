// The TextMate injection grammar: what its patterns mark in YAML and JSON templates.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHORT_FORM_KEYS } from '../../../server/src/template/shortForms';

interface Rule {
  match: string;
}
const grammar = JSON.parse(readFileSync(join(__dirname, '../../../syntaxes/cloudformation-intrinsics.injection.json'), 'utf8')) as {
  scopeName: string;
  injectionSelector: string;
  repository: Record<string, Rule>;
};
// The patterns use only syntax that Oniguruma and JavaScript read alike.
const rule = (name: string) => new RegExp(grammar.repository[name].match, 'gm');
const matches = (name: string, text: string) => [...text.matchAll(rule(name))].map((m) => m[2] ?? m[1] ?? m[0]);

describe('the intrinsic-function injection grammar', () => {
  test('is injected into YAML and JSON, outside comments', () => {
    assert.equal(grammar.injectionSelector, 'L:source.yaml -comment, L:source.json -comment');
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8'));
    const contributed = manifest.contributes.grammars.find((g: { scopeName: string }) => g.scopeName === grammar.scopeName);
    assert.deepEqual(contributed.injectTo, ['source.yaml', 'source.json']);
  });

  test('marks YAML short forms, not look-alikes', () => {
    assert.deepEqual(matches('short-form-tag', 'VpcId: !Ref Network\nArn: !GetAtt Role.Arn\nX: !Sub "${AWS::Region}"\nY: !Refs x\nZ: a!Ref'), ['!Ref', '!GetAtt', '!Sub']);
  });

  test('marks every short form the parser reads, Fn::GetStackOutput and the Rules functions included', () => {
    const tags = [...SHORT_FORM_KEYS.keys()];
    assert.deepEqual(matches('short-form-tag', tags.map((tag) => `X: ${tag} a`).join('\n')), tags);
    assert.deepEqual(matches('short-form-tag', 'Vpc: !GetStackOutput\n  StackName: P\nA: !ValueOfAll [x, y]\nB: !GetStackOutputs x'), ['!GetStackOutput', '!ValueOfAll']);
  });

  test('marks long-form function keys in YAML and JSON', () => {
    assert.deepEqual(matches('yaml-function-key', 'VpcId:\n  Ref: Network\nArn: {Fn::GetAtt: [Role, Arn]}\nRefX: 1\n- Fn::ForEach::Topics: x'), ['Ref', 'Fn::GetAtt', 'Fn::ForEach::Topics']);
    assert.deepEqual(matches('json-function-key', '{"VpcId": {"Ref": "Network"}, "A": {"Fn::Join": ["", []]}, "Ref": 1, "x": "Ref"}'), ['Ref', 'Fn::Join', 'Ref']);
    assert.deepEqual(matches('yaml-function-key', 'Vpc:\n  Fn::GetStackOutput:\n    StackName: P'), ['Fn::GetStackOutput']);
    assert.deepEqual(matches('json-function-key', '{"Vpc": {"Fn::GetStackOutput": {"StackName": "P"}}}'), ['Fn::GetStackOutput']);
  });

  test('marks pseudo parameters inside Ref targets and Sub strings', () => {
    assert.deepEqual(matches('pseudo-parameter', 'R: !Ref AWS::Region\nS: !Sub "arn:${AWS::Partition}:s3:::b-${AWS::AccountId}"\nT: AWS::S3::Bucket'), [
      'AWS::Region',
      'AWS::Partition',
      'AWS::AccountId',
    ]);
  });
});
