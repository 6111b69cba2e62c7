/**
 * `cfn-impact watch` and `cfn-impact stacks` against the local endpoint, on a fake clock:
 * the JSON lines, the exit codes CI gates on, and errors as messages rather than stack traces.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runWatch } from '../../../server/src/cli/watch';
import { runStacks } from '../../../server/src/cli/stacks';
import type { CliIo } from '../../../server/src/cli/io';
import { startEndpoint } from '../../endpoint/server';
import { FakeClock, driveUntilSettled } from '../../endpoint/fakeClock';
import { ChurningStack } from '../flaky/churningStack';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

/** Runs a command against an endpoint playing `scenarios` (the first one starting now). */
async function run(
  command: 'watch' | 'stacks',
  args: (url: string) => string[],
  scenarios: string[],
  isTTY = false,
  startedMsAgo = 0,
): Promise<{ code: number; stdout: string; stderr: string; lines: Record<string, unknown>[] }> {
  const clock = new FakeClock();
  const endpoint = await startEndpoint({ scenarios, now: () => clock.now(), startAt: clock.now() - startedMsAgo, stepMs: 5000, pageSize: { events: 3 } });
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY, env: { AWS_REGION: 'us-east-1' } };
  try {
    const work = command === 'watch' ? runWatch(args(endpoint.url), io, { clock }) : runStacks(args(endpoint.url), io);
    const code = await driveUntilSettled(clock, work);
    const json = command === 'watch' && args('').includes('--json') && stdout !== '';
    const lines = json ? stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
    return { code, stdout, stderr, lines };
  } finally {
    await endpoint.close();
  }
}

describe('cfn-impact watch', () => {
  test('--json: stack changes and each event once, oldest first, then done; exit 2 when the create rolled back', async () => {
    const { code, lines, stderr } = await run('watch', (url) => ['web', '--endpoint', url, '--json'], ['create-rollback']);
    assert.equal(stderr, '');
    assert.equal(code, 2);
    assert.deepEqual(
      lines.filter((l) => l.type === 'stack').map((l) => l.status),
      ['CREATE_IN_PROGRESS', 'ROLLBACK_IN_PROGRESS', 'ROLLBACK_COMPLETE'],
    );
    const events = lines.filter((l) => l.type === 'event');
    assert.equal(events.length, 14);
    assert.equal(new Set(events.map((e) => e.eventId)).size, 14);
    assert.deepEqual(Object.keys(events[0]), ['type', 'eventId', 'logicalId', 'physicalId', 'resourceType', 'status', 'reason', 'timestamp']);
    const timestamps = events.map((e) => String(e.timestamp));
    assert.deepEqual(timestamps, [...timestamps].sort());
    assert.deepEqual(lines[lines.length - 1], {
      type: 'done',
      stackName: 'web',
      status: 'ROLLBACK_COMPLETE',
      reason: null,
      rootCause: { logicalId: 'Instance', status: 'CREATE_FAILED', reason: 'Invalid id: "bogus" (expecting "ami-...")' },
      validationFailures: [],
      resources: [
        { logicalId: 'VPC', physicalId: 'vpc-0c33333333333333c', resourceType: 'AWS::EC2::VPC', status: 'DELETE_COMPLETE' },
        { logicalId: 'Instance', physicalId: null, resourceType: 'AWS::EC2::Instance', status: 'DELETE_COMPLETE' },
        { logicalId: 'Bucket', physicalId: null, resourceType: 'AWS::S3::Bucket', status: 'DELETE_COMPLETE' },
      ],
      undeleted: [],
    });
  });

  test('--json: an update rejected by early validation exits 2 with the failed check, from DescribeEvents, as its root cause', async () => {
    const { code, lines, stderr } = await run('watch', (url) => ['storage', '--endpoint', url, '--json'], ['update-validation-failed']);
    assert.equal(stderr, '');
    assert.equal(code, 2);
    assert.deepEqual(
      lines.filter((l) => l.type === 'stack').map((l) => l.status),
      ['UPDATE_IN_PROGRESS', 'UPDATE_FAILED'],
    );
    assert.deepEqual(
      lines.filter((l) => l.type === 'event').map((l) => `${l.logicalId} ${l.status}`),
      ['storage UPDATE_IN_PROGRESS', 'storage UPDATE_FAILED'],
      'no resource was touched',
    );
    const done = lines.at(-1)!;
    assert.equal(done.status, 'UPDATE_FAILED');
    assert.deepEqual(done.rootCause, { logicalId: 'Archive', status: 'VALIDATION_FAILED', reason: 'A bucket named shared-archive already exists in this account.' });
    assert.deepEqual(done.validationFailures, [
      { name: 'ResourceNameConflict', logicalId: 'Archive', path: '/Resources/Archive/Properties/BucketName', reason: 'A bucket named shared-archive already exists in this account.' },
    ]);
  });

  test('plain output: a rejection by early validation is named with its template path instead of the stack\'s own failure', async () => {
    const { code, stdout } = await run('watch', (url) => ['storage', '--endpoint', url], ['update-validation-failed']);
    assert.equal(code, 2);
    assert.match(stdout, /\nRejected by early validation: ResourceNameConflict at \/Resources\/Archive\/Properties\/BucketName: A bucket named shared-archive already exists in this account\.\n$/);
    assert.doesNotMatch(stdout, /Root cause:/);
  });

  test('--json: exit 0 for an update that succeeded while leaving a resource behind, which done names', async () => {
    const { code, lines } = await run('watch', (url) => ['security', '--endpoint', url, '--json', '--interval-ms', '1500'], ['cleanup-delete-failed']);
    assert.equal(code, 0);
    const done = lines[lines.length - 1];
    assert.equal(done.status, 'UPDATE_COMPLETE');
    assert.equal(done.reason, 'Update successful. One or more resources could not be deleted.');
    assert.equal(done.rootCause, null);
    assert.deepEqual(done.undeleted, ['SG1']);
  });

  test('plain output (not a terminal): one line per event and a summary with the root cause', async () => {
    const { code, stdout } = await run('watch', (url) => ['fleet', '--endpoint', url], ['update-rollback-failed']);
    assert.equal(code, 2);
    assert.match(stdout, /^Watching fleet\n/);
    assert.match(stdout, /Instance4 +AWS::EC2::Instance +CREATE_FAILED +Invalid id/);
    assert.match(stdout, /fleet: UPDATE_ROLLBACK_FAILED — The following resource\(s\) failed to update: \[Instance2\]\. \(failed\)\nRoot cause: Instance4 CREATE_FAILED/);
    assert.ok(!stdout.includes('\x1b['), 'no escape codes in plain output');
  });

  test('a terminal gets a redrawn view with resources and physical ids', async () => {
    const { code, stdout } = await run('watch', (url) => ['network', '--endpoint', url], ['update-replacement'], true);
    assert.equal(code, 0);
    assert.ok(stdout.includes('\x1b[H\x1b[J'));
    const lastScreen = stdout.split('\x1b[H\x1b[J').pop()!;
    assert.match(lastScreen, /VPC .*vpc-0b22222222222222b/);
    // The header counts the resources done: all four once the update completed.
    assert.match(lastScreen.split('\n')[0], /network.*UPDATE_COMPLETE.*4\/4/);
    const screens = stdout.split('\x1b[H\x1b[J');
    assert.ok(screens.some((screen) => /UPDATE_IN_PROGRESS.* [0-3]\/4 · (~\d+|<1) min left/.test(screen.split('\n')[0])), 'while it runs, the header shows done/total and the time left');
  });

  test('a stack at rest when the watch starts ends it at once, with its last operation', async () => {
    const clock = new FakeClock();
    // The update ended an hour ago.
    const endpoint = await startEndpoint({ scenarios: ['update-replacement'], now: () => clock.now(), startAt: clock.now() - 3_600_000, stepMs: 5000 });
    let stdout = '';
    const io: CliIo = { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: { AWS_REGION: 'us-east-1' } };
    try {
      const startedAt = clock.now();
      const code = await driveUntilSettled(clock, runWatch(['network', '--endpoint', endpoint.url, '--json'], io, { clock }));
      assert.equal(code, 0);
      const done = JSON.parse(stdout.trim().split('\n').at(-1)!) as { type: string; status: string };
      assert.deepEqual([done.type, done.status], ['done', 'UPDATE_COMPLETE']);
      assert.equal(clock.now(), startedAt, 'no poll interval was waited');
      assert.deepEqual([...new Set(endpoint.calls.map((c) => c.action))], ['DescribeStacks', 'DescribeStackEvents', 'ListStackResources']);
    } finally {
      await endpoint.close();
    }
  });

  test('a deployment that shows no change for the quiet limit: exit 1, saying so', async () => {
    const clock = new FakeClock();
    // One step an hour: after the stack's first event the update shows nothing for an hour.
    const endpoint = await startEndpoint({ scenarios: ['update-replacement'], now: () => clock.now(), startAt: clock.now() - 1000, stepMs: 3_600_000 });
    let stderr = '';
    const io: CliIo = { stdout: () => undefined, stderr: (s) => (stderr += s), isTTY: false, env: { AWS_REGION: 'us-east-1' } };
    try {
      const startedAt = clock.now();
      const code = await driveUntilSettled(clock, runWatch(['network', '--endpoint', endpoint.url, '--json', '--quiet-limit-min', '5'], io, { clock }));
      assert.equal(code, 1);
      assert.equal(stderr, 'cfn-impact watch: nothing about network changed for 5 min (last seen UPDATE_IN_PROGRESS); giving up. Run it again to go on watching, or raise --quiet-limit-min.\n');
      // Five minutes after the last change seen (the first read, at once), at the next poll.
      const waited = clock.now() - startedAt;
      assert.ok(waited >= 5 * 60_000 && waited <= 5 * 60_000 + 5000, `gave up after ${waited} ms`);
    } finally {
      await endpoint.close();
    }
  });

  test('--quiet-limit-min takes whole minutes', async () => {
    const { code, stderr } = await run('watch', () => ['web', '--quiet-limit-min', '0.5'], []);
    assert.equal(code, 1);
    assert.match(stderr, /--quiet-limit-min must be a positive whole number of minutes, got 0\.5/);
  });

  test('no such stack: exit 1 with a message and its fix, no stack trace', async () => {
    const { code, stdout, stderr } = await run('watch', (url) => ['nope', '--endpoint', url, '--json'], ['create-success']);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.equal(stderr, 'cfn-impact watch: Stack with id nope does not exist\n  Check the stack name and the region (stacks are regional).\n');
  });

  test('--json: a deployment longer than the history read back is followed to its end, exit 0', async () => {
    // An update of 20 resources (43 events, one a second) watched 35 s in: the 10 pages of 3
    // events read back hold resource events only, not the stack's own start.
    const clock = new FakeClock();
    const endpoint = await startEndpoint({ now: () => clock.now(), pageSize: { events: 3 } });
    const stack = new ChurningStack({ stackName: 'catalog', resources: 20, operations: 1, periodMs: 60_000, eventGapMs: 1000 }, clock.now() - 35_000, {
      region: 'us-east-1',
      accountId: '123456789012',
    });
    endpoint.stacks.push(stack);
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: { AWS_REGION: 'us-east-1' } };
    try {
      const code = await driveUntilSettled(clock, runWatch(['catalog', '--endpoint', endpoint.url, '--json'], io, { clock }));
      assert.equal(stderr, '');
      assert.equal(code, 0);
      const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(lines.filter((l) => l.type === 'stack').map((l) => l.status), ['UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'UPDATE_COMPLETE']);
      const update = Array.from({ length: stack.perOperation }, (_, i) => stack.eventIdAt(stack.historySize + i));
      const printed = lines.filter((l) => l.type === 'event').map((l) => l.eventId);
      assert.ok(printed.length >= 30, `${printed.length} events: at least the 30 read back`);
      assert.deepEqual(printed, update.slice(update.length - printed.length), 'the update from the oldest event read back to its end, each once');
      assert.equal(lines.at(-1)?.type, 'done');
      assert.equal(lines.at(-1)?.status, 'UPDATE_COMPLETE');
    } finally {
      await endpoint.close();
    }
  });

  test('bad arguments: exit 1 with usage', async () => {
    const missing = await run('watch', () => [], []);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /STACK is required/);
    const badInterval = await run('watch', () => ['web', '--interval-ms', 'soon'], []);
    assert.equal(badInterval.code, 1);
    assert.match(badInterval.stderr, /--interval-ms must be a positive whole number/);
  });
});

describe('cfn-impact stacks', () => {
  test('--json lists stacks with statuses, in-progress first', async () => {
    const { code, stdout } = await run('stacks', (url) => ['--endpoint', url, '--json'], ['create-success', 'cleanup-delete-failed']);
    assert.equal(code, 0);
    const rows = JSON.parse(stdout) as { stackName: string; status: string }[];
    assert.deepEqual(rows.map((r) => `${r.stackName} ${r.status}`), ['messaging CREATE_IN_PROGRESS', 'security UPDATE_IN_PROGRESS']);
  });

  test('a table by default', async () => {
    const { code, stdout } = await run('stacks', (url) => ['--endpoint', url], ['update-rollback-failed']);
    assert.equal(code, 0);
    assert.match(stdout, /^STACK +STATUS +LAST UPDATED +REASON\nfleet +UPDATE_IN_PROGRESS +2024-05-01 10:00:00Z +User Initiated\n$/);
  });

  test('deleted stacks are left out unless --all asks for them', async () => {
    const anHourAgo = 3_600_000;
    const listed = async (...extra: string[]) => {
      const { code, stdout } = await run('stacks', (url) => ['--endpoint', url, '--json', ...extra], ['delete-stack', 'create-success'], false, anHourAgo);
      assert.equal(code, 0);
      return (JSON.parse(stdout) as { stackName: string; status: string }[]).map((r) => `${r.stackName} ${r.status}`);
    };
    assert.deepEqual(await listed(), ['messaging CREATE_COMPLETE']);
    assert.deepEqual((await listed('--all')).sort(), ['messaging CREATE_COMPLETE', 'scratch DELETE_COMPLETE']);
  });
});


describe('cfn-impact stacks STACK', () => {
  test("lists the stack's recent operations, newest first: the failed create and the rollback of its own that followed", async () => {
    // The create-rollback script: the create's events fill steps 0 to 4, its rollback's steps 5 to 8 (5 s a step here).
    const { code, stdout, stderr } = await run('stacks', (url) => ['web', '--endpoint', url, '--json'], ['create-rollback'], false, 3_600_000);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const shown = JSON.parse(stdout) as { status: string; operations: { operationType: string; outcome: string; status: string; durationMs: number; events: number }[] };
    assert.equal(shown.status, 'ROLLBACK_COMPLETE');
    assert.deepEqual(
      shown.operations.map((o) => [o.operationType, o.outcome, o.status, Math.round(o.durationMs / 5000), o.events]),
      [
        ['ROLLBACK', 'succeeded', 'ROLLBACK_COMPLETE', 3, 6],
        ['CREATE_STACK', 'failed', 'CREATE_IN_PROGRESS', 4, 8],
      ],
    );
  });

  test('as a table, and an unknown stack is an error message', async () => {
    const { code, stdout } = await run('stacks', (url) => ['web', '--endpoint', url], ['create-rollback'], false, 3_600_000);
    assert.equal(code, 0);
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^web  ROLLBACK_COMPLETE/);
    assert.match(lines[1]!, /^OPERATION +OUTCOME +DURATION +STARTED +STATUS$/);
    assert.match(lines[2]!, /^Rollback +succeeded +15s +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +ROLLBACK_COMPLETE$/);
    // The create ended as its rollback began: no status of its own to show.
    assert.match(lines[3]!, /^Create +failed +20s +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
    const missing = await run('stacks', (url) => ['nope', '--endpoint', url], ['create-rollback']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^cfn-impact stacks: Stack with id nope does not exist/);
  });
});
