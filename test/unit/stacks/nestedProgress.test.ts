/**
 * A nested stack in the stacks tree: shown under its parent's resource (not as a stack of its
 * own beside it), with its own status and progress while the parent's update runs it, read
 * through the real SDK from the local endpoint on a fake clock (scenarios `nested-update` and
 * `nested-update-network`, placed two steps after its parent: the nested stack's update runs from
 * step 2 to step 6 of the parent's, its VPC done at step 4 while its subnet starts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { StackWatcher } from '../../../server/src/stacks/stackWatcher';
import { buildStackTree, type TreeNode } from '../../../server/src/stacks/treeModel';
import { startEndpoint } from '../../endpoint/server';
import { FakeClock, runUntil } from '../../endpoint/fakeClock';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const STEP_MS = 10_000;

describe('a nested stack under its parent', () => {
  test("is the parent's resource row, with its own progress while the parent's update runs it", async () => {
    const clock = new FakeClock();
    const startAt = clock.now() + 5_000;
    // The nested stack's own update starts two steps into its parent's, as its resource does.
    const endpoint = await startEndpoint({ scenarios: ['nested-update', { name: 'nested-update-network', startAt: startAt + 2 * STEP_MS }], now: () => clock.now(), startAt, stepMs: STEP_MS });
    const created = await CloudFormationReader.create({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'not-a-secret' } });
    assert.ok(created.ok);
    const reader = created.value;
    const watcher = new StackWatcher({ reader, clock, settledIntervalMs: 20_000 });
    const tree = () => buildStackTree({ regions: [{ region: 'us-east-1', snapshot: watcher.snapshot() }], now: clock.now() })[0]!;
    watcher.follow('shop');
    watcher.start();
    try {
      // Step 4 and a little: the nested VPC is done, its subnet in progress.
      const nestedRunning = () => {
        const row = networkRow(tree());
        return row?.description?.includes('1/2') === true;
      };
      assert.ok(await runUntil(clock, watcher, () => clock.now() >= startAt + 4 * STEP_MS && nestedRunning(), 10 * STEP_MS), 'the nested stack was seen half done');
      const region = tree();
      assert.deepEqual(region.children?.map((n) => n.label), ['shop'], 'the nested stack is not a stack of its own beside its parent');
      const row = networkRow(region)!;
      assert.equal(row.kind, 'stack');
      assert.match(row.description ?? '', /^nested · updating · 1\/2 · /);
      assert.match(row.tooltip ?? '', /^Network \(AWS::CloudFormation::Stack\) in shop: UPDATE_IN_PROGRESS\nNested stack shop-Network-8H7G6F5D4S3A\n/);
      const nestedResources = row.children?.find((n) => n.kind === 'resources');
      assert.deepEqual(nestedResources?.children?.map((n) => [n.label, n.description?.split(' · ')[0]]), [
        ['Subnet', 'updating'],
        ['Vpc', 'updated'],
      ]);

      assert.ok(await runUntil(clock, watcher, () => watcher.getStack('shop')?.status === 'UPDATE_COMPLETE' && networkRow(tree())?.description?.startsWith('nested · updated') === true, 20 * STEP_MS), 'both settled');
    } finally {
      watcher.dispose();
      reader.dispose();
      await endpoint.close();
    }
  });
});

/** The parent's `Network` row under its resources. */
function networkRow(region: TreeNode): TreeNode | undefined {
  const shop = region.children?.find((n) => n.label === 'shop');
  return shop?.children?.find((n) => n.kind === 'resources')?.children?.find((n) => n.label === 'Network');
}
