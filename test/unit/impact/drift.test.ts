/**
 * docs/update-rules.md#drift at the engine: drift as data in, what the update does to it out.
 * The faces (CLI, editor) are held to the same rules through the local endpoint in
 * test/unit/cli/diffDrift.test.ts and test/lsp/drift.test.ts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDrift, StackDrift } from '../../../server/src/cloudformation/drift';
import { analyzeUpdate } from '../../../server/src/impact';
import { editSiteLensTitle } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();
const checkedAt = Date.UTC(2026, 11, 3, 9);

const template = (memory: string) => `Parameters:
  Memory:
    Type: Number
    Default: ${memory}
Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::111122223333:role/web
      Code:
        ZipFile: exports.handler = async () => 1
      MemorySize: !Ref Memory
`;

function drift(...resources: ResourceDrift[]): StackDrift {
  return { status: 'DRIFTED', checkedAt, resources: new Map(resources.map((r) => [r.logicalId, r])) };
}

const memoryRaised: ResourceDrift = { logicalId: 'Fn', status: 'MODIFIED', checkedAt, lastUpdated: checkedAt - 1000, differences: [{ path: '/MemorySize', expected: '256', actual: '512', difference: 'NOT_EQUAL' }] };

describe('drift, at the engine', () => {
  test('an edit of a parameter whose change overwrites drift says so on its own lens', () => {
    const { report } = analyzeUpdate({ text: template('256') }, { text: template('384') }, { spec, drift: drift(memoryRaised) });
    const site = report.editSites?.find((s) => s.name === 'Memory');
    assert.ok(site, JSON.stringify(report.editSites));
    assert.deepEqual(site.effects.map((e) => [e.logicalId, e.overwritesDrift]), [['Fn', ['MemorySize']]]);
    assert.equal(editSiteLensTitle(site), '✎ updates Fn · overwrites drift on Fn');
    // A parameter's value is a string, rendered as the engine renders values.
    assert.deepEqual(report.changes[0]!.drift?.map((e) => [e.kind, e.live, e.next]), [['overwritten', '512', '"384"']]);
  });

  test('without a drift detection, nothing is said of drift: the report is the two-way comparison', () => {
    const { report } = analyzeUpdate({ text: template('256') }, { text: template('384') }, { spec, drift: { status: 'NOT_CHECKED', resources: new Map() } });
    assert.equal(report.changes[0]!.drift, undefined);
    assert.deepEqual(report.diagnostics.filter((d) => d.code.startsWith('drift')), []);
    assert.deepEqual(report.notes, []);
  });

  test('REVERT_DRIFT of a stack never checked knows of nothing to set back, and says so', () => {
    const { report } = analyzeUpdate({ text: template('256') }, { text: template('256') }, { spec, drift: { status: 'NOT_CHECKED', resources: new Map() }, revertDrift: true });
    assert.equal(report.status, 'noop');
    assert.deepEqual(report.notes.map((n) => n.kind), ['drift-never-checked']);
  });

  test('REVERT_DRIFT of an unchanged template: the drifted property is set back from its live value, and the stack is updated', () => {
    const { report } = analyzeUpdate({ text: template('256') }, { text: template('256') }, { spec, drift: drift(memoryRaised), revertDrift: true });
    assert.equal(report.status, 'update');
    assert.equal(report.message, undefined);
    const fn = report.changes[0]!;
    assert.deepEqual([fn.logicalId, fn.action, fn.impact], ['Fn', 'Modify', 'no-interruption']);
    assert.deepEqual(fn.details.map((d) => [d.target.path, d.target.beforeValue, d.target.afterValue, d.target.beforeValueFrom]), [['/Properties/MemorySize', '512', '"256"', 'ACTUAL_STATE']]);
  });

  test("REVERT_DRIFT of a template whose parameter now gives the live value: only the drift is reset (a parameter's \"512\" is the live 512)", () => {
    const { report } = analyzeUpdate({ text: template('256') }, { text: template('512') }, { spec, drift: drift(memoryRaised), revertDrift: true });
    const fn = report.changes[0]!;
    assert.equal(fn.impact, 'none');
    assert.equal(fn.syncWithActual, true);
    assert.deepEqual(fn.drift?.map((e) => e.kind), ['synced']);
    assert.deepEqual(fn.details.filter((d) => d.target.path === '/Properties/MemorySize').map((d) => d.target.attributeChangeType), ['SyncWithActual', 'SyncWithActual']);
  });
});
