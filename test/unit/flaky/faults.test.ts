/**
 * The StackWatcher against a flaky account, through the real SDK, on a fake clock: each way the
 * account misbehaves is injected for a while in the middle of a stack that keeps deploying. The
 * watcher shows the problem while it lasts, backs off, recovers on its own, and reports every
 * event the endpoint holds exactly once, in order.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildStackTree, type TreeNode } from '../../../server/src/stacks/treeModel';
import type { ReaderError } from '../../../server/src/stacks/types';
import { runUntil } from '../../endpoint/fakeClock';
import type { Fault } from '../../endpoint/faults';
import { openAccount, type Account } from './account';

const MINUTE = 60_000;
/** Twelve updates of a three-resource stack, one every 40 s: 9 minutes of deploying, 110 events. */
const CHURN = { stackName: 'orders', resources: 3, operations: 12, periodMs: 40_000, eventGapMs: 1000 };
/** The fault lasts from 2 to 5 minutes into the watch. */
const FAULT_FROM = 2 * MINUTE;
const FAULT_TO = 5 * MINUTE;

/** Runs the watch until the last event was reported and the fault is over; returns whether it got there. */
async function watchThrough(account: Account): Promise<boolean> {
  const ledger = account.ledgers.get('orders')!;
  const start = account.clock.now();
  account.watcher.start();
  return runUntil(
    account.clock,
    account.watcher,
    () => account.clock.now() >= start + FAULT_TO && ledger.caughtUp(ledger.stack.lastEventAt) && account.watcher.snapshot().error === undefined,
    60 * MINUTE,
  );
}

function messageNodes(nodes: TreeNode[]): TreeNode[] {
  return nodes.flatMap((n) => [...(n.kind === 'message' ? [n] : []), ...messageNodes(n.children ?? [])]);
}

const faults: { name: string; fault: Fault; shows: ReaderError['kind'] }[] = [
  { name: 'a throttling burst', fault: { kind: 'throttle' }, shows: 'throttled' },
  { name: 'InternalFailure (500)', fault: { kind: 'server-error', code: 'InternalFailure' }, shows: 'server' },
  { name: 'ServiceUnavailable (503)', fault: { kind: 'server-error', code: 'ServiceUnavailable' }, shows: 'server' },
  { name: 'answers slower than the request timeout', fault: { kind: 'delay', ms: 600 }, shows: 'network' },
  { name: 'connections reset mid-response', fault: { kind: 'reset' }, shows: 'network' },
  { name: 'malformed XML bodies', fault: { kind: 'malformed' }, shows: 'server' },
  { name: 'bodies that are not XML at all', fault: { kind: 'malformed', body: 'garbage' }, shows: 'server' },
  { name: 'credentials that expire mid-watch and are renewed', fault: { kind: 'expired-token' }, shows: 'expired-credentials' },
];

describe('the watcher on a flaky account', () => {
  for (const { name, fault, shows } of faults) {
    test(`${name}: shown while it lasts, backed off, recovered, every event once`, async () => {
      const account = await openAccount({ churn: [CHURN], watcher: { settledIntervalMs: 20_000 } });
      const start = account.clock.now();
      account.faults.during(start + FAULT_FROM, start + FAULT_TO, fault);
      let shown: TreeNode[] = [];
      account.watcher.onDidChange((change) => {
        if (change.kind === 'error' && change.error && shown.length === 0) {
          shown = messageNodes(buildStackTree({ regions: [{ region: 'us-east-1', snapshot: account.watcher.snapshot() }], now: account.clock.now() }));
        }
      });
      try {
        assert.ok(await watchThrough(account), 'the watch caught up after the fault');
        const ledger = account.ledgers.get('orders')!;
        assert.deepEqual(ledger.mismatches, [], 'no event duplicated or skipped');
        assert.equal(ledger.matched, ledger.expectedBy(ledger.stack.lastEventAt));

        const injected = account.faults.injected.get(fault.kind) ?? 0;
        assert.ok(injected >= 1, 'the fault was met');
        // Shown from the first failed poll to the first good one, and then cleared.
        const during = account.errors.filter((e) => e.kind !== 'cleared');
        assert.ok(during.length >= 1 && during.every((e) => e.kind === shows), `errors shown: ${during.map((e) => e.kind).join(', ')}`);
        assert.ok(during.every((e) => e.at >= start + FAULT_FROM && e.at < start + FAULT_TO + 2 * MINUTE));
        assert.equal(account.errors.at(-1)?.kind, 'cleared');
        assert.ok(account.errors.at(-1)!.at >= start + FAULT_TO);
        assert.equal(shown.length, 1, 'one message node in the tree while it lasted');
        assert.ok(shown[0].label && shown[0].description, 'the node says what happened and what to do');

        // Backoff: polls during the fault come further and further apart (at most ~20 in 3 minutes).
        const failed = account.endpoint.calls.filter((c) => c.at >= start + FAULT_FROM && c.at < start + FAULT_TO);
        assert.ok(failed.length <= 20, `${failed.length} calls during the fault`);
        const gaps = failed.slice(1).map((c, i) => c.at - failed[i].at).filter((g) => g > 0);
        assert.ok(gaps.length >= 2 && gaps.at(-1)! > gaps[0], `gaps grow: ${gaps.join(', ')}`);
        const recovered = account.endpoint.calls.find((c) => c.at >= start + FAULT_TO && c.outcome === 'ok');
        assert.ok(recovered && recovered.at - (start + FAULT_TO) <= 90_000, 'polling resumed within the maximum backoff');
      } finally {
        await account.close();
      }
    });
  }

  test('clock skew: the first refused request teaches the SDK the offset; the next poll is accepted', async () => {
    const account = await openAccount({ churn: [CHURN], watcher: { settledIntervalMs: 20_000 } });
    const start = account.clock.now();
    // From two minutes in to the end, AWS's clock is 20 minutes ahead of this computer's.
    account.faults.during(start + FAULT_FROM, Number.POSITIVE_INFINITY, { kind: 'skew', ms: 20 * MINUTE });
    try {
      assert.ok(await watchThrough(account));
      const ledger = account.ledgers.get('orders')!;
      assert.deepEqual(ledger.mismatches, []);
      assert.equal(ledger.matched, ledger.expectedBy(ledger.stack.lastEventAt));
      assert.equal(account.faults.injected.get('skew'), 1, 'one refusal, then signed with the corrected clock');
      assert.deepEqual(account.errors.map((e) => e.kind), ['clock-skew', 'cleared']);
    } finally {
      await account.close();
    }
  });

  test('clock skew answered as RequestTimeTooSkewed is recovered the same way', async () => {
    const account = await openAccount({ churn: [CHURN], watcher: { settledIntervalMs: 20_000 } });
    const start = account.clock.now();
    account.faults.during(start + FAULT_FROM, Number.POSITIVE_INFINITY, { kind: 'skew', ms: -30 * MINUTE, code: 'RequestTimeTooSkewed' });
    try {
      assert.ok(await watchThrough(account));
      assert.deepEqual(account.ledgers.get('orders')!.mismatches, []);
      assert.deepEqual(account.errors.map((e) => e.kind), ['clock-skew', 'cleared']);
    } finally {
      await account.close();
    }
  });

  test('faults of every kind in turn, each shorter than the backoff cap: still every event once', async () => {
    const account = await openAccount({
      churn: [CHURN, { ...CHURN, stackName: 'billing', periodMs: 45_000 }],
      watcher: { settledIntervalMs: 20_000 },
      endpoint: { settledStacks: 3, pageSize: { events: 5 } },
    });
    const start = account.clock.now();
    const sequence: Fault[] = [
      { kind: 'throttle' },
      { kind: 'server-error', code: 'ServiceUnavailable' },
      { kind: 'reset' },
      { kind: 'malformed' },
      { kind: 'expired-token' },
      { kind: 'delay', ms: 600 },
      { kind: 'server-error', code: 'InternalFailure' },
    ];
    sequence.forEach((fault, i) => account.faults.during(start + (1 + i) * MINUTE, start + (1 + i) * MINUTE + 25_000, fault));
    try {
      account.watcher.start();
      const ledgers = [...account.ledgers.values()];
      const end = Math.max(...ledgers.map((l) => l.stack.lastEventAt));
      assert.ok(
        await runUntil(account.clock, account.watcher, () => ledgers.every((l) => l.caughtUp(end)) && account.watcher.snapshot().error === undefined, 60 * MINUTE),
      );
      for (const ledger of ledgers) {
        assert.deepEqual(ledger.mismatches, [], ledger.stack.stackName);
        assert.equal(ledger.matched, ledger.expectedBy(ledger.stack.lastEventAt));
      }
      assert.equal(account.faults.injected.size, new Set(sequence.map((f) => f.kind)).size, `every kind met: ${[...account.faults.injected.keys()].join(', ')}`);
      assert.equal(account.watcher.snapshot().stacks.length, 5);
    } finally {
      await account.close();
    }
  });
});
