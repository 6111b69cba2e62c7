/**
 * A stack deleted while it is watched: deleted the ordinary way (its events say so), or gone
 * altogether (every call about it answers "Stack with id X does not exist"). Either way the
 * watcher shows it deleted and stops spending calls on it; the other stacks carry on.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runUntil } from '../../endpoint/fakeClock';
import { ScriptedStack } from '../../endpoint/scriptedStack';
import { SCENARIOS } from '../../endpoint/scenarios';
import { openAccount } from './account';

const MINUTE = 60_000;
const CHURN = { stackName: 'orders', resources: 3, operations: 12, periodMs: 40_000, eventGapMs: 1000 };

describe('a stack deleted mid-watch', () => {
  test('gone altogether while deploying: shown deleted with the reason, no more calls for it, no backoff for the others', async () => {
    // Updates of orders take 27 s of every 40, so a listing every 20 s sees them running.
    const churn = [{ ...CHURN, eventGapMs: 3000 }, { ...CHURN, stackName: 'billing' }];
    const account = await openAccount({ churn, watcher: { settledIntervalMs: 20_000 }, keepChanges: true });
    const start = account.clock.now();
    const orders = account.ledgers.get('orders')!.stack;
    try {
      account.watcher.start();
      account.watcher.follow('orders');
      // Two minutes in, during an update the watcher is following, the stack vanishes from the account.
      const deploying = () => account.clock.now() >= start + 2 * MINUTE && account.watcher.getStack('orders')?.status === 'UPDATE_IN_PROGRESS';
      assert.ok(await runUntil(account.clock, account.watcher, deploying));
      account.endpoint.stacks.splice(account.endpoint.stacks.indexOf(orders), 1);
      const vanishedAt = account.clock.now();

      const billing = account.ledgers.get('billing')!;
      assert.ok(await runUntil(account.clock, account.watcher, () => billing.caughtUp(billing.stack.lastEventAt), 60 * MINUTE));
      assert.deepEqual(billing.mismatches, []);

      const gone = account.watcher.getStack(orders.stackId)!;
      assert.equal(gone.status, 'DELETE_COMPLETE');
      assert.equal(gone.error?.kind, 'not-found');
      assert.match(gone.error!.message, /does not exist/);
      const statusChange = account.changes.find((c) => c.kind === 'status' && c.stackId === orders.stackId && c.to === 'DELETE_COMPLETE');
      assert.ok(statusChange, 'a status change announced it');

      const aboutOrders = account.endpoint.calls.filter((c) => c.params.StackName === orders.stackId && c.at > vanishedAt);
      assert.equal(aboutOrders.length, 1, `one call found it gone, no call after that: ${aboutOrders.map((c) => `${c.action} ${c.at - vanishedAt} ${c.outcome}`).join(", ")}`);
      assert.equal(aboutOrders[0].outcome, 'ValidationError');
      assert.equal(account.watcher.snapshot().error, undefined, 'not a connection problem');
      assert.equal(account.errors.filter((e) => e.stackName === undefined).length, 0);
    } finally {
      await account.close();
    }
  });

  test('deleted the ordinary way: its events end in DELETE_COMPLETE, then it leaves the list and is not polled again', async () => {
    const account = await openAccount({ churn: [CHURN], watcher: { settledIntervalMs: 20_000 }, keepChanges: true });
    const start = account.clock.now();
    const deleted = new ScriptedStack(SCENARIOS['delete-stack'], start + MINUTE, 3000, { region: 'us-east-1', accountId: '123456789012' });
    account.endpoint.stacks.push(deleted);
    try {
      account.watcher.start();
      const ended = () => account.changes.find((c) => c.kind === 'operation-ended' && c.stackId === deleted.stackId);
      assert.ok(await runUntil(account.clock, account.watcher, () => ended() !== undefined, 30 * MINUTE));
      const endedAt = account.clock.now();
      const change = ended();
      assert.ok(change?.kind === 'operation-ended');
      assert.equal(change.operation.status, 'DELETE_COMPLETE');
      assert.equal(change.live, true);

      const orders = account.ledgers.get('orders')!;
      assert.ok(await runUntil(account.clock, account.watcher, () => orders.caughtUp(orders.stack.lastEventAt), 60 * MINUTE));
      assert.equal(account.watcher.getStack(deleted.stackId), undefined, 'no longer listed');
      const after = account.endpoint.calls.filter((c) => c.params.StackName === deleted.stackId && c.at > endedAt);
      assert.deepEqual(after, [], 'no call about it after it was seen deleted');
      assert.deepEqual(account.errors, []);
    } finally {
      await account.close();
    }
  });
});
