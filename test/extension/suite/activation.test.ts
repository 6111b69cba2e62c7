// Activation: the extension wakes when a CloudFormation template opens, and on YAML and JSON that
// are not templates it shows nothing. VS Code activates extensions by language, not by content, so
// "not on other YAML/JSON" is held where a person sees it: no lens, no problem, no hover there.
// This file runs first (index.ts runs files in name order): its first test needs a host in which
// nothing has activated the extension yet.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it } from 'mocha';
import { workspaceFiles } from '../workspace';
import { codeLenses, extensionDiagnostics, extensionUnderTest, openInEditor, waitFor, waitForLenses } from './support';

describe('activation', () => {
  it('has not activated before any template is opened', () => {
    assert.equal(extensionUnderTest().isActive, false);
  });

  it('activates when a CloudFormation template opens, and gives it lenses', async () => {
    const template = await openInEditor(workspaceFiles.network);
    await waitFor(() => extensionUnderTest().isActive, { timeoutMs: 30_000, what: 'the extension to activate' });
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
