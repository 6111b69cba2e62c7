// A template linked to a stack whose last update early validation rejected, over the real language
// server: the check's template path (DescribeEvents' ValidationPath, read once with the baseline
// through the real SDK from the local CloudFormation endpoint, scenario `update-validation-failed`)
// is a warning on that line of the edited template, in the check's words; the edit that removes
// the property clears it. A linked stack whose operation ends is read again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseBaselineRequest, stacksTreeRequest, stacksVisibilityNotification } from '../../server/src/lsp/protocol';
import { SCENARIOS } from '../endpoint/scenarios';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { pathToUri, TestServer } from './support/languageServer';
import { eventually, useTestAwsEnvironment } from './support/awsEnvironment';

useTestAwsEnvironment('AKIALASTOPERATIONTEST', 'last-operation-test-not-a-secret');

/** The template of the rejected update: its Archive bucket's name is taken. */
const rejected = SCENARIOS['update-validation-failed'].templateBody;

describe('a linked stack whose last update early validation rejected', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  let uri: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-last-operation-'));
    writeFileSync(join(dir, 'storage.yaml'), rejected);
    // The scripted update was rejected a minute ago: the stack is UPDATE_FAILED.
    endpoint = await startEndpoint({ scenarios: [{ name: 'update-validation-failed', startAt: Date.now() - 60_000 }] });
    server = await TestServer.start({ workspace: dir, initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } } });
    uri = pathToUri(join(dir, 'storage.yaml'));
    await server.open(uri, rejected);
    await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'stack', stackName: 'storage', region: 'us-east-1' } });
    await server.status(uri, (s) => s.kind === 'stack' && s.state === 'ok');
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the rejected property is a warning on its line, in the check's words", async () => {
    const diagnostics = await server.diagnostics(uri, await server.change(uri, `${rejected}\n`));
    const rejection = diagnostics.find((d) => d.code === 'early-validation-failed');
    assert.ok(rejection, JSON.stringify(diagnostics.map((d) => d.code)));
    assert.equal(rejection.severity, 2);
    assert.equal(rejection.range.start.line, rejected.split('\n').findIndex((line) => line.includes('BucketName')));
    assert.equal(rejection.message, "Early validation (ResourceNameConflict) rejected the stack's last operation here: A bucket named shared-archive already exists in this account.");
    const reads = endpoint.calls.filter((c) => c.action === 'DescribeEvents');
    assert.equal(reads.length, 1, 'read once, with the baseline');
    assert.equal(reads[0]!.params['Filters.FailedEvents'], 'true', 'failed events only');
  });

  test('an edit that removes the property clears it, and reads nothing more', async () => {
    const before = endpoint.calls.length;
    const fixed = rejected.replace('    Properties: { BucketName: shared-archive }\n', '');
    const diagnostics = await server.diagnostics(uri, await server.change(uri, fixed));
    assert.deepEqual(diagnostics.filter((d) => d.code === 'early-validation-failed'), []);
    assert.deepEqual(endpoint.calls.slice(before).map((c) => c.action), []);
  });
});

describe('a linked stack whose operation ends while the stacks view watches it', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  let time = Date.now();
  const updateStartsAt = time + 60_000;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-operation-end-'));
    endpoint = await startEndpoint({ scenarios: [{ name: 'update-replacement', startAt: updateStartsAt }], now: () => time, stepMs: 1000 });
    server = await TestServer.start({
      workspace: dir,
      initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } }, stacksPollIntervalMs: 40 },
    });
    await server.connection.sendRequest(stacksTreeRequest, {});
    await server.connection.sendNotification(stacksVisibilityNotification, { visible: true });
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('is read again once the operation ends: what it runs, and what its last operation says, may have changed', async () => {
    const text = SCENARIOS['update-replacement'].templateBody;
    const uri = pathToUri(join(dir, 'network.yaml'));
    writeFileSync(join(dir, 'network.yaml'), text);
    await server.open(uri, text);
    await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'stack', stackName: 'network', region: 'us-east-1' } });
    await server.status(uri, (s) => s.kind === 'stack' && s.state === 'ok');
    const baselineReads = () => endpoint.calls.filter((c) => c.action === 'GetTemplate' && c.params.TemplateStage === 'Original').length;
    const before = baselineReads();
    assert.equal(before, 1);
    time = updateStartsAt + SCENARIOS['update-replacement'].steps.length * 1000;
    await eventually('the baseline to be read again', () => (baselineReads() > before ? true : undefined));
    await server.status(uri, (s) => s.kind === 'stack' && s.state === 'ok' && s.revision === 'UPDATE_COMPLETE');
  });
});
