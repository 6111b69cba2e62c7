// Proves the harness itself: code-server starts, the workbench loads in Chromium, a YAML template
// opens in an editor, and a screenshot is saved. It installs the packaged extension when there is
// one, but does not depend on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startCodeServer } from './support/code-server';
import { vsixPath } from './support/paths';
import { Workbench } from './support/workbench';
import { createGitWorkspace } from './support/workspace';

const template = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Logs:
    Type: AWS::S3::Bucket
`;

test('code-server serves the workbench and opens a YAML template', { timeout: 240_000 }, async () => {
  const workspace = createGitWorkspace({ 'stack.yaml': template }, {});
  const vsix = existsSync(vsixPath()) ? vsixPath() : undefined;
  const server = await startCodeServer({ name: 'smoke', workspace: workspace.path, vsix });
  let workbench: Workbench | undefined;
  try {
    workbench = await Workbench.open(server.url, 'smoke');
    await workbench.openFile('stack.yaml');
    const lines = await workbench.visibleLines();
    assert.ok(lines.some((line) => line.includes('Type: AWS::S3::Bucket')), `editor shows the template, got ${JSON.stringify(lines)}`);
    const shot = await workbench.screenshot('template-open');
    assert.ok(existsSync(shot));
  } finally {
    await workbench?.close();
    await server.stop();
    workspace.remove();
  }
});
