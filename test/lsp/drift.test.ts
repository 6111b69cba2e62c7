// Drift in the editor, through the real server over stdio and the local endpoint: a template
// linked to a stack whose last drift detection found changes made in the console shows each
// drifted property where it is written, and an edit that overwrites one says so on the property
// and in its resource's lens (docs/update-rules.md#drift). Detect Drift starts a detection only
// when asked, never in an untrusted workspace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseBaselineRequest, detectDriftRequest } from '../../server/src/lsp/protocol';
import { pathToUri, TestServer } from './support/languageServer';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { deployed, driftedWeb, startAt } from '../fixtures/driftedStack';
import type { Scenario } from '../endpoint/scenarios';

const DAY = 86_400_000;
const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' };
const lineOf = (text: string, fragment: string) => text.split('\n').findIndex((line) => line.includes(fragment));

describe('a template linked to a drifted stack', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  let uri: string;
  const edited = deployed.replace('MemorySize: 256', 'MemorySize: 384');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-drift-'));
    writeFileSync(join(dir, 'web.yaml'), deployed);
    endpoint = await startEndpoint({ accountId: '111122223333', scenarios: [{ name: 'drifted-web', scenario: driftedWeb, startAt }], now: () => startAt + 4 * DAY });
    server = await TestServer.start({ workspace: dir, env, initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } } });
    uri = pathToUri(join(dir, 'web.yaml'));
    await server.open(uri, deployed);
    await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'stack', stackName: 'web', region: 'us-east-1' } });
    await server.status(uri, (s) => s.kind === 'stack' && s.state === 'ok');
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('each drifted property is marked where it is written, with its live value', async () => {
    const diagnostics = await server.diagnostics(uri, await server.change(uri, `${deployed}\n`));
    const marker = diagnostics.find((d) => d.code === 'drift' && d.range.start.line === lineOf(deployed, 'VisibilityTimeout: 30'));
    assert.ok(marker, JSON.stringify(diagnostics.map((d) => [d.code, d.range.start.line, d.message])));
    assert.equal(marker.severity, 3);
    assert.equal(marker.message, 'Jobs VisibilityTimeout: live 45, the template says 30. This update leaves Jobs alone, and the drift stays (drift detected 2026-12-03)');
  });

  test('an edit of a drifted property overwrites the live value: a warning on it, and its lens says so', async () => {
    const diagnostics = await server.diagnostics(uri, await server.change(uri, edited));
    const overwrite = diagnostics.find((d) => d.code === 'drift' && d.range.start.line === lineOf(edited, 'MemorySize: 384'));
    assert.ok(overwrite, JSON.stringify(diagnostics.map((d) => [d.code, d.range.start.line, d.message])));
    assert.equal(overwrite.severity, 2);
    assert.match(String(overwrite.message), /^Fn MemorySize: live 512 → 384; the template said 256/);
    const lenses = await server.codeLenses(uri);
    const fn = (lenses ?? []).find((lens) => lens.range.start.line === lineOf(edited, '  Fn:'));
    assert.equal(fn?.command?.title, '✎ Update (no interruption) — MemorySize changed · overwrites drift: MemorySize live 512');
  });
});

describe('Detect Drift', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  /** The same stack before any detection: a detection, when asked for, finds the function changed. */
  const unchecked: Scenario = {
    ...driftedWeb,
    name: 'unchecked-web',
    drift: undefined,
    driftFound: { resources: [{ logicalId: 'Fn', status: 'MODIFIED', differences: [{ path: '/MemorySize', expected: '256', actual: '512', difference: 'NOT_EQUAL' }] }] },
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-detect-drift-'));
    writeFileSync(join(dir, 'web.yaml'), deployed);
    endpoint = await startEndpoint({ accountId: '111122223333', scenarios: [{ name: 'unchecked-web', scenario: unchecked, startAt }] });
    server = await TestServer.start({ workspace: dir, env, initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } } });
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('starts one detection when asked, follows it to its end and says what it found; nothing else starts one', async () => {
    const uri = pathToUri(join(dir, 'web.yaml'));
    await server.open(uri, deployed);
    await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'stack', stackName: 'web', region: 'us-east-1' } });
    await server.status(uri, (s) => s.kind === 'stack' && s.state === 'ok');
    assert.equal(endpoint.calls.filter((c) => c.action === 'DetectStackDrift').length, 0, 'reading the stack never starts a detection');
    // Never checked: no drift call but the stack's own description.
    assert.equal(endpoint.calls.filter((c) => c.action === 'DescribeStackResourceDrifts').length, 0);

    const result = await server.connection.sendRequest(detectDriftRequest, { region: 'us-east-1', stackName: 'web' });
    assert.deepEqual(result, { ok: true, message: 'Drift detected: 1 resource changed outside CloudFormation.', drifted: 1 });
    const detections = endpoint.calls.filter((c) => c.action === 'DetectStackDrift');
    assert.deepEqual(detections.map((c) => c.params.StackName), ['web']);
    assert.ok(endpoint.calls.filter((c) => c.action === 'DescribeStackDriftDetectionStatus').length >= 2, 'followed until the detection completed');

    // The linked template is compared with what the detection found.
    const diagnostics = await server.diagnostics(uri, await server.change(uri, `${deployed}\n`));
    assert.ok(diagnostics.some((d) => d.code === 'drift' && String(d.message).startsWith('Fn MemorySize: live 512')), JSON.stringify(diagnostics.map((d) => d.message)));
  });
});

describe('Detect Drift in an untrusted workspace', () => {
  test('is refused, and sends nothing', async () => {
    const endpoint = await startEndpoint({ accountId: '111122223333', scenarios: [{ name: 'drifted-web', scenario: driftedWeb, startAt }] });
    const server = await TestServer.start({ env, initializationOptions: { environment: { trusted: false, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } } });
    try {
      const result = await server.connection.sendRequest(detectDriftRequest, { region: 'us-east-1', stackName: 'web' });
      assert.deepEqual(result, { ok: false, message: 'Drift is not detected in an untrusted workspace.' });
      assert.deepEqual(endpoint.calls, []);
    } finally {
      await server.stop();
      await endpoint.close();
    }
  });
});
