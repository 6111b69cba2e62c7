/**
 * A long watch of a flaky account: churning stacks emit thousands of events over simulated hours
 * while faults of every kind come and go on a seeded schedule. Measures what the watcher
 * processed, what it survived and how much heap it held. `npm run soak` runs the long version;
 * the test suite runs a short slice.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Fault } from '../../endpoint/faults';
import { openAccount } from './account';

export interface SoakOptions {
  /** Stop once this many events were reported in total (rounded up to whole updates). */
  events: number;
  seed?: number;
  /** Churning stacks (default 3), five resources each, one update a minute. */
  stacks?: number;
  /** Settled stacks listed beside them (default 20). */
  settledStacks?: number;
  /** The watcher's cap on events kept per stack (default: the watcher's own, 1,000). */
  maxEventsPerStack?: number;
  /** Progress lines go here (default: nowhere). */
  log?: (line: string) => void;
}

export interface SoakFigures {
  eventsProcessed: number;
  simulatedHours: number;
  faultsInjected: number;
  faultsByKind: Record<string, number>;
  /** Fault windows that ended and were followed by a full recovery (all events caught up, no error shown). */
  faultWindows: number;
  apiCalls: number;
  mismatches: string[];
  /** Error changes still shown at the end (should be none). */
  errorAtEnd?: string;
  /** Heap used after a collection, once warmed up (a quarter of the events), at its peak, and at the end. */
  heapWarmMB: number;
  heapPeakMB: number;
  heapEndMB: number;
  /** The most events the watcher kept for one stack. */
  keptEventsMax: number;
  wallSeconds: number;
}

const MINUTE = 60_000;
const RESOURCES = 5;
const PER_UPDATE = 2 * RESOURCES + 3;

/** A collector: the global one under --expose-gc, else one unlocked at run time. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A seeded pseudo-random sequence in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** A fault of a random kind; real-time ones (delays) are kept rare, they cost real seconds. */
function pickFault(next: () => number): Fault {
  const kinds: Fault[] = [
    { kind: 'throttle' },
    { kind: 'throttle' },
    { kind: 'server-error', code: 'InternalFailure' },
    { kind: 'server-error', code: 'ServiceUnavailable' },
    { kind: 'expired-token' },
    { kind: 'reset' },
    { kind: 'malformed' },
    { kind: 'malformed', body: 'garbage' },
    { kind: 'skew', ms: (next() < 0.5 ? -1 : 1) * (10 + Math.floor(next() * 50)) * MINUTE },
    { kind: 'delay', ms: 400 },
  ];
  return kinds[Math.floor(next() * kinds.length)];
}

/** Runs the soak and returns its figures. */
export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const began = Date.now();
  const gc = collector();
  const log = options.log ?? (() => undefined);
  const next = random(options.seed ?? 7);
  const stackCount = options.stacks ?? 3;
  const operations = Math.ceil(options.events / stackCount / PER_UPDATE);
  const churn = Array.from({ length: stackCount }, (_, i) => ({
    stackName: `churn-${i}`,
    resources: RESOURCES,
    operations,
    // Slightly different periods, so that updates of different stacks drift past each other.
    periodMs: MINUTE + i * 7000,
    eventGapMs: 1500,
  }));
  const account = await openAccount({
    churn,
    endpoint: { settledStacks: options.settledStacks ?? 20, pageSize: { events: 100, stacks: 10 } },
    watcher: options.maxEventsPerStack === undefined ? {} : { maxEventsPerStack: options.maxEventsPerStack },
  });
  const ledgers = [...account.ledgers.values()];
  const start = account.clock.now();
  const end = Math.max(...ledgers.map((l) => l.stack.lastEventAt));

  // A fault window every 10–20 minutes, lasting 10 s to 4 minutes.
  let windows = 0;
  for (let at = start + 5 * MINUTE; at < end; at += (10 + next() * 10) * MINUTE) {
    const fault = pickFault(next);
    const length = fault.kind === 'delay' ? 20_000 : 10_000 + next() * 230_000;
    account.faults.during(at, at + length, fault);
    windows++;
  }

  let apiCalls = 0;
  let heapWarm = 0;
  let heapPeak = 0;
  let keptEventsMax = 0;
  const processed = () => ledgers.reduce((sum, l) => sum + l.matched, 0);
  // Until the first read of each stack, the target is an estimate; it is taken again at the end.
  let target = ledgers.reduce((sum, l) => sum + l.expectedBy(end), 0);
  const measure = () => {
    gc();
    const used = process.memoryUsage().heapUsed;
    heapPeak = Math.max(heapPeak, used);
    return used;
  };
  const sampleEvery = Math.max(500, Math.floor(target / 40));
  let nextSample = sampleEvery;
  try {
    account.watcher.start();
    await account.watcher.whenIdle();
    // An hour past the last event is more than any backoff: a watch still behind then has lost events.
    const giveUpAt = end + 60 * MINUTE;
    while (!(ledgers.every((l) => l.caughtUp(end)) && account.watcher.snapshot().error === undefined && account.clock.now() > end)) {
      if (account.clock.now() > giveUpAt) break;
      if (!account.clock.fireNext()) break;
      await account.watcher.whenIdle();
      // The endpoint's call record is the test's, not the watcher's: tally it and let it go.
      if (account.endpoint.calls.length > 1000) {
        apiCalls += account.endpoint.calls.length;
        account.endpoint.calls.length = 0;
      }
      const done = processed();
      if (done >= nextSample) {
        nextSample += sampleEvery;
        const used = measure();
        if (heapWarm === 0 && done >= target / 4) heapWarm = used;
        for (const stack of account.watcher.snapshot().stacks) keptEventsMax = Math.max(keptEventsMax, stack.events.length);
        log(`${done} events, ${account.faults.total} faults, ${((account.clock.now() - start) / 3_600_000).toFixed(1)} h simulated, heap ${(used / 1048576).toFixed(1)} MB`);
      }
    }
    apiCalls += account.endpoint.calls.length;
    target = ledgers.reduce((sum, l) => sum + l.expectedBy(end), 0);
    const heapEnd = measure();
    const error = account.watcher.snapshot().error;
    for (const stack of account.watcher.snapshot().stacks) keptEventsMax = Math.max(keptEventsMax, stack.events.length);
    const figures: SoakFigures = {
      eventsProcessed: processed(),
      simulatedHours: (account.clock.now() - start) / 3_600_000,
      faultsInjected: account.faults.total,
      faultsByKind: Object.fromEntries(account.faults.injected),
      faultWindows: windows,
      apiCalls,
      mismatches: ledgers.flatMap((l) => l.mismatches.map((m) => `${l.stack.stackName} ${m}`)),
      heapWarmMB: heapWarm / 1048576,
      heapPeakMB: heapPeak / 1048576,
      heapEndMB: heapEnd / 1048576,
      keptEventsMax,
      wallSeconds: (Date.now() - began) / 1000,
    };
    if (error) figures.errorAtEnd = `${error.kind}: ${error.message}`;
    if (processed() !== target) figures.mismatches.push(`processed ${processed()} of ${target} events`);
    return figures;
  } finally {
    await account.close();
  }
}

if (require.main === module) {
  const events = Number(process.argv[2] ?? 100_000);
  runSoak({ events, log: (line) => process.stdout.write(`${line}\n`) }).then(
    (f) => {
      process.stdout.write(
        [
          '',
          `events processed:   ${f.eventsProcessed} over ${f.simulatedHours.toFixed(1)} simulated hours (${f.apiCalls} API calls)`,
          `faults survived:    ${f.faultsInjected} failed calls in ${f.faultWindows} fault windows (${Object.entries(f.faultsByKind).map(([k, n]) => `${k} ${n}`).join(', ')})`,
          `peak memory:        heap ${f.heapPeakMB.toFixed(1)} MB (after warm-up ${f.heapWarmMB.toFixed(1)} MB, at the end ${f.heapEndMB.toFixed(1)} MB); at most ${f.keptEventsMax} events kept per stack`,
          `duplicates or gaps: ${f.mismatches.length === 0 ? 'none' : f.mismatches.join('; ')}`,
          `error at the end:   ${f.errorAtEnd ?? 'none'}`,
          `wall time:          ${f.wallSeconds.toFixed(1)} s`,
          '',
        ].join('\n'),
      );
      process.exitCode = f.mismatches.length === 0 && !f.errorAtEnd ? 0 : 1;
    },
    (error: unknown) => {
      process.stderr.write(`soak failed: ${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
