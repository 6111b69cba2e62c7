/**
 * The text of a followed deployment's progress notification. Pure (no `vscode`), so that what the
 * notification says can be checked without an editor.
 */
import type { StackTreeNode } from '../../server/src/lsp/protocol';

/**
 * The stack's progress as its row describes it, and two links: one to its timeline, one that stops
 * following it (the notification itself cannot be cancelled: a CloudFormation user would read a
 * Cancel there as cancelling the update). A window progress notification has no buttons, but its
 * message renders `[text](command:…)` links, whose arguments are a JSON array in the query. Each
 * link passes the stack's node id only, which the commands look up: VS Code cuts a notification's
 * message at 1,000 characters, and two copies of a node would not fit.
 */
export function progressMessage(node: StackTreeNode, commands: { showTimeline: string; stopFollowing: string }): string {
  // Parentheses would end the link early: encodeURIComponent leaves them as they are.
  const query = encodeURIComponent(JSON.stringify([node.id])).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${node.description ?? ''} · [Show Timeline](command:${commands.showTimeline}?${query}) · [Stop Following](command:${commands.stopFollowing}?${query})`;
}
