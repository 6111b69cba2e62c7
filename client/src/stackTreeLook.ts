/**
 * How VS Code draws a node of the stacks tree: the codicon, the theme colour of the icon and the
 * context value that package.json's menus match (`viewItem =~ /^stack/`, `resource.physical`),
 * chosen from the semantic state the language server sends. Kept free of the vscode API, so the
 * choice can be tested on its own.
 */
import type { ResourceStatusKind, StackTreeNode, StackTreePhase } from '../../server/src/lsp/protocol';

/** A codicon id and, when the icon is coloured, a theme colour id. */
export interface Icon {
  icon: string;
  color?: string;
}

export interface TreeItemLook {
  icon?: Icon;
  contextValue: string;
}

const spinning: Icon = { icon: 'sync~spin', color: 'charts.blue' };
const done: Icon = { icon: 'check', color: 'charts.green' };
const warning: Icon = { icon: 'warning', color: 'charts.yellow' };
const failed: Icon = { icon: 'error', color: 'charts.red' };
const gone: Icon = { icon: 'trash', color: 'disabledForeground' };

/** The icon of a stack phase; a completed operation that left resources behind is a warning. */
export function stackIcon(phase: StackTreePhase, leftBehind: number): Icon {
  switch (phase) {
    case 'in-review':
      return { icon: 'eye', color: 'charts.blue' };
    case 'in-progress':
      return spinning;
    case 'complete':
      return leftBehind > 0 ? warning : done;
    case 'rolled-back':
      return warning;
    case 'deleted':
      return gone;
    case 'failed':
      return failed;
  }
}

/** The icon of a resource status kind. */
export function resourceIcon(kind: ResourceStatusKind): Icon {
  switch (kind) {
    case 'in-progress':
      return spinning;
    case 'failed':
      return failed;
    case 'deleted':
      return gone;
    case 'skipped':
      return { icon: 'debug-step-over', color: 'disabledForeground' };
    case 'complete':
      return done;
  }
}

/** The icon and context value of a node; a node without the state its kind needs gets no icon. */
export function treeItemLook(node: StackTreeNode): TreeItemLook {
  switch (node.kind) {
    case 'region':
      return withIcon(node.region?.readFailed ? warning : { icon: 'globe' }, 'region');
    case 'stack': {
      const phase = node.stack?.phase;
      // A stack waiting in review counts as running for the menus, as its status is *_IN_PROGRESS.
      const running = phase === 'in-progress' || phase === 'in-review';
      return withIcon(node.stack && stackIcon(node.stack.phase, node.stack.leftBehind), running ? 'stack.running' : 'stack');
    }
    case 'resources':
      return withIcon({ icon: 'symbol-class' }, 'resources');
    case 'events':
      return withIcon({ icon: 'history' }, 'events');
    case 'resource': {
      // A resource whose old physical resource could not be deleted in cleanup needs attention.
      const kind = node.resource?.cleanup?.kind === 'failed' ? 'failed' : node.resource?.kind;
      return withIcon(kind && resourceIcon(kind), node.data?.physicalId ? 'resource.physical' : 'resource');
    }
    case 'physical':
      return withIcon(node.resource && resourceIcon(node.resource.kind), 'resource.physical');
    case 'event':
      return withIcon(eventIcon(node), 'event');
    case 'operations':
      return withIcon({ icon: 'layers' }, 'operations');
    case 'operation':
      return withIcon(node.stack && stackIcon(node.stack.phase, 0), 'operation');
    case 'message':
      return messageLook(node.message);
  }
}

/** An event is in the past: one that was in progress shows a plain dot, since a spinner would say it still runs. */
function eventIcon(node: StackTreeNode): Icon | undefined {
  const icon = node.stack ? stackIcon(node.stack.phase, 0) : node.resource ? resourceIcon(node.resource.kind) : undefined;
  return icon === spinning ? { icon: 'circle-filled', color: spinning.color } : icon;
}

function messageLook(message: StackTreeNode['message']): TreeItemLook {
  switch (message?.reason) {
    case 'reading':
      return withIcon({ icon: 'loading~spin' }, 'message.reading');
    case 'empty':
      return withIcon({ icon: 'info' }, 'message.empty');
    case 'no-match':
      return withIcon({ icon: 'filter' }, 'message.no-match');
    case 'no-region':
      return withIcon({ icon: 'gear' }, 'message.no-region');
    case 'untrusted':
      return withIcon({ icon: 'shield' }, 'message.untrusted');
    case 'client-error':
      return withIcon({ icon: 'error' }, 'message.client-error');
    case 'read-failed': {
      // Throttling passes by itself (the watcher backs off); every other failure needs a fix.
      const throttled = message.readError === 'throttled';
      return withIcon(throttled ? { icon: 'watch', color: 'charts.yellow' } : failed, `message.${message.readError ?? 'read-failed'}`);
    }
    default:
      return { contextValue: 'message' };
  }
}

function withIcon(icon: Icon | undefined, contextValue: string): TreeItemLook {
  return icon ? { icon, contextValue } : { contextValue };
}
