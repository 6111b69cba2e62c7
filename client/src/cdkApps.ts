/**
 * CDK apps in the workspace: folders holding `cdk.json`, at a workspace folder's root or one
 * level below it (an `infra/` app in a repository). Their TypeScript, JavaScript and Python files
 * go to the language server, which shows the impact of the app's last synth at the lines that
 * created the constructs; nothing else of those languages does.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import * as vscode from 'vscode';

const APP_LANGUAGES = ['typescript', 'javascript', 'python'] as const;
const SKIPPED = new Set(['node_modules', 'cdk.out', '.git']);

/** The folders of the CDK apps in the workspace folders. */
export function cdkAppFolders(): string[] {
  const apps: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const root = folder.uri.fsPath;
    if (existsSync(join(root, 'cdk.json'))) apps.push(root);
    let entries: string[] = [];
    try {
      entries = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && !SKIPPED.has(e.name)).map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of entries) if (existsSync(join(root, name, 'cdk.json'))) apps.push(join(root, name));
  }
  return apps;
}

/** The documents of the apps' languages under the apps' folders, as the language client's document selector takes them. */
export function cdkSourceSelector(apps: readonly string[]): { scheme: string; language: string; pattern: { baseUri: string; pattern: string } }[] {
  return apps.flatMap((folder) => APP_LANGUAGES.map((language) => ({ scheme: 'file', language, pattern: { baseUri: vscode.Uri.file(folder).toString(), pattern: '**/*' } })));
}

/** Whether a document is a source file of one of the apps. */
export function isCdkSource(apps: readonly string[], document: vscode.TextDocument): boolean {
  if (document.uri.scheme !== 'file' || !(APP_LANGUAGES as readonly string[]).includes(document.languageId)) return false;
  return apps.some((folder) => document.uri.fsPath.startsWith(folder + sep));
}
