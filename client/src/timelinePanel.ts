/**
 * The timeline panels: one webview per stack, showing the timeline of its current or last
 * operation, or of one of its recent operations chosen in the panel or the tree (timelineHtml.ts), asked of the language server again whenever it announces a change
 * of the stacks and, while the operation runs, every few seconds so that running bars grow.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { stackTimelineRequest, type StackOperationKey, type StackTimelineAnswer, type StackTimelineChoice } from '../../server/src/lsp/protocol';
import { timelineHtml, timelineMessageHtml } from './timelineHtml';

export const timelineViewType = 'cfnImpact.timeline';

/** How often a running operation's panel is redrawn without news: running bars and "so far" grow. */
const RUNNING_REDRAW_MS = 5000;

interface OpenPanel {
  panel: vscode.WebviewPanel;
  region: string;
  stackId: string;
  /** The operation shown; absent, the current or last one. */
  operation?: StackOperationKey;
  /** The operations the page offers, in its chooser's order. */
  choices: StackTimelineChoice[];
  /** The last answer shown, without the server time, to skip redraws that change nothing. */
  shown?: string;
  timer?: ReturnType<typeof setTimeout>;
  /** Bumped by every refresh, so that an older answer arriving late is dropped. */
  generation: number;
}

/** Opens and refreshes the timeline panels. */
export class TimelinePanels implements vscode.Disposable {
  private readonly open = new Map<string, OpenPanel>();

  constructor(private readonly client: LanguageClient) {}

  /**
   * Shows the timeline of a stack's `operation` (absent: its current or last one), in the stack's
   * existing panel when there is one.
   */
  show(region: string, stackId: string, stackName: string, operation?: StackOperationKey): void {
    const key = `${region}\u0000${stackId}`;
    const existing = this.open.get(key);
    if (existing) {
      existing.operation = operation;
      existing.panel.reveal();
      void this.refresh(existing);
      return;
    }
    const panel = vscode.window.createWebviewPanel(timelineViewType, stackName, vscode.ViewColumn.Active, {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [],
    });
    const entry: OpenPanel = { panel, region, stackId, choices: [], generation: 0, ...(operation ? { operation } : {}) };
    this.open.set(key, entry);
    panel.webview.onDidReceiveMessage((message: unknown) => this.choose(entry, message));
    panel.onDidDispose(() => {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      this.open.delete(key);
    });
    void this.refresh(entry);
  }

  /** Asks again for every open timeline (the server announced a change). */
  refreshAll(): void {
    for (const entry of this.open.values()) void this.refresh(entry);
  }

  dispose(): void {
    for (const entry of [...this.open.values()]) entry.panel.dispose();
  }

  /** The page's chooser picked an operation (an index into what it offered), or -1: the current one. */
  private choose(entry: OpenPanel, message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const { type, index } = message as { type?: unknown; index?: unknown };
    if (type !== 'operation' || typeof index !== 'number' || !Number.isInteger(index)) return;
    if (index === -1) entry.operation = undefined;
    else {
      const choice = entry.choices[index];
      if (!choice) return;
      entry.operation = choice.operation;
    }
    void this.refresh(entry);
  }

  private async refresh(entry: OpenPanel): Promise<void> {
    const generation = ++entry.generation;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = undefined;
    let answer: StackTimelineAnswer;
    try {
      const params = { region: entry.region, stackId: entry.stackId, ...(entry.operation ? { operation: entry.operation } : {}) };
      answer = await this.client.sendRequest(stackTimelineRequest, params);
    } catch (error) {
      answer = { ok: false, state: 'unavailable', message: `The timeline could not be read from the language server: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (generation !== entry.generation || !this.open.has(`${entry.region}\u0000${entry.stackId}`)) return;
    const running = answer.ok && answer.timeline.operation.outcome === 'in-progress';
    const shown = JSON.stringify(answer.ok ? { ...answer.timeline, now: running ? answer.timeline.now : 0 } : answer);
    if (shown !== entry.shown) {
      entry.shown = shown;
      const nonce = randomBytes(16).toString('base64');
      if (answer.ok) {
        entry.panel.title = answer.timeline.title;
        entry.choices = answer.timeline.operations;
      }
      entry.panel.webview.html = answer.ok ? timelineHtml(answer.timeline, nonce) : timelineMessageHtml(answer.message, nonce);
    }
    if (running) entry.timer = setTimeout(() => void this.refresh(entry), RUNNING_REDRAW_MS);
  }
}
