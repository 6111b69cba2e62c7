/**
 * Settings that decide where signed requests go (profile, regions, endpoint) can only come from
 * user or machine scope: the manifest declares them so, the client reads them through inspect()
 * without the workspace values, and the server takes no AWS setting from a document's section.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readDocumentSettings } from '../../../server/src/lsp/settings';

const root = join(__dirname, '..', '..', '..');

interface SettingSchema {
  scope?: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

test('the manifest gives every cfnImpact.aws setting machine or application scope', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, SettingSchema> } };
  };
  const aws = Object.entries(manifest.contributes.configuration.properties).filter(([key]) => key.startsWith('cfnImpact.aws.'));
  assert.deepEqual(aws.map(([key]) => key).sort(), ['cfnImpact.aws.endpoint', 'cfnImpact.aws.profile', 'cfnImpact.aws.regions']);
  for (const [key, schema] of aws) assert.ok(schema.scope === 'machine' || schema.scope === 'application', `${key} has scope ${schema.scope}`);
});

test('the client reads the AWS settings through inspect(), from the user value or the default only', () => {
  const files = sourceFiles(join(root, 'client', 'src'));
  const readers: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const name = relative(root, file).split('\\').join('/');
    // Any mention of an AWS setting key: it must go through userValue, never through get().
    for (const match of text.matchAll(/(\w+)(?:<[^>]*>)?\(\s*(?:\w+\s*,\s*)?['"](?:cfnImpact\.)?aws\.(\w+)['"][^\n]*/g)) {
      // The pickers write these settings, to user scope only: never into a workspace.
      if (match[1] === 'update') {
        assert.match(match[0], /ConfigurationTarget\.Global\)/, `${name} writes aws.${match[2]} outside user settings`);
        continue;
      }
      assert.equal(match[1], 'userValue', `${name} reads aws.${match[2]} with ${match[1]}()`);
      readers.push(`${name} aws.${match[2]}`);
    }
    assert.doesNotMatch(text, /\.get(?:<[^>]*>)?\(\s*['"](?:cfnImpact\.)?aws\b/, `${name} reads an AWS setting with get()`);
  }
  assert.deepEqual(readers.sort(), ['client/src/settings.ts aws.endpoint', 'client/src/settings.ts aws.profile', 'client/src/settings.ts aws.regions']);
  const settings = readFileSync(join(root, 'client', 'src', 'settings.ts'), 'utf8');
  const helper = /function userValue[\s\S]*?\n\}/.exec(settings)?.[0] ?? '';
  assert.match(helper, /\.inspect(<\w+>)?\(key\)/, 'userValue inspects the setting');
  assert.match(helper, /globalValue/);
  assert.doesNotMatch(helper, /workspaceValue|workspaceFolderValue|\.get\(/, 'userValue ignores workspace and folder values');
});

test('the server takes no AWS setting from a document settings section', () => {
  const hostile = { aws: { endpoint: 'http://attacker.example', profile: 'prod-admin', regions: ['us-east-1'] }, baseline: { default: 'none' } };
  const read = readDocumentSettings(hostile) as unknown as Record<string, unknown>;
  assert.equal(JSON.stringify(read).includes('attacker.example'), false);
  assert.equal(JSON.stringify(read).includes('prod-admin'), false);
});
