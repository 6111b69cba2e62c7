// Hover on a property, through VS Code's hover command: it says what changing the property does
// to the resource. A VPC's CidrBlock is create-only (AWS::EC2::VPC reference: "Update requires:
// Replacement").
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it } from 'mocha';
import { workspaceFiles } from '../workspace';
import { hoverText, lineOf, openInEditor, waitFor, waitForLenses } from './support';

describe('hover', () => {
  it('explains that changing the VPC’s CidrBlock replaces it', async () => {
    const document = await openInEditor(workspaceFiles.network);
    await waitForLenses(document.uri, 'the analysis of the network template');
    const line = lineOf(document, '      CidrBlock: !Ref Cidr');
    const onProperty = new vscode.Position(line, document.lineAt(line).text.indexOf('CidrBlock') + 2);
    const text = await waitFor(
      async () => {
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, onProperty);
        return hoverText(hovers) || undefined;
      },
      { timeoutMs: 20_000, what: 'a hover over CidrBlock' },
    );
    assert.match(text, /CidrBlock/);
    assert.match(text, /Replacement/);
  });
});
