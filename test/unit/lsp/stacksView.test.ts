// The server's side of the stacks view, without AWS: what the tree shows around the stacks
// (reading, empty, no match, no region, untrusted), that what it sends carries state and never a
// look, the language of a deployed template, and what a person is told when a watched deployment ends.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeploymentEnded } from '../../../server/src/lsp/protocol';
import { deploymentMessage } from '../../../server/src/present/deployments';
import { completeRegionNode, deploymentEndedOf, readerFailureNode, stackTreeNode, templateLanguage, untrustedNode } from '../../../server/src/lsp/stacksTree';
import type { OperationSummary } from '../../../server/src/stacks/stackModel';
import type { StackSnapshot, WatcherSnapshot } from '../../../server/src/stacks/stackWatcher';
import { buildStackTree } from '../../../server/src/stacks/treeModel';
import { lookInTransfer } from '../client/lookInTransfer';

const now = Date.UTC(2025, 0, 1, 12);
const arn = 'arn:aws:cloudformation:us-east-1:123456789012:stack/network/0000';

/** The region node the view shows for a watcher snapshot, filtered or not. */
function regionShown(snapshot: Partial<WatcherSnapshot>, filter?: string) {
  const full: WatcherSnapshot = { region: 'us-east-1', stacks: [], paused: false, ...snapshot };
  const [region] = buildStackTree({ regions: [{ region: 'us-east-1', snapshot: full }], now, ...(filter ? { filter } : {}) });
  return completeRegionNode(stackTreeNode(region), full, filter);
}

const settledStack: StackSnapshot = {
  stackId: arn,
  stackName: 'network',
  status: 'UPDATE_COMPLETE',
  creationTime: now - 3_600_000,
  detailed: false,
  followed: false,
  resources: [],
  events: [],
};

describe('the stacks tree around the stacks', () => {
  test('before the first listing, a region says it is reading (or not yet, while hidden)', () => {
    assert.deepEqual(regionShown({}).children?.map((n) => [n.kind, n.label]), [['message', 'Reading stacks…']]);
    assert.deepEqual(regionShown({ paused: true }).children?.map((n) => n.label), ['Not read yet']);
  });

  test('a listed region without stacks says so', () => {
    assert.deepEqual(regionShown({ listedAt: now }).children?.map((n) => n.label), ['No stacks in us-east-1']);
  });

  test('a filter that matches no stack says so and offers to clear it', () => {
    const [message] = regionShown({ listedAt: now, stacks: [settledStack] }, 'web').children ?? [];
    assert.deepEqual([message?.label, message?.message], ['No stack matches “web”', { reason: 'no-match' }]);
  });

  test('a stack whose details are not loaded shows that they are being read when expanded', () => {
    const [stack] = regionShown({ listedAt: now, stacks: [settledStack] }).children ?? [];
    assert.equal(stack?.label, 'network');
    assert.deepEqual(stack?.children?.map((n) => [n.kind, n.label]), [['message', 'Reading resources and events…']]);
  });

  test('a connection error is shown alone, not as an empty region', () => {
    const error = { kind: 'network' as const, message: 'Cannot reach CloudFormation.', fix: 'Check the network.' };
    assert.deepEqual(regionShown({ error }).children?.map((n) => n.label), ['Cannot reach CloudFormation.']);
  });

  test('without any region the view says which setting to set', () => {
    const node = readerFailureNode(undefined, { kind: 'unknown-region', message: 'No AWS region is configured.', fix: 'Choose a region.' });
    assert.deepEqual(node.message, { reason: 'no-region' });
    assert.match(node.description ?? '', /cfnImpact\.aws\.regions/);
  });

  test('a reader that cannot be set up for a region names the region and the fix', () => {
    const node = readerFailureNode('eu-west-1', { kind: 'no-credentials', message: 'No AWS credentials were found.', fix: 'Run aws sso login.' });
    assert.deepEqual([node.label, node.description, node.message], [
      'eu-west-1: No AWS credentials were found.',
      'Run aws sso login.',
      { reason: 'read-failed', readError: 'no-credentials' },
    ]);
  });

  test('an untrusted workspace has one message node', () => {
    assert.deepEqual(untrustedNode().message, { reason: 'untrusted' });
  });
});

describe('what the server sends for the stacks tree', () => {
  test('carries state and words for every kind of node, and no icon, colour or menu context', () => {
    const detailed: StackSnapshot = {
      ...settledStack,
      stackName: 'detailed',
      stackId: `${arn}-detailed`,
      status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS',
      detailed: true,
      resources: [
        {
          logicalId: 'VPC',
          resourceType: 'AWS::EC2::VPC',
          status: 'UPDATE_COMPLETE',
          physicalId: 'vpc-new',
          lastUpdated: now,
          formerPhysical: [{ physicalId: 'vpc-old', status: 'DELETE_IN_PROGRESS', timestamp: now }],
          cleanup: { physicalId: 'vpc-old', status: 'DELETE_FAILED', timestamp: now },
        },
        { logicalId: 'Logs', resourceType: 'AWS::S3::Bucket', status: 'DELETE_SKIPPED', lastUpdated: now, formerPhysical: [] },
      ],
      events: [
        { eventId: 'e2', stackId: arn, stackName: 'detailed', logicalId: 'detailed', physicalId: `${arn}-detailed`, resourceType: 'AWS::CloudFormation::Stack', timestamp: now, status: 'REVIEW_IN_PROGRESS' },
        { eventId: 'e1', stackId: arn, stackName: 'detailed', logicalId: 'VPC', resourceType: 'AWS::EC2::VPC', timestamp: now, status: 'UPDATE_IN_PROGRESS' },
      ],
    };
    const statuses = ['REVIEW_IN_PROGRESS', 'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'UPDATE_ROLLBACK_FAILED', 'DELETE_COMPLETE'];
    const stacks = [detailed, ...statuses.map((status, i) => ({ ...settledStack, stackName: `s${i}`, stackId: `${arn}-${i}`, status }))];
    const error = { kind: 'throttled' as const, message: 'CloudFormation is throttling.', fix: 'It retries by itself.' };
    const sent = [
      regionShown({ listedAt: now, stacks, error }),
      regionShown({ listedAt: now, stacks }),
      regionShown({}),
      regionShown({ listedAt: now }),
      regionShown({ listedAt: now, stacks: [settledStack] }, 'web'),
      readerFailureNode(undefined, { kind: 'unknown-region', message: 'No region.', fix: 'Choose one.' }),
      readerFailureNode('eu-west-1', { kind: 'access-denied', message: 'Access denied.', fix: 'Allow cloudformation:ListStacks.' }),
      untrustedNode(),
    ];
    const kinds = new Set<string>();
    const visit = (node: (typeof sent)[number]) => {
      kinds.add(node.kind);
      node.children?.forEach(visit);
    };
    sent.forEach(visit);
    assert.deepEqual([...kinds].sort(), ['event', 'events', 'message', 'physical', 'region', 'resource', 'resources', 'stack'], 'every kind of node is sent');
    assert.deepEqual(lookInTransfer(sent), []);
  });

  test('the check finds a look wherever it hides', () => {
    const withLook = { ...untrustedNode(), tooltip: 'charts.red', children: [{ ...untrustedNode(), data: { stackName: 'sync~spin' } }] };
    assert.deepEqual(lookInTransfer([withLook, { ...untrustedNode(), icon: 'shield' } as never]), [
      'nodes[0].tooltip = "charts.red"',
      'nodes[0].children[0].data.stackName = "sync~spin"',
      'nodes[1].icon',
      'nodes[1].icon = "shield"',
    ]);
  });
});

describe('the language of a deployed template', () => {
  test('a body that opens with a brace is JSON, anything else YAML', () => {
    assert.equal(templateLanguage('\n  {"Resources": {}}'), 'json');
    assert.equal(templateLanguage('Resources: {}\n'), 'yaml');
    assert.equal(templateLanguage('# {"a": 1}\nResources: {}\n'), 'yaml');
  });
});

describe('the end of a watched deployment', () => {
  const failedCreate: OperationSummary = {
    startStatus: 'CREATE_IN_PROGRESS',
    startedAt: now - 60_000,
    status: 'ROLLBACK_COMPLETE',
    reason: 'The following resource(s) failed to create: [Bucket, Instance].',
    outcome: 'failed',
    endedAt: now,
    rootCause: {
      logicalId: 'Instance',
      resourceType: 'AWS::EC2::Instance',
      status: 'CREATE_FAILED',
      reason: 'Invalid id: "bogus"',
      eventId: 'e1',
      timestamp: now - 30_000,
    },
    undeleted: [],
    eventCount: 12,
  };
  const stack = { stackId: arn, stackName: 'web' };

  test('is not announced while the operation runs', () => {
    assert.equal(deploymentEndedOf('us-east-1', stack, { ...failedCreate, outcome: 'in-progress', status: 'CREATE_IN_PROGRESS' }, 'https://console'), undefined);
  });

  test('a failure carries its root cause and is an error naming it', () => {
    const ended = deploymentEndedOf('us-east-1', stack, failedCreate, 'https://console')!;
    assert.deepEqual(ended.rootCause, { logicalId: 'Instance', status: 'CREATE_FAILED', reason: 'Invalid id: "bogus"' });
    assert.deepEqual(deploymentMessage(ended), {
      severity: 'error',
      text: 'Deployment of web (us-east-1) failed: ROLLBACK_COMPLETE. Root cause: Instance CREATE_FAILED — Invalid id: "bogus"',
    });
  });

  test('a rejection by early validation is the root cause, named with its check and template path', () => {
    const rejected: OperationSummary = { ...failedCreate, startStatus: 'UPDATE_IN_PROGRESS', status: 'UPDATE_FAILED' };
    const check = { name: 'ResourceNameConflict', reason: 'A bucket named shared-archive already exists in this account.', path: '/Resources/Archive/Properties/BucketName', logicalId: 'Archive', timestamp: now };
    const ended = deploymentEndedOf('us-east-1', { stackId: arn, stackName: 'storage' }, rejected, 'https://console', [check])!;
    assert.deepEqual(ended.rootCause, {
      logicalId: 'Archive',
      status: 'VALIDATION_FAILED',
      reason: 'A bucket named shared-archive already exists in this account.',
      validation: { name: 'ResourceNameConflict', path: '/Resources/Archive/Properties/BucketName' },
    });
    assert.deepEqual(deploymentMessage(ended), {
      severity: 'error',
      text:
        'Deployment of storage (us-east-1) failed: UPDATE_FAILED. Root cause: early validation ResourceNameConflict at /Resources/Archive/Properties/BucketName — ' +
        'A bucket named shared-archive already exists in this account.',
    });
  });

  test('a failure that also left resources behind names them after the root cause', () => {
    const summary: OperationSummary = {
      ...failedCreate,
      undeleted: [{ logicalId: 'Bucket', physicalId: 'logs-bucket-1abc', resourceType: 'AWS::S3::Bucket', reason: 'The bucket you tried to delete is not empty' }],
    };
    const ended = deploymentEndedOf('us-east-1', stack, summary, 'https://console')!;
    assert.deepEqual(deploymentMessage(ended), {
      severity: 'error',
      text:
        'Deployment of web (us-east-1) failed: ROLLBACK_COMPLETE. Root cause: Instance CREATE_FAILED — Invalid id: "bogus". ' +
        'CloudFormation could not delete this resource and left it behind: Bucket (logs-bucket-1abc).',
    });
  });

  test('a success is information', () => {
    const ended: DeploymentEnded = {
      region: 'us-east-1',
      stackId: arn,
      stackName: 'network',
      status: 'UPDATE_COMPLETE',
      outcome: 'succeeded',
      undeleted: [],
      consoleUrl: 'https://console',
    };
    assert.deepEqual(deploymentMessage(ended), { severity: 'info', text: 'network (us-east-1) reached UPDATE_COMPLETE.' });
  });

  test('a success that left resources behind is a warning listing them', () => {
    const summary: OperationSummary = {
      ...failedCreate,
      startStatus: 'UPDATE_IN_PROGRESS',
      status: 'UPDATE_COMPLETE',
      outcome: 'succeeded',
      undeleted: [{ logicalId: 'Bucket', physicalId: 'logs-bucket-1abc', resourceType: 'AWS::S3::Bucket', reason: 'The bucket you tried to delete is not empty' }],
    };
    const ended = deploymentEndedOf('us-east-1', { stackId: arn, stackName: 'network' }, summary, 'https://console')!;
    assert.equal(ended.rootCause, undefined, 'a success has no root cause');
    assert.deepEqual(deploymentMessage(ended), {
      severity: 'warning',
      text: 'network (us-east-1) reached UPDATE_COMPLETE, but CloudFormation could not delete this resource and left it behind: Bucket (logs-bucket-1abc).',
    });
  });
});
