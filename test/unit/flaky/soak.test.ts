/**
 * The short slice of the soak (`npm run soak` runs 100,000 events): three stacks deploying for
 * hours of simulated time through a seeded schedule of faults. Every event is reported once, the
 * watch ends with nothing shown wrong, and the heap stays flat once the kept events hit their cap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSoak } from './soak';

test('5,000 events through faults of every kind: none lost or doubled, heap flat after warm-up', async (t) => {
  // A low cap on kept events, so that the slice spends most of its time past it.
  const figures = await runSoak({ events: 5000, settledStacks: 5, maxEventsPerStack: 200 });
  t.diagnostic(
    `${figures.eventsProcessed} events over ${figures.simulatedHours.toFixed(1)} h, ${figures.faultsInjected} faults survived, heap ${figures.heapWarmMB.toFixed(1)} → ${figures.heapEndMB.toFixed(1)} MB (peak ${figures.heapPeakMB.toFixed(1)})`,
  );
  assert.deepEqual(figures.mismatches, []);
  assert.ok(figures.eventsProcessed >= 5000, `${figures.eventsProcessed} events`);
  assert.equal(figures.errorAtEnd, undefined);
  assert.ok(figures.faultsInjected >= 20, `${figures.faultsInjected} faults`);
  assert.ok(Object.keys(figures.faultsByKind).length >= 4, `kinds: ${Object.keys(figures.faultsByKind).join(', ')}`);
  assert.equal(figures.keptEventsMax, 200);
  assert.ok(figures.heapEndMB - figures.heapWarmMB < 3, `heap ${figures.heapWarmMB.toFixed(1)} → ${figures.heapEndMB.toFixed(1)} MB`);
});
