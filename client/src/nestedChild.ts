/**
 * The `cfnImpact.openNestedChild` command a nested stack's lens carries: it opens the child
 * template, which the server then analyses with the parameter values of the parent the lens was on.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { nestedParentNotification, type OpenNestedChildArguments } from '../../server/src/lsp/protocol';

/** Tells the server which parent the child belongs to, then opens the child in the active editor column. */
export async function openNestedChild(client: LanguageClient, target: OpenNestedChildArguments | undefined): Promise<void> {
  if (!target) return;
  // Sent first: the notification reaches the server before the child's didOpen, so its first analysis already has the parent's values.
  await client.sendNotification(nestedParentNotification, { uri: target.uri, parentUri: target.parentUri });
  await vscode.window.showTextDocument(vscode.Uri.parse(target.uri));
}
