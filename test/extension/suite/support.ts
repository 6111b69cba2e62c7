/**
 * What the extension-host tests share: the extension under test, the workspace's files as
 * documents, and the commands through which VS Code asks every provider (the same ones other
 * extensions and VS Code's own features use).
 */
import * as vscode from 'vscode';
import type { CfnImpactApi } from '../../../client/src/api';
import manifest from '../../../package.json';
import { waitFor } from '../../e2e/support/wait';

export { waitFor };

/** The source the extension's diagnostics carry. */
const diagnosticSource = 'cfn-impact';

/** The extension's manifest (package.json), as the checkout under test declares it. */
export { manifest };

/** The extension under test, by the id its manifest gives it (publisher.name). */
export function extensionUnderTest(): vscode.Extension<CfnImpactApi> {
  const id = `${manifest.publisher}.${manifest.name}`;
  const extension = vscode.extensions.getExtension<CfnImpactApi>(id);
  if (!extension) throw new Error(`the extension under development (${id}) is not loaded`);
  return extension;
}

/** The URI of a file of the suite's workspace folder. */
function workspaceUri(relativePath: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the suite runs with a workspace folder open');
  return vscode.Uri.joinPath(folder.uri, relativePath);
}

/** Opens a workspace file in an editor, as a person does, and returns its document. */
export async function openInEditor(relativePath: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(workspaceUri(relativePath));
  await vscode.window.showTextDocument(document);
  return document;
}

/** The code lenses every provider gives a document, titles resolved. */
export async function codeLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
}

/** Waits until the extension's lenses for a document have arrived (the first analysis has answered). */
export async function waitForLenses(uri: vscode.Uri, what: string): Promise<vscode.CodeLens[]> {
  return waitFor(
    async () => {
      const lenses = await codeLenses(uri);
      return lenses.length > 0 ? lenses : undefined;
    },
    { timeoutMs: 45_000, intervalMs: 250, what },
  );
}

/** The extension's diagnostics of a document. */
export function extensionDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === diagnosticSource);
}

/** Waits until the extension has published diagnostics satisfying `check` for a document. */
export async function waitForDiagnostics(uri: vscode.Uri, check: (diagnostics: vscode.Diagnostic[]) => boolean, what: string): Promise<vscode.Diagnostic[]> {
  return waitFor(
    () => {
      const diagnostics = extensionDiagnostics(uri);
      return check(diagnostics) ? diagnostics : undefined;
    },
    { timeoutMs: 45_000, intervalMs: 250, what },
  );
}

/** The zero-based number of the first line of `document` whose text is exactly `text`. */
export function lineOf(document: vscode.TextDocument, text: string): number {
  for (let line = 0; line < document.lineCount; line++) if (document.lineAt(line).text === text) return line;
  throw new Error(`${document.uri.path} has no line ${JSON.stringify(text)}`);
}

/** The text of a hover's contents, whichever form each part takes. */
export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((hover) => hover.contents)
    .map((part) => (typeof part === 'string' ? part : part.value))
    .join('\n');
}
