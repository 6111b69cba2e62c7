/**
 * An EC2 instance's new user data (docs/update-rules.md#user-data). Expectations come from the AWS
 * page of AWS::EC2::Instance (UserData: "Update requires: Some interruptions", a stop and a start
 * for an EBS-backed instance) and the EC2 User Guide ("By default, user data scripts and
 * cloud-init directives run only during the boot cycle when you first launch an instance").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function boxChange(before: string, after: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const box = report.changes.find((c) => c.logicalId === 'Box');
  assert.ok(box, `expected a change for Box (${report.status})`);
  return box;
}

const box = (script: string, type = 't3.micro') => `Resources:
  Box:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-12345678
      InstanceType: ${type}
      UserData: !Base64 "#!/bin/bash\\n${script}\\n"
`;

describe('new user data restarts the instance and, by default, does not run', () => {
  test('a new script: an update with some interruption, whose new script does not run by default', () => {
    const change = boxChange(box('echo one'), box('echo two'));
    assert.equal(change.impact, 'some-interruption');
    assert.deepEqual(change.rollout, { kind: 'user-data-not-rerun' });
  });

  test('the change is shown decoded, at the first line of the script that differs', () => {
    const [detail] = boxChange(box('echo one'), box('echo two')).details;
    assert.deepEqual(detail?.target.changedLine, { line: 2, before: 'echo one', after: 'echo two' });
    assert.match(detail?.target.beforeValue ?? '', /^"IyEv/);
  });

  test('a script with Windows line ends is shown without them', () => {
    const crlf = (script: string) => box('x').replace(/UserData: .*/, `UserData: ${Buffer.from(`<powershell>\r\n${script}\r\n</powershell>`).toString('base64')}`);
    assert.deepEqual(boxChange(crlf('Write-Output one'), crlf('Write-Output two')).details[0]?.target.changedLine, { line: 2, before: 'Write-Output one', after: 'Write-Output two' });
  });

  test('user data that is not base64 text (given as written, or binary) keeps its values as they are', () => {
    const raw = (script: string) => box(script).replace('!Base64 "#!/bin/bash\\n', '"#!/bin/bash\\n');
    assert.equal(boxChange(raw('echo one'), raw('echo two')).details[0]?.target.changedLine, undefined);
    const binary = (bytes: string) => box('x').replace(/UserData: .*/, `UserData: ${Buffer.from(bytes, 'latin1').toString('base64')}`);
    assert.equal(boxChange(binary('\u0001\u0002\u00ff'), binary('\u0001\u0003\u00ff')).details[0]?.target.changedLine, undefined);
  });

  test('a new instance type alone says nothing of user data', () => {
    assert.equal(boxChange(box('echo one'), box('echo one', 't3.small')).rollout, undefined);
  });

  test('a new image replaces the instance, which runs its user data at its first boot', () => {
    const change = boxChange(box('echo one'), box('echo two').replace('ami-12345678', 'ami-87654321'));
    assert.equal(change.impact, 'replacement');
    assert.equal(change.rollout, undefined);
  });
});
