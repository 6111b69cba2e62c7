/**
 * One stack of the local endpoint: its history and scripted operation laid out on a timeline,
 * and what CloudFormation would answer about it at a given moment.
 */
import { createHash } from 'node:crypto';
import type { Scenario, ScenarioResource, ScriptedEvent } from './scenarios';

export interface EndpointEvent {
  eventId: string;
  logicalId: string;
  physicalId: string;
  resourceType: string;
  timestamp: number;
  status: string;
  reason?: string;
  row: 'set' | 'keep' | 'remove';
  /** The operation it belongs to: each user-initiated operation and each rollback has its own. */
  operationId?: string;
  operationType?: string;
  detailedStatus?: string;
  /** Set on a validation result, which only DescribeEvents reports. */
  validation?: ScriptedEvent['validation'];
}

export interface ResourceRow {
  logicalId: string;
  physicalId: string;
  resourceType: string;
  status: string;
  reason?: string;
  timestamp: number;
}

export interface StackView {
  exists: boolean;
  stackId: string;
  stackName: string;
  status: string;
  reason?: string;
  creationTime: number;
  lastUpdatedTime?: number;
  deletionTime?: number;
  /** Newest first, as DescribeStackEvents answers (no validation results). */
  events: EndpointEvent[];
  /** Newest first, with validation results: what DescribeEvents answers. */
  operationEvents: EndpointEvent[];
  resources: ResourceRow[];
  /** The stack's current parameter values. */
  parameters: Record<string, string>;
  /** For a nested stack, the id of its parent (and of the root stack, the parent here). */
  parentId?: string;
  /** `EXPRESS` for a stack deployed in express mode. */
  deploymentMode?: string;
  /** The latest operations, newest first: what `LastOperations` lists. */
  lastOperations: { operationType: string; operationId: string }[];
}

/**
 * How many operations `LastOperations` lists. The API reference says only "the most recent
 * operations"; this endpoint lists the last three, enough for an update and its rollback.
 */
const LAST_OPERATIONS = 3;

/** The operations of these events (oldest first), newest first and at most `LAST_OPERATIONS`. */
function lastOperations(oldestFirst: readonly EndpointEvent[]): { operationType: string; operationId: string }[] {
  const seen = new Map<string, string>();
  for (const event of oldestFirst) if (event.operationId && event.operationType) seen.set(event.operationId, event.operationType);
  return [...seen].reverse().slice(0, LAST_OPERATIONS).map(([operationId, operationType]) => ({ operationType, operationId }));
}

/** The operation a stack status starts, for OperationType; undefined when it continues one. */
function operationStarted(event: EndpointEvent): string | undefined {
  if (event.status.endsWith('ROLLBACK_IN_PROGRESS')) return 'ROLLBACK';
  // These statuses begin an operation, whoever started it (a nested stack's parent gives no reason).
  if (event.status === 'CREATE_IN_PROGRESS') return 'CREATE_STACK';
  if (event.status === 'UPDATE_IN_PROGRESS') return 'UPDATE_STACK';
  if (event.status === 'DELETE_IN_PROGRESS') return 'DELETE_STACK';
  return undefined;
}

const HOUR = 3_600_000;

/** The id (ARN) of a scripted stack: a name and a start time always give the same one. */
export function scriptedStackId(region: string, accountId: string, stackName: string, startAt: number): string {
  const hash = createHash('sha256').update(`${stackName}/${startAt}`).digest('hex');
  return `arn:aws:cloudformation:${region}:${accountId}:stack/${stackName}/${uuid(hash)}`;
}

/** A stack whose operation unfolds one step per `stepMs` from `startAt`. */
export class ScriptedStack {
  readonly stackId: string;
  readonly stackName: string;
  /** Events before the scripted operation, oldest first. */
  private readonly history: EndpointEvent[];
  /** Events of each step, oldest first within a step. */
  private readonly stepEvents: EndpointEvent[][];
  private cache?: { visible: number; view: StackView };
  /** The stack id of another scenario's stack on the same endpoint: a nested stack's physical id. */
  private readonly stackIdOf: (scenarioName: string) => string | undefined;
  /** The parent's id, for a nested stack whose parent is on the same endpoint. */
  private readonly parentId?: string;

  constructor(
    readonly scenario: Scenario,
    private readonly startAt: number,
    private readonly stepMs: number,
    options: { region: string; accountId: string; stackName?: string; stackIdOf?: (scenarioName: string) => string | undefined },
  ) {
    this.stackName = options.stackName ?? scenario.stackName;
    this.stackId = scriptedStackId(options.region, options.accountId, this.stackName, startAt);
    this.stackIdOf = options.stackIdOf ?? (() => undefined);
    const parentId = scenario.nestedIn !== undefined ? this.stackIdOf(scenario.nestedIn) : undefined;
    if (parentId !== undefined) this.parentId = parentId;
    this.history = this.buildHistory();
    this.stepEvents = scenario.steps.map((step, index) =>
      step.map((event, k) => this.toEvent(event, startAt + index * stepMs + k, `${index}.${k}`)),
    );
    this.assignOperations();
  }

  /** Gives every event the id of the operation it belongs to: a new one at each start, as CloudFormation does. */
  private assignOperations(): void {
    let operationId = '';
    let operationType = '';
    for (const event of [...this.history, ...this.stepEvents.flat()]) {
      const started = event.physicalId === this.stackId ? operationStarted(event) : undefined;
      if (started) {
        operationType = started;
        operationId = uuid(createHash('sha256').update(`${this.stackId}/operation/${event.eventId}`).digest('hex'));
      }
      event.operationId = operationId;
      event.operationType = operationType;
    }
  }

  /** The number of scripted steps that have happened at `now`. */
  visibleSteps(now: number): number {
    if (now < this.startAt) return 0;
    return Math.min(this.stepEvents.length, Math.floor((now - this.startAt) / this.stepMs) + 1);
  }

  /** Whether the scripted operation has fully played out at `now`. */
  finished(now: number): boolean {
    return this.visibleSteps(now) === this.stepEvents.length;
  }

  /** When the stack was created: two hours before the scripted operation for an existing stack, else when it starts. */
  get createdAt(): number {
    return this.scenario.existing ? this.startAt - 2 * HOUR : this.startAt;
  }

  /** Time at which the last step appears. */
  get endsAt(): number {
    return this.startAt + Math.max(0, this.stepEvents.length - 1) * this.stepMs;
  }

  /** What CloudFormation knows about the stack at `now`. */
  at(now: number): StackView {
    const visible = this.visibleSteps(now);
    if (this.cache?.visible === visible) return this.cache.view;
    const oldestFirst = [...this.history];
    for (let i = 0; i < visible; i++) oldestFirst.push(...this.stepEvents[i]);
    const view = this.project(oldestFirst);
    this.cache = { visible, view };
    return view;
  }

  private project(oldestFirst: EndpointEvent[]): StackView {
    const rows = new Map<string, ResourceRow>();
    let status = '';
    let reason: string | undefined;
    let creationTime = 0;
    let lastUpdatedTime: number | undefined;
    let deletionTime: number | undefined;
    for (const event of oldestFirst) {
      if (event.validation) continue;
      if (event.physicalId === this.stackId) {
        status = event.status;
        reason = event.reason;
        if (creationTime === 0) creationTime = event.timestamp;
        if (!event.status.startsWith('CREATE_') && event.status !== 'REVIEW_IN_PROGRESS') lastUpdatedTime = event.timestamp;
        if (event.status === 'DELETE_IN_PROGRESS') deletionTime = event.timestamp;
        continue;
      }
      if (event.row === 'remove') rows.delete(event.logicalId);
      else if (event.row === 'set') {
        rows.set(event.logicalId, {
          logicalId: event.logicalId,
          physicalId: event.physicalId,
          resourceType: event.resourceType,
          status: event.status,
          reason: event.reason,
          timestamp: event.timestamp,
        });
      }
    }
    return {
      exists: status !== '',
      stackId: this.stackId,
      stackName: this.stackName,
      status,
      reason,
      creationTime,
      lastUpdatedTime,
      deletionTime,
      operationEvents: [...oldestFirst].reverse(),
      events: oldestFirst.filter((e) => !e.validation).reverse(),
      resources: [...rows.values()],
      parameters: this.scenario.parameters ?? {},
      ...(this.scenario.deploymentMode ? { deploymentMode: this.scenario.deploymentMode } : {}),
      ...(this.parentId !== undefined ? { parentId: this.parentId } : {}),
      lastOperations: lastOperations(oldestFirst),
    };
  }

  private buildHistory(): EndpointEvent[] {
    const existing = this.scenario.existing;
    if (!existing) return [];
    const t0 = this.startAt - 2 * HOUR;
    const events: EndpointEvent[] = [];
    const stackEvent = (status: string, at: number, reason?: string) =>
      events.push(this.toEvent({ status, reason }, at, `h${events.length}`));
    const resourceEvent = (r: ScenarioResource, status: string, at: number, physicalId?: string, reason?: string) =>
      events.push(this.toEvent({ logicalId: r.logicalId, physicalId, status, reason }, at, `h${events.length}`, r.type));
    stackEvent('CREATE_IN_PROGRESS', t0, 'User Initiated');
    existing.resources.forEach((r, i) => {
      // A nested stack's physical id is the nested stack's id (an ARN), as CloudFormation gives it.
      const physicalId = r.nestedStack !== undefined ? (this.stackIdOf(r.nestedStack) ?? r.physicalId) : r.physicalId;
      resourceEvent(r, 'CREATE_IN_PROGRESS', t0 + 1000 + i);
      resourceEvent(r, 'CREATE_IN_PROGRESS', t0 + 2000 + i, physicalId, 'Resource creation Initiated');
      resourceEvent(r, r.status ?? 'CREATE_COMPLETE', t0 + 30_000 + i, physicalId);
    });
    stackEvent('CREATE_COMPLETE', t0 + 60_000);
    if (existing.status !== 'CREATE_COMPLETE') {
      // A no-change update that took the stack to its starting status, so the history has two operations.
      const t1 = this.startAt - HOUR;
      stackEvent('UPDATE_IN_PROGRESS', t1, 'User Initiated');
      if (existing.status === 'UPDATE_COMPLETE') stackEvent('UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', t1 + 10_000);
      stackEvent(existing.status, t1 + 20_000);
    }
    for (const r of existing.resources) {
      if (r.updatedAt === undefined) continue;
      resourceEvent(r, 'UPDATE_IN_PROGRESS', r.updatedAt - 1000, r.physicalId);
      resourceEvent(r, 'UPDATE_COMPLETE', r.updatedAt, r.physicalId);
    }
    return events;
  }

  private toEvent(event: ScriptedEvent, timestamp: number, seed: string, type?: string): EndpointEvent {
    const isStack = event.logicalId === undefined;
    const logicalId = event.logicalId ?? this.stackName;
    const resourceType = isStack ? 'AWS::CloudFormation::Stack' : (type ?? this.scenario.types[logicalId] ?? 'AWS::CloudFormation::WaitConditionHandle');
    const iso = new Date(timestamp).toISOString();
    const eventId = isStack
      ? uuid(createHash('sha256').update(`${this.stackName}/${seed}/${timestamp}`).digest('hex'))
      : `${logicalId}-${event.status}-${iso}`;
    const out: EndpointEvent = {
      eventId,
      logicalId,
      physicalId: isStack ? this.stackId : event.nestedStack !== undefined ? (this.stackIdOf(event.nestedStack) ?? '') : (event.physicalId ?? ''),
      resourceType,
      timestamp,
      status: event.status,
      row: isStack ? 'keep' : (event.row ?? 'set'),
    };
    if (event.reason !== undefined) out.reason = event.reason;
    if (event.detailedStatus !== undefined) out.detailedStatus = event.detailedStatus;
    if (event.validation !== undefined) {
      out.validation = event.validation;
      out.eventId = `validation-${event.validation.name}-${iso}`;
    }
    return out;
  }
}

function uuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
