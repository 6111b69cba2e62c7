// Finds presentation in stacks tree nodes as a server sends them: the look of a node (its codicon,
// theme colour and menu context) is the client's choice, so none of it may travel on the wire.
import { treeItemLook } from '../../../client/src/stackTreeLook';
import type { StackTreeNode } from '../../../server/src/lsp/protocol';

/** Keys that would carry a look. */
const lookKeys = new Set(['icon', 'iconPath', 'color', 'colour', 'themeColor', 'contextValue']);

/** Values that are codicon or theme colour ids whatever the client: spinners, chart and test colours, foregrounds. */
const lookPattern = /~spin$|^charts\.|^testing\.|Foreground$/;

/**
 * Every key or string value of the nodes that is a look: a key from `lookKeys`, a value matching
 * `lookPattern`, or a value equal to an icon, a colour or a dotted context value the VS Code client
 * chooses for these very nodes. Empty when the nodes carry only words and state.
 */
export function lookInTransfer(nodes: readonly StackTreeNode[]): string[] {
  const chosen = new Set<string>();
  const visit = (node: StackTreeNode) => {
    const look = treeItemLook(node);
    if (look.icon) chosen.add(look.icon.icon);
    if (look.icon?.color) chosen.add(look.icon.color);
    if (look.contextValue.includes('.')) chosen.add(look.contextValue);
    node.children?.forEach(visit);
  };
  nodes.forEach(visit);
  const found: string[] = [];
  const scan = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (lookPattern.test(value) || chosen.has(value)) found.push(`${path} = ${JSON.stringify(value)}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => scan(item, `${path}[${index}]`));
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (lookKeys.has(key)) found.push(`${path}.${key}`);
        scan(inner, `${path}.${key}`);
      }
    }
  };
  scan(nodes, 'nodes');
  return found;
}
