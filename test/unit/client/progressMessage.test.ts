/**
 * The progress notification of a followed deployment: the stack's progress as its row says it,
 * and `command:` links that open the stack's timeline and stop following it, each argument the
 * stack's node id, which the commands look up (VS Code passes a link's JSON array as the
 * command's arguments). The notification has no Cancel: the update goes on whatever it shows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressMessage } from '../../../client/src/progressMessage';
import type { StackTreeNode } from '../../../server/src/lsp/protocol';

const stackId = 'arn:aws:cloudformation:us-east-1:123456789012:stack/network/1';

test("the notification says the stack's progress and links to its timeline and to stop following it", () => {
  const node: StackTreeNode = {
    id: `stack:${stackId}`,
    kind: 'stack',
    label: 'network',
    description: 'UPDATE_IN_PROGRESS · 7/12 · ~2 min left',
    collapsible: 'expanded',
    data: { region: 'us-east-1', stackId, stackName: 'network', consoleUrl: 'https://example.invalid/not-passed' },
  };
  const message = progressMessage(node, { showTimeline: 'cfnImpact.stacks.showTimeline', stopFollowing: 'cfnImpact.stacks.stopFollowing' });
  const links = /^UPDATE_IN_PROGRESS · 7\/12 · ~2 min left · \[Show Timeline\]\(command:cfnImpact\.stacks\.showTimeline\?([^)\s]+)\) · \[Stop Following\]\(command:cfnImpact\.stacks\.stopFollowing\?([^)\s]+)\)$/.exec(message);
  assert.ok(links, message);
  // The links name the stack's node by id: VS Code cuts a notification's message at 1,000 characters.
  assert.deepEqual(JSON.parse(decodeURIComponent(links[1]!)), [`stack:${stackId}`]);
  assert.deepEqual(JSON.parse(decodeURIComponent(links[2]!)), [`stack:${stackId}`]);
  assert.ok(message.length < 1000);
});
