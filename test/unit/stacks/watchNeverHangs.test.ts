/**
 * `cfn-impact watch` never hangs: a share of the stress runs (test/stress/watchNeverHangs.ts, where
 * `npm run stress:watch` runs hundreds), each a scripted deployment watched through the real SDK
 * with its own disorder (calls that take seconds, throttling, small pages, the watch starting
 * before, during or after the operation), must end soon after the deployment does, with its outcome.
 * `npm test` watches 40 seeded deployments, `npm run test:long` all 120.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWatchStress } from '../../stress/watchStress';
import { runLength } from '../../support/runLength';

test('disordered watches (40, or 120 in the long run) all end, with the outcome of the deployment they watched', async () => {
  const result = await runWatchStress({ runs: runLength(40, 120), seed: 20261122 });
  assert.deepEqual(result.failures, []);
});
