// The stacks view over the real language server: the server reads the local CloudFormation
// endpoint through the real SDK, answers the tree, announces changes and ended deployments, reads
// nothing while the view is hidden and nothing at all in an untrusted workspace. The endpoint runs
// on a clock the test moves, so each deployment is at a known step when the tree is read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  deployedTemplateRequest,
  stackChoicesRequest,
  deploymentEndedNotification,
  stacksChangedNotification,
  stacksFollowNotification,
  stacksRefreshRequest,
  stacksTreeRequest,
  stacksVisibilityNotification,
  type DeploymentEnded,
  type StackTreeNode,
  type StacksTree,
} from '../../server/src/lsp/protocol';
import { READ_ACTIONS } from '../../server/src/stacks/types';
import { treeItemLook } from '../../client/src/stackTreeLook';
import { lookInTransfer } from '../unit/client/lookInTransfer';
import { SCENARIOS } from '../endpoint/scenarios';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { TestServer } from './support/languageServer';
import { eventually, useTestAwsEnvironment } from './support/awsEnvironment';

// The spawned servers inherit this environment: test credentials for signing, and no region,
// profile or AWS configuration file of the machine running the tests.
useTestAwsEnvironment('AKIASTACKSVIEWTEST', 'stacks-view-test-not-a-secret');

const pollIntervalMs = 40;
const stepMs = 1000;

function find(nodes: StackTreeNode[] | undefined, matches: (node: StackTreeNode) => boolean): StackTreeNode | undefined {
  for (const node of nodes ?? []) {
    if (matches(node)) return node;
    const inside = find(node.children, matches);
    if (inside) return inside;
  }
  return undefined;
}

describe('the stacks view, served by the language server', () => {
  let time = Date.now();
  const updateStartsAt = time + 60_000;
  const createStartsAt = time + 120_000;
  const validationStartsAt = time + 180_000;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  const changes: number[] = [];
  const ended: DeploymentEnded[] = [];

  const tree = async (filter?: string): Promise<StacksTree> => server.connection.sendRequest(stacksTreeRequest, filter ? { filter } : {});
  const stackNode = async (name: string) => find((await tree()).nodes, (n) => n.kind === 'stack' && n.label === name);
  const stackWith = (name: string, status: RegExp) =>
    eventually(`${name} shown as ${status}`, async () => {
      const node = await stackNode(name);
      return node && status.test(node.description ?? '') ? node : undefined;
    });

  before(async () => {
    endpoint = await startEndpoint({
      scenarios: [
        { name: 'update-replacement', startAt: updateStartsAt },
        { name: 'create-rollback', startAt: createStartsAt },
        { name: 'update-validation-failed', startAt: validationStartsAt },
      ],
      now: () => time,
      stepMs,
    });
    server = await TestServer.start({
      initializationOptions: {
        environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } },
        stacksPollIntervalMs: pollIntervalMs,
      },
    });
    server.connection.onNotification(stacksChangedNotification, (changed) => {
      changes.push(changed.version);
    });
    server.connection.onNotification(deploymentEndedNotification, (deployment) => {
      ended.push(deployment);
    });
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
  });

  test('reads nothing until the view is visible', async () => {
    const { nodes } = await tree();
    assert.deepEqual(
      nodes.map((n) => [n.kind, n.label]),
      [['region', 'us-east-1']],
    );
    assert.deepEqual(nodes[0].children?.map((n) => [n.kind, n.label]), [['message', 'Not read yet']]);
    assert.equal(endpoint.calls.length, 0);
  });

  test('once visible, lists the region’s stacks and announces the change', async () => {
    await server.connection.sendNotification(stacksVisibilityNotification, { visible: true });
    const network = await stackWith('network', /^created/);
    assert.equal(network.collapsible, 'collapsed');
    assert.equal(network.data?.region, 'us-east-1');
    assert.match(network.data?.consoleUrl ?? '', /^https:\/\/us-east-1\.console\.aws\.amazon\.com\/cloudformation\//);
    // Not loaded yet: expanding it shows that resources and events are being read.
    assert.deepEqual(network.children?.map((n) => n.label), ['Reading resources and events…']);
    await eventually('a stacksChanged notification', () => (changes.length > 0 ? true : undefined));
  });

  test('an expanded stack is followed: its resources and events appear', async () => {
    const network = (await stackNode('network'))!;
    await server.connection.sendNotification(stacksFollowNotification, { region: 'us-east-1', stackId: network.data!.stackId!, follow: true });
    const loaded = await eventually('the resources of network', async () => {
      const node = await stackNode('network');
      return node?.children?.some((n) => n.kind === 'resources') ? node : undefined;
    });
    const resources = loaded.children!.find((n) => n.kind === 'resources')!;
    assert.deepEqual(resources.children?.map((r) => [r.label, r.data?.physicalId]), [
      ['Instance1', 'i-0a11111111111111a'],
      ['Instance2', 'i-0a22222222222222a'],
      ['Subnet', 'subnet-0a11111111111111a'],
      ['VPC', 'vpc-0a11111111111111a'],
    ]);
    const events = loaded.children!.find((n) => n.kind === 'events')!;
    assert.equal(events.children?.[0]?.label, 'network CREATE_COMPLETE', 'events are newest first');
  });

  test('a deployment in progress shows with its replaced resource, then settles in its final state', async () => {
    const changesBefore = changes.length;
    time = updateStartsAt + 4 * stepMs; // Step 5: VPC replaced, Subnet being replaced.
    const running = await stackWith('network', /^updating/);
    await eventually('the change to be announced', () => (changes.length > changesBefore ? true : undefined));
    assert.deepEqual([running.stack?.phase, running.collapsible], ['in-progress', 'expanded']);
    assert.deepEqual(treeItemLook(running), { icon: { icon: 'sync~spin', color: 'charts.blue' }, contextValue: 'stack.running' });
    assert.deepEqual(lookInTransfer((await tree()).nodes), [], 'the tree on the wire carries state, not icons, colours or menu contexts');
    const vpc = find(running.children, (n) => n.kind === 'resource' && n.label === 'VPC')!;
    assert.equal(vpc.data?.physicalId, 'vpc-0b22222222222222b');
    assert.deepEqual(vpc.children?.map((n) => [n.kind, n.label]), [['physical', 'vpc-0a11111111111111a']]);

    time = updateStartsAt + SCENARIOS['update-replacement'].steps.length * stepMs;
    const done = await stackWith('network', /^updated ·/);
    // Still followed: the stack was expanded above.
    assert.deepEqual(done.stack, { status: 'UPDATE_COMPLETE', phase: 'complete', leftBehind: 0, followed: true });
    assert.deepEqual(treeItemLook(done).icon, { icon: 'check', color: 'charts.green' });
    const resources = await eventually('the final resources of network', async () => {
      const node = await stackNode('network');
      const group = node?.children?.find((n) => n.kind === 'resources');
      const labels = group?.children?.map((r) => r.label);
      return labels && !labels.includes('Instance2') ? group!.children! : undefined;
    });
    assert.deepEqual(resources.map((r) => [r.label, r.data?.physicalId]), [
      ['Instance1', 'i-0b33333333333333b'],
      ['Subnet', 'subnet-0b22222222222222b'],
      ['VPC', 'vpc-0b22222222222222b'],
    ]);
    const deployment = await eventually('the end of the network deployment', () => ended.find((e) => e.stackName === 'network'));
    assert.deepEqual(
      [deployment.status, deployment.outcome, deployment.rootCause, deployment.undeleted],
      ['UPDATE_COMPLETE', 'succeeded', undefined, []],
    );
  });

  test('a failed create ends once, with the first failure as its root cause', async () => {
    time = createStartsAt + SCENARIOS['create-rollback'].steps.length * stepMs;
    await stackWith('web', /^rolled back/);
    const deployment = await eventually('the end of the web deployment', () => ended.find((e) => e.stackName === 'web'));
    assert.deepEqual([deployment.status, deployment.outcome], ['ROLLBACK_COMPLETE', 'failed']);
    assert.deepEqual(deployment.rootCause, { logicalId: 'Instance', status: 'CREATE_FAILED', reason: 'Invalid id: "bogus" (expecting "ami-...")' });
    // Another full read of everything must not announce it again.
    await server.connection.sendRequest(stacksRefreshRequest, {});
    await server.connection.sendRequest(stacksRefreshRequest, {});
    assert.equal(ended.filter((e) => e.stackName === 'web').length, 1);
    assert.equal(ended.filter((e) => e.stackName === 'network').length, 1);
  });

  test('an update rejected by early validation ends with the failed check and its template path as root cause', async () => {
    time = validationStartsAt + SCENARIOS['update-validation-failed'].steps.length * stepMs;
    await stackWith('storage', /^update failed/);
    const deployment = await eventually('the end of the storage update', () => ended.find((e) => e.stackName === 'storage'));
    assert.deepEqual([deployment.status, deployment.outcome], ['UPDATE_FAILED', 'failed']);
    assert.deepEqual(deployment.rootCause, {
      logicalId: 'Archive',
      status: 'VALIDATION_FAILED',
      reason: 'A bucket named shared-archive already exists in this account.',
      validation: { name: 'ResourceNameConflict', path: '/Resources/Archive/Properties/BucketName' },
    });
    assert.ok(endpoint.calls.some((c) => c.action === 'DescribeEvents' && c.params['Filters.FailedEvents'] === 'true'));
  });

  test('the filter keeps matching stacks and says when none matches', async () => {
    const filtered = await tree('web');
    assert.deepEqual(filtered.nodes[0].children?.map((n) => n.label), ['web']);
    const none = await tree('nothing-like-this');
    assert.deepEqual(none.nodes[0].children?.map((n) => [n.kind, n.label]), [['message', 'No stack matches “nothing-like-this”']]);
  });

  test('opens the deployed template', async () => {
    const network = (await stackNode('network'))!;
    const template = await server.connection.sendRequest(deployedTemplateRequest, { region: 'us-east-1', stackId: network.data!.stackId! });
    assert.deepEqual(template, { ok: true, body: SCENARIOS['update-replacement'].templateBody, language: 'yaml' });
  });

  test('lists the stacks a template can be linked to, with their region and status', async () => {
    const { stacks, problems } = await server.connection.sendRequest(stackChoicesRequest, {});
    assert.deepEqual(problems, []);
    const names = stacks.map((s) => `${s.stackName}@${s.region}`);
    assert.ok(names.includes('network@us-east-1'), names.join(', '));
    assert.ok(stacks.every((s) => s.status !== 'DELETE_COMPLETE'));
  });

  test('a failing connection shows the error and its fix, and keeps the last known stacks', async () => {
    endpoint.options.fail = { code: 'ExpiredToken', message: 'The security token included in the request is expired', status: 400 };
    try {
      await server.connection.sendRequest(stacksRefreshRequest, {});
      const { nodes } = await tree();
      const region = nodes[0];
      assert.equal(region.region?.readFailed, true);
      assert.equal(treeItemLook(region).icon?.icon, 'warning');
      const message = region.children?.find((n) => n.kind === 'message');
      assert.deepEqual(message?.message, { reason: 'read-failed', readError: 'expired-credentials' });
      assert.equal(message && treeItemLook(message).contextValue, 'message.expired-credentials');
      assert.ok(message?.description, 'the message says what fixes it');
      assert.deepEqual(region.children?.filter((n) => n.kind === 'stack').map((n) => n.label).sort(), ['network', 'storage', 'web']);
    } finally {
      delete endpoint.options.fail;
    }
    await server.connection.sendRequest(stacksRefreshRequest, {});
    const recovered = (await tree()).nodes[0];
    assert.equal(recovered.region?.readFailed, false);
    assert.equal(treeItemLook(recovered).icon?.icon, 'globe');
  });

  test('no call while the view is hidden, polling again once it shows', async () => {
    await server.connection.sendNotification(stacksVisibilityNotification, { visible: false });
    // A poll already in flight may still land: wait until a few intervals pass without a call.
    let count = -1;
    await eventually('calls to stop', () => {
      const settled = endpoint.calls.length === count;
      count = endpoint.calls.length;
      return settled ? true : undefined;
    });
    const hiddenSince = endpoint.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 25 * pollIntervalMs));
    assert.equal(endpoint.calls.length, hiddenSince, 'no call in 25 poll intervals while hidden');
    await server.connection.sendNotification(stacksVisibilityNotification, { visible: true });
    await eventually('polling to resume', () => (endpoint.calls.length > hiddenSince ? true : undefined));
  });

  test('only read actions were ever called', () => {
    const actions = new Set(endpoint.calls.map((call) => call.action));
    assert.ok(actions.size > 0);
    for (const action of actions) assert.ok((READ_ACTIONS as readonly string[]).includes(action), `${action} is a read action`);
  });
});

describe('the stacks view where AWS must not or cannot be reached', () => {
  let endpoint: LocalEndpoint;
  before(async () => {
    endpoint = await startEndpoint({ scenarios: ['update-replacement'] });
  });
  after(async () => {
    await endpoint?.close();
  });

  test('an untrusted workspace makes no call at all and says why', async () => {
    const server = await TestServer.start({
      initializationOptions: {
        environment: { trusted: false, aws: { regions: ['us-east-1'], endpoint: endpoint.url } },
        stacksPollIntervalMs: pollIntervalMs,
      },
    });
    try {
      await server.connection.sendNotification(stacksVisibilityNotification, { visible: true });
      const { nodes } = await server.connection.sendRequest(stacksTreeRequest, {});
      assert.deepEqual(nodes.map((n) => [n.kind, n.message?.reason]), [['message', 'untrusted']]);
      await server.connection.sendRequest(stacksRefreshRequest, {});
      const template = await server.connection.sendRequest(deployedTemplateRequest, { region: 'us-east-1', stackId: 'network' });
      assert.equal(template.ok, false);
      const choices = await server.connection.sendRequest(stackChoicesRequest, {});
      assert.deepEqual(choices, { stacks: [], problems: ['Stacks are not read in an untrusted workspace.'] });
      assert.equal(endpoint.calls.length, 0);
    } finally {
      await server.stop();
    }
  });

  test('without any region, the view says to set cfnImpact.aws.regions', async () => {
    const server = await TestServer.start({
      initializationOptions: { environment: { trusted: true, aws: { endpoint: endpoint.url } }, stacksPollIntervalMs: pollIntervalMs },
    });
    try {
      await server.connection.sendNotification(stacksVisibilityNotification, { visible: true });
      const { nodes } = await server.connection.sendRequest(stacksTreeRequest, {});
      assert.deepEqual(nodes.map((n) => [n.kind, n.message?.reason]), [['message', 'no-region']]);
      assert.equal(treeItemLook(nodes[0]).contextValue, 'message.no-region', 'the node opens the region picker');
      assert.match(nodes[0].description ?? '', /cfnImpact\.aws\.regions/);
      assert.equal(endpoint.calls.length, 0);
    } finally {
      await server.stop();
    }
  });
});
