// The glob dialect of the baseline.links and parameters.files settings.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lookupByGlob, matchesGlob } from '../../../server/src/lsp/glob';

describe('matchesGlob', () => {
  test('a plain path matches only itself', () => {
    assert.equal(matchesGlob('stacks/network.yaml', 'stacks/network.yaml'), true);
    assert.equal(matchesGlob('stacks/network.yml', 'stacks/network.yaml'), false);
    assert.equal(matchesGlob('stacks/network.yaml', './stacks/network.yaml'), true);
  });

  test('* and ? stay within one folder, ** crosses folders', () => {
    assert.equal(matchesGlob('stacks/network.yaml', 'stacks/*.yaml'), true);
    assert.equal(matchesGlob('stacks/prod/network.yaml', 'stacks/*.yaml'), false);
    assert.equal(matchesGlob('stacks/prod/network.yaml', 'stacks/**/*.yaml'), true);
    assert.equal(matchesGlob('stacks/network.yaml', 'stacks/**/*.yaml'), true);
    assert.equal(matchesGlob('a/b/c.json', '**'), true);
    assert.equal(matchesGlob('app1.yaml', 'app?.yaml'), true);
  });

  test('braces list alternatives; dots and brackets are literal', () => {
    assert.equal(matchesGlob('t.yml', 't.{yaml,yml}'), true);
    assert.equal(matchesGlob('txyaml', 't.yaml'), false);
    assert.equal(matchesGlob('a[1].yaml', 'a[1].yaml'), true);
  });

  test('a malformed glob matches nothing', () => {
    assert.equal(matchesGlob('t.yaml', 't.{yaml'), false);
  });
});

describe('lookupByGlob', () => {
  test('the most specific matching glob wins', () => {
    const links = { '**/*.yaml': 'everything', 'stacks/network.yaml': 'network-prod' };
    assert.equal(lookupByGlob(links, 'stacks/network.yaml'), 'network-prod');
    assert.equal(lookupByGlob(links, 'stacks/app.yaml'), 'everything');
    assert.equal(lookupByGlob(links, 'stacks/app.json'), undefined);
  });
});
