/**
 * A function's changes that no new version publishes (docs/update-rules.md#version-not-republished).
 * Expectations come from the AWS pages: "The AWS::Lambda::Version resource creates a version from
 * the current code and configuration of a function. Use versions to create a snapshot of your
 * function code and configuration that doesn't change", a version resource whose properties do
 * not change is not updated (docs/update-rules.md#no-op), and SAM's AutoPublishAlias publishes a
 * new version only when what its version id hashes changes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactDiagnostic } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { committedSamApp } from '../../fixtures/samHelloWorld';

const spec = loadResourceSpec();

function notPublished(before: string, after: string): ImpactDiagnostic[] {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  assert.notEqual(report.status, 'error', report.message);
  return report.diagnostics.filter((d) => d.code === 'version-not-republished');
}

/** A function published as `version`, which the alias `live` serves. */
const fn = (version = 'V1', reader = true) => `Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      Handler: index.handler
      Runtime: nodejs20.x
      Role: arn:aws:iam::123456789012:role/app
      Timeout: 3
      Code: { S3Bucket: artifacts, S3Key: app-v1.zip }
      Tags: [{ Key: team, Value: orders }]
  ${version}:
    Type: AWS::Lambda::Version
    Properties:
      FunctionName: !Ref Fn
${
  reader
    ? `  Live:
    Type: AWS::Lambda::Alias
    Properties:
      FunctionName: !Ref Fn
      FunctionVersion: !GetAtt ${version}.Version
      Name: live
`
    : ''
}`;

const newCode = (text: string) => text.replace('app-v1.zip', 'app-v2.zip');

describe('a change to what a version holds needs a new version', () => {
  test('new code while the version stays: a warning at the function, naming the version and the alias that keeps the old code', () => {
    const [warning, ...more] = notPublished(fn(), newCode(fn()));
    assert.equal(more.length, 0);
    assert.equal(warning?.severity, 'warning');
    assert.equal(warning?.logicalId, 'Fn');
    assert.deepEqual(warning?.finding, { kind: 'version-not-republished', functions: [{ function: 'Fn', changed: ['Code'], versions: ['V1'], readers: ['Live'] }] });
  });

  test('a setting the version holds (the timeout) is not published either', () => {
    assert.deepEqual(notPublished(fn(), fn().replace('Timeout: 3', 'Timeout: 10'))[0]?.finding, {
      kind: 'version-not-republished',
      functions: [{ function: 'Fn', changed: ['Timeout'], versions: ['V1'], readers: ['Live'] }],
    });
  });

  test('SAM: a timeout under AutoPublishAlias keeps the version (SAM does not hash it), and the warning is at the timeout, in SAM\'s terms', () => {
    const after = committedSamApp.replace('Timeout: 3', 'Timeout: 10');
    const { report } = analyzeUpdate({ text: committedSamApp }, { text: after }, { spec });
    const warning = report.diagnostics.find((d) => d.code === 'version-not-republished');
    assert.equal(warning?.finding?.kind === 'version-not-republished' && warning.finding.sam, true);
    assert.equal(warning?.range?.start, after.indexOf('Timeout: 10'));
  });
});

describe('a Globals edit every SAM function takes', () => {
  test('one warning at the Globals line for all the functions it leaves unpublished, naming each', () => {
    const two = committedSamApp.replace(
      '\nOutputs:\n',
      '\n  GoodbyeFunction:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: hello_world/\n      Handler: app.goodbye\n      Runtime: python3.12\n      AutoPublishAlias: live\n\nOutputs:\n',
    );
    const after = two.replace('Timeout: 3', 'Timeout: 10');
    const { report } = analyzeUpdate({ text: two }, { text: after }, { spec });
    const warnings = report.diagnostics.filter((d) => d.code === 'version-not-republished');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.range?.start, after.indexOf('Timeout: 10'));
    const finding = warnings[0]?.finding;
    assert.ok(finding?.kind === 'version-not-republished');
    const byName = [...finding.functions].sort((a, b) => a.function.localeCompare(b.function));
    assert.deepEqual(
      byName.map((f) => [f.function, f.changed, f.readers]),
      [
        ['GoodbyeFunction', ['Timeout'], ['GoodbyeFunctionAliaslive']],
        ['HelloWorldFunction', ['Timeout'], ['HelloWorldFunctionAliaslive']],
      ],
    );
  });
});

describe('what needs no new version', () => {
  test('a new version under a new logical id publishes the change', () => {
    assert.deepEqual(notPublished(fn(), newCode(fn('V2'))), []);
  });

  test('what a version does not hold: the function\'s tags', () => {
    assert.deepEqual(notPublished(fn(), fn().replace('Value: orders', 'Value: billing')), []);
  });

  test('a version nothing reads is kept for its own sake', () => {
    assert.deepEqual(notPublished(fn('V1', false), newCode(fn('V1', false))), []);
  });

  test('SAM: new code under AutoPublishAlias is a new version', () => {
    const after = committedSamApp.replace('CodeUri: hello_world/', 'CodeUri: hello_world_v2/');
    assert.deepEqual(notPublished(committedSamApp, after), []);
  });
});
