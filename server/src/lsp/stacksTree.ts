/**
 * The pure parts of the stacks view on the server: what the tree shows around the stacks module's
 * nodes (reading…, empty, no region, untrusted), which language a deployed template is in, and
 * the deployment-ended message built from an operation summary.
 */
import type { OperationSummary } from '../stacks/stackModel';
import type { TreeNode } from '../stacks/treeModel';
import type { WatcherSnapshot } from '../stacks/stackWatcher';
import type { ReaderError } from '../stacks/types';
import type { DeploymentEnded } from './protocol';

/** A message node: a leaf that tells a person what is going on or what to do. */
function messageNode(id: string, label: string, description: string | undefined, icon: string, contextValue: string): TreeNode {
  const node: TreeNode = { id, kind: 'message', label, icon, collapsible: 'none', contextValue };
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
export function completeRegionNode(region: TreeNode, snapshot: WatcherSnapshot, filter: string | undefined): TreeNode {
  const children = region.children ?? [];
  for (const child of children) {
    if (child.kind === 'stack' && (child.children?.length ?? 0) === 0) {
      child.children = [messageNode(`${child.id}:reading`, 'Reading resources and events…', undefined, 'loading~spin', 'message.reading')];
    }
  }
  const hasStacks = children.some((child) => child.kind === 'stack');
  if (!hasStacks && !snapshot.error) {
    const key = region.id;
    const wanted = filter?.trim();
    if (snapshot.listedAt === undefined) {
      children.push(messageNode(`${key}:reading`, snapshot.paused ? 'Not read yet' : 'Reading stacks…', undefined, 'loading~spin', 'message.reading'));
    } else if (wanted && snapshot.stacks.length > 0) {
      children.push(messageNode(`${key}:no-match`, `No stack matches “${wanted}”`, 'Clear the filter to see every stack.', 'filter', 'message.no-match'));
    } else {
      children.push(messageNode(`${key}:empty`, `No stacks in ${snapshot.region}`, undefined, 'info', 'message.empty'));
    }
  }
  region.children = children;
  return region;
}

/** The node shown instead of a region whose reader could not be set up (no region, bad profile). */
export function readerFailureNode(configuredRegion: string | undefined, error: ReaderError): TreeNode {
  if (error.kind === 'unknown-region' && configuredRegion === undefined) {
    return messageNode(
      'message:no-region',
      'No AWS region is configured',
      'Click to select regions (the cfnImpact.aws.regions user setting), or set AWS_REGION or a region in your AWS profile.',
      'gear',
      'message.no-region',
    );
  }
  const node = messageNode(
    `message:reader:${configuredRegion ?? 'default'}`,
    configuredRegion ? `${configuredRegion}: ${error.message}` : error.message,
    error.fix,
    'error',
    `message.${error.kind}`,
  );
  node.color = 'charts.red';
  return node;
}

/** The only node of an untrusted workspace: no AWS call is made there. */
export function untrustedNode(): TreeNode {
  return messageNode(
    'message:untrusted',
    'Stacks are not read in an untrusted workspace',
    'Trust the workspace to read stacks from AWS.',
    'shield',
    'message.untrusted',
  );
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
  if (cause && operation.outcome === 'failed') {
    ended.rootCause = cause.reason !== undefined
      ? { logicalId: cause.logicalId, status: cause.status, reason: cause.reason }
      : { logicalId: cause.logicalId, status: cause.status };
  }
  return ended;
}
