/**
 * The pure parts of the stacks view on the server: the stacks module's tree turned into the
 * protocol's nodes, what the tree shows around the stacks (reading…, empty, no region,
 * untrusted), which language a deployed template is in, and the deployment-ended message built
 * from an operation summary.
 */
import type { ValidationFailure } from '../stacks/earlyValidation';
import type { OperationSummary } from '../stacks/stackModel';
import type { TreeNode } from '../stacks/treeModel';
import type { WatcherSnapshot } from '../stacks/stackWatcher';
import type { ReaderError } from '../stacks/types';
import type { DeploymentEnded, StackTreeNode } from './protocol';

/**
 * The protocol's node for a node of the stacks module, children included. Every field is copied
 * by name, so the wire format stays what protocol.ts declares whatever the module's model becomes.
 */
export function stackTreeNode(node: TreeNode): StackTreeNode {
  const out: StackTreeNode = { id: node.id, kind: node.kind, label: node.label, collapsible: node.collapsible };
  if (node.description !== undefined) out.description = node.description;
  if (node.tooltip !== undefined) out.tooltip = node.tooltip;
  if (node.region) out.region = { stacks: node.region.stacks, inProgress: node.region.inProgress, readFailed: node.region.readFailed };
  if (node.stack) {
    out.stack = { status: node.stack.status, phase: node.stack.phase, leftBehind: node.stack.leftBehind };
    if (node.stack.progress) out.stack.progress = { ...node.stack.progress };
    if (node.stack.followed) out.stack.followed = true;
  }
  if (node.resource) {
    const { status, kind, cleanup } = node.resource;
    out.resource = cleanup ? { status, kind, cleanup: { status: cleanup.status, kind: cleanup.kind } } : { status, kind };
  }
  if (node.readError !== undefined) out.message = { reason: 'read-failed', readError: node.readError };
  if (node.data) out.data = actionData(node.data);
  if (node.children) out.children = node.children.map(stackTreeNode);
  return out;
}

function actionData(data: NonNullable<TreeNode['data']>): NonNullable<StackTreeNode['data']> {
  const out: NonNullable<StackTreeNode['data']> = {};
  if (data.region !== undefined) out.region = data.region;
  if (data.stackId !== undefined) out.stackId = data.stackId;
  if (data.stackName !== undefined) out.stackName = data.stackName;
  if (data.logicalId !== undefined) out.logicalId = data.logicalId;
  if (data.physicalId !== undefined) out.physicalId = data.physicalId;
  if (data.consoleUrl !== undefined) out.consoleUrl = data.consoleUrl;
  if (data.operation !== undefined) out.operation = { ...data.operation };
  return out;
}

type MessageState = NonNullable<StackTreeNode['message']>;

/** A message node: a leaf that tells a person what is going on or what to do. */
function messageNode(id: string, label: string, description: string | undefined, message: MessageState): StackTreeNode {
  const node: StackTreeNode = { id, kind: 'message', label, collapsible: 'none', message };
  if (description) {
    node.description = description;
    node.tooltip = `${label}\n${description}`;
  }
  return node;
}

/**
 * Completes a region node built by `buildStackTree`: a "reading" line before the first listing,
 * an "empty" line when a listing (or the filter) leaves no stack, and a "reading" line under
 * stacks whose resources and events are not loaded yet, so that expanding one never shows nothing.
 */
export function completeRegionNode(region: StackTreeNode, snapshot: WatcherSnapshot, filter: string | undefined): StackTreeNode {
  const children = region.children ?? [];
  for (const child of children) if (child.kind === 'stack') completeStackNode(child);
  const hasStacks = children.some((child) => child.kind === 'stack');
  if (!hasStacks && !snapshot.error) {
    const key = region.id;
    const wanted = filter?.trim();
    if (snapshot.listedAt === undefined) {
      children.push(messageNode(`${key}:reading`, snapshot.paused ? 'Not read yet' : 'Reading stacks…', undefined, { reason: 'reading' }));
    } else if (wanted && snapshot.stacks.length > 0) {
      children.push(messageNode(`${key}:no-match`, `No stack matches “${wanted}”`, 'Clear the filter to see every stack.', { reason: 'no-match' }));
    } else {
      children.push(messageNode(`${key}:empty`, `No stacks in ${snapshot.region}`, undefined, { reason: 'empty' }));
    }
  }
  region.children = children;
  return region;
}

/** A "reading" line under a stack whose resources and events are not loaded yet, and under its nested stacks alike. */
function completeStackNode(stack: StackTreeNode): void {
  if ((stack.children?.length ?? 0) === 0) {
    stack.children = [messageNode(`${stack.id}:reading`, 'Reading resources and events…', undefined, { reason: 'reading' })];
    return;
  }
  for (const group of stack.children ?? []) {
    if (group.kind !== 'resources') continue;
    for (const row of group.children ?? []) if (row.kind === 'stack') completeStackNode(row);
  }
}

/** The node shown instead of a region whose reader could not be set up (no region, bad profile). */
export function readerFailureNode(configuredRegion: string | undefined, error: ReaderError): StackTreeNode {
  if (error.kind === 'unknown-region' && configuredRegion === undefined) {
    return messageNode(
      'message:no-region',
      'No AWS region is configured',
      'Click to select regions (the cfnImpact.aws.regions user setting), or set AWS_REGION or a region in your AWS profile.',
      { reason: 'no-region' },
    );
  }
  return messageNode(
    `message:reader:${configuredRegion ?? 'default'}`,
    configuredRegion ? `${configuredRegion}: ${error.message}` : error.message,
    error.fix,
    { reason: 'read-failed', readError: error.kind },
  );
}

/** The only node of an untrusted workspace: no AWS call is made there. */
export function untrustedNode(): StackTreeNode {
  return messageNode('message:untrusted', 'Stacks are not read in an untrusted workspace', 'Trust the workspace to read stacks from AWS.', { reason: 'untrusted' });
}

/** Whether a template body is JSON (it opens with a brace) or YAML. */
export function templateLanguage(body: string): 'json' | 'yaml' {
  return /^\s*\{/.test(body) ? 'json' : 'yaml';
}

/** The notification for an operation that ended, or undefined while it still runs. */
export function deploymentEndedOf(
  region: string,
  stack: { stackId: string; stackName: string },
  operation: OperationSummary,
  consoleUrl: string,
  rejected: readonly ValidationFailure[] = [],
): DeploymentEnded | undefined {
  if (operation.outcome === 'in-progress') return undefined;
  const ended: DeploymentEnded = {
    region,
    stackId: stack.stackId,
    stackName: stack.stackName,
    status: operation.status,
    outcome: operation.outcome,
    undeleted: operation.undeleted.map((u) => {
      const resource: DeploymentEnded['undeleted'][number] = { logicalId: u.logicalId, resourceType: u.resourceType };
      if (u.physicalId !== undefined) resource.physicalId = u.physicalId;
      if (u.reason !== undefined) resource.reason = u.reason;
      return resource;
    }),
    consoleUrl,
  };
  if (operation.reason !== undefined) ended.reason = operation.reason;
  const cause = operation.rootCause;
  const [check] = rejected;
  if (check && operation.outcome === 'failed') {
    // The stack's own failure event only says that validation rejected the update; the check says why.
    const validation: { name: string; path?: string } = { name: check.name };
    if (check.path !== undefined) validation.path = check.path;
    ended.rootCause = { logicalId: check.logicalId ?? stack.stackName, status: 'VALIDATION_FAILED', validation };
    if (check.reason !== undefined) ended.rootCause.reason = check.reason;
  } else if (cause && operation.outcome === 'failed') {
    ended.rootCause = cause.reason !== undefined
      ? { logicalId: cause.logicalId, status: cause.status, reason: cause.reason }
      : { logicalId: cause.logicalId, status: cause.status };
  }
  return ended;
}
