/**
 * The stacks view: the tree the language server builds from its watchers, shown 1:1 as tree items
 * whose icons and menus follow each node's state (stackTreeLook.ts), with a filter, a refresh, context actions on stacks and resources, and a notification when a
 * watched deployment ends; a stack's deployment timeline opens from its menu and from that notification. The view tells the server when it is visible: nothing is polled while
 * it is not.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  detectDriftRequest,
  deploymentEndedNotification,
  stacksChangedNotification,
  stacksFollowNotification,
  stacksRefreshRequest,
  stacksTreeRequest,
  stacksVisibilityNotification,
  type DeploymentEnded,
  type StackTreeNode,
} from '../../server/src/lsp/protocol';
import { deploymentMessage } from '../../server/src/present/deployments';
import type { StacksViewRow } from './api';
import { linkStack } from './baselineChoices';
import { DeploymentProgress } from './deploymentProgress';
import { treeItemLook } from './stackTreeLook';
import { DeployedTemplates, deployedTemplateScheme } from './stacksTemplates';
import { TimelinePanels } from './timelinePanel';

export const stacksViewId = 'cfnImpact.stacks';

/** Command ids of the view (declared in package.json). */
export const stacksCommands = {
  refresh: 'cfnImpact.stacks.refresh',
  filter: 'cfnImpact.stacks.filter',
  clearFilter: 'cfnImpact.stacks.clearFilter',
  openTemplate: 'cfnImpact.stacks.openTemplate',
  linkToTemplate: 'cfnImpact.stacks.linkToTemplate',
  copyArn: 'cfnImpact.stacks.copyArn',
  copyPhysicalId: 'cfnImpact.stacks.copyPhysicalId',
  openConsole: 'cfnImpact.stacks.openConsole',
  showTimeline: 'cfnImpact.stacks.showTimeline',
  stopFollowing: 'cfnImpact.stacks.stopFollowing',
  detectDrift: 'cfnImpact.stacks.detectDrift',
} as const;

const filteredContextKey = 'cfnImpact.stacks.filtered';

const collapsibleStates: Record<StackTreeNode['collapsible'], vscode.TreeItemCollapsibleState> = {
  none: vscode.TreeItemCollapsibleState.None,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  expanded: vscode.TreeItemCollapsibleState.Expanded,
};

/** Commands that fix what a message node reports, by its context value. */
function fixCommand(contextValue: string): vscode.Command | undefined {
  switch (contextValue) {
    case 'message.no-region':
    case 'message.unknown-region':
      return { title: 'Select AWS Regions', command: 'cfnImpact.aws.selectRegions' };
    case 'message.untrusted':
      return { title: 'Manage Workspace Trust', command: 'workbench.trust.manage' };
    case 'message.no-match':
      return { title: 'Clear Filter', command: stacksCommands.clearFilter };
    default:
      return undefined;
  }
}

/** Selecting an operation in the tree opens its timeline. */
function showTimelineOf(node: StackTreeNode): vscode.Command {
  return { title: 'Show Deployment Timeline', command: stacksCommands.showTimeline, arguments: [node] };
}

/** A tooltip's lines as Markdown, each line kept apart and none read as Markdown syntax. */
function tooltipOf(text: string): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  text.split('\n').forEach((line, index) => {
    if (index > 0) tooltip.appendMarkdown('\n\n');
    tooltip.appendText(line);
  });
  return tooltip;
}

/** Maps the server's nodes to tree items; asks the server again whenever it announces a change. */
class StacksTreeProvider implements vscode.TreeDataProvider<StackTreeNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: Promise<StackTreeNode[]> | undefined;
  filter = '';
  /** The tree last drawn, as text: a reload that brings the same tree does not redraw. */
  private shown?: string;

  /** `onTree` sees every tree the server sends (the deployment progress follows it). */
  constructor(
    private readonly client: LanguageClient,
    private readonly onTree: (nodes: StackTreeNode[]) => void,
  ) {}

  /**
   * Asks the server for the tree, and only once it is here tells the view to redraw. The view
   * forgets every row when told (VS Code drops its handles on a full refresh), so a context-menu
   * command run before the rows come back gets no node; fetching first keeps that window to the
   * redraw itself instead of a server round trip, which matters while a deployment redraws the
   * tree every few seconds.
   */
  reload(): void {
    const roots = this.fetchRoots();
    this.roots = roots;
    void roots.then((nodes) => {
      if (this.roots !== roots) return;
      // A change announcement often brings the tree already shown (several per poll): redrawing
      // it for nothing would only close menus and move the rows under the pointer.
      const shown = JSON.stringify(nodes);
      if (shown === this.shown) return;
      this.shown = shown;
      this.changed.fire();
    });
  }

  getTreeItem(node: StackTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, collapsibleStates[node.collapsible]);
    // Stable ids keep expansion and selection across refreshes.
    item.id = node.id;
    if (node.description) item.description = node.description;
    if (node.tooltip) item.tooltip = tooltipOf(node.tooltip);
    const look = treeItemLook(node);
    if (look.icon) item.iconPath = new vscode.ThemeIcon(look.icon.icon, look.icon.color ? new vscode.ThemeColor(look.icon.color) : undefined);
    item.contextValue = look.contextValue;
    const command = node.kind === 'message' ? fixCommand(look.contextValue) : node.kind === 'operation' ? showTimelineOf(node) : undefined;
    if (command) item.command = command;
    return item;
  }

  getChildren(node?: StackTreeNode): vscode.ProviderResult<StackTreeNode[]> {
    if (node) return node.children ?? [];
    this.roots ??= this.fetchRoots();
    return this.roots;
  }

  /** The server's tree (or a row saying why there is none); every tree received goes to `onTree`. */
  private fetchRoots(): Promise<StackTreeNode[]> {
    return this.client.sendRequest(stacksTreeRequest, this.filter ? { filter: this.filter } : {}).then(
      (tree) => {
        this.onTree(tree.nodes);
        return tree.nodes;
      },
      (error: unknown) => [
        {
          id: 'message:client-error',
          kind: 'message',
          label: 'The stacks could not be read from the language server',
          description: error instanceof Error ? error.message : String(error),
          collapsible: 'none',
          message: { reason: 'client-error' },
        } satisfies StackTreeNode,
      ],
    );
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/**
 * The node a command was run on: the one a context menu passes, the running stack a progress
 * notification's link names by id, else the selected one.
 */
function nodeOf(argument: unknown, view: vscode.TreeView<StackTreeNode>, progress?: DeploymentProgress): StackTreeNode | undefined {
  if (argument && typeof argument === 'object' && 'id' in argument && 'kind' in argument) return argument as StackTreeNode;
  if (typeof argument === 'string') return progress?.nodeById(argument);
  return view.selection[0];
}

/** Shows a deployment's end the way its outcome deserves, with a way to its timeline and to the console. */
async function announce(ended: DeploymentEnded, timelines: TimelinePanels): Promise<void> {
  const { severity, text } = deploymentMessage(ended);
  const showTimeline = 'Show Timeline';
  const openConsole = 'Open in AWS Console';
  const picked =
    severity === 'error'
      ? await vscode.window.showErrorMessage(text, showTimeline, openConsole)
      : severity === 'warning'
        ? await vscode.window.showWarningMessage(text, showTimeline, openConsole)
        : await vscode.window.showInformationMessage(text, showTimeline, openConsole);
  if (picked === showTimeline) timelines.show(ended.region, ended.stackId, ended.stackName);
  if (picked === openConsole) await vscode.env.openExternal(vscode.Uri.parse(ended.consoleUrl));
}

/** The rows under `node` (the roots when undefined), each read as the view reads it. */
async function rowsOf(provider: StacksTreeProvider, node?: StackTreeNode): Promise<StacksViewRow[]> {
  const nodes = (await provider.getChildren(node)) ?? [];
  return Promise.all(
    nodes.map(async (child) => {
      const item = provider.getTreeItem(child);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const description = typeof item.description === 'string' ? item.description : undefined;
      return { label, description, contextValue: item.contextValue, children: await rowsOf(provider, child) };
    }),
  );
}

/** Registers the stacks view, its commands and its notifications; returns a reader of its rows. */
export function registerStacksView(context: vscode.ExtensionContext, client: LanguageClient): () => Promise<StacksViewRow[]> {
  const progress = new DeploymentProgress((node) => follow(node, false), stacksCommands);
  const provider = new StacksTreeProvider(client, (nodes) => progress.update(nodes));
  const view = vscode.window.createTreeView(stacksViewId, { treeDataProvider: provider, showCollapseAll: true });
  const templates = new DeployedTemplates(client);
  const timelines = new TimelinePanels(client);
  // The client sends asynchronously (the first send waits for the server to start), so sends
  // are queued and each reads the view's state when it goes out: the server always ends up with
  // the current one, never a stale "hidden" that would stop its polling.
  let visibilitySent: Promise<unknown> = Promise.resolve();
  const sendVisibility = () => {
    visibilitySent = visibilitySent
      .then(() => client.sendNotification(stacksVisibilityNotification, { visible: view.visible }))
      .catch(() => undefined);
  };
  const follow = (node: StackTreeNode, follow: boolean) => {
    if (node.kind !== 'stack' || !node.data?.region || !node.data.stackId) return;
    void client.sendNotification(stacksFollowNotification, { region: node.data.region, stackId: node.data.stackId, follow }).catch(() => undefined);
  };
  const setFilter = (filter: string) => {
    provider.filter = filter.trim();
    view.description = provider.filter ? `filter: ${provider.filter}` : undefined;
    void vscode.commands.executeCommand('setContext', filteredContextKey, provider.filter !== '');
    provider.reload();
  };
  const copy = async (value: string | undefined, what: string) => {
    if (!value) return;
    await vscode.env.clipboard.writeText(value);
    vscode.window.setStatusBarMessage(`Copied the ${what}.`, 3000);
  };

  context.subscriptions.push(
    provider,
    progress,
    view,
    templates,
    timelines,
    vscode.workspace.registerTextDocumentContentProvider(deployedTemplateScheme, templates),
    view.onDidChangeVisibility(() => sendVisibility()),
    view.onDidExpandElement((event) => follow(event.element, true)),
    view.onDidCollapseElement((event) => follow(event.element, false)),
    client.onNotification(stacksChangedNotification, () => {
      provider.reload();
      timelines.refreshAll();
    }),
    client.onNotification(deploymentEndedNotification, (ended) => void announce(ended, timelines)),
    vscode.commands.registerCommand(stacksCommands.refresh, () =>
      vscode.window.withProgress({ location: { viewId: stacksViewId } }, async () => {
        await client.sendRequest(stacksRefreshRequest, {}).catch(() => undefined);
        provider.reload();
      }),
    ),
    vscode.commands.registerCommand(stacksCommands.filter, async () => {
      const filter = await vscode.window.showInputBox({
        title: 'Filter stacks',
        prompt: 'Part of a stack name or status (empty shows every stack)',
        value: provider.filter,
      });
      if (filter !== undefined) setFilter(filter);
    }),
    vscode.commands.registerCommand(stacksCommands.clearFilter, () => setFilter('')),
    vscode.commands.registerCommand(stacksCommands.stopFollowing, (argument: unknown) => {
      const node = nodeOf(argument, view, progress);
      if (node?.kind === 'stack') progress.stopFollowing(node);
    }),
    vscode.commands.registerCommand(stacksCommands.openTemplate, async (argument: unknown) => {
      const node = nodeOf(argument, view);
      if (node?.data?.region && node.data.stackId) await templates.open(node.data.region, node.data.stackId, node.data.stackName ?? node.label);
    }),
    vscode.commands.registerCommand(stacksCommands.linkToTemplate, async (argument: unknown) => {
      const node = nodeOf(argument, view);
      if (node?.data?.stackName) await linkStack(client, context.workspaceState, { stackName: node.data.stackName, region: node.data.region });
    }),
    vscode.commands.registerCommand(stacksCommands.copyArn, (argument: unknown) => copy(nodeOf(argument, view)?.data?.stackId, 'stack ARN')),
    vscode.commands.registerCommand(stacksCommands.copyPhysicalId, (argument: unknown) =>
      copy(nodeOf(argument, view)?.data?.physicalId, 'physical id'),
    ),
    vscode.commands.registerCommand(stacksCommands.showTimeline, (argument: unknown) => {
      const node = nodeOf(argument, view, progress);
      if (node?.data?.region && node.data.stackId) timelines.show(node.data.region, node.data.stackId, node.data.stackName ?? node.label, node.data.operation);
    }),
    vscode.commands.registerCommand(stacksCommands.detectDrift, async (argument: unknown) => {
      const node = nodeOf(argument, view);
      if (node?.data?.region && node.data.stackName) await detectDrift(client, node.data.region, node.data.stackName);
    }),
    vscode.commands.registerCommand(stacksCommands.openConsole, async (argument: unknown) => {
      const url = nodeOf(argument, view)?.data?.consoleUrl;
      if (url) await vscode.env.openExternal(vscode.Uri.parse(url));
    }),
  );
  // The view may already be showing (restored with the window, or the reason for activation).
  // A hidden view says nothing: the server starts hidden, and a notification would start the
  // server itself (the client starts on its first message) for nobody.
  if (view.visible) sendVisibility();
  return () => rowsOf(provider);
}

/**
 * Detects a stack's drift, the one action that starts something in AWS (it changes no resource,
 * only the drift status CloudFormation records): only when a person asks, never in an untrusted
 * workspace, with its progress shown until the detection ends.
 */
async function detectDrift(client: LanguageClient, region: string, stackName: string): Promise<void> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Drift is not detected in an untrusted workspace.');
    return;
  }
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Detecting drift of ${stackName}…` }, () =>
    client.sendRequest(detectDriftRequest, { region, stackName }).catch((error: unknown) => ({ ok: false as const, message: String(error) })),
  );
  if (result.ok) void vscode.window.showInformationMessage(`${stackName}: ${result.message}`);
  else void vscode.window.showErrorMessage(`${stackName}: ${result.message}`);
}
