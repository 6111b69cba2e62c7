/**
 * The text of a followed deployment's progress notification. Pure (no `vscode`), so that what the
 * notification says can be checked without an editor.
 */
import type { StackTreeNode } from '../../server/src/lsp/protocol';

/**
 * The stack's progress as its row describes it, and a link to its timeline: a window progress
 * notification has no buttons, but its message renders `[text](command:…)` links, whose
 * arguments are a JSON array in the query. The command gets what it needs of the stack's node.
 */
export function progressMessage(node: StackTreeNode, showTimelineCommand: string): string {
  const data = { region: node.data?.region, stackId: node.data?.stackId, stackName: node.data?.stackName };
  const target = { id: node.id, kind: node.kind, label: node.label, data };
  // Parentheses would end the link early: encodeURIComponent leaves them as they are.
  const query = encodeURIComponent(JSON.stringify([target])).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const link = `command:${showTimelineCommand}?${query}`;
  return `${node.description ?? ''} · [Show Timeline](${link})`;
}
