/**
 * Walking what an edit changes: the lens on an edit outside the resources shows the resources it
 * changes beside it (the references peek), and *Go to Next Impact* / *Go to Previous Impact*
 * move the cursor from one changed resource to the next, in template order.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { impactLocationsRequest, type ShowImpactsArguments } from '../../server/src/lsp/protocol';

/** Shows the resources an edit changes in a peek beside the edited line; nothing when the arguments are not the lens's. */
export async function showImpacts(target: unknown): Promise<void> {
  if (!isShowImpactsArguments(target)) return;
  const uri = vscode.Uri.parse(target.uri);
  const locations = target.locations.map((p) => new vscode.Location(p.uri !== undefined ? vscode.Uri.parse(p.uri) : uri, new vscode.Position(p.line, p.character)));
  await vscode.commands.executeCommand('editor.action.showReferences', uri, new vscode.Position(target.line, 0), locations);
}

/** Moves the cursor to the next (or previous) changed resource of the active template; says so when there is none. */
export async function goToImpact(client: LanguageClient, direction: 1 | -1): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  let lines: number[];
  try {
    ({ lines } = await client.sendRequest(impactLocationsRequest, { uri: editor.document.uri.toString() }));
  } catch {
    return;
  }
  const here = editor.selection.active.line;
  const next = direction === 1 ? (lines.find((line) => line > here) ?? lines[0]) : ([...lines].reverse().find((line) => line < here) ?? lines[lines.length - 1]);
  if (next === undefined) {
    void vscode.window.setStatusBarMessage('CloudFormation Impact: no resource changes against the baseline', 3000);
    return;
  }
  const position = new vscode.Position(next, editor.document.lineAt(next).firstNonWhitespaceCharacterIndex);
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

function isShowImpactsArguments(value: unknown): value is ShowImpactsArguments {
  if (typeof value !== 'object' || value === null) return false;
  const { uri, line, locations } = value as Partial<ShowImpactsArguments>;
  return typeof uri === 'string' && typeof line === 'number' && Array.isArray(locations) && locations.every((p) => typeof p?.line === 'number' && typeof p?.character === 'number');
}
