// Activation: VS Code activates extensions by language, not by content, so the extension wakes for
// any YAML or JSON file; what it does there is nothing. Its language server (a process of its own)
// starts only when a CloudFormation template opens, and on YAML and JSON that are not templates
// no lens, problem or hover appears. This file runs first (index.ts runs files in name order): its
// first tests need a host in which nothing has woken the extension or its server yet.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it } from 'mocha';
import { workspaceFiles } from '../workspace';
import { codeLenses, extensionDiagnostics, extensionUnderTest, openInEditor, waitFor, waitForLenses } from './support';

describe('activation', () => {
  it('has not activated before any template is opened', () => {
    assert.equal(extensionUnderTest().isActive, false);
  });

  it('wakes for a YAML file that is not a template, but starts no language server for it', async () => {
    await openInEditor(workspaceFiles.plainYaml);
    await waitFor(() => extensionUnderTest().isActive, { timeoutMs: 30_000, what: 'the extension to activate' });
    // Long enough for a server start (it is deferred by one turn of the event loop) to show.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(extensionUnderTest().exports.languageServerRunning(), false);
  });

  it('starts the language server when a CloudFormation template opens, and gives the template lenses', async () => {
    const template = await openInEditor(workspaceFiles.network);
    await waitFor(() => extensionUnderTest().exports.languageServerRunning(), { timeoutMs: 30_000, what: 'the language server to start' });
    const lenses = await waitForLenses(template.uri, 'lenses on the template');
    assert.ok(lenses.length > 0);
  });

  for (const file of [workspaceFiles.plainYaml, workspaceFiles.plainJson]) {
    it(`shows no lens, problem or hover on ${file}, which is not a template`, async () => {
      const document = await openInEditor(file);
      // The server answers a lens request once it has analysed the document's version, so an
      // empty answer is its verdict on this file, not a question asked too early.
      assert.deepEqual(await codeLenses(document.uri), []);
      assert.deepEqual(extensionDiagnostics(document.uri), []);
      const onFirstKey = new vscode.Position(1, 4);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, onFirstKey);
      assert.deepEqual(hovers, []);
    });
  }
});
