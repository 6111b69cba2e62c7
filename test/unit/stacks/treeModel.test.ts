import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildStackTree, type TreeNode } from '../../../server/src/stacks/treeModel';
import type { StackSnapshot, WatcherSnapshot } from '../../../server/src/stacks/stackWatcher';

const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);
const MIN = 60_000;

/** A settled stack summary as a listing gives it (no details loaded). */
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

function tree(stacks: StackSnapshot[], extra: Partial<WatcherSnapshot> = {}, filter?: string): TreeNode {
  const snapshot: WatcherSnapshot = { region: 'us-east-1', stacks, paused: false, ...extra };
  const [region] = buildStackTree({ regions: [{ region: 'us-east-1', profile: 'dev', snapshot }], now: NOW, filter });
  return region;
}

describe('stack tree', () => {
  test('region → stacks: in progress first, then most recently changed; each stack with its status and phase', () => {
    const region = tree([
      stack('old', 'CREATE_COMPLETE', 300),
      stack('broken', 'UPDATE_ROLLBACK_FAILED', 60),
      stack('deploying', 'UPDATE_IN_PROGRESS', 500),
      stack('recent', 'UPDATE_ROLLBACK_COMPLETE', 2),
    ]);
    assert.equal(region.label, 'dev · us-east-1');
    assert.equal(region.description, '4 stacks · 1 in progress');
    assert.deepEqual(region.region, { stacks: 4, inProgress: 1, readFailed: false });
    assert.deepEqual(
      region.children!.map((n) => `${n.label} ${n.stack?.status} ${n.stack?.phase}`),
      [
        'deploying UPDATE_IN_PROGRESS in-progress',
        'recent UPDATE_ROLLBACK_COMPLETE rolled-back',
        'broken UPDATE_ROLLBACK_FAILED failed',
        'old CREATE_COMPLETE complete',
      ],
    );
    // The row says the status in a word (the icon gives the phase, the tooltip the full status).
    assert.equal(region.children![1].description, 'rolled back · 2 min ago');
    assert.match(region.children![1].tooltip ?? '', /UPDATE_ROLLBACK_COMPLETE/);
    assert.deepEqual(region.children!.map((n) => n.collapsible), ['expanded', 'collapsed', 'collapsed', 'collapsed'], 'a running stack opens by itself');
    assert.match(region.children![0].data!.consoleUrl!, /^https:\/\/us-east-1\.console\.aws\.amazon\.com\/cloudformation\/home\?region=us-east-1#\/stacks\/stackinfo\?stackId=arn%3Aaws/);
  });

  test('a stack created by a change set waits in review; a deleted stack is deleted, not merely complete', () => {
    const region = tree([stack('proposed', 'REVIEW_IN_PROGRESS', 1), stack('gone', 'DELETE_COMPLETE', 2), stack('live', 'UPDATE_COMPLETE', 3)]);
    assert.deepEqual(region.children!.map((n) => `${n.label} ${n.stack?.phase}`), ['proposed in-review', 'gone deleted', 'live complete']);
  });

  test('drift: a drifted stack and resource say so on the row with the age of the detection; every tooltip says it, "not checked" before a detection', () => {
    const region = tree([
      stack('web', 'UPDATE_COMPLETE', 10, {
        drift: { status: 'DRIFTED', checkedAt: NOW - 3 * 24 * 60 * MIN },
        detailed: true,
        resources: [
          { logicalId: 'Fn', resourceType: 'AWS::Lambda::Function', status: 'UPDATE_COMPLETE', lastUpdated: NOW - 10 * MIN, formerPhysical: [], drift: { status: 'MODIFIED', checkedAt: NOW - 3 * 24 * 60 * MIN } },
          { logicalId: 'Jobs', resourceType: 'AWS::SQS::Queue', status: 'CREATE_COMPLETE', lastUpdated: NOW - 99 * MIN, formerPhysical: [], drift: { status: 'IN_SYNC', checkedAt: NOW - 3 * 24 * 60 * MIN } },
        ],
      }),
      stack('db', 'CREATE_COMPLETE', 20),
    ]);
    const [web, db] = region.children!;
    assert.equal(web!.description, 'updated · 10 min ago · drifted (checked 3 d ago)');
    assert.equal(web!.stack?.drift, 'DRIFTED');
    assert.equal(db!.description, 'created · 20 min ago');
    assert.match(db!.tooltip ?? '', /^Drift: not checked$/m);
    const resources = web!.children![0]!.children!;
    const fn = resources.find((r) => r.label === 'Fn')!;
    const jobs = resources.find((r) => r.label === 'Jobs')!;
    assert.equal(fn.description, 'updated · drifted (checked 3 d ago)');
    assert.equal(jobs.description, 'created');
    assert.match(jobs.tooltip ?? '', /^Drift: in sync \(checked 3 d ago\)$/m);
  });

  test('the filter keeps matching stack names, case-insensitively', () => {
    const region = tree([stack('web-prod', 'CREATE_COMPLETE', 1), stack('db', 'CREATE_COMPLETE', 1)], {}, 'WEB');
    assert.deepEqual(region.children!.map((n) => n.label), ['web-prod']);
  });

  test('a connection error shows as a message with its fix, above the last known stacks', () => {
    const region = tree([stack('web', 'CREATE_COMPLETE', 1)], {
      error: { kind: 'expired-credentials', message: 'The AWS credentials have expired', fix: 'Run aws sso login' },
    });
    assert.deepEqual(region.children!.map((n) => `${n.kind} ${n.label}`), ['message The AWS credentials have expired', 'stack web']);
    assert.equal(region.children![0].description, 'Run aws sso login');
    assert.equal(region.children![0].readError, 'expired-credentials');
    assert.equal(region.region?.readFailed, true);
  });

  test('a detailed stack has Resources (replaced ones with old and new ids) and Events (newest first, reason in the tooltip)', () => {
    const id = 'arn:aws:cloudformation:us-east-1:123456789012:stack/network/1';
    const region = tree([
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
          { logicalId: 'Old', resourceType: 'AWS::SQS::Queue', status: 'CREATE_COMPLETE', physicalId: 'q-1', lastUpdated: NOW - 99 * MIN, formerPhysical: [], cleanup: { physicalId: 'q-1', status: 'DELETE_IN_PROGRESS', timestamp: NOW } },
        ],
        events: [
          { eventId: 'e2', stackId: id, stackName: 'network', logicalId: 'network', physicalId: id, resourceType: 'AWS::CloudFormation::Stack', timestamp: NOW - MIN, status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' },
          { eventId: 'e1', stackId: id, stackName: 'network', logicalId: 'VPC', physicalId: 'vpc-new', resourceType: 'AWS::EC2::VPC', timestamp: NOW - 2 * MIN, status: 'UPDATE_IN_PROGRESS', reason: 'Resource creation Initiated' },
        ],
      }),
    ]);
    const [resources, events] = region.children![0].children!;
    assert.equal(resources.label, 'Resources');
    const [old, vpc] = resources.children!;
    // The physical id is in the tooltip: the row keeps to what fits the sidebar.
    assert.equal(vpc.description, 'updated');
    assert.match(vpc.tooltip ?? '', /Physical id: vpc-new/);
    assert.deepEqual(vpc.resource, { status: 'UPDATE_COMPLETE', kind: 'complete' });
    assert.deepEqual(vpc.children!.map((c) => `${c.kind} ${c.label} ${c.description}`), ['physical vpc-old replaced · deleting']);
    assert.deepEqual(vpc.children![0].resource, { status: 'DELETE_IN_PROGRESS', kind: 'in-progress' });
    assert.equal(vpc.children![0].data?.physicalId, 'vpc-old');
    assert.equal(old.description, 'created · cleanup: deleting');
    assert.deepEqual(old.resource, { status: 'CREATE_COMPLETE', kind: 'complete', cleanup: { status: 'DELETE_IN_PROGRESS', kind: 'in-progress' } });
    assert.equal(old.data?.physicalId, 'q-1');
    assert.deepEqual(events.children!.map((e) => e.label), ['network UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'VPC UPDATE_IN_PROGRESS']);
    assert.deepEqual(
      events.children!.map((e) => [e.stack, e.resource]),
      [
        [{ status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', phase: 'in-progress', leftBehind: 0 }, undefined],
        [undefined, { status: 'UPDATE_IN_PROGRESS', kind: 'in-progress' }],
      ],
      'an event about the stack carries its phase, one about a resource its kind',
    );
    assert.match(events.children![1].tooltip!, /Resource creation Initiated/);
  });

  test('a successful update that left resources behind is a warning naming them; a failure names its root cause', () => {
    const region = tree([
      stack('security', 'UPDATE_COMPLETE', 1, {
        statusReason: 'Update successful. One or more resources could not be deleted.',
        operation: {
          startStatus: 'UPDATE_IN_PROGRESS',
          startedAt: NOW - 9 * MIN,
          status: 'UPDATE_COMPLETE',
          outcome: 'succeeded',
          undeleted: [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', resourceType: 'AWS::EC2::SecurityGroup' }],
          eventCount: 12,
        },
      }),
      stack('web', 'ROLLBACK_COMPLETE', 5, {
        operation: {
          startStatus: 'CREATE_IN_PROGRESS',
          startedAt: NOW - 9 * MIN,
          status: 'ROLLBACK_COMPLETE',
          outcome: 'failed',
          undeleted: [],
          eventCount: 12,
          rootCause: { logicalId: 'Instance', resourceType: 'AWS::EC2::Instance', status: 'CREATE_FAILED', reason: 'Invalid id', eventId: 'x', timestamp: NOW },
        },
      }),
    ]);
    const [security, web] = region.children!;
    assert.deepEqual(security.stack, { status: 'UPDATE_COMPLETE', phase: 'complete', leftBehind: 1 });
    assert.equal(security.description, 'updated · 1 min ago · 1 left behind');
    assert.match(security.tooltip!, /CloudFormation could not delete this resource and left it behind: SG1 \(sg-0da0f86b\)\./);
    assert.match(web.tooltip!, /Root cause: Instance CREATE_FAILED — Invalid id/);
    assert.match(web.tooltip!, /only a delete|cannot be updated/);
    assert.deepEqual(web.stack, { status: 'ROLLBACK_COMPLETE', phase: 'rolled-back', leftBehind: 0 });
  });
  test('a running stack whose events are read shows done/total and the time left; the tooltip has the full progress', () => {
    const id = 'arn:aws:cloudformation:us-east-1:123456789012:stack/app/1';
    const event = (logicalId: string, resourceType: string, status: string, minutesAgo: number) => ({
      eventId: `${logicalId}-${status}`,
      stackId: id,
      stackName: 'app',
      logicalId,
      physicalId: logicalId === 'app' ? id : `${logicalId}-1`,
      resourceType,
      timestamp: NOW - minutesAgo * MIN,
      status,
    });
    const row = (logicalId: string, resourceType: string, status: string) => ({ logicalId, resourceType, status, physicalId: `${logicalId}-1`, lastUpdated: NOW, formerPhysical: [] });
    const region = tree([
      stack('app', 'UPDATE_IN_PROGRESS', 0, {
        detailed: true,
        operation: { startStatus: 'UPDATE_IN_PROGRESS', startedAt: NOW - 3 * MIN, status: 'UPDATE_IN_PROGRESS', outcome: 'in-progress', undeleted: [], eventCount: 4 },
        resources: [row('Table', 'AWS::DynamoDB::Table', 'UPDATE_COMPLETE'), row('Fn', 'AWS::Lambda::Function', 'UPDATE_IN_PROGRESS'), row('Queue', 'AWS::SQS::Queue', 'CREATE_COMPLETE')],
        // Newest first.
        events: [
          event('Fn', 'AWS::Lambda::Function', 'UPDATE_IN_PROGRESS', 1 / 3),
          event('Table', 'AWS::DynamoDB::Table', 'UPDATE_COMPLETE', 1),
          event('Table', 'AWS::DynamoDB::Table', 'UPDATE_IN_PROGRESS', 2),
          event('app', 'AWS::CloudFormation::Stack', 'UPDATE_IN_PROGRESS', 3),
        ],
        // Fn took 80 s last time; Queue is untouched so far and its type has no history: 30 s.
        durations: { byLogicalId: { Fn: 80_000 }, byType: {} },
      }),
    ]);
    const [app] = region.children!;
    // Fn has 60 s left, then Queue's 30 s: 90 s, rounded up to 2 minutes.
    assert.equal(app.description, 'updating · 1/3 · ~2 min left');
    assert.deepEqual(app.stack?.progress, { done: 1, total: 3, inProgress: 1, failed: 0, elapsedMs: 3 * MIN, etaMs: 90_000, stabilising: 0 });
    assert.match(app.tooltip!, /1 of 3 resources done, 1 in progress\nElapsed: 3m 00s\nEstimated time left: 1m 30s/);
  });
});
