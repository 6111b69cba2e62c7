/**
 * Benchmark of the StackWatcher's API budget (not a test): API calls per minute with one stack
 * deploying and with 200 stacks at rest, and the delay from an event existing to the watcher
 * seeing it. Runs on simulated time against the local endpoint through the real SDK.
 *
 *   npx tsx bench/watcher.ts
 */
import { CloudFormationReader } from '../server/src/stacks/cloudFormationReader';
import { StackWatcher, type WatcherOptions } from '../server/src/stacks/stackWatcher';
import { startEndpoint, type EndpointOptions } from '../test/endpoint/server';
import { FakeClock, runUntil } from '../test/endpoint/fakeClock';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const MINUTE = 60_000;

interface Measured {
  label: string;
  simulatedMinutes: number;
  calls: number;
  byAction: Record<string, number>;
  delays: number[];
  wallMs: number;
}

async function measure(
  label: string,
  endpointOptions: Partial<EndpointOptions>,
  watcherOptions: Partial<WatcherOptions>,
  until: (clock: FakeClock, endsAt: number) => boolean,
  follow?: string,
): Promise<Measured> {
  const wall = Date.now();
  const clock = new FakeClock();
  const endpoint = await startEndpoint({ now: () => clock.now(), startAt: clock.now(), ...endpointOptions });
  const created = await CloudFormationReader.create({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'bench' },
  });
  if (!created.ok) throw new Error(created.error.message);
  const watcher = new StackWatcher({ reader: created.value, clock, ...watcherOptions });
  const delays: number[] = [];
  const startedAt = clock.now();
  watcher.onDidChange((change) => {
    // Only events that appeared while watching: the delay from existing to being seen.
    if (change.kind === 'event' && change.event.timestamp >= startedAt) delays.push(clock.now() - change.event.timestamp);
  });
  watcher.start();
  if (follow) watcher.follow(follow);
  const endsAt = Math.max(0, ...endpoint.stacks.map((s) => s.endsAt));
  await runUntil(clock, watcher, () => until(clock, endsAt), 24 * 60 * MINUTE);
  const minutes = (clock.now() - startedAt) / MINUTE;
  const byAction: Record<string, number> = {};
  for (const call of endpoint.calls) byAction[call.action] = (byAction[call.action] ?? 0) + 1;
  const result = { label, simulatedMinutes: minutes, calls: endpoint.calls.length, byAction, delays, wallMs: Date.now() - wall };
  watcher.dispose();
  created.value.dispose();
  await endpoint.close();
  return result;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report(m: Measured): void {
  const perMinute = m.calls / m.simulatedMinutes;
  process.stdout.write(`\n${m.label}\n`);
  process.stdout.write(`  simulated ${m.simulatedMinutes.toFixed(1)} min in ${m.wallMs} ms of wall time\n`);
  process.stdout.write(`  API calls: ${m.calls} → ${perMinute.toFixed(1)} per minute (${Object.entries(m.byAction).map(([a, n]) => `${a} ${n}`).join(', ')})\n`);
  if (m.delays.length > 0) {
    const mean = m.delays.reduce((a, b) => a + b, 0) / m.delays.length;
    process.stdout.write(
      `  event → seen delay over ${m.delays.length} events: mean ${(mean / 1000).toFixed(2)} s, p50 ${(percentile(m.delays, 50) / 1000).toFixed(2)} s, p95 ${(percentile(m.delays, 95) / 1000).toFixed(2)} s, max ${(Math.max(...m.delays) / 1000).toFixed(2)} s\n`,
    );
  }
}

async function main(): Promise<void> {
  process.stdout.write('StackWatcher API budget (defaults: running stacks polled every 2–5 s, settled listing every 30 s)\n');

  // One stack deploying for about nine minutes: an event every 30 s (update with replacement and cleanup).
  report(
    await measure(
      '1 stack in progress (update-replacement, one step every 30 s), watched alone by name',
      { scenarios: ['update-replacement'], stepMs: 30_000 },
      { scope: ['network'] },
      (clock, endsAt) => clock.now() > endsAt + 5000,
    ),
  );
  report(
    await measure(
      '1 stack in progress among 20 at rest, whole region watched',
      { scenarios: ['update-replacement'], stepMs: 30_000, settledStacks: 19 },
      { scope: 'all' },
      (clock, endsAt) => clock.now() > endsAt + 5000,
    ),
  );
  // Faster events: a busy deployment with an event every 3 s.
  report(
    await measure(
      '1 busy stack in progress (an event every 3 s)',
      { scenarios: ['rollback-cleanup-delete-failed'], stepMs: 3000 },
      { scope: ['bastion'] },
      (clock, endsAt) => clock.now() > endsAt + 5000,
    ),
  );
  const start = Date.UTC(2024, 4, 1, 10);
  report(
    await measure(
      '200 stacks at rest, whole region watched for 30 minutes',
      { settledStacks: 200 },
      { scope: 'all' },
      (clock) => clock.now() >= start + 30 * MINUTE,
    ),
  );
}

void main();
