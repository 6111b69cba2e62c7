/**
 * A lookup keyed by a value only the deployment knows (docs/update-rules.md#lookup-entries): an
 * edit to one entry it may select changes the lookup only where the stack's key selects that
 * entry. The change carries the qualifier as data (`when`) and shows the entry that changed:
 * `InstanceType: "m5.large" → "m5.xlarge" if Size is large`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { changedValueLine, changeReason } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { sizedInstance } from '../../fixtures/sizedInstance';

const spec = loadResourceSpec();

function impact(before: string, after: string, parameters?: Record<string, string>): ImpactReport {
  const values = parameters ? { parameters } : {};
  return analyzeUpdate({ text: before, ...values }, { text: after, ...values }, { spec, stackName: 'app' }).report;
}

describe("an edit to an entry a deploy-time key selects", () => {
  test('is the entry that changed, where the key selects it: in data and in words', () => {
    const report = impact(sizedInstance('m5.large'), sizedInstance('m5.xlarge'));
    assert.equal(report.status, 'update');
    const [change] = report.changes;
    assert.deepEqual([change!.logicalId, change!.impact], ['Instance', 'some-interruption']);
    const [detail] = change!.details;
    assert.deepEqual(detail!.when, { key: 'Size', values: ['large'] });
    assert.equal(changedValueLine(detail!), '/Properties/InstanceType: "m5.large" → "m5.xlarge" if Size is large');
    assert.match(changeReason(change!, new Set()), /^InstanceType changed if Size is large/);
  });

  test('two entries changed: both keys that select them, and the lookup as a whole', () => {
    const twoChanged = (large: string, small: string) => sizedInstance(large).replace('small: { Type: t3.small }', `small: { Type: ${small} }`);
    const report = impact(twoChanged('m5.large', 't3.small'), twoChanged('m5.xlarge', 't3.medium'));
    const [detail] = report.changes[0]!.details;
    assert.deepEqual(detail!.when, { key: 'Size', values: ['small', 'large'] });
    assert.match(changedValueLine(detail!), / if Size is small or large$/);
  });

  test('with the key known, the lookup is a value: no qualifier, and no change where another entry changed', () => {
    assert.equal(impact(sizedInstance('m5.large'), sizedInstance('m5.xlarge'), { Size: 'small' }).status, 'noop');
    const large = impact(sizedInstance('m5.large'), sizedInstance('m5.xlarge'), { Size: 'large' });
    assert.equal(large.changes[0]!.details[0]!.when, undefined);
  });
});
