/**
 * The side-by-side diff against the baseline: the baseline text is a virtual read-only document
 * (`cfn-impact-baseline:` scheme) whose content the server supplies.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { baselineTextRequest, type OpenDiffArguments } from '../../server/src/lsp/protocol';

export const baselineScheme = 'cfn-impact-baseline';

/** Serves baseline texts and tells open diff editors when a baseline changed. */
export class BaselineDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The baseline documents open in an editor, by template; a closed one is forgotten. */
  private readonly shown = new Map<string, vscode.Uri>();
  private readonly closing: vscode.Disposable;

  constructor(private readonly client: LanguageClient) {
    this.closing = vscode.workspace.onDidCloseTextDocument((document) => {
      if (document.uri.scheme === baselineScheme && this.shown.get(document.uri.query)?.toString() === document.uri.toString()) {
        this.shown.delete(document.uri.query);
      }
    });
  }

  /** The virtual document showing a template's baseline; its path keeps the name, so the language is the same. */
  uriFor(document: vscode.Uri): vscode.Uri {
    const name = document.path.split('/').pop() || 'template';
    const uri = vscode.Uri.from({ scheme: baselineScheme, path: `/${name}`, query: document.toString() });
    this.shown.set(document.toString(), uri);
    return uri;
  }

  /** Called when a template's baseline changed: refreshes its diff editor if one is open. */
  baselineChanged(documentUri: string): void {
    const shown = this.shown.get(documentUri);
    if (shown) this.changed.fire(shown);
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const baseline = await this.client.sendRequest(baselineTextRequest, { uri: uri.query }, token);
    return baseline?.text ?? '# This template has no baseline: choose one with "CloudFormation Impact: Choose Baseline".\n';
  }

  dispose(): void {
    this.closing.dispose();
    this.changed.dispose();
  }
}

/** Opens the diff between a template's baseline and the template, at a line when given. */
export async function openBaselineDiff(documents: BaselineDocuments, target: OpenDiffArguments | vscode.Uri | undefined): Promise<void> {
  const uri =
    target instanceof vscode.Uri ? target : target?.uri ? vscode.Uri.parse(target.uri) : vscode.window.activeTextEditor?.document.uri;
  if (!uri) {
    void vscode.window.showInformationMessage('Open a CloudFormation template to compare it with its baseline.');
    return;
  }
  const line = target && !(target instanceof vscode.Uri) ? target.line : undefined;
  const name = uri.path.split('/').pop() ?? uri.toString();
  const options: vscode.TextDocumentShowOptions = { preview: true };
  if (line !== undefined) options.selection = new vscode.Range(line, 0, line, 0);
  await vscode.commands.executeCommand('vscode.diff', documents.uriFor(uri), uri, `${name} (baseline ↔ edited)`, options);
}
