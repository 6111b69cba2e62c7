/**
 * Dynamic references (docs/update-rules.md#dynamic-references): a change set compares
 * `{{resolve:...}}` as text, so a new value stored behind one is not deployed on its own; a
 * resource updated for another reason may resolve its references again, and the new value go live
 * with that update. An update says so; a resource left as it is says nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { changeReason } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { FUNCTION_REFERENCES, functionWithReferences } from '../../fixtures/dynamicReferences';

const spec = loadResourceSpec();

const template = (memory: number) => functionWithReferences(memory);

function impact(before: string, after: string): ImpactReport {
  return analyzeUpdate({ text: before }, { text: after }, { spec, stackName: 'app' }).report;
}

describe('dynamic references read anew by an update', () => {
  test('a function updated for its memory reads its references anew: the change lists them, and its reason says so', () => {
    const report = impact(template(128), template(256));
    assert.equal(report.status, 'update');
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Fn']);
    const fn = report.changes[0]!;
    assert.deepEqual(fn.dynamicReferences, FUNCTION_REFERENCES);
    assert.equal(
      changeReason(fn, new Set()),
      'MemorySize changed; updated, it resolves {{resolve:ssm:/app/version}}, {{resolve:secretsmanager:db-credentials:SecretString:password}} again: values stored there since the last deployment may go live with it',
    );
  });

  test('the same template is a no-op: nothing is read anew, and nothing says so', () => {
    const report = impact(template(128), template(128));
    assert.equal(report.status, 'noop');
    assert.deepEqual(report.changes, []);
  });

  test('a resource the update does not touch keeps its references unread, and is not listed', () => {
    const report = impact(template(128), template(256));
    assert.equal(report.changes.find((c) => c.logicalId === 'Queue'), undefined);
  });

  test('a reference inside a longer string is found, and one reference is said in the singular', () => {
    const report = impact(template(128), functionWithReferences(128, 'work'));
    const queue = report.changes.find((c) => c.logicalId === 'Queue')!;
    assert.deepEqual(queue.dynamicReferences, ['{{resolve:ssm:/app/image}}']);
    assert.match(changeReason(queue, new Set()), /; updated, it resolves \{\{resolve:ssm:\/app\/image\}\} again: a value stored there since the last deployment may go live with it$/);
  });
});
