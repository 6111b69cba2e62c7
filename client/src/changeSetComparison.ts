/**
 * The `cfnImpact.compareChangeSet` command a verdict lens carries when the linked stack has
 * change sets: pick one, ask the server to compare it with the prediction, and show the answer.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { compareChangeSetRequest, type CompareChangeSetArguments } from '../../server/src/lsp/protocol';

/** Runs the comparison for the lens's document; every failure is shown, never thrown. */
export async function compareChangeSet(client: LanguageClient, output: vscode.LogOutputChannel, target: CompareChangeSetArguments | undefined): Promise<void> {
  if (!target || target.changeSets.length === 0) return;
  const changeSetName = target.changeSets.length === 1 ? target.changeSets[0] : await vscode.window.showQuickPick(target.changeSets, { placeHolder: 'Change set to compare with the prediction' });
  if (!changeSetName) return;
  try {
    const result = await client.sendRequest(compareChangeSetRequest, { uri: target.uri, changeSetName });
    output.info([result.message, ...result.lines.map((line) => `  ${line}`)].join('\n'));
    const show = result.agrees === false ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const choice = await show(result.message, ...(result.lines.length > 0 ? ['Show Details'] : []));
    if (choice) output.show(true);
  } catch (error) {
    void vscode.window.showErrorMessage(`The change set could not be compared: ${String(error)}`);
  }
}
