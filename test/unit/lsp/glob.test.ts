// The glob dialect of the baseline.links and parameters.files settings.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lookupByGlob, matchesGlob } from '../../../server/src/git/glob';

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

  test('a glob matches the whole path, not a part of it', () => {
    assert.equal(matchesGlob('stacks/network.yaml.bak', 'stacks/*.yaml'), false);
    assert.equal(matchesGlob('old/stacks/network.yaml', 'stacks/*.yaml'), false);
  });

  test('a hostile glob from workspace settings takes time linear in the path, not exponential', () => {
    const started = performance.now();
    // As a backtracking regular expression this pair takes seconds; each extra `**/` multiplies it.
    assert.equal(matchesGlob(`${'a/'.repeat(200)}y`, '**/**/**/**/x'), false);
    assert.equal(matchesGlob('a'.repeat(40), '*a*a*a*a*a*a*a*a*a*a*b'), false);
    assert.ok(performance.now() - started < 500, `took ${Math.round(performance.now() - started)} ms`);
  });

  test('overlong globs and paths match nothing', () => {
    assert.equal(matchesGlob('t.yaml', `{${'t.yaml,'.repeat(200)}t.yaml}`), false);
    assert.equal(matchesGlob(`${'a/'.repeat(3000)}t.yaml`, '**/t.yaml'), false);
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
