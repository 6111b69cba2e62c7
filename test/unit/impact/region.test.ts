/**
 * The Region is known or unknown, never assumed (docs/update-rules.md#region). Given (a linked
 * stack's, `--region`, the editor's setting), `AWS::Region` is that Region and the partition is
 * its partition. Not given, it is a deploy-time value like the account: a lookup it keys may
 * select any entry, an edit to one entry is an update if the stack runs in that Region, and a
 * lookup fails only where no entry is there for it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, type AnalyzeOptions } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { changedValueLine, changeReason, diagnosticText, noteText } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { GOV_CLOUD_ONLY, imageByRegion } from '../../fixtures/regionalTemplates';

const spec = loadResourceSpec();

function impact(before: string, after: string, options: Omit<AnalyzeOptions, 'spec'> = {}): ImpactReport {
  return analyzeUpdate({ text: before }, { text: after }, { spec, stackName: 'app', ...options }).report;
}

function messages(report: ImpactReport, severity: 'error' | 'warning'): string[] {
  return report.diagnostics.filter((d) => d.severity === severity).map(diagnosticText);
}

describe('a template written for one Region', () => {
  test('is a no-op against itself with no Region: its only Region may be the one it runs in', () => {
    const report = impact(GOV_CLOUD_ONLY, GOV_CLOUD_ONLY);
    assert.equal(report.status, 'noop');
    assert.deepEqual(messages(report, 'error'), []);
    assert.deepEqual(messages(report, 'warning'), []);
  });

  test('is rejected in a Region its map does not serve, with the error CloudFormation gives', () => {
    const report = impact(GOV_CLOUD_ONLY, GOV_CLOUD_ONLY, { region: 'us-east-1' });
    assert.equal(report.status, 'error');
    assert.match(report.message ?? '', /Unable to get mapping for AWSAMIRegionMap::us-east-1::AWSNATHVM/);
  });

  test('deploys in the Region it serves, where the partition is aws-us-gov', () => {
    const sized = (govSize: string) => GOV_CLOUD_ONLY.replace('t3.small', govSize);
    assert.equal(impact(GOV_CLOUD_ONLY, GOV_CLOUD_ONLY, { region: 'us-gov-west-1' }).status, 'noop');
    // InGovCloud holds in us-gov-west-1: its branch is the instance's type.
    const report = impact(sized('t3.small'), sized('t3.medium'), { region: 'us-gov-west-1' });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.details.map((d) => d.target.name)]), [['NatInstance', ['InstanceType']]]);
    assert.equal(report.changes[0]!.condition, undefined);
  });

  test('a lookup no Region can satisfy is an error whatever the Region', () => {
    const report = impact(GOV_CLOUD_ONLY, GOV_CLOUD_ONLY.replace('AWSNATHVM: ami-0a1b2c3d', 'HVM64: ami-0a1b2c3d'));
    assert.equal(report.status, 'error');
    assert.deepEqual(messages(report, 'error'), ['Template error: Fn::FindInMap [AWSAMIRegionMap, !Ref AWS::Region, AWSNATHVM] selects no entry, whatever the Region is']);
  });

  test('a lookup that fails in some Regions the map lists is a warning naming them', () => {
    const withEurope = GOV_CLOUD_ONLY.replace('      AWSNATHVM: ami-0a1b2c3d\n', '      AWSNATHVM: ami-0a1b2c3d\n    eu-west-1:\n      HVM64: ami-99999999\n');
    const report = impact(withEurope, withEurope);
    assert.equal(report.status, 'noop');
    assert.deepEqual(messages(report, 'warning'), ['Fn::FindInMap [AWSAMIRegionMap, !Ref AWS::Region, AWSNATHVM] fails if the Region is eu-west-1: that entry has no AWSNATHVM']);
  });
});

describe("an edit to one Region's entry", () => {
  const before = imageByRegion('ami-22222222');
  const after = imageByRegion('ami-33333333');

  test('with no Region, is the update if the stack runs in that Region: in data and in words', () => {
    const report = impact(before, after);
    assert.equal(report.status, 'update');
    const [change] = report.changes;
    assert.deepEqual([change!.logicalId, change!.impact], ['Host', 'replacement']);
    assert.deepEqual(change!.details[0]!.when, { key: 'AWS::Region', values: ['eu-west-1'] });
    assert.equal(changedValueLine(change!.details[0]!), '/Properties/ImageId: "ami-22222222" → "ami-33333333" if the Region is eu-west-1');
    assert.match(changeReason(change!, new Set()), /^ImageId changed if the Region is eu-west-1/);
  });

  test('is a no-op in another Region', () => {
    assert.equal(impact(before, after, { region: 'us-east-1' }).status, 'noop');
  });

  test('is the replacement, unqualified, in that Region', () => {
    const report = impact(before, after, { region: 'eu-west-1' });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [['Host', 'replacement']]);
    assert.equal(report.changes[0]!.details[0]!.when, undefined);
  });
});

describe('the Region elsewhere in a template, with no Region given', () => {
  test('a condition over it is decided at deploy time: what it guards may exist', () => {
    const text = `Conditions:
  InEurope: !Equals [!Ref AWS::Region, eu-west-1]
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Condition: InEurope
    Properties:
      DelaySeconds: 5
`;
    const report = impact(text, text.replace('DelaySeconds: 5', 'DelaySeconds: 10'));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.condition]), [['Queue', 'InEurope']]);
    assert.ok(report.notes.some((n) => n.kind === 'condition-undecided' && n.condition === 'InEurope'));
    assert.equal(impact(text, text.replace('DelaySeconds: 5', 'DelaySeconds: 10'), { region: 'us-east-1' }).status, 'noop');
  });

  test('names, availability zones and ARNs read from it are the same before and after, and change only with what is written', () => {
    assert.equal(impact(GOV_CLOUD_ONLY, GOV_CLOUD_ONLY).status, 'noop');
    const renamed = impact(GOV_CLOUD_ONLY, GOV_CLOUD_ONLY.replace("'logs-${AWS::Region}'", "'archive-${AWS::Region}'"));
    assert.deepEqual(renamed.changes.map((c) => [c.logicalId, c.impact]), [['Logs', 'replacement']]);
    const zone = impact(GOV_CLOUD_ONLY, GOV_CLOUD_ONLY.replace("!Select [0, !GetAZs '']", "!Select [1, !GetAZs '']"));
    assert.deepEqual(zone.changes.map((c) => [c.logicalId, c.impact]), [['NatInstance', 'replacement']]);
  });
});

describe('a SAM template with no Region given', () => {
  const sam = (key: string) => `Transform: AWS::Serverless-2016-10-31
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri:
        Bucket: !Sub 'artifacts-\${AWS::Region}'
        Key: ${key}
      Handler: index.handler
      Runtime: nodejs20.x
      Policies: [AmazonS3ReadOnlyAccess]
`;

  test("a code bucket named after the Region is the stack's Region's, the same before and after: new code is an update", () => {
    assert.equal(impact(sam('v1.zip'), sam('v1.zip')).status, 'noop');
    const report = impact(sam('v1.zip'), sam('v2.zip'));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.details.map((d) => d.target.path)]), [['Fn', ['/Properties/Code/S3Key']]]);
  });

  test('an alias SAM names after the Region stands in by the Region\'s name, with a note that says how to give it', () => {
    const aliased = sam('v1.zip').replace('      Policies:', "      AutoPublishAlias: !Sub 'live\${AWS::Region}'\n      Policies:");
    const report = impact(aliased, aliased);
    assert.equal(report.status, 'noop');
    const note = report.notes.find((n) => n.kind === 'sam-parameter-without-value');
    assert.match(noteText(note!), /^Fn: AutoPublishAlias reads AWS::Region, known only where the stack is deployed: .* give the Region \(--region in the CLI, the cfnImpact\.analysis\.regions setting, or a linked stack\)/);
    const { after } = analyzeUpdate({ text: aliased }, { text: aliased }, { spec });
    assert.ok(after.resources.has('FnAliasliveAWSRegion'));
  });

  test("with a Region in another partition, the ARNs SAM writes are that partition's", () => {
    const { after } = analyzeUpdate({ text: sam('v1.zip') }, { text: sam('v1.zip') }, { spec, region: 'cn-north-1' });
    const role = after.resources.get('FnRole')?.properties as { ManagedPolicyArns?: unknown } | undefined;
    assert.deepEqual(role?.ManagedPolicyArns, ['arn:aws-cn:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole', 'arn:aws-cn:iam::aws:policy/AmazonS3ReadOnlyAccess']);
  });
});
