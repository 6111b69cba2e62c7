/**
 * A followed deployment's progress outside the stacks view: a window progress notification per
 * followed stack while its operation runs (not cancellable; its *Stop Following* link stops
 * following the stack, which leaves the deployment alone), and a status bar item for the first
 * such stack. The words are the server's (each stack node's description
 * and tooltip); this file only places them.
 */
import * as vscode from 'vscode';
import type { StackTreeNode } from '../../server/src/lsp/protocol';
import { progressMessage } from './progressMessage';

/** One shown notification: how far its bar got, and how to move or end it. */
interface Shown {
  reported: number;
  report(message: string, increment: number): void;
  end(): void;
}

/** Keeps the notifications and the status bar item in step with the latest stacks tree. */
export class DeploymentProgress implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('cfnImpact.deploymentProgress', vscode.StatusBarAlignment.Left, 39);
  private readonly shown = new Map<string, Shown>();
  /** The running stacks of the latest tree, by node id: what the notification's links name. */
  private readonly runningNodes = new Map<string, StackTreeNode>();
  /** Stacks the user stopped following from their notification: not shown again while that operation runs. */
  private readonly dismissed = new Set<string>();

  /**
   * `unfollow` is called with a stack node the user stopped following; the notification links to
   * `commands.showTimeline` and `commands.stopFollowing` (which calls `stopFollowing` here), each
   * called with the stack's node.
   */
  constructor(
    private readonly unfollow: (node: StackTreeNode) => void,
    private readonly commands: { showTimeline: string; stopFollowing: string },
  ) {
    this.item.name = 'CloudFormation deployment progress';
  }

  /** Takes the latest tree: shows, moves and ends notifications, and updates the status bar. */
  update(roots: readonly StackTreeNode[]): void {
    const running = new Map<string, StackTreeNode>();
    for (const region of roots) {
      for (const node of region.children ?? []) {
        if (node.kind === 'stack' && node.stack?.followed && node.stack.progress && node.stack.phase === 'in-progress') running.set(node.id, node);
      }
    }
    for (const [id, shown] of this.shown) {
      if (!running.has(id)) {
        shown.end();
        this.shown.delete(id);
      }
    }
    for (const id of this.dismissed) if (!running.has(id)) this.dismissed.delete(id);
    this.runningNodes.clear();
    for (const [id, node] of running) this.runningNodes.set(id, node);
    for (const [id, node] of running) {
      if (this.dismissed.has(id)) continue;
      const percent = percentDone(node);
      const shown = this.shown.get(id) ?? this.show(node);
      shown.report(progressMessage(node, this.commands), Math.max(0, percent - shown.reported));
      shown.reported = Math.max(shown.reported, percent);
    }
    const first = [...running.values()][0];
    if (first) {
      this.item.text = `$(sync~spin) ${first.label} ${first.stack?.progress ? `${first.stack.progress.done}/${first.stack.progress.total}` : ''}`.trimEnd();
      this.item.tooltip = first.tooltip ?? first.description;
      this.item.show();
    } else {
      this.item.hide();
    }
  }

  /** The node of a stack whose deployment runs, by its id (a notification link's argument). */
  nodeById(id: string): StackTreeNode | undefined {
    return this.runningNodes.get(id);
  }

  /** Ends a stack's notification and stops following it, until its next operation; the deployment goes on. */
  stopFollowing(node: StackTreeNode): void {
    this.dismissed.add(node.id);
    this.shown.get(node.id)?.end();
    this.shown.delete(node.id);
    this.unfollow(node);
  }

  dispose(): void {
    for (const shown of this.shown.values()) shown.end();
    this.shown.clear();
    this.item.dispose();
  }

  private show(node: StackTreeNode): Shown {
    let report: (message: string, increment: number) => void = () => undefined;
    let end: () => void = () => undefined;
    const shown: Shown = { reported: 0, report: (message, increment) => report(message, increment), end: () => end() };
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: node.label, cancellable: false },
      (progress) =>
        new Promise<void>((resolve) => {
          report = (message, increment) => progress.report({ message, increment });
          end = resolve;
        }),
    );
    this.shown.set(node.id, shown);
    return shown;
  }
}

/** The share of resources done, in percent (the notification's bar). */
function percentDone(node: StackTreeNode): number {
  const progress = node.stack?.progress;
  if (!progress || progress.total === 0) return 0;
  return Math.floor((100 * progress.done) / progress.total);
}
