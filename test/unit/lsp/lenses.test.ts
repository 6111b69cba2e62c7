// The lenses a person reads: what becomes of the data on a replacement under each policy, and of
// none on a stateless one (docs/update-rules.md#data-loss); and no lens longer than 90
// characters, over the suites' templates and edits (the README's promise: the lens says the one
// thing that matters, the hover the rest).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeUpdate } from '../../../server/src/impact';
import { LENS_MAX_LENGTH } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { buildCodeLenses } from '../../../server/src/lsp/codeLens';
import { encodeOutline, readOutline } from '../../../server/src/lsp/worker/outline';
import { ordersTable } from '../../fixtures/changedValues';
import { functionWithReferences } from '../../fixtures/dynamicReferences';
import { committedNetwork, editedNetwork } from '../../fixtures/editedNetwork';
import { CORPUS, ONE_LINE_EDITS, corpusSkip } from '../../fixtures/realTemplates';
import { GOV_CLOUD_ONLY, imageByRegion } from '../../fixtures/regionalTemplates';
import { committedSamApp, editedSamApp } from '../../fixtures/samHelloWorld';
import { sizedInstance } from '../../fixtures/sizedInstance';

const spec = loadResourceSpec();

/** Every lens title for `after` analysed against `before`. */
function lensTitles(before: string, after: string, region?: string): { line: string; title: string }[] {
  const analysed = analyzeUpdate({ text: before }, { text: after }, { spec, ...(region ? { region } : {}) });
  const document = TextDocument.create('file:///stack.yaml', 'yaml', 1, after);
  const lines = after.split('\n');
  return buildCodeLenses(document, readOutline(encodeOutline(analysed.after)), analysed.report, 'HEAD').map((lens) => ({ line: lines[lens.range.start.line] ?? '', title: lens.command?.title ?? '' }));
}

const lensOn = (lenses: { line: string; title: string }[], line: string) => lenses.filter((lens) => lens.line === line).map((lens) => lens.title);

describe('what a replacement does to data, on its lens', () => {
  const table = (policy: string, key: string) => ordersTable(key, policy);
  const replaced = (policy: string) => lensOn(lensTitles(table(policy, 'id'), table(policy, 'orderId')), '  Orders:');

  test('no policy (Delete): the old table is deleted with its items', () => {
    assert.deepEqual(replaced(''), ['⟳ Replace — KeySchema changed · data lost']);
  });

  test('UpdateReplacePolicy: Retain (the CDK default): the old table is kept with its items, the new one starts empty', () => {
    assert.deepEqual(replaced('    UpdateReplacePolicy: Retain\n'), ['⟳ Replace — KeySchema changed · old table kept · new one empty']);
  });

  test('UpdateReplacePolicy: Snapshot on a type that supports it: snapshotted, and the new one starts empty', () => {
    const instance = (name: string) => `Resources:
  Db:
    Type: AWS::RDS::DBInstance
    UpdateReplacePolicy: Snapshot
    Properties:
      Engine: mysql
      DBInstanceClass: db.t3.micro
      DBName: ${name}
`;
    assert.deepEqual(lensOn(lensTitles(instance('shop'), instance('orders')), '  Db:'), ['⟳ Replace — DBName changed · old database instance snapshotted · new one empty']);
  });

  test('a stateless resource says nothing of data', () => {
    const topic = (name: string) => `Resources:\n  Alerts:\n    Type: AWS::SNS::Topic\n    UpdateReplacePolicy: Retain\n    Properties:\n      TopicName: ${name}\n`;
    assert.deepEqual(lensOn(lensTitles(topic('alerts'), topic('alarms')), '  Alerts:'), ['⟳ Replace — TopicName changed']);
  });
});

describe("a change's causes on its lens", () => {
  test('a property that follows several replaced resources names them together, once', () => {
    const app = (key: string) => `Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    UpdateReplacePolicy: Retain
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: ${key}, AttributeType: S }]
      KeySchema: [{ AttributeName: ${key}, KeyType: HASH }]
  Data:
    Type: AWS::DynamoDB::Table
    UpdateReplacePolicy: Retain
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: ${key}, AttributeType: S }]
      KeySchema: [{ AttributeName: ${key}, KeyType: HASH }]
  Handler:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::123456789012:role/app
      Code: { ZipFile: "exports.handler = async () => 1" }
      Environment:
        Variables:
          ORDERS: !Ref Orders
          DATA: !Ref Data
`;
    assert.deepEqual(lensOn(lensTitles(app('id'), app('pk')), '  Handler:'), ['✎ Update (no interruption) — Environment ← Orders, Data replaced']);
  });
});

describe('no lens is longer than 90 characters', () => {
  const pairs: [string, string, string][] = [
    ['an edited network', committedNetwork, editedNetwork],
    ['a SAM app', committedSamApp, editedSamApp],
    ['a lookup by an unknown size', sizedInstance('m5.large'), sizedInstance('m5.xlarge')],
    ['a lookup by an unknown Region', imageByRegion('ami-22222222'), imageByRegion('ami-33333333')],
    ['a GovCloud template', GOV_CLOUD_ONLY, GOV_CLOUD_ONLY.replace('t3.small', 't3.medium')],
    ['a function with dynamic references', functionWithReferences(128), functionWithReferences(256, 'tasks')],
  ];

  test(`in the suites' own fixtures (${LENS_MAX_LENGTH} characters at most)`, () => {
    for (const [name, before, after] of pairs) {
      const long = lensTitles(before, after).filter((lens) => lens.title.length > LENS_MAX_LENGTH);
      assert.deepEqual(long, [], name);
    }
  });

  test('in the one-line edits of real templates', { skip: corpusSkip }, () => {
    for (const edit of ONE_LINE_EDITS) {
      const text = readFileSync(join(CORPUS, edit.file), 'utf8');
      const long = lensTitles(text, text.replace(edit.from, edit.to)).filter((lens) => lens.title.length > LENS_MAX_LENGTH);
      assert.deepEqual(long, [], edit.file);
    }
  });
});
