/**
 * Exports in use and imports resolved (docs/update-rules.md#exports-in-use,
 * docs/update-rules.md#cross-stack-values). The engine never calls AWS: what the account holds
 * (the Region's exports, who imports an export, other stacks' outputs) is passed in as data, as
 * the CLI and the language server read it. CloudFormation fails an update that changes or deletes
 * an export another stack imports ("Export … cannot be updated as it is in use by …", "Export …
 * cannot be deleted as it is in use by …"); outputs alone never make an update.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, type AnalyzeOptions } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { diagnosticText, verdictMessage } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function impact(oldText: string, newText: string, crossStack?: AnalyzeOptions['crossStack']): ImpactReport {
  return analyzeUpdate({ text: oldText }, { text: newText }, { spec, ...(crossStack ? { crossStack } : {}) }).report;
}

const network = (cidr: string, outputs = '  VpcId:\n    Value: !Ref Vpc\n    Export: { Name: shared-vpc-id }\n') => `Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: ${cidr}
Outputs:
${outputs}`;

describe('exports that change', () => {
  test('without an account, an export whose value changes (its VPC is replaced) is a warning at the Export', () => {
    const report = impact(network('10.0.0.0/16'), network('10.1.0.0/16'));
    assert.deepEqual(report.risks, [{ kind: 'export-changes', export: 'shared-vpc-id', output: 'VpcId', change: 'modified' }]);
    const warning = report.diagnostics.find((d) => d.code === 'export-changes');
    assert.equal(warning?.severity, 'warning');
    assert.match(diagnosticText(warning!), /^Export shared-vpc-id \(output VpcId\) changes value: if another stack imports it, CloudFormation fails the update/);
  });

  test('an export removed with a resource change is a risk; an output that only moves its export is not there to change', () => {
    const report = impact(network('10.0.0.0/16'), network('10.1.0.0/16', '  VpcId:\n    Value: !Ref Vpc\n'));
    assert.deepEqual(report.risks, [{ kind: 'export-changes', export: 'shared-vpc-id', output: 'VpcId', change: 'removed' }]);
  });

  test('an export that keeps its value, while another resource changes, is no risk', () => {
    const withTopic = (name: string) => network('10.0.0.0/16') .replace('Outputs:', `  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: ${name}\nOutputs:`);
    const report = impact(withTopic('a'), withTopic('b'));
    assert.equal(report.status, 'update');
    assert.equal(report.risks, undefined);
  });

  test('an export changed with no resource change is a no-op: outputs alone make no update', () => {
    const report = impact(network('10.0.0.0/16'), network('10.0.0.0/16', '  VpcId:\n    Value: other\n    Export: { Name: shared-vpc-id }\n'));
    assert.equal(report.status, 'noop');
    assert.equal(report.risks, undefined);
  });

  test('with the account read, an imported export that changes is export-in-use naming the importer, and the verdict says the update will fail', () => {
    const importsByExport = new Map([['shared-vpc-id', ['app-stack']]]);
    const report = impact(network('10.0.0.0/16'), network('10.1.0.0/16'), { importsByExport });
    assert.deepEqual(report.risks, [{ kind: 'export-in-use', export: 'shared-vpc-id', output: 'VpcId', change: 'modified', importedBy: ['app-stack'] }]);
    const error = report.diagnostics.find((d) => d.code === 'export-in-use');
    assert.equal(error?.severity, 'error');
    assert.equal(diagnosticText(error!), 'Export shared-vpc-id cannot be updated as it is in use by app-stack: the update will fail and roll back (output VpcId).');
    assert.equal(verdictMessage(report), '1 modify (1 replace) · will fail: export shared-vpc-id is in use');
  });

  test('with the account read, a removed export in use is worded as CloudFormation fails its deletion', () => {
    const importsByExport = new Map([['shared-vpc-id', ['app-stack', 'web-stack']]]);
    const report = impact(network('10.0.0.0/16'), network('10.1.0.0/16', '  VpcId:\n    Value: !Ref Vpc\n'), { importsByExport });
    const error = report.diagnostics.find((d) => d.code === 'export-in-use');
    assert.equal(diagnosticText(error!), 'Export shared-vpc-id cannot be deleted as it is in use by app-stack, web-stack: the update will fail and roll back (output VpcId).');
  });

  test('with the account read, an export nobody imports may change: no risk', () => {
    const report = impact(network('10.0.0.0/16'), network('10.1.0.0/16'), { importsByExport: new Map() });
    assert.equal(report.risks, undefined);
    assert.equal(report.diagnostics.filter((d) => d.code.startsWith('export-')).length, 0);
  });
});

describe('cross-stack values', () => {
  const consumer = (cidr: string) => `Resources:
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !ImportValue shared-vpc-id
      CidrBlock: ${cidr}
  Peer:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !GetStackOutput { StackName: network, OutputName: VpcId }
      CidrBlock: 10.0.9.0/24
`;

  test('without an account, an import is a deploy-time value: naming another export is a change of which only the names are known', () => {
    const report = impact(consumer('10.0.1.0/24'), consumer('10.0.1.0/24').replace('shared-vpc-id', 'other-vpc-id'));
    const detail = report.changes.find((c) => c.logicalId === 'Subnet')?.details.find((d) => d.target.path === '/Properties/VpcId');
    assert.deepEqual([detail?.target.beforeValue, detail?.target.afterValue], ['!ImportValue shared-vpc-id', '!ImportValue other-vpc-id']);
  });

  test('with the Region\'s exports read, Fn::ImportValue is the exported value: naming another export with the same value changes nothing', () => {
    const exports = new Map([
      ['shared-vpc-id', 'vpc-0a1b2c3d'],
      ['other-vpc-id', 'vpc-0a1b2c3d'],
    ]);
    const report = impact(consumer('10.0.1.0/24'), consumer('10.0.1.0/24').replace('shared-vpc-id', 'other-vpc-id'), { exports });
    assert.equal(report.status, 'noop');
  });

  test('with the Region\'s exports read, an import that names an export with another value is a Static change showing both values', () => {
    const exports = new Map([
      ['shared-vpc-id', 'vpc-0a1b2c3d'],
      ['other-vpc-id', 'vpc-9f8e7d6c'],
    ]);
    const report = impact(consumer('10.0.1.0/24'), consumer('10.0.1.0/24').replace('shared-vpc-id', 'other-vpc-id'), { exports });
    const subnet = report.changes.find((c) => c.logicalId === 'Subnet');
    assert.equal(subnet?.impact, 'replacement');
    assert.deepEqual(
      subnet?.details.map((d) => [d.evaluation, d.target.beforeValue, d.target.afterValue]),
      [['Static', '"vpc-0a1b2c3d"', '"vpc-9f8e7d6c"']],
    );
  });

  test('with the other stack\'s outputs read, Fn::GetStackOutput is the output\'s current value', () => {
    const stackOutputs = new Map([['network', new Map([['VpcId', 'vpc-0a1b2c3d']])]]);
    const before = consumer('10.0.1.0/24');
    const after = before.replace('OutputName: VpcId }', 'OutputName: VpcId }\n    Metadata: { owner: net }');
    const { before: evaluated } = analyzeUpdate({ text: before }, { text: after }, { spec, crossStack: { stackOutputs } });
    const peer = evaluated.resources.get('Peer')?.properties as Record<string, unknown>;
    assert.equal(peer.VpcId, 'vpc-0a1b2c3d');
    // Resolved, the output is no longer a value "not visible here".
    assert.equal(evaluated.notes.some((n) => n.kind === 'stack-output-read-at-update'), false);
  });
});
