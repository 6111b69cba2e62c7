/**
 * A flaky account for the watcher: the local endpoint on a fake clock with a fault injector and
 * churning stacks, the real reader and StackWatcher, and a check that every event the endpoint
 * holds is reported exactly once, in order, kept in constant memory so it can run for hours.
 */
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { StackWatcher, type WatcherChange, type WatcherOptions } from '../../../server/src/stacks/stackWatcher';
import type { ReaderError } from '../../../server/src/stacks/types';
import { FakeClock } from '../../endpoint/fakeClock';
import { FaultInjector } from '../../endpoint/faults';
import { startEndpoint, type EndpointOptions, type LocalEndpoint } from '../../endpoint/server';
import { ChurningStack, type ChurnOptions } from './churningStack';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

/**
 * Compares the events a watcher reports for one stack with the stack's own sequence, as they
 * come. A watcher's first read of a stack goes back to the end of the operation before the
 * current one, so the sequence starts at the first reported event, which must be such an end;
 * from there on every event must come once, in order.
 */
export class EventLedger {
  /** Index of the first event reported, once one was. */
  first?: number;
  /** Index of the next event expected. */
  next = 0;
  /** Reports that were not the next event: duplicates, or events after a gap. */
  readonly mismatches: string[] = [];

  constructor(readonly stack: ChurningStack) {}

  /** Events reported in the right place. */
  get matched(): number {
    return this.first === undefined ? 0 : this.next - this.first;
  }

  /** Events the stack had up to `now`, counted from the first one reported. */
  expectedBy(now: number): number {
    return this.stack.countAt(now) - (this.first ?? 0);
  }

  /** Checks one reported event id against the next expected one. */
  report(eventId: string): void {
    if (this.first === undefined) {
      const index = this.stack.indexOf(eventId);
      if (index !== undefined && this.stack.endsOperation(index)) {
        this.first = index;
        this.next = index + 1;
        return;
      }
    }
    const expected = this.next < this.stack.totalEvents ? this.stack.eventIdAt(this.next) : '(none)';
    if (eventId === expected) this.next++;
    else if (this.mismatches.length < 20) this.mismatches.push(`#${this.next}: expected ${expected}, got ${eventId}`);
  }

  /** Whether every event the stack has had by `now` was reported. */
  caughtUp(now: number): boolean {
    return this.first !== undefined && this.next === this.stack.countAt(now);
  }
}

export interface Account {
  clock: FakeClock;
  endpoint: LocalEndpoint;
  faults: FaultInjector;
  reader: CloudFormationReader;
  watcher: StackWatcher;
  /** Churning stacks by name, each with its ledger. */
  ledgers: Map<string, EventLedger>;
  /** Error changes in order: the kind, or 'cleared'. */
  errors: { at: number; stackName?: string; kind: ReaderError['kind'] | 'cleared' }[];
  /** Every change when `keepChanges` was asked for. */
  changes: WatcherChange[];
  close(): Promise<void>;
}

export interface AccountOptions {
  churn?: ChurnOptions[];
  /** When the churning stacks start updating, relative to the clock's start (default 30 s). */
  churnOffsetMs?: number;
  endpoint?: Partial<EndpointOptions>;
  watcher?: Partial<WatcherOptions>;
  /** The reader's request timeout in real milliseconds (default 250). */
  timeoutMs?: number;
  keepChanges?: boolean;
}

/** Opens an account: endpoint, injector and watcher ready, the watcher not started. */
export async function openAccount(options: AccountOptions = {}): Promise<Account> {
  const clock = new FakeClock();
  const faults = new FaultInjector(() => clock.now());
  const endpoint = await startEndpoint({ now: () => clock.now(), startAt: clock.now(), intercept: faults.intercept, ...options.endpoint });
  const ledgers = new Map<string, EventLedger>();
  for (const churn of options.churn ?? []) {
    const stack = new ChurningStack(churn, clock.now() + (options.churnOffsetMs ?? 30_000), { region: 'us-east-1', accountId: '123456789012' });
    endpoint.stacks.push(stack);
    ledgers.set(churn.stackName, new EventLedger(stack));
  }
  const created = await CloudFormationReader.create({
    endpoint: endpoint.url,
    region: 'us-east-1',
    timeoutMs: options.timeoutMs ?? 250,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token-example' },
  });
  if (!created.ok) throw new Error(`no reader: ${created.error.message}`);
  const reader = created.value;
  const watcher = new StackWatcher({ reader, clock, scope: 'all', ...options.watcher });
  const errors: Account['errors'] = [];
  const changes: WatcherChange[] = [];
  watcher.onDidChange((change) => {
    if (options.keepChanges) changes.push(change);
    if (change.kind === 'event') ledgers.get(change.stackName)?.report(change.event.eventId);
    else if (change.kind === 'error') errors.push({ at: clock.now(), stackName: change.stackName, kind: change.error?.kind ?? 'cleared' });
  });
  return {
    clock,
    endpoint,
    faults,
    reader,
    watcher,
    ledgers,
    errors,
    changes,
    async close() {
      watcher.dispose();
      reader.dispose();
      await endpoint.close();
    },
  };
}
