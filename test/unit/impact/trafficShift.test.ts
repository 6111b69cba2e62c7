/**
 * Gradual Lambda deployments (docs/update-rules.md#traffic-shift): an alias under a
 * `CodeDeployLambdaAliasUpdate` update policy that moves to another version is not pointed at it by
 * CloudFormation; CodeDeploy shifts its traffic as the deployment group's configuration says, and
 * the stack update waits for that deployment. Expectations come from the AWS page of the
 * `UpdatePolicy` attribute ("CloudFormation can perform a CodeDeploy deployment when the version
 * changes on the alias") and CodeDeploy's predefined Lambda configurations.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function aliasChange(before: string, after: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  assert.equal(report.status, 'update', report.message);
  const found = report.changes.find((c) => c.logicalId === 'Live');
  assert.ok(found, 'expected a change for Live');
  return found;
}

/** A function's `live` alias at version 3, under `policy` (the attribute's lines), beside `more` resources. */
const stack = (policy: string, more = '') => `Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      Handler: index.handler
      Runtime: nodejs20.x
      Role: arn:aws:iam::123456789012:role/app
      Code: { S3Bucket: artifacts, S3Key: app.zip }
  Live:
    Type: AWS::Lambda::Alias
${policy}    Properties:
      FunctionName: !Ref Fn
      FunctionVersion: '3'
      Name: live
      Description: current
  App:
    Type: AWS::CodeDeploy::Application
    Properties:
      ComputePlatform: Lambda
${more}`;

const groupPolicy = `    UpdatePolicy:
      CodeDeployLambdaAliasUpdate:
        ApplicationName: !Ref App
        DeploymentGroupName: !Ref Group
        BeforeAllowTrafficHook: CodeDeployHook_checks
`;

/** A deployment group of the template, with `config` as its DeploymentConfigName and `alarms` its alarm lines. */
const group = (config: string, alarms = '') => `  Group:
    Type: AWS::CodeDeploy::DeploymentGroup
    Properties:
      ApplicationName: !Ref App
      ServiceRoleArn: arn:aws:iam::123456789012:role/codedeploy
      DeploymentConfigName: ${config}
      DeploymentStyle: { DeploymentType: BLUE_GREEN, DeploymentOption: WITH_TRAFFIC_CONTROL }
${alarms}`;

const twoAlarms = `      AlarmConfiguration:
        Enabled: true
        Alarms: [{ Name: errors }, { Name: latency }]
`;

const nextVersion = (text: string) => text.replace("FunctionVersion: '3'", "FunctionVersion: '4'");

describe('an alias under CodeDeployLambdaAliasUpdate that moves to another version is a CodeDeploy deployment', () => {
  test('a predefined canary: 10 % for 5 minutes, then all; the hook and the two alarms of the group can stop it', () => {
    const before = stack(groupPolicy, group('CodeDeployDefault.LambdaCanary10Percent5Minutes', twoAlarms));
    const live = aliasChange(before, nextVersion(before));
    assert.equal(live.impact, 'no-interruption');
    assert.deepEqual(live.rollout, {
      kind: 'traffic-shift',
      deploymentGroup: 'Group',
      config: { name: 'CodeDeployDefault.LambdaCanary10Percent5Minutes', routing: { type: 'canary', percent: 10, minutes: 5 } },
      hooks: { beforeTraffic: 'CodeDeployHook_checks' },
      alarms: 2,
    });
  });

  test('a configuration the template declares: its TrafficRoutingConfig says how traffic moves (20 % more every 3 minutes)', () => {
    const config = `  Steps:
    Type: AWS::CodeDeploy::DeploymentConfig
    Properties:
      ComputePlatform: Lambda
      TrafficRoutingConfig:
        Type: TimeBasedLinear
        TimeBasedLinear: { LinearPercentage: 20, LinearInterval: 3 }
`;
    const before = stack(groupPolicy, group('!Ref Steps') + config);
    const live = aliasChange(before, nextVersion(before));
    assert.deepEqual(live.rollout, {
      kind: 'traffic-shift',
      deploymentGroup: 'Group',
      config: { name: 'Steps', routing: { type: 'linear', percent: 20, minutes: 3 } },
      hooks: { beforeTraffic: 'CodeDeployHook_checks' },
      alarms: 0,
    });
  });

  test('a deployment group the template does not declare is named; how it moves traffic is its own, unknown here', () => {
    const policy = groupPolicy.replace('!Ref Group', 'orders-live').replace('        BeforeAllowTrafficHook: CodeDeployHook_checks\n', '');
    const before = stack(policy);
    assert.deepEqual(aliasChange(before, nextVersion(before)).rollout, { kind: 'traffic-shift', deploymentGroup: 'orders-live', hooks: {} });
  });

  test('the new template\'s policy is the one applied: added in the same update as the new version, it deploys that version', () => {
    const before = stack('', group('CodeDeployDefault.LambdaAllAtOnce'));
    const after = nextVersion(stack(groupPolicy, group('CodeDeployDefault.LambdaAllAtOnce')));
    const rollout = aliasChange(before, after).rollout;
    assert.equal(rollout?.kind, 'traffic-shift');
    assert.deepEqual(rollout.config, { name: 'CodeDeployDefault.LambdaAllAtOnce', routing: { type: 'all-at-once' } });
  });
});

describe('what is not a CodeDeploy deployment', () => {
  test('an alias with no such policy moves to the new version itself', () => {
    const before = stack('', group('CodeDeployDefault.LambdaCanary10Percent5Minutes'));
    assert.equal(aliasChange(before, nextVersion(before)).rollout, undefined);
  });

  test('an alias that keeps its version (a new description) is updated without a deployment', () => {
    const before = stack(groupPolicy, group('CodeDeployDefault.LambdaCanary10Percent5Minutes'));
    assert.equal(aliasChange(before, before.replace('Description: current', 'Description: next')).rollout, undefined);
  });

  test('an alias replaced (a new Name) is a new alias at that version, which CodeDeploy does not deploy', () => {
    const before = stack(groupPolicy, group('CodeDeployDefault.LambdaCanary10Percent5Minutes'));
    const live = aliasChange(before, nextVersion(before).replace('Name: live', 'Name: current'));
    assert.equal(live.impact, 'replacement');
    assert.equal(live.rollout, undefined);
  });
});
