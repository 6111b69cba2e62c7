/**
 * The `cfn-impact watch` stress runs (see watchNeverHangs.ts): each run plays one scripted
 * deployment on the local endpoint, on simulated time, with its own seeded disorder, and checks
 * that the watch ends, soon after the deployment does, with the outcome the deployment had.
 */
import { errorXml } from '../endpoint/queryXml';
import { FakeClock } from '../endpoint/fakeClock';
import { startEndpoint } from '../endpoint/server';
import { SCENARIOS } from '../endpoint/scenarios';
import { operationOutcome } from '../../server/src/cloudformation/stackLifecycle';
import { runWatch } from '../../server/src/cli/watch';
import type { CliIo } from '../../server/src/cli/io';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID ??= 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY ??= 'secret';

const STEP_MS = 5000;
/**
 * A watch still running this long after the deployment's last event is taken as hung. Under the
 * harshest disorder here (a third of the calls throttled, twelve seconds a call, one event a page)
 * a watch may take ten minutes to catch up; it must not take thirty, and the quiet limit (60 min)
 * must not be what ends it.
 */
const HANG_AFTER_MS = 30 * 60_000;
/** Real time a run may take before it is taken as stalled (no timer pending, no answer coming). */
const STALL_WALL_MS = 30_000;

export interface StressOptions {
  runs: number;
  seed: number;
  log?: (line: string) => void;
}

export interface StressFailure {
  run: number;
  setup: string;
  what: string;
}

export interface StressResult {
  runs: number;
  failures: StressFailure[];
  medianSimulatedMs: number;
  maxSimulatedMs: number;
  wallMs: number;
}

/** mulberry32: the same disorder for the same seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs the stress; never throws for a failing run, it reports it. */
export async function runWatchStress(options: StressOptions): Promise<StressResult> {
  const random = seeded(options.seed);
  // Scenarios that play an operation (the others are stacks at rest, for baselines and review).
  const names = Object.keys(SCENARIOS).filter((name) => SCENARIOS[name]!.steps.length > 0);
  const failures: StressFailure[] = [];
  const simulated: number[] = [];
  const wallStart = Date.now();
  for (let run = 0; run < options.runs; run++) {
    const name = names[Math.floor(random() * names.length)]!;
    const scenario = SCENARIOS[name]!;
    const operationMs = (scenario.steps.length - 1) * STEP_MS;
    // Where the watch starts: before the operation, during it or after it.
    const offsetMs = Math.round(-2 * STEP_MS + random() * (operationMs + 4 * STEP_MS));
    const maxCallDelayMs = [0, 500, 3000, 12_000][Math.floor(random() * 4)]!;
    const throttleShare = [0, 0.1, 0.3][Math.floor(random() * 3)]!;
    const pageSize = 1 + Math.floor(random() * 8);
    const intervalMs = [100, 1000, 2000][Math.floor(random() * 3)]!;
    const setup = `${name}, watch from ${offsetMs} ms, calls take up to ${maxCallDelayMs} ms, ${Math.round(throttleShare * 100)}% throttled, ${pageSize} events a page, --interval-ms ${intervalMs}`;

    const clock = new FakeClock(Date.UTC(2024, 4, 1, 10, 0, 0), 1 + Math.floor(random() * 1e9));
    const startedAt = clock.now();
    const operationStart = startedAt - offsetMs;
    const answered: { action: string; at: number; outcome: string }[] = [];
    const endpoint = await startEndpoint({
      scenarios: [name],
      now: () => clock.now(),
      startAt: operationStart,
      stepMs: STEP_MS,
      pageSize: { events: pageSize },
      intercept: ({ res, call, requestId }) => {
        // Time passes while the call is answered: the answer reflects the later moment.
        clock.time += Math.round(random() * maxCallDelayMs);
        const throttled = random() < throttleShare;
        answered.push({ action: call.action, at: clock.now(), outcome: throttled ? 'Throttling' : 'ok' });
        if (!throttled) return false;
        call.outcome = 'Throttling';
        res.writeHead(400, { 'content-type': 'text/xml' });
        res.end(errorXml('Throttling', 'Rate exceeded', requestId, 'Sender'));
        return true;
      },
    });
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: { AWS_REGION: 'us-east-1' } };
    try {
      const work = runWatch([scenario.stackName, '--endpoint', endpoint.url, '--json', '--interval-ms', String(intervalMs)], io, { clock });
      const ended = await drive(clock, work, operationStart + operationMs + HANG_AFTER_MS);
      simulated.push(clock.now() - startedAt);
      const stack = endpoint.stacks[0]!;
      const finalStatus = stack.at(stack.endsAt).status;
      const fail = (what: string) => failures.push({ run, setup, what });
      if (ended.kind !== 'ended') {
        const calls = endpoint.calls.slice(-3).map((c) => `${c.action}@${c.at - operationStart}`).join(', ');
        fail(`${ended.kind} at ${clock.now() - operationStart} ms after the operation's start (last calls: ${calls}); output: ${stdout.trim().split('\n').slice(-2).join(' | ')}`);
        options.log?.(answered.map((a) => `  ${a.action} ${a.at - operationStart} ${a.outcome}`).join('\n'));
        continue;
      }
      const lines = stdout.trim() === '' ? [] : stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; status?: string });
      const done = lines.at(-1);
      // "Does not exist" is the right answer when the stack was not there by its name when first described.
      const first = answered.find((a) => a.action === 'DescribeStacks' && a.outcome === 'ok');
      const absent = first !== undefined && ['', 'DELETE_COMPLETE'].includes(stack.at(first.at).status);
      if (absent && ended.code === 1 && /does not exist/i.test(stderr)) continue;
      if (done?.type !== 'done') {
        fail(`exit ${ended.code} without a done line; stderr: ${stderr.trim()}`);
        continue;
      }
      const outcome = operationOutcome(done.status ?? '');
      const expectedCode = outcome === 'succeeded' ? 0 : outcome === 'failed' ? 2 : 1;
      if (ended.code !== expectedCode) fail(`exit ${ended.code} for ${done.status}, expected ${expectedCode}`);
      // A watch that starts once the operation has begun follows it to its end; one that starts
      // before may find the stack at rest (or already changing) and end with what it found.
      const acceptable = offsetMs >= 0 ? [finalStatus] : [finalStatus, scenario.existing?.status];
      if (!acceptable.includes(done.status as never)) fail(`done with ${done.status}, expected ${acceptable.filter(Boolean).join(' or ')}`);
      options.log?.(`run ${run}: ${done.status} exit ${ended.code} after ${Math.round((clock.now() - startedAt) / 1000)} s simulated (${setup})`);
    } finally {
      await endpoint.close();
    }
  }
  const sorted = [...simulated].sort((a, b) => a - b);
  return {
    runs: options.runs,
    failures,
    medianSimulatedMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
    maxSimulatedMs: sorted.at(-1) ?? 0,
    wallMs: Date.now() - wallStart,
  };
}

type Drive = { kind: 'ended'; code: number } | { kind: 'hung' } | { kind: 'stalled' };

/** Fires timers while the watch waits, until it ends, simulated time passes `limit`, or nothing moves. */
async function drive(clock: FakeClock, work: Promise<number>, limit: number): Promise<Drive> {
  let result: number | undefined;
  void work.then((code) => (result = code));
  const wallStart = Date.now();
  while (result === undefined) {
    if (clock.now() > limit) return { kind: 'hung' };
    if (Date.now() - wallStart > STALL_WALL_MS) return { kind: 'stalled' };
    if (clock.pending > 0) clock.fireNext();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { kind: 'ended', code: result };
}
