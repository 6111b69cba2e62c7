/**
 * The progress notification of a followed deployment: the stack's progress as its row says it,
 * and a `command:` link that opens the stack's timeline, its argument the stack's node as the
 * stacks view's command takes it (VS Code passes a link's JSON array as the command's arguments).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressMessage } from '../../../client/src/progressMessage';
import type { StackTreeNode } from '../../../server/src/lsp/protocol';

const stackId = 'arn:aws:cloudformation:us-east-1:123456789012:stack/network/1';

test("the notification says the stack's progress and links to its timeline", () => {
  const node: StackTreeNode = {
    id: `stack:${stackId}`,
    kind: 'stack',
    label: 'network',
    description: 'UPDATE_IN_PROGRESS · 7/12 · ~2 min left',
    collapsible: 'expanded',
    data: { region: 'us-east-1', stackId, stackName: 'network', consoleUrl: 'https://example.invalid/not-passed' },
  };
  const message = progressMessage(node, 'cfnImpact.stacks.showTimeline');
  const link = /^UPDATE_IN_PROGRESS · 7\/12 · ~2 min left · \[Show Timeline\]\(command:cfnImpact\.stacks\.showTimeline\?([^)\s]+)\)$/.exec(message);
  assert.ok(link, message);
  assert.deepEqual(JSON.parse(decodeURIComponent(link[1]!)), [{ id: `stack:${stackId}`, kind: 'stack', label: 'network', data: { region: 'us-east-1', stackId, stackName: 'network' } }]);
});
