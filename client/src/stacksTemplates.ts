/**
 * Deployed templates as virtual read-only documents (`cfn-impact-stack:` scheme): the server reads
 * them with GetTemplate; the document's name ends in .yaml or .json so it opens in that language.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { deployedTemplateRequest } from '../../server/src/lsp/protocol';

export const deployedTemplateScheme = 'cfn-impact-stack';

/** Serves deployed templates; the region is the path's first segment, the stack id the query. */
export class DeployedTemplates implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** Bodies read by `open`, so that opening does not read the template twice. */
  private readonly bodies = new Map<string, string>();

  constructor(private readonly client: LanguageClient) {}

  /** Reads a stack's deployed template and opens it, or says why it cannot be read. */
  async open(region: string, stackId: string, stackName: string): Promise<void> {
    const read = await this.client.sendRequest(deployedTemplateRequest, { region, stackId }).catch((error: unknown) => ({
      ok: false as const,
      message: error instanceof Error ? error.message : String(error),
    }));
    if (!read.ok) {
      void vscode.window.showErrorMessage(`The deployed template of ${stackName} could not be read: ${read.message}`);
      return;
    }
    const uri = vscode.Uri.from({
      scheme: deployedTemplateScheme,
      path: `/${region}/${stackName} (deployed).${read.language}`,
      query: stackId,
    });
    this.bodies.set(uri.toString(), read.body);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const known = this.bodies.get(uri.toString());
    if (known !== undefined) {
      this.bodies.delete(uri.toString());
      return known;
    }
    // Reopened later (e.g. a restored editor): read it again.
    const region = uri.path.split('/')[1] ?? '';
    const read = await this.client.sendRequest(deployedTemplateRequest, { region, stackId: uri.query }, token);
    return read.ok ? read.body : `# The deployed template could not be read: ${read.message}\n`;
  }

  dispose(): void {
    this.bodies.clear();
  }
}
