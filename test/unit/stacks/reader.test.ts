/**
 * The read-only CloudFormation reader against the local endpoint: paging, incremental event
 * reads, and every failure turned into a value a person can act on, without secrets.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { redactSecrets } from '../../../server/src/stacks/awsErrors';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const KEY_ID = 'AKIAIOSFODNN7EXAMPLE';

describe('CloudFormationReader', () => {
  let endpoint: LocalEndpoint;
  let reader: CloudFormationReader;
  const now = Date.UTC(2024, 4, 1, 12);

  before(async () => {
    // Seven stacks: the two scripted operations have finished by `now`, five settled stacks.
    endpoint = await startEndpoint({
      scenarios: ['update-replacement', 'create-rollback'],
      settledStacks: 5,
      now: () => now,
      startAt: now - 600_000,
      pageSize: { stacks: 2, events: 3, resources: 1 },
    });
    const created = await CloudFormationReader.create({
      endpoint: endpoint.url,
      region: 'eu-west-1',
      credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET },
    });
    assert.ok(created.ok);
    reader = created.value;
  });

  after(async () => {
    reader.dispose();
    await endpoint.close();
  });

  test('describeStacks without a name reads every page', async () => {
    const stacks = await reader.describeStacks();
    assert.ok(stacks.ok);
    assert.equal(stacks.value.length, 7);
    assert.deepEqual(
      stacks.value.slice(0, 2).map((s) => `${s.stackName} ${s.status}`),
      ['network UPDATE_COMPLETE', 'web ROLLBACK_COMPLETE'],
    );
    assert.equal(endpoint.calls.filter((c) => c.action === 'DescribeStacks').length, 4);
  });

  test('listStacks and listStackResources page', async () => {
    const listed = await reader.listStacks({ statusFilter: ['ROLLBACK_COMPLETE'] });
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.map((s) => s.stackName), ['web']);
    const resources = await reader.listStackResources('network');
    assert.ok(resources.ok);
    assert.deepEqual(resources.value.map((r) => `${r.logicalId} ${r.physicalId}`), [
      'VPC vpc-0b22222222222222b',
      'Subnet subnet-0b22222222222222b',
      'Instance1 i-0b33333333333333b',
    ]);
  });

  test('describeStackEvents stops paging at the last event already seen', async () => {
    const all = await reader.describeStackEvents('network');
    assert.ok(all.ok && all.value.reachedEnd);
    const marker = all.value.events[4].eventId;
    const before = endpoint.calls.length;
    const newer = await reader.describeStackEvents('network', { until: marker });
    assert.ok(newer.ok);
    assert.deepEqual(newer.value.events.map((e) => e.eventId), all.value.events.slice(0, 4).map((e) => e.eventId));
    assert.equal(newer.value.reachedUntil, true);
    // Four newer events at three per page: two calls, not the whole history.
    assert.equal(endpoint.calls.length - before, 2);
  });

  test('an event read throttled part way keeps its pages, and going on reads only the pages after them', async () => {
    const all = await reader.describeStackEvents('network');
    assert.ok(all.ok);
    // Three events a page: the third page's call is throttled.
    const first = endpoint.calls.length;
    endpoint.options.throttle = { burst: { afterCalls: first + 2, count: 1 } };
    try {
      const interrupted = await reader.describeStackEvents('network');
      assert.equal(interrupted.ok, false);
      assert.ok(!interrupted.ok && interrupted.error.kind === 'throttled');
      const progress = !interrupted.ok ? interrupted.progress : undefined;
      assert.ok(progress, 'the two pages read are kept');
      assert.equal(progress.pages, 2);
      assert.deepEqual(progress.events.map((e) => e.eventId), all.value.events.slice(0, 6).map((e) => e.eventId));
      const before = endpoint.calls.length;
      const resumed = await reader.describeStackEvents('network', { resume: progress });
      assert.ok(resumed.ok && resumed.value.reachedEnd);
      assert.deepEqual(resumed.value.events.map((e) => e.eventId), all.value.events.map((e) => e.eventId));
      assert.equal(endpoint.calls.length - before, Math.ceil(all.value.events.length / 3) - 2, 'the first two pages are not read again');
    } finally {
      delete endpoint.options.throttle;
    }
  });

  test('an event read that fails on its first page has nothing to keep', async () => {
    endpoint.options.throttle = { burst: { afterCalls: endpoint.calls.length, count: 1 } };
    try {
      const failed = await reader.describeStackEvents('network');
      assert.ok(!failed.ok);
      assert.equal(failed.progress, undefined);
    } finally {
      delete endpoint.options.throttle;
    }
  });

  test('getTemplate returns the template body', async () => {
    const template = await reader.getTemplate('web');
    assert.ok(template.ok);
    assert.match(template.value.body, /Instance: \{ Type: AWS::EC2::Instance/);
  });

  test('a missing stack is a not-found value with a fix', async () => {
    const missing = await reader.describeStacks({ stackName: 'no-such-stack' });
    assert.deepEqual(missing, {
      ok: false,
      error: {
        kind: 'not-found',
        message: 'Stack with id no-such-stack does not exist',
        fix: 'Check the stack name and the region (stacks are regional).',
        code: 'ValidationError',
      },
    });
  });

  test('throttling, expired and rejected credentials, server errors become values', async () => {
    const cases: [{ code: string; message: string; status: number }, string][] = [
      [{ code: 'Throttling', message: 'Rate exceeded', status: 400 }, 'throttled'],
      [{ code: 'ExpiredToken', message: 'The security token included in the request is expired', status: 403 }, 'expired-credentials'],
      [{ code: 'InvalidClientTokenId', message: 'The security token included in the request is invalid.', status: 403 }, 'access-denied'],
      [{ code: 'AccessDenied', message: `User: arn:aws:iam::1:user/x is not authorized to perform: cloudformation:DescribeStacks`, status: 403 }, 'access-denied'],
      [{ code: 'InternalFailure', message: 'Internal failure', status: 500 }, 'server'],
    ];
    try {
      for (const [fail, kind] of cases) {
        endpoint.options.fail = fail;
        const result = await reader.describeStacks({ stackName: 'network' });
        assert.ok(!result.ok);
        assert.equal(result.error.kind, kind, fail.code);
        assert.ok(result.error.fix.length > 0);
      }
    } finally {
      endpoint.options.fail = undefined;
    }
  });

  test('an aborted call is a cancelled value', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await reader.describeStacks({ signal: controller.signal });
    assert.ok(!result.ok);
    assert.equal(result.error.kind, 'cancelled');
  });

  test('an unreachable endpoint is a network error', async () => {
    const created = await CloudFormationReader.create({
      endpoint: 'http://127.0.0.1:9',
      region: 'us-east-1',
      credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET },
    });
    assert.ok(created.ok);
    const result = await created.value.describeStacks();
    created.value.dispose();
    assert.ok(!result.ok);
    assert.equal(result.error.kind, 'network');
  });

  test('requests are signed (SigV4); an unsigned request is refused', async () => {
    assert.ok(endpoint.calls.every((c) => c.outcome !== 'MissingAuthenticationToken'));
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=DescribeStacks&Version=2010-05-15',
    });
    assert.equal(response.status, 403);
    assert.match(await response.text(), /<Code>MissingAuthenticationToken<\/Code>/);
  });

  test('an empty credential provider chain is a no-credentials value; no region is an unknown-region value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-aws-'));
    writeFileSync(join(dir, 'config'), '');
    writeFileSync(join(dir, 'credentials'), '');
    const saved = { ...process.env };
    for (const key of Object.keys(process.env)) if (key.startsWith('AWS_') && key !== 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED') delete process.env[key];
    Object.assign(process.env, {
      AWS_CONFIG_FILE: join(dir, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    try {
      const created = await CloudFormationReader.create({ endpoint: endpoint.url, region: 'us-east-1', env: {} });
      assert.ok(created.ok);
      const result = await created.value.describeStacks();
      created.value.dispose();
      assert.ok(!result.ok);
      assert.equal(result.error.kind, 'no-credentials');
      assert.match(result.error.fix, /aws sso login|AWS_PROFILE/);

      const noRegion = await CloudFormationReader.create({ endpoint: endpoint.url, env: {} });
      assert.ok(!noRegion.ok);
      assert.equal(noRegion.error.kind, 'unknown-region');
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });

  test('messages never carry key ids, signatures or tokens', () => {
    const leaky = `Credential=${KEY_ID}/20240501/us-east-1/cloudformation/aws4_request, SignedHeaders=host, Signature=${'ab'.repeat(32)} X-Amz-Security-Token=FQoGZXIvYXdzEPT aws_secret_access_key = ${SECRET}`;
    const clean = redactSecrets(leaky);
    for (const secret of [KEY_ID, SECRET, 'ab'.repeat(32), 'FQoGZXIvYXdzEPT']) assert.ok(!clean.includes(secret), clean);
  });
});

describe('CloudFormationReader: exports and imports', () => {
  let endpoint: LocalEndpoint;
  let reader: CloudFormationReader;

  before(async () => {
    endpoint = await startEndpoint({ scenarios: ['exporting-network', 'importing-app'], pageSize: { stacks: 1 } });
    const created = await CloudFormationReader.create({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET } });
    assert.ok(created.ok);
    reader = created.value;
  });

  after(async () => {
    reader.dispose();
    await endpoint.close();
  });

  test('listExports reads every page: each export with its value and the stack that exports it', async () => {
    const exports = await reader.listExports();
    assert.ok(exports.ok);
    assert.deepEqual(
      exports.value.map((e) => [e.name, e.value, /:stack\/shared-network\//.test(e.exportingStackId)]),
      [
        ['shared-vpc-id', 'vpc-0e5e5e5e5e5e5e5e5', true],
        ['shared-vpc-cidr', '10.0.0.0/16', true],
      ],
    );
    assert.equal(endpoint.calls.filter((c) => c.action === 'ListExports').length, 2);
  });

  test('listImports names the importing stacks; an export nobody imports (CloudFormation\'s ValidationError) is no importer', async () => {
    assert.deepEqual(await reader.listImports('shared-vpc-id'), { ok: true, value: ['app'] });
    assert.deepEqual(await reader.listImports('shared-vpc-cidr'), { ok: true, value: [] });
  });

  test('a failed read of the exports is a value with a fix, not an exception', async () => {
    endpoint.options.fail = { code: 'AccessDenied', message: 'User is not authorized to perform: cloudformation:ListExports', status: 403 };
    try {
      const exports = await reader.listExports();
      assert.equal(exports.ok, false);
      assert.equal(!exports.ok && exports.error.kind, 'access-denied');
      const imports = await reader.listImports('shared-vpc-id');
      assert.equal(!imports.ok && imports.error.kind, 'access-denied');
    } finally {
      delete endpoint.options.fail;
    }
  });
});
