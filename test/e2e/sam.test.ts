// The packaged extension in a real VS Code on a SAM template: the `sam init` hello-world template,
// edited since its last commit, shows what deploying the edit does on the line of the SAM function
// as written, one lens for the function and everything the Serverless transform generates from it.
// Needs the .vsix from `npm run package`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCodeServer, type CodeServer } from './support/code-server';
import { missingVsixReason, vsixPath } from './support/paths';
import { Workbench, type ShownLens } from './support/workbench';
import { createGitWorkspace, type GitWorkspace } from './support/workspace';
import { committedSamApp, editedSamApp } from '../fixtures/samHelloWorld';

const skip = missingVsixReason();
if (skip) console.log(`skipping the SAM end-to-end suite: ${skip}`);

describe('a SAM template edited in code-server', { skip, timeout: 300_000 }, () => {
  let workspace: GitWorkspace;
  let server: CodeServer;
  let workbench: Workbench;
  let lenses: ShownLens[] = [];

  before(async () => {
    // The code folders the template names are there, as `sam init` makes them: a CodeUri with no
    // folder behind it is an error.
    const handler = 'def lambda_handler(event, context):\n    return {"statusCode": 200}\n';
    workspace = createGitWorkspace({ 'template.yaml': committedSamApp, 'hello_world/app.py': handler }, { 'template.yaml': editedSamApp, 'hello_world_v2/app.py': handler });
    server = await startCodeServer({ name: 'sam', workspace: workspace.path, vsix: vsixPath() });
    workbench = await Workbench.open(server.url, 'sam');
    await workbench.openFile('template.yaml');
    // The lenses arrive once the server has expanded and analysed both sides against HEAD.
    lenses = await workbench.settledCodeLenses((shown) => shown.some((lens) => lens.text.includes('new version')), 'the lens of the SAM function');
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    workspace?.remove();
  });

  test('one lens above the SAM function says what happens to it and to what it generates', async () => {
    await workbench.screenshot('lens');
    const above = lenses.filter((lens) => lens.line.trim() === 'HelloWorldFunction:').map((lens) => lens.text);
    // The new Timeout updates the function in place; the new code, under AutoPublishAlias, is a
    // new version the alias moves to.
    assert.deepEqual(above, ['Timeout, CodeUri → ✎ Update (no interruption) · + new version'], JSON.stringify(lenses));
    const verdict = lenses.find((lens) => lens.line.startsWith('AWSTemplateFormatVersion'));
    assert.match(verdict?.text ?? '', /^1 add · 2 modify · 1 remove/, JSON.stringify(lenses));
    // The Globals Timeout edited says, on its line, what it updates; the resources SAM generates
    // have no lines of their own: no other lens.
    assert.deepEqual(lenses.filter((lens) => lens.line.trim() === 'Timeout: 10').map((lens) => lens.text), ['✎ updates HelloWorldFunction'], JSON.stringify(lenses));
    assert.equal(lenses.length, 3, JSON.stringify(lenses));
  });

  test('hovering the SAM function names the resources generated from it', async () => {
    const text = await workbench.hover('  HelloWorldFunction:', 'HelloWorldFunction');
    await workbench.screenshot('hover');
    assert.match(text, /The Serverless transform generates from it/);
    assert.match(text, /HelloWorldFunctionAliaslive/);
    assert.match(text, /ServerlessRestApi/);
  });
});
