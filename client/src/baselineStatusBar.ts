/**
 * The status bar item naming the active template's baseline: `$(git-commit) HEAD`,
 * `$(cloud) stack my-stack`, or `$(warning) baseline unreachable` when it could not be read.
 */
import * as vscode from 'vscode';
import type { BaselineStatus } from '../../server/src/lsp/protocol';

/** Keeps each document's latest baseline status and shows the active editor's. */
export class BaselineStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly statuses = new Map<string, BaselineStatus>();
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.item = vscode.window.createStatusBarItem('baseline', vscode.StatusBarAlignment.Left, 40);
    this.item.name = 'CloudFormation Impact baseline';
    this.item.command = 'cfnImpact.chooseBaseline';
    this.subscription = vscode.window.onDidChangeActiveTextEditor(() => this.render());
  }

  /** Records a status from the server and updates the item if it concerns the active editor. */
  update(status: BaselineStatus): void {
    this.statuses.set(status.uri, status);
    this.render();
  }

  /** The latest status of a document, if the server sent one. */
  statusOf(uri: string): BaselineStatus | undefined {
    return this.statuses.get(uri);
  }

  private render(): void {
    const uri = vscode.window.activeTextEditor?.document.uri.toString();
    const status = uri ? this.statuses.get(uri) : undefined;
    if (!status) {
      this.item.hide();
      return;
    }
    this.item.text = statusText(status);
    this.item.tooltip = new vscode.MarkdownString(
      `**CloudFormation Impact baseline**\n\n${escapeMarkdown(status.detail ?? status.label)}\n\nClick to choose another baseline.`,
    );
    this.item.backgroundColor =
      status.state === 'unreachable' || status.state === 'stale' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

function statusText(status: BaselineStatus): string {
  const icon = status.kind === 'git' ? '$(git-commit)' : status.kind === 'stack' ? '$(cloud)' : status.kind === 'file' ? '$(file)' : '$(circle-slash)';
  switch (status.state) {
    case 'ok':
      return `${icon} ${status.label}`;
    case 'loading':
      return `$(sync~spin) ${status.label}`;
    case 'stale':
      return `$(warning) ${status.label} (stale)`;
    case 'unreachable':
      return '$(warning) baseline unreachable';
    default:
      return status.kind === 'git' ? `$(circle-slash) ${status.label}: no baseline` : '$(circle-slash) no baseline';
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
