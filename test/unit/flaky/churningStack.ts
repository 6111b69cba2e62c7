/**
 * A stack for long watches: created an hour before `startAt`, then updated every `periodMs`,
 * each update touching every resource (2 events each) between three stack events. Events are
 * computed from their index, so a watch of 100,000 events costs the endpoint no more memory
 * than its window of recent events (the watcher never pages further back than its last event).
 */
import { ScriptedStack, type EndpointEvent, type ResourceRow, type StackView } from '../../endpoint/scriptedStack';

export interface ChurnOptions {
  stackName: string;
  resources: number;
  /** Number of updates after the creation. */
  operations: number;
  /** Time from the start of one update to the start of the next. */
  periodMs: number;
  /** Time between two events of one update. */
  eventGapMs: number;
  /** How many of the newest events DescribeStackEvents can page through (default 3,000). */
  window?: number;
}

const HOUR = 3_600_000;

/** A stack that keeps deploying: a known event sequence, indexable. */
export class ChurningStack extends ScriptedStack {
  /** Events of the creation (the history before `startAt`). */
  readonly historySize: number;
  /** Events of one update. */
  readonly perOperation: number;
  private readonly window: number;
  private view?: { count: number; view: StackView };

  constructor(
    private readonly churn: ChurnOptions,
    private readonly churnStart: number,
    options: { region: string; accountId: string },
  ) {
    super(
      { name: 'churn', description: 'A stack updated over and over.', stackName: churn.stackName, types: {}, templateBody: templateOf(churn.resources), steps: [] },
      churnStart,
      1000,
      { ...options, stackName: churn.stackName },
    );
    this.historySize = 2 * churn.resources + 2;
    this.perOperation = 2 * churn.resources + 3;
    this.window = churn.window ?? 3000;
    if (churn.eventGapMs * this.perOperation >= churn.periodMs) throw new Error('an update must end before the next one starts');
  }

  /** Every event the stack will ever have. */
  get totalEvents(): number {
    return this.historySize + this.churn.operations * this.perOperation;
  }

  /** When the last event happens. */
  get lastEventAt(): number {
    return this.eventAt(this.totalEvents - 1).timestamp;
  }

  /** The number of events that have happened at `now`. */
  countAt(now: number): number {
    if (now < this.churnStart) return this.historySize;
    const op = Math.floor((now - this.churnStart) / this.churn.periodMs);
    if (op >= this.churn.operations) return this.totalEvents;
    const within = Math.min(this.perOperation, Math.floor((now - this.churnStart - op * this.churn.periodMs) / this.churn.eventGapMs) + 1);
    return this.historySize + op * this.perOperation + within;
  }

  /** The id of the event at `index` (0 is the first event of the creation). */
  eventIdAt(index: number): string {
    return this.eventAt(index).eventId;
  }

  /** The index of an event of this stack, from its id. */
  indexOf(eventId: string): number | undefined {
    const match = /-(\d+)$/.exec(eventId);
    if (!match) return undefined;
    const index = Number(match[1]);
    return index < this.totalEvents && this.eventIdAt(index) === eventId ? index : undefined;
  }

  /** Whether the event at `index` is the last one of the creation or of an update. */
  endsOperation(index: number): boolean {
    return index === this.historySize - 1 || (index >= this.historySize && (index - this.historySize) % this.perOperation === this.perOperation - 1);
  }

  /** The event at `index`, oldest first. */
  eventAt(index: number): EndpointEvent {
    const { resources, eventGapMs, periodMs } = this.churn;
    if (index < this.historySize) {
      const at = this.churnStart - HOUR + index * eventGapMs;
      if (index === 0) return this.stackEvent(index, 'CREATE_IN_PROGRESS', at, 'User Initiated');
      if (index === this.historySize - 1) return this.stackEvent(index, 'CREATE_COMPLETE', at);
      const r = Math.floor((index - 1) / 2);
      return this.resourceEvent(index, r, index % 2 === 1 ? 'CREATE_IN_PROGRESS' : 'CREATE_COMPLETE', at);
    }
    const op = Math.floor((index - this.historySize) / this.perOperation);
    const j = (index - this.historySize) % this.perOperation;
    const at = this.churnStart + op * periodMs + j * eventGapMs;
    if (j === 0) return this.stackEvent(index, 'UPDATE_IN_PROGRESS', at, 'User Initiated');
    if (j === this.perOperation - 2) return this.stackEvent(index, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', at);
    if (j === this.perOperation - 1) return this.stackEvent(index, 'UPDATE_COMPLETE', at);
    const r = Math.floor((j - 1) / 2);
    if (r >= resources) throw new Error(`no resource ${r}`);
    return this.resourceEvent(index, r, j % 2 === 1 ? 'UPDATE_IN_PROGRESS' : 'UPDATE_COMPLETE', at);
  }

  override at(now: number): StackView {
    const count = this.countAt(now);
    if (this.view?.count === count) return this.view.view;
    const events: EndpointEvent[] = [];
    for (let i = count - 1; i >= Math.max(0, count - this.window); i--) events.push(this.eventAt(i));
    let status = '';
    let lastUpdatedTime: number | undefined;
    for (const e of events) {
      if (e.physicalId !== this.stackId) continue;
      if (status === '') status = e.status;
      if (!e.status.startsWith('CREATE_')) lastUpdatedTime = Math.max(lastUpdatedTime ?? 0, e.timestamp);
      if (status !== '' && lastUpdatedTime !== undefined) break;
    }
    const rows = new Map<string, ResourceRow>();
    for (const e of events) {
      if (e.physicalId === this.stackId || rows.has(e.logicalId)) continue;
      rows.set(e.logicalId, { logicalId: e.logicalId, physicalId: e.physicalId, resourceType: e.resourceType, status: e.status, timestamp: e.timestamp });
    }
    const view: StackView = {
      exists: true,
      stackId: this.stackId,
      stackName: this.stackName,
      status,
      creationTime: this.churnStart - HOUR,
      lastUpdatedTime,
      events,
      // It runs no early validation: DescribeEvents would answer its stack events.
      operationEvents: events,
      resources: [...rows.values()].sort((a, b) => a.logicalId.localeCompare(b.logicalId)),
      parameters: {},
      // Its events carry no operation ids, so there are no operations to list.
      lastOperations: [],
    };
    this.view = { count, view };
    return view;
  }

  private stackEvent(index: number, status: string, timestamp: number, reason?: string): EndpointEvent {
    const event: EndpointEvent = {
      eventId: `${this.stackName}-stack-${index}`,
      logicalId: this.stackName,
      physicalId: this.stackId,
      resourceType: 'AWS::CloudFormation::Stack',
      timestamp,
      status,
      row: 'keep',
    };
    if (reason) event.reason = reason;
    return event;
  }

  private resourceEvent(index: number, resource: number, status: string, timestamp: number): EndpointEvent {
    const logicalId = `Queue${resource}`;
    return {
      eventId: `${logicalId}-${status}-${index}`,
      logicalId,
      physicalId: `https://sqs.us-east-1.amazonaws.com/123456789012/${this.stackName}-queue-${resource}`,
      resourceType: 'AWS::SQS::Queue',
      timestamp,
      status,
      row: 'set',
    };
  }
}

function templateOf(resources: number): string {
  const lines = ['Resources:'];
  for (let r = 0; r < resources; r++) lines.push(`  Queue${r}: { Type: AWS::SQS::Queue }`);
  return `${lines.join('\n')}\n`;
}
