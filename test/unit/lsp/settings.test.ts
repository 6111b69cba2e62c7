// The cfnImpact settings section as a client returns it, checked before use.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSettings, readDocumentSettings } from '../../../server/src/lsp/settings';

describe('readDocumentSettings', () => {
  test('well-typed values are taken', () => {
    const section = {
      analysis: { debounceMs: 300, regions: { 'gov/*.yaml': 'us-gov-west-1' } },
      baseline: { default: 'none', links: { 'stacks/*.yaml': 'prod' } },
      parameters: { files: { 'stack.yaml': 'params/prod.json' } },
      nested: { parentTemplate: 'stacks/parent.yaml' },
      sam: { withoutSamCli: true },
      cdk: { baseline: 'main.out' },
    };
    Object.assign(section.baseline, { revertDrift: ['web', 3] });
    assert.deepEqual(readDocumentSettings(section), {
      debounceMs: 300,
      defaultBaseline: 'none',
      links: { 'stacks/*.yaml': 'prod' },
      parameterFiles: { 'stack.yaml': 'params/prod.json' },
      parentTemplate: 'stacks/parent.yaml',
      withoutSamCli: true,
      regions: { 'gov/*.yaml': 'us-gov-west-1' },
      cdkBaseline: 'main.out',
      revertDrift: ['web'],
    });
  });

  test('wrong types fall back to the defaults and the debounce is bounded', () => {
    assert.deepEqual(readDocumentSettings(null), defaultSettings);
    assert.deepEqual(readDocumentSettings({ analysis: { debounceMs: '5' }, baseline: { default: 'stack', links: ['x'] } }), defaultSettings);
    assert.equal(readDocumentSettings({ analysis: { debounceMs: 1e9 } }).debounceMs, 5000);
    assert.deepEqual(readDocumentSettings({ baseline: { links: { a: 'x', b: 3, c: ' ' } } }).links, { a: 'x' });
    assert.equal(readDocumentSettings({ nested: { parentTemplate: '  ' } }).parentTemplate, undefined);
    assert.equal(readDocumentSettings({ sam: { withoutSamCli: 'yes' } }).withoutSamCli, false);
    assert.equal(readDocumentSettings({ nested: { parentTemplate: 3 } }).parentTemplate, undefined);
    assert.equal(readDocumentSettings({ cdk: { baseline: 4 } }).cdkBaseline, 'deployed');
  });
});
