/**
 * The account and the stack's name (docs/update-rules.md#account-and-stack-name): they are the
 * deployed stack's, or given; otherwise each is a deploy-time value, the same before and after,
 * and a condition over it is decided at deploy time (docs/update-rules.md#undecided-conditions).
 * A nested stack's name is its own, never its parent's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, replacedIds, type AnalyzeOptions, type ChildTemplate } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { changeReason } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function impact(oldText: string, newText: string, options: Omit<AnalyzeOptions, 'spec'> = {}): ImpactReport {
  return analyzeUpdate({ text: oldText }, { text: newText }, { spec, ...options }).report;
}

/** A production bucket that only one account has, and a topic every account has, named after the account and the stack. */
const byAccount = (bucketName: string, topicName = "!Sub 'alerts-${AWS::AccountId}-${AWS::StackName}'") => `
Conditions:
  IsProd: !Equals [!Ref AWS::AccountId, '111122223333']
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Condition: IsProd
    Properties:
      BucketName: ${bucketName}
  Alerts:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: ${topicName}
`;

describe('AWS::AccountId and AWS::StackName with no stack at hand', () => {
  test('an unchanged template that reads them is a no-op', () => {
    assert.equal(impact(byAccount('prod-logs'), byAccount('prod-logs')).status, 'noop');
  });

  test("a change under a condition over the account is reported as the condition's, not dropped by an account made up", () => {
    const report = impact(byAccount('prod-logs'), byAccount('prod-logs-2'));
    assert.equal(report.status, 'update');
    const [logs] = report.changes;
    assert.deepEqual([logs.logicalId, logs.impact, logs.condition], ['Logs', 'replacement', 'IsProd']);
    assert.match(changeReason(logs, replacedIds(report.changes)), /if IsProd holds/);
  });

  test('a name built on them changes with what is written around them, and reads as the template writes them', () => {
    const report = impact(byAccount('prod-logs'), byAccount('prod-logs', "!Sub 'alarms-${AWS::AccountId}-${AWS::StackName}'"));
    const [alerts] = report.changes;
    assert.deepEqual([alerts.logicalId, alerts.impact], ['Alerts', 'replacement']);
    const detail = alerts.details.find((d) => d.target.name === 'TopicName');
    assert.equal(detail?.target.beforeValue, '"alerts-${AWS::AccountId}-${AWS::StackName}"');
    assert.equal(detail?.target.afterValue, '"alarms-${AWS::AccountId}-${AWS::StackName}"');
  });

  test('a condition over the stack name is decided at deploy time too', () => {
    const byStack = (size: number) => `
Conditions:
  IsProd: !Equals [!Ref AWS::StackName, prod-app]
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Condition: IsProd
    Properties:
      VisibilityTimeout: ${size}
`;
    const report = impact(byStack(30), byStack(60));
    assert.deepEqual(
      report.changes.map((c) => [c.logicalId, c.impact, c.condition]),
      [['Queue', 'no-interruption', 'IsProd']],
    );
  });
});

describe('a lookup keyed by the account', () => {
  const byAccountMap = (devBucket: string) => `
Mappings:
  Accounts:
    '111122223333': { Bucket: prod-artifacts }
    '444455556666': { Bucket: ${devBucket} }
Resources:
  Artifacts:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !FindInMap [Accounts, !Ref AWS::AccountId, Bucket]
`;

  test('is not rejected for an account the map does not hold: the account is not made up', () => {
    const report = impact(byAccountMap('dev-artifacts'), byAccountMap('dev-artifacts'));
    assert.equal(report.status, 'noop', report.message);
  });

  test("changes when an account's entry changes, since the stack may be in that account; not when the account is known to be another", () => {
    const report = impact(byAccountMap('dev-artifacts'), byAccountMap('dev-artifacts-2'));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [['Artifacts', 'replacement']]);
    // The entry that changed, where the stack's account is the one that selects it (docs/update-rules.md#lookup-entries).
    const detail = report.changes[0]?.details.find((d) => d.target.name === 'BucketName');
    assert.deepEqual([detail?.target.beforeValue, detail?.target.afterValue, detail?.when], ['"dev-artifacts"', '"dev-artifacts-2"', { key: 'AWS::AccountId', values: ['444455556666'] }]);
    assert.equal(impact(byAccountMap('dev-artifacts'), byAccountMap('dev-artifacts-2'), { accountId: '111122223333' }).status, 'noop');
  });
});

describe('AWS::AccountId and AWS::StackName when known', () => {
  test('the account given decides the condition: the bucket is replaced in its account, and nothing happens in another', () => {
    const inProd = impact(byAccount('prod-logs'), byAccount('prod-logs-2'), { accountId: '111122223333' });
    assert.deepEqual(
      inProd.changes.map((c) => [c.logicalId, c.impact, c.condition]),
      [['Logs', 'replacement', undefined]],
    );
    assert.equal(impact(byAccount('prod-logs'), byAccount('prod-logs-2'), { accountId: '444455556666' }).status, 'noop');
  });

  test('the values given are the ones compared', () => {
    const report = impact(byAccount('prod-logs'), byAccount('prod-logs', "!Sub 'alarms-${AWS::AccountId}-${AWS::StackName}'"), { accountId: '444455556666', stackName: 'dev-app' });
    const detail = report.changes[0]?.details.find((d) => d.target.name === 'TopicName');
    assert.equal(detail?.target.beforeValue, '"alerts-444455556666-dev-app"');
    assert.equal(detail?.target.afterValue, '"alarms-444455556666-dev-app"');
  });
});

describe("a nested stack's name", () => {
  const parent = (timeout: number) => `
Resources:
  Workers:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ./workers.yaml
      Parameters:
        ParentStackName: !Ref AWS::StackName
        Timeout: ${timeout}
`;
  // Deployed, the child's own name is the parent's, its logical id and a random suffix: never equal.
  const child = `
Parameters:
  ParentStackName: { Type: String }
  Timeout: { Type: Number }
Conditions:
  RunsAsParent: !Equals [!Ref ParentStackName, !Ref AWS::StackName]
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Condition: RunsAsParent
    Properties:
      VisibilityTimeout: !Ref Timeout
`;
  const read = (path: string): ChildTemplate => (path === 'workers.yaml' ? { text: child } : { problem: 'missing' });
  const nested = { templatePath: 'parent.yaml', readOld: read, readNew: read };

  test("is not the parent's, whether the parent's name is known or not", () => {
    for (const options of [{ nested }, { nested, stackName: 'prod-app' }]) {
      const report = impact(parent(30), parent(60), options);
      const workers = report.changes.find((c) => c.logicalId === 'Workers');
      assert.ok(workers?.nested, 'the nested stack is analysed with its child');
      assert.deepEqual(
        workers.nested.changes.map((c) => [c.logicalId, c.impact, c.condition]),
        [['Queue', 'no-interruption', 'RunsAsParent']],
        `stack name ${options.stackName ?? 'unknown'}`,
      );
    }
  });
});
