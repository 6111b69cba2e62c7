/**
 * How far the current operation of a stack has got, and how long it will still take: pure
 * functions of what the watcher read and of a time passed in. A resource counts as done once its
 * latest event of the operation says it finished (`*_COMPLETE`, `*_SKIPPED`), as `cdk deploy`
 * counts; resources the operation has not touched yet are pending (those the stack has, those the
 * template being deployed declares, those events reveal), and once the stack is no longer running
 * everything is done. Time left is learned from this stack's own history (how long each
 * resource took in earlier operations), else from the typical durations of its type.
 */
import { isCleanupPhase, isRunning } from '../cloudformation/stackLifecycle';
import { isStackEvent } from './stackModel';
import type { StackEvent } from './types';
import type { ProgressFigures } from '../present';

/** How long resources took in earlier operations, in milliseconds: by logical id and by resource type. */
export interface LearnedDurations {
  byLogicalId: Record<string, number>;
  byType: Record<string, number>;
}

/**
 * The current operation's progress, as `cfn-impact watch --json` prints it: the figures every face
 * words (present/'s `ProgressFigures`, which present/ declares since it may not import this module).
 */
export type OperationProgress = ProgressFigures;

/** What progress is computed from: a stack snapshot has these fields. */
export interface ProgressInput {
  status: string;
  deploymentMode?: string;
  operation?: { startedAt: number; endedAt?: number };
  resources: readonly { logicalId: string; resourceType: string; physicalId?: string }[];
  /** Newest first, as snapshots hold them. */
  events: readonly StackEvent[];
  /** The resources the operation rolls out, from the template being deployed, when it was read. */
  planned?: readonly { logicalId: string; resourceType: string }[];
}

/**
 * Typical durations by resource type when the stack's history has none, rounded from the
 * CloudFormation console's timelines of ordinary deployments: most resources take seconds, some
 * take minutes because CloudFormation waits for them to stabilise.
 */
const TYPICAL_DURATION_MS: Readonly<Record<string, number>> = {
  'AWS::CloudFront::Distribution': 300_000,
  'AWS::RDS::DBInstance': 600_000,
  'AWS::RDS::DBCluster': 480_000,
  'AWS::ElastiCache::ReplicationGroup': 600_000,
  'AWS::EC2::Instance': 60_000,
  'AWS::EC2::NatGateway': 120_000,
  'AWS::EKS::Cluster': 600_000,
  'AWS::ECS::Service': 180_000,
  'AWS::CloudFormation::Stack': 120_000,
  'AWS::Lambda::Function': 15_000,
  'AWS::IAM::Role': 20_000,
};
/** Any other type: most resources are created or updated within half a minute. */
const DEFAULT_DURATION_MS = 30_000;

/** No history: every estimate comes from the typical durations. */
export const NO_HISTORY: LearnedDurations = { byLogicalId: {}, byType: {} };

/**
 * Learns how long each resource took from a stack's events (in any order): from a resource's
 * first `*_IN_PROGRESS` event to the `*_COMPLETE` that follows it. The latest such span of a
 * logical id wins; a type gets the mean of its resources' spans.
 */
export function learnDurations(events: readonly StackEvent[]): LearnedDurations {
  const oldestFirst = [...events].sort((a, b) => a.timestamp - b.timestamp);
  const started = new Map<string, number>();
  const byLogicalId: Record<string, number> = {};
  const typeSpans = new Map<string, number[]>();
  for (const event of oldestFirst) {
    if (isStackEvent(event)) continue;
    if (event.status.endsWith('_IN_PROGRESS')) {
      if (!started.has(event.logicalId)) started.set(event.logicalId, event.timestamp);
      continue;
    }
    const start = started.get(event.logicalId);
    started.delete(event.logicalId);
    if (start === undefined || !event.status.endsWith('_COMPLETE')) continue;
    const span = event.timestamp - start;
    byLogicalId[event.logicalId] = span;
    const spans = typeSpans.get(event.resourceType) ?? [];
    spans.push(span);
    typeSpans.set(event.resourceType, spans);
  }
  const byType: Record<string, number> = {};
  for (const [type, spans] of typeSpans) byType[type] = Math.round(spans.reduce((a, b) => a + b, 0) / spans.length);
  return { byLogicalId, byType };
}

/** The expected duration of one resource: its own history, its type's in this stack, else the typical one. */
export function expectedDuration(logicalId: string, resourceType: string, learned: LearnedDurations): number {
  return learned.byLogicalId[logicalId] ?? learned.byType[resourceType] ?? TYPICAL_DURATION_MS[resourceType] ?? DEFAULT_DURATION_MS;
}

/**
 * The progress of the stack's current (or last) operation at `now`, or undefined when no
 * operation is known. Time left assumes the resources in progress run side by side and the
 * pending ones start when they finish, in parallel too: two waves, the longest of each.
 */
export function operationProgress(input: ProgressInput, learned: LearnedDurations, now: number): OperationProgress | undefined {
  const operation = input.operation;
  if (!operation) return undefined;
  const running = isRunning(input.status);
  const elapsedMs = Math.max(0, (running ? now : (operation.endedAt ?? now)) - operation.startedAt);

  const types = new Map<string, string>();
  const current = new Map<string, string | undefined>();
  for (const r of input.resources) {
    types.set(r.logicalId, r.resourceType);
    current.set(r.logicalId, r.physicalId);
  }
  // What the template being deployed declares counts from the start: a create's total does not grow.
  for (const r of input.planned ?? []) if (!types.has(r.logicalId)) types.set(r.logicalId, r.resourceType);
  // The latest status of each resource in this operation, and when it started working in it.
  const latest = new Map<string, string>();
  const startedAt = new Map<string, number>();
  let stackStatus = '';
  for (let i = input.events.length - 1; i >= 0; i--) {
    const event = input.events[i];
    if (event.timestamp < operation.startedAt) continue;
    if (isStackEvent(event)) {
      stackStatus = event.status;
      continue;
    }
    types.set(event.logicalId, event.resourceType);
    // Cleanup deletes of the physical resources a replacement superseded do not move the resource itself.
    const known = current.get(event.logicalId);
    if (isCleanupPhase(stackStatus) && event.status.startsWith('DELETE_') && known !== undefined && event.physicalId !== known) continue;
    if (event.status.endsWith('_IN_PROGRESS') && !(latest.get(event.logicalId) ?? '').endsWith('_IN_PROGRESS')) {
      startedAt.set(event.logicalId, event.timestamp);
    }
    latest.set(event.logicalId, event.status);
  }

  const total = types.size;
  if (!running) return { done: total, total, inProgress: 0, failed: countFailed(latest), elapsedMs, etaMs: 0, stabilising: 0 };
  let done = 0;
  let inProgress = 0;
  let failed = 0;
  let firstWave = 0;
  let secondWave = 0;
  for (const [logicalId, type] of types) {
    const status = latest.get(logicalId);
    const expected = expectedDuration(logicalId, type, learned);
    if (status === undefined) {
      secondWave = Math.max(secondWave, expected);
    } else if (status.endsWith('_IN_PROGRESS')) {
      inProgress++;
      firstWave = Math.max(firstWave, expected - (now - (startedAt.get(logicalId) ?? now)));
    } else if (status.endsWith('_FAILED')) {
      failed++;
    } else {
      done++;
    }
  }
  const stabilising = isExpress(input) ? done : 0;
  return { done, total, inProgress, failed, elapsedMs, etaMs: Math.max(0, firstWave) + secondWave, stabilising };
}

/** Whether the stack deploys in express mode, where `*_COMPLETE` means configured, not yet ready. */
export function isExpress(input: { deploymentMode?: string }): boolean {
  return input.deploymentMode === 'EXPRESS';
}

function countFailed(latest: ReadonlyMap<string, string>): number {
  let failed = 0;
  for (const status of latest.values()) if (status.endsWith('_FAILED')) failed++;
  return failed;
}
