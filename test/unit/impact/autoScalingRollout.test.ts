/**
 * What an Auto Scaling group's update does to its instances (docs/update-rules.md#group-instances).
 * Expectations come from the AWS page of the `UpdatePolicy` attribute (which changes start a
 * rolling or replacing update, which an instance refresh, the policies' defaults, and
 * `WillReplace` taking precedence) and from the Auto Scaling API reference ("Existing instances
 * continue to run with the configuration that they were originally launched with").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { UpdateRollout } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

/** The group's rollout when `before` becomes `after`; fails when the group is not updated. */
function groupRollout(before: string, after: string): UpdateRollout | undefined {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  assert.equal(report.status, 'update', report.message);
  const group = report.changes.find((c) => c.logicalId === 'Group');
  assert.ok(group, 'expected a change for Group');
  return group.rollout;
}

/** A group launched from a template's latest version, under `policy` (the attribute's lines). */
const stack = (policy: string) => `Resources:
  Launch:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData:
        ImageId: ami-11111111
        InstanceType: t3.micro
  Group:
    Type: AWS::AutoScaling::AutoScalingGroup
${policy}    Properties:
      MinSize: '2'
      MaxSize: '6'
      VPCZoneIdentifier: [subnet-1, subnet-2]
      LaunchTemplate:
        LaunchTemplateId: !Ref Launch
        Version: !GetAtt Launch.LatestVersionNumber
`;

/** A new image: a new version of the launch template, which the group then names. */
const newImage = (text: string) => text.replace('ami-11111111', 'ami-22222222');

const rolling = (lines: string) => `    UpdatePolicy:\n      AutoScalingRollingUpdate:${lines === '' ? ' {}' : ''}\n${lines}`;

describe('a change that starts a rolling update replaces the instances in batches', () => {
  test('a new launch template version: batches of 2, 1 kept in service, PauseTime PT5M by default when it waits for signals', () => {
    const before = stack(rolling('        MaxBatchSize: 2\n        MinInstancesInService: 1\n        WaitOnResourceSignals: true\n'));
    assert.deepEqual(groupRollout(before, newImage(before)), { kind: 'rolling-update', maxBatchSize: 2, minInstancesInService: 1, pauseTime: 'PT5M', waitsForSignals: true });
  });

  test('with nothing written: one instance at a time, none kept in service, no pause', () => {
    const before = stack(rolling(''));
    assert.deepEqual(groupRollout(before, newImage(before)), { kind: 'rolling-update', maxBatchSize: 1, minInstancesInService: 0, waitsForSignals: false });
  });

  test('new subnets start one too (VPCZoneIdentifier); a new maximum size does not', () => {
    const before = stack(rolling('        PauseTime: PT2M\n'));
    assert.deepEqual(groupRollout(before, before.replace('[subnet-1, subnet-2]', '[subnet-1, subnet-3]')), {
      kind: 'rolling-update',
      maxBatchSize: 1,
      minInstancesInService: 0,
      pauseTime: 'PT2M',
      waitsForSignals: false,
    });
    assert.equal(groupRollout(before, before.replace("MaxSize: '6'", "MaxSize: '8'")), undefined);
  });
});

describe('the other policies', () => {
  test('AutoScalingReplacingUpdate with WillReplace: true replaces the whole group, before a rolling update also written', () => {
    const policy = '    UpdatePolicy:\n      AutoScalingReplacingUpdate:\n        WillReplace: true\n      AutoScalingRollingUpdate:\n        MaxBatchSize: 2\n';
    const before = stack(policy);
    assert.deepEqual(groupRollout(before, newImage(before)), { kind: 'replacing-update' });
    const notReplacing = stack(policy.replace('WillReplace: true', 'WillReplace: false'));
    assert.equal(groupRollout(notReplacing, newImage(notReplacing))?.kind, 'rolling-update');
  });

  test('a WillReplace only deploy-time values decide leaves the report silent on the instances', () => {
    const decided = (text: string) => `Parameters:\n  Env: { Type: String }\nConditions:\n  Prod: !Equals [!Ref Env, prod]\n${text}`;
    const before = decided(stack('    UpdatePolicy:\n      AutoScalingReplacingUpdate:\n        WillReplace: !If [Prod, true, false]\n'));
    assert.equal(groupRollout(before, newImage(before)), undefined);
  });

  test('AutoScalingInstanceRefresh: a new mixed instances policy starts an instance refresh, with its strategy, minimum and alarms', () => {
    const policy = `    UpdatePolicy:
      AutoScalingInstanceRefresh:
        Strategy: Rolling
        Preferences:
          MinHealthyPercentage: 90
          AlarmSpecification:
            Alarms: [errors, latency]
`;
    const mixed = (type: string) =>
      stack(policy).replace(
        '      LaunchTemplate:\n        LaunchTemplateId: !Ref Launch\n        Version: !GetAtt Launch.LatestVersionNumber\n',
        `      MixedInstancesPolicy:\n        LaunchTemplate:\n          LaunchTemplateSpecification: { LaunchTemplateId: !Ref Launch, Version: '1' }\n          Overrides: [{ InstanceType: ${type} }]\n`,
      );
    assert.deepEqual(groupRollout(mixed('t3.micro'), mixed('t3.small')), { kind: 'instance-refresh', strategy: 'Rolling', minHealthyPercentage: 90, alarms: 2 });
  });
});

describe('without a policy that replaces them, the running instances keep their configuration', () => {
  test('a new launch template version reaches only the instances launched from now on', () => {
    const before = stack('');
    assert.deepEqual(groupRollout(before, newImage(before)), { kind: 'instances-kept' });
  });

  test('a policy for scheduled actions alone replaces nothing either', () => {
    const before = stack('    UpdatePolicy:\n      AutoScalingScheduledAction:\n        IgnoreUnmodifiedGroupSizeProperties: true\n');
    assert.deepEqual(groupRollout(before, newImage(before)), { kind: 'instances-kept' });
  });

  test('new subnets without a policy say nothing of the instances: only a new configuration is kept from them', () => {
    const before = stack('');
    assert.equal(groupRollout(before, before.replace('[subnet-1, subnet-2]', '[subnet-1, subnet-3]')), undefined);
  });

  test('a group replaced (a new AutoScalingGroupName) is a new group, whose instances are all new', () => {
    const named = (name: string) => stack('').replace("      MinSize: '2'\n", `      AutoScalingGroupName: ${name}\n      MinSize: '2'\n`);
    assert.equal(groupRollout(named('web'), newImage(named('web-2'))), undefined);
  });
});
