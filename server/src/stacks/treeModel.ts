/**
 * The stacks view as a tree of semantic state: region → stacks → Resources / Events, each node
 * with its words (label, description, tooltip) and what it stands for (phase, resource status
 * kind, counts, ids). How a node looks (icons, colours, menus) is the editor's choice, made from
 * that state. Pure: the clock is an input.
 */
import { resourceStatusKind, type ResourceStatusKind } from '../cloudformation/resourceStatus';
import { driftStatusWords } from '../present/drift';
import { ago, leftBehindCount, leftBehindText, operationHistoryLine, operationName, operationSummary, progressDetails, progressLine, rootCauseLine, statusWord } from '../present';
import { isFinal, isRunning, operationOutcome, stackPhase, stackStateInfo, type StackPhase } from '../cloudformation/stackLifecycle';
import { isStackEvent, type ResourceModel } from './stackModel';
import { NO_HISTORY, isExpress, operationProgress, type OperationProgress } from './operationProgress';
import { operationKey, recentOperations, type OperationKey, type OperationRecord } from './operationHistory';
import type { StackSnapshot, WatcherSnapshot } from './stackWatcher';
import type { ReaderError, ReaderErrorKind, StackEvent } from './types';

export type TreeNodeKind = 'region' | 'stack' | 'resources' | 'events' | 'resource' | 'physical' | 'event' | 'operations' | 'operation' | 'message';

/**
 * Where a stack stands, as its node tells it: the lifecycle phase of its status, with two
 * states a person reads apart from their phase: a stack waiting for its change set to be
 * executed (`in-review`) and a deleted one.
 */
export type StackNodePhase = StackPhase | 'in-review' | 'deleted';

/** A region: how many stacks it has, how many of them are in progress, whether its last read failed. */
export interface RegionNodeState {
  stacks: number;
  inProgress: number;
  readFailed: boolean;
}

/** A stack, or an event about the stack itself. */
export interface StackNodeState {
  status: string;
  phase: StackNodePhase;
  /** Resources the stack's last operation could not delete (0 while it runs, and for events). */
  leftBehind: number;
  /** A running operation's progress, once its events are read (stack nodes only). */
  progress?: OperationProgress;
  /** Someone follows the stack (its node was opened): its progress deserves a notification. */
  followed?: boolean;
  /** The stack's drift status as its last detection left it (`DRIFTED`, `IN_SYNC`, `NOT_CHECKED`). */
  drift?: string;
}

/** A resource, a physical resource it replaced, or an event about a resource. */
export interface ResourceNodeState {
  status: string;
  kind: ResourceStatusKind;
  /** The delete of the resource's old physical resource in a cleanup phase, while one is known. */
  cleanup?: { status: string; kind: ResourceStatusKind };
}

export interface TreeNode {
  id: string;
  kind: TreeNodeKind;
  label: string;
  description?: string;
  tooltip?: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  region?: RegionNodeState;
  stack?: StackNodeState;
  resource?: ResourceNodeState;
  /** Message nodes: the kind of the failed read they report. */
  readError?: ReaderErrorKind;
  /** What actions need: open the template, copy ids, open the console. */
  data?: {
    region?: string;
    stackId?: string;
    stackName?: string;
    logicalId?: string;
    physicalId?: string;
    consoleUrl?: string;
    /** An operation node's operation, for its timeline. */
    operation?: OperationKey;
  };
  children?: TreeNode[];
}

export interface RegionInput {
  region: string;
  profile?: string;
  snapshot: WatcherSnapshot;
}

export interface TreeInput {
  regions: RegionInput[];
  /** Case-insensitive substring a stack name (or status) must contain. */
  filter?: string;
  /** The current time, for "5 min ago". */
  now: number;
}

/** Builds the whole tree. Stacks without loaded details have no children yet (the client follows them on expand). */
export function buildStackTree(input: TreeInput): TreeNode[] {
  return input.regions.map((r) => regionNode(r, input));
}

function regionNode(input: RegionInput, tree: TreeInput): TreeNode {
  const { region, snapshot } = input;
  const filter = tree.filter?.trim().toLowerCase();
  const byId = new Map(snapshot.stacks.map((s) => [s.stackId, s]));
  // A nested stack is shown under its parent's resource, when the parent is listed too.
  const stacks = snapshot.stacks
    .filter((s) => s.parentId === undefined || !byId.has(s.parentId))
    .filter((s) => !filter || s.stackName.toLowerCase().includes(filter) || s.status.toLowerCase().includes(filter) || statusWord(s.status).includes(filter))
    .sort(compareStacks);
  const running = snapshot.stacks.filter((s) => stackPhase(s.status) === 'in-progress').length;
  const children: TreeNode[] = [];
  if (snapshot.error) children.push(errorNode(`region:${region}:error`, snapshot.error));
  for (const stack of stacks) children.push(stackNode(stack, { region, now: tree.now, byId, depth: 0 }));
  const counts = `${snapshot.stacks.length} stack${snapshot.stacks.length === 1 ? '' : 's'}${running ? ` · ${running} in progress` : ''}`;
  const node: TreeNode = {
    id: `region:${input.profile ?? ''}:${region}`,
    kind: 'region',
    label: input.profile ? `${input.profile} · ${region}` : region,
    description: filter ? `${counts} · filter “${tree.filter?.trim()}”` : counts,
    collapsible: 'expanded',
    region: { stacks: snapshot.stacks.length, inProgress: running, readFailed: snapshot.error !== undefined },
    data: { region },
    children,
  };
  if (snapshot.paused) node.tooltip = 'Polling is paused while the view is hidden.';
  return node;
}

function lastChange(s: StackSnapshot): number {
  return s.lastUpdatedTime ?? s.creationTime;
}

/** In-progress stacks first, then the most recently changed. */
function compareStacks(a: StackSnapshot, b: StackSnapshot): number {
  const ar = stackPhase(a.status) === 'in-progress' ? 0 : 1;
  const br = stackPhase(b.status) === 'in-progress' ? 0 : 1;
  if (ar !== br) return ar - br;
  return lastChange(b) - lastChange(a) || a.stackName.localeCompare(b.stackName);
}

/** The phase a stack node shows for a stack status. */
function stackNodePhase(status: string): StackNodePhase {
  const phase = stackPhase(status);
  // REVIEW_IN_PROGRESS is in progress, yet nothing runs: the stack waits for its change set.
  if (phase === 'in-progress' && !isRunning(status)) return 'in-review';
  // DELETE_COMPLETE completes the stack's life: it is the one state a stack never leaves.
  if (isFinal(status)) return 'deleted';
  return phase;
}

/** The AWS console page of a stack. */
export function consoleUrl(region: string, stackId: string): string {
  return `https://${region}.console.aws.amazon.com/cloudformation/home?region=${region}#/stacks/stackinfo?stackId=${encodeURIComponent(stackId)}`;
}

/** Where a stack node is drawn: its region, the clock, the region's stacks by id (for nested stacks), how deep. */
interface StackPlace {
  region: string;
  now: number;
  byId: ReadonlyMap<string, StackSnapshot>;
  depth: number;
}

/** How many levels of nested stacks are drawn under a stack (CloudFormation's own nesting is bounded too). */
const MAX_NESTED_DRAWN = 5;

function stackNode(stack: StackSnapshot, place: StackPlace): TreeNode {
  const { region, now } = place;
  const operation = stack.operation;
  const leftBehind = operation && operation.outcome !== 'in-progress' ? operation.undeleted.length : 0;
  const running = stackPhase(stack.status) === 'in-progress';
  const info = stackStateInfo(stack.status);
  const tooltip = [`${stack.stackName} — ${stack.status}`];
  if (stack.statusReason) tooltip.push(stack.statusReason);
  if (info) tooltip.push(info.explanation);
  if (operation?.rootCause && operationOutcome(stack.status) !== 'succeeded') {
    const cause = operation.rootCause;
    tooltip.push(rootCauseLine(cause));
  }
  if (leftBehind > 0) tooltip.push(leftBehindText(operation!.undeleted));
  // Progress is shown while an operation runs and its events are read: afterwards the outcome says it all.
  const progress = running && stack.detailed ? operationProgress(stack, stack.durations ?? NO_HISTORY, now) : undefined;
  if (progress) tooltip.push(...progressDetails(progress, true));
  const description = progress ? [progressLine(stack.status, progress, true)] : [statusWord(stack.status), ago(lastChange(stack), now)];
  if (leftBehind > 0) description.push(leftBehindCount(leftBehind));
  // Drift is said on the row only when found; its state and age are always in the tooltip.
  if (!progress && stack.drift?.status === 'DRIFTED') description.push(driftStatusWords(stack.drift, now));
  tooltip.push(`Drift: ${driftStatusWords(stack.drift, now)}`);
  const children: TreeNode[] = [];
  if (stack.error) children.push(errorNode(`stack:${stack.stackId}:error`, stack.error));
  if (stack.detailed) {
    children.push(resourcesGroup(stack, place), eventsGroup(stack, now));
    // What the stack went through lately, and how long each operation took, from the events read.
    const operations = recentOperations(stack.events, stack.lastOperations);
    if (operations.length > 0) children.push(operationsGroup(stack, region, operations, now));
  }
  return {
    id: `stack:${stack.stackId}`,
    kind: 'stack',
    label: stack.stackName,
    description: description.join(' · '),
    tooltip: tooltip.join('\n'),
    collapsible: running ? 'expanded' : 'collapsed',
    stack: { status: stack.status, phase: stackNodePhase(stack.status), leftBehind, ...(progress ? { progress } : {}), ...(stack.followed ? { followed: true } : {}), ...(stack.drift ? { drift: stack.drift.status } : {}) },
    data: { region, stackId: stack.stackId, stackName: stack.stackName, consoleUrl: consoleUrl(region, stack.stackId) },
    children,
  };
}

function resourcesGroup(stack: StackSnapshot, place: StackPlace): TreeNode {
  const { region } = place;
  const resources = stack.resources.slice().sort((a, b) => a.logicalId.localeCompare(b.logicalId));
  return {
    id: `resources:${stack.stackId}`,
    kind: 'resources',
    label: 'Resources',
    description: String(resources.length),
    collapsible: stackPhase(stack.status) === 'in-progress' ? 'expanded' : 'collapsed',
    data: { region, stackId: stack.stackId, stackName: stack.stackName },
    children: resources.map((r) => {
      const nested = r.resourceType === 'AWS::CloudFormation::Stack' && r.physicalId !== undefined ? place.byId.get(r.physicalId) : undefined;
      return nested && place.depth < MAX_NESTED_DRAWN ? nestedStackNode(stack, r, nested, place) : resourceNode(stack, r, region, place.now);
    }),
  };
}

/**
 * A nested stack under its parent's resource: the nested stack's own node (its status and
 * progress, its resources, events and operations, and every stack action), named by the
 * resource's logical id, its tooltip led by what the parent says of the resource.
 */
function nestedStackNode(parent: StackSnapshot, r: ResourceModel, nested: StackSnapshot, place: StackPlace): TreeNode {
  const node = stackNode(nested, { ...place, depth: place.depth + 1 });
  node.label = r.logicalId;
  node.description = `nested · ${node.description ?? ''}`;
  node.tooltip = [`${r.logicalId} (AWS::CloudFormation::Stack) in ${parent.stackName}: ${r.status}${r.reason ? ` — ${r.reason}` : ''}`, `Nested stack ${nested.stackName}`, node.tooltip ?? ''].join('\n');
  return node;
}

function resourceNode(stack: StackSnapshot, r: ResourceModel, region: string, now: number): TreeNode {
  // In an express operation a resource reported complete is configured but may not be ready: it reads as stabilising until the operation ends.
  const stabilising = isExpress(stack) && isRunning(stack.status) && r.status.endsWith('_COMPLETE') && !r.status.startsWith('DELETE_');
  const description = stabilising ? [statusWord(r.status), 'stabilising'] : [statusWord(r.status)];
  if (r.cleanup) description.push(`cleanup: ${statusWord(r.cleanup.status)}`);
  // The physical id is in the tooltip: the row keeps to what fits the sidebar.
  const tooltip = [`${r.logicalId} (${r.resourceType})`, `Status: ${r.status}`];
  if (r.reason) tooltip.push(r.reason);
  if (r.physicalId) tooltip.push(`Physical id: ${r.physicalId}`);
  if (r.drift?.status === 'MODIFIED' || r.drift?.status === 'DELETED') description.push(driftStatusWords(r.drift, now));
  tooltip.push(`Drift: ${driftStatusWords(r.drift, now)}`);
  if (r.cleanup) {
    // DELETE_SKIPPED is a retained resource (DeletionPolicy: Retain): it leaves the stack but is not deleted.
    const what = r.cleanup.status === 'DELETE_SKIPPED' ? 'Removed from the stack and kept (DeletionPolicy)' : 'Being deleted in cleanup';
    tooltip.push(`${what}: ${r.cleanup.status}${r.cleanup.reason ? ` — ${r.cleanup.reason}` : ''}`);
  }
  for (const former of r.formerPhysical) tooltip.push(`Replaced ${former.physicalId}: ${former.status}${former.reason ? ` — ${former.reason}` : ''}`);
  const children = r.formerPhysical.map<TreeNode>((former) => ({
    id: `physical:${stack.stackId}:${r.logicalId}:${former.physicalId}`,
    kind: 'physical',
    label: former.physicalId,
    description: `replaced · ${statusWord(former.status)}`,
    tooltip: former.reason ? `${former.status} — ${former.reason}` : former.status,
    collapsible: 'none',
    resource: resourceState(former.status),
    data: { region, stackId: stack.stackId, stackName: stack.stackName, logicalId: r.logicalId, physicalId: former.physicalId },
  }));
  if (stabilising) tooltip.push('Express mode: configured; the resource may still be becoming ready.');
  const state = stabilising ? { status: r.status, kind: 'in-progress' as const } : resourceState(r.status);
  if (r.cleanup) state.cleanup = resourceState(r.cleanup.status);
  const node: TreeNode = {
    id: `resource:${stack.stackId}:${r.logicalId}`,
    kind: 'resource',
    label: r.logicalId,
    description: description.join(' · '),
    tooltip: tooltip.join('\n'),
    collapsible: children.length > 0 ? 'expanded' : 'none',
    resource: state,
    data: { region, stackId: stack.stackId, stackName: stack.stackName, logicalId: r.logicalId },
  };
  if (r.physicalId) node.data!.physicalId = r.physicalId;
  if (children.length > 0) node.children = children;
  return node;
}

function eventsGroup(stack: StackSnapshot, now: number): TreeNode {
  return {
    id: `events:${stack.stackId}`,
    kind: 'events',
    label: 'Events',
    description: String(stack.events.length),
    collapsible: 'collapsed',
    children: stack.events.map((e) => eventNode(stack, e, now)),
  };
}

function operationsGroup(stack: StackSnapshot, region: string, operations: OperationRecord[], now: number): TreeNode {
  return {
    id: `operations:${stack.stackId}`,
    kind: 'operations',
    label: 'Operations',
    description: String(operations.length),
    tooltip: operations.map(operationHistoryLine).join('\n'),
    collapsible: 'collapsed',
    children: operations.map((operation, index) => operationNode(stack, region, operation, index, now)),
  };
}

function operationNode(stack: StackSnapshot, region: string, operation: OperationRecord, index: number, now: number): TreeNode {
  const tooltip = [operationHistoryLine(operation), `Started ${new Date(operation.startedAt).toISOString()}`, `${operation.eventCount} events read`];
  if (operation.operationId) tooltip.push(`Operation id: ${operation.operationId}`);
  return {
    id: `operation:${stack.stackId}:${operation.operationId ?? `started-${operation.startedAt}-${index}`}`,
    kind: 'operation',
    label: operationName(operation.operationType),
    description: `${operationSummary(operation)} · ${ago(operation.startedAt, now)}`,
    tooltip: tooltip.join('\n'),
    collapsible: 'none',
    stack: { status: operation.status, phase: operationPhase(operation), leftBehind: 0 },
    data: { region, stackId: stack.stackId, stackName: stack.stackName, operation: operationKey(operation) },
  };
}

/** The phase an operation's icon shows: its outcome, whatever status it ended in. */
function operationPhase(operation: OperationRecord): StackNodePhase {
  if (operation.outcome === 'in-progress') return 'in-progress';
  return operation.outcome === 'succeeded' ? 'complete' : 'failed';
}

function eventNode(stack: StackSnapshot, e: StackEvent, now: number): TreeNode {
  const tooltip = [`${new Date(e.timestamp).toISOString()}  ${e.logicalId} (${e.resourceType})`, e.status];
  if (e.physicalId) tooltip.push(`Physical id: ${e.physicalId}`);
  if (e.reason) tooltip.push(e.reason);
  return {
    id: `event:${stack.stackId}:${e.eventId}`,
    kind: 'event',
    label: `${e.logicalId} ${e.status}`,
    description: e.reason ? `${ago(e.timestamp, now)} · ${e.reason}` : ago(e.timestamp, now),
    tooltip: tooltip.join('\n'),
    collapsible: 'none',
    ...(isStackEvent(e) ? { stack: { status: e.status, phase: stackNodePhase(e.status), leftBehind: 0 } } : { resource: resourceState(e.status) }),
    data: { stackId: stack.stackId, stackName: stack.stackName, logicalId: e.logicalId, ...(e.physicalId ? { physicalId: e.physicalId } : {}) },
  };
}

function errorNode(id: string, error: ReaderError): TreeNode {
  return {
    id,
    kind: 'message',
    label: error.message,
    description: error.fix,
    tooltip: `${error.message}\n${error.fix}`,
    collapsible: 'none',
    readError: error.kind,
  };
}

function resourceState(status: string): ResourceNodeState {
  return { status, kind: resourceStatusKind(status) };
}
