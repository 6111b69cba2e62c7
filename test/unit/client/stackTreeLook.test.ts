// How the VS Code client draws the stacks tree from the state the server sends: the codicon and
// theme colour of each node, and the context values package.json's menus match
// (`viewItem =~ /^stack/` for stack actions, `viewItem == resource.physical` for copying an id).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { treeItemLook, type TreeItemLook } from '../../../client/src/stackTreeLook';
import type { StackTreeNode } from '../../../server/src/lsp/protocol';
import { completeRegionNode, readerFailureNode, stackTreeNode, untrustedNode } from '../../../server/src/lsp/stacksTree';
import type { StackSnapshot, WatcherSnapshot } from '../../../server/src/stacks/stackWatcher';
import { buildStackTree } from '../../../server/src/stacks/treeModel';

const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);
const MIN = 60_000;

function stack(name: string, status: string, minutesAgo: number, extra: Partial<StackSnapshot> = {}): StackSnapshot {
  return {
    stackId: `arn:aws:cloudformation:us-east-1:123456789012:stack/${name}/1`,
    stackName: name,
    status,
    creationTime: NOW - 1000 * MIN,
    lastUpdatedTime: NOW - minutesAgo * MIN,
    detailed: false,
    followed: false,
    resources: [],
    events: [],
    ...extra,
  };
}

/** The region node as the server sends it for these stacks. */
function regionSent(stacks: StackSnapshot[], extra: Partial<WatcherSnapshot> = {}, filter?: string): StackTreeNode {
  const snapshot: WatcherSnapshot = { region: 'us-east-1', stacks, paused: false, listedAt: NOW, ...extra };
  const [region] = buildStackTree({ regions: [{ region: 'us-east-1', snapshot }], now: NOW, ...(filter ? { filter } : {}) });
  return completeRegionNode(stackTreeNode(region), snapshot, filter);
}

/** `icon colour context` of a node, the way the tree item shows it. */
function drawn(node: StackTreeNode | undefined): string {
  assert.ok(node, 'the node exists');
  const look: TreeItemLook = treeItemLook(node);
  return [look.icon?.icon ?? '-', look.icon?.color ?? '-', look.contextValue].join(' ');
}

describe('how the stacks tree is drawn', () => {
  test('a stack spins blue while in progress, is green when complete, a yellow warning when rolled back, red when failed', () => {
    const region = regionSent([
      stack('old', 'CREATE_COMPLETE', 300),
      stack('broken', 'UPDATE_ROLLBACK_FAILED', 60),
      stack('deploying', 'UPDATE_IN_PROGRESS', 500),
      stack('recent', 'UPDATE_ROLLBACK_COMPLETE', 2),
    ]);
    assert.deepEqual(region.children!.map((n) => `${n.label} ${drawn(n)}`), [
      'deploying sync~spin charts.blue stack.running',
      'recent warning charts.yellow stack',
      'broken error charts.red stack',
      'old check charts.green stack',
    ]);
  });

  test('a stack waiting in review is an eye and counts as running; a deleted stack is a greyed bin', () => {
    const region = regionSent([stack('proposed', 'REVIEW_IN_PROGRESS', 1), stack('gone', 'DELETE_COMPLETE', 2)]);
    assert.deepEqual(region.children!.map((n) => `${n.label} ${drawn(n)}`), [
      'proposed eye charts.blue stack.running',
      'gone trash disabledForeground stack',
    ]);
  });

  test('a completed update that left resources behind is a warning', () => {
    const region = regionSent([
      stack('security', 'UPDATE_COMPLETE', 1, {
        operation: {
          startStatus: 'UPDATE_IN_PROGRESS',
          startedAt: NOW - 9 * MIN,
          status: 'UPDATE_COMPLETE',
          outcome: 'succeeded',
          undeleted: [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', resourceType: 'AWS::EC2::SecurityGroup' }],
          eventCount: 12,
        },
      }),
    ]);
    assert.equal(drawn(region.children![0]), 'warning charts.yellow stack');
  });

  test('a region is a globe, or a yellow warning above the message of a failed read', () => {
    assert.equal(drawn(regionSent([stack('web', 'CREATE_COMPLETE', 1)])), 'globe - region');
    const failing = regionSent([stack('web', 'CREATE_COMPLETE', 1)], {
      error: { kind: 'expired-credentials', message: 'The AWS credentials have expired', fix: 'Run aws sso login' },
    });
    assert.equal(drawn(failing), 'warning charts.yellow region');
    assert.equal(drawn(failing.children![0]), 'error charts.red message.expired-credentials');
    const throttled = regionSent([], { error: { kind: 'throttled', message: 'CloudFormation is throttling', fix: 'It retries by itself.' } });
    assert.equal(drawn(throttled.children![0]), 'watch charts.yellow message.throttled');
  });

  test('resources by status; a resource or replaced physical resource with a physical id offers to copy it', () => {
    const id = 'arn:aws:cloudformation:us-east-1:123456789012:stack/network/1';
    const region = regionSent([
      stack('network', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 1, {
        detailed: true,
        resources: [
          {
            logicalId: 'VPC',
            resourceType: 'AWS::EC2::VPC',
            status: 'UPDATE_COMPLETE',
            physicalId: 'vpc-new',
            lastUpdated: NOW - MIN,
            formerPhysical: [{ physicalId: 'vpc-old', status: 'DELETE_IN_PROGRESS', timestamp: NOW }],
          },
          { logicalId: 'Queue', resourceType: 'AWS::SQS::Queue', status: 'CREATE_IN_PROGRESS', lastUpdated: NOW, formerPhysical: [] },
          { logicalId: 'Role', resourceType: 'AWS::IAM::Role', status: 'UPDATE_FAILED', physicalId: 'role-1', lastUpdated: NOW, formerPhysical: [] },
          { logicalId: 'Logs', resourceType: 'AWS::S3::Bucket', status: 'DELETE_SKIPPED', physicalId: 'logs-1', lastUpdated: NOW, formerPhysical: [] },
          { logicalId: 'Old', resourceType: 'AWS::SQS::Queue', status: 'DELETE_COMPLETE', physicalId: 'q-0', lastUpdated: NOW, formerPhysical: [] },
          {
            logicalId: 'Group',
            resourceType: 'AWS::EC2::SecurityGroup',
            status: 'UPDATE_COMPLETE',
            physicalId: 'sg-1',
            lastUpdated: NOW,
            formerPhysical: [],
            cleanup: { physicalId: 'sg-0', status: 'DELETE_FAILED', timestamp: NOW, reason: 'has a dependent object' },
          },
        ],
        events: [
          { eventId: 'e3', stackId: id, stackName: 'network', logicalId: 'network', physicalId: id, resourceType: 'AWS::CloudFormation::Stack', timestamp: NOW, status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' },
          { eventId: 'e2', stackId: id, stackName: 'network', logicalId: 'VPC', physicalId: 'vpc-new', resourceType: 'AWS::EC2::VPC', timestamp: NOW - MIN, status: 'UPDATE_COMPLETE' },
          { eventId: 'e1', stackId: id, stackName: 'network', logicalId: 'VPC', resourceType: 'AWS::EC2::VPC', timestamp: NOW - 2 * MIN, status: 'UPDATE_IN_PROGRESS' },
        ],
      }),
    ]);
    const [resources, events] = region.children![0].children!;
    assert.equal(drawn(resources), 'symbol-class - resources');
    assert.equal(drawn(events), 'history - events');
    assert.deepEqual(resources.children!.map((n) => `${n.label} ${drawn(n)}`), [
      'Group error charts.red resource.physical',
      'Logs debug-step-over disabledForeground resource.physical',
      'Old trash disabledForeground resource.physical',
      'Queue sync~spin charts.blue resource',
      'Role error charts.red resource.physical',
      'VPC check charts.green resource.physical',
    ]);
    const vpc = resources.children!.find((n) => n.label === 'VPC')!;
    assert.equal(drawn(vpc.children![0]), 'sync~spin charts.blue resource.physical');
    // An event is in the past: one that was in progress is a dot, not a spinner.
    assert.deepEqual(events.children!.map((n) => drawn(n)), [
      'circle-filled charts.blue event',
      'check charts.green event',
      'circle-filled charts.blue event',
    ]);
  });

  test('message nodes: reading, empty, no match, no region, untrusted, a reader that could not be set up', () => {
    assert.equal(drawn(regionSent([], { listedAt: undefined }).children![0]), 'loading~spin - message.reading');
    assert.equal(drawn(regionSent([stack('web', 'CREATE_COMPLETE', 1)]).children![0].children![0]), 'loading~spin - message.reading');
    assert.equal(drawn(regionSent([]).children![0]), 'info - message.empty');
    assert.equal(drawn(regionSent([stack('db', 'CREATE_COMPLETE', 1)], {}, 'web').children![0]), 'filter - message.no-match');
    assert.equal(drawn(readerFailureNode(undefined, { kind: 'unknown-region', message: 'No region.', fix: 'Choose one.' })), 'gear - message.no-region');
    assert.equal(
      drawn(readerFailureNode('eu-west-1', { kind: 'no-credentials', message: 'No AWS credentials were found.', fix: 'Run aws sso login.' })),
      'error charts.red message.no-credentials',
    );
    assert.equal(drawn(untrustedNode()), 'shield - message.untrusted');
    assert.equal(
      drawn({ id: 'message:client-error', kind: 'message', label: 'The stacks could not be read', collapsible: 'none', message: { reason: 'client-error' } }),
      'error - message.client-error',
    );
  });
});
