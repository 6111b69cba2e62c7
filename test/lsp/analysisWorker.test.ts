// The engine runs in a worker thread: a template that takes seconds to analyse holds up neither
// the other documents nor the server's answers; it is stopped at the deadline, abandoned when a
// newer version arrives, and a worker that dies is replaced.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { STALE_GRACE_MS } from '../../server/src/lsp/worker/analysisThread';
import { TestServer } from './support/languageServer';

const queue = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Queue:
    Type: AWS::SQS::Queue
`;

const queueWithoutType = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Queue:
    Properties: {}
`;

/**
 * Just under CloudFormation's 1 MB limit, and slow to parse: the tab after the first brace makes
 * the JSON fast path decline it, and the yaml parser needs about 3.4 s for a JSON list of 480,000
 * numbers on the machine these tests were written on.
 */
const runaway = `{\t"AWSTemplateFormatVersion": "2010-09-09", "Resources": [${'1,'.repeat(480_000)}1]}`;

describe('a runaway analysis, with a 1.5 s deadline', () => {
  let server: TestServer;

  before(async () => {
    server = await TestServer.start({ env: { CFN_IMPACT_ANALYSIS_DEADLINE_MS: '1500' } });
  });

  after(async () => {
    await server?.stop();
  });

  test('other documents answer hovers and lenses while it runs; then it is stopped, and the worker serves again', async () => {
    const normal = 'untitled:queue.yaml';
    const slow = 'untitled:slow.json';
    assert.deepEqual(await server.diagnostics(normal, await server.open(normal, queue)), []);
    const openedAt = performance.now();
    await server.open(slow, runaway, 'json');
    await delay(300);

    const hover = await server.hover(normal, 3, 12);
    const lenses = await server.codeLenses(normal);
    assert.ok(performance.now() - openedAt < 1000, 'the answers came while the runaway analysis was still running');
    assert.equal(server.published.some((published) => published.uri === slow), false);
    assert.match(JSON.stringify(hover?.contents), /AWS::SQS::Queue/);
    assert.match(lenses?.[0]?.command?.title ?? '', /^No baseline/);

    const stopped = await server.diagnostics(slow, 1);
    assert.ok(performance.now() - openedAt >= 1500);
    assert.deepEqual(
      stopped.map((diagnostic) => [diagnostic.code, diagnostic.message, diagnostic.range.start]),
      [['analysis-stopped', 'Analysis stopped after 1.5 s: the template is too expensive to analyse on every edit', { line: 0, character: 0 }]],
    );

    const edited = await server.diagnostics(normal, await server.change(normal, queueWithoutType));
    assert.deepEqual(edited.map((diagnostic) => diagnostic.code), ['missing-type']);
  });

  test('a file larger than CloudFormation accepts is not analysed', async () => {
    const uri = 'untitled:huge.yaml';
    const huge = `AWSTemplateFormatVersion: '2010-09-09'\nDescription: ${'x'.repeat(1_000_000)}\nResources: {}\n`;
    const diagnostics = await server.diagnostics(uri, await server.open(uri, huge));
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [['template-too-large', "This file is 1,000,067 bytes, larger than CloudFormation's 1 MB template limit (1,000,000 bytes): it is not analysed."]],
    );
  });
});

describe('a newer version of a document that is being analysed', () => {
  let server: TestServer;

  before(async () => {
    // A deadline far away: only the newer version can end the older analysis early.
    server = await TestServer.start({ env: { CFN_IMPACT_ANALYSIS_DEADLINE_MS: '30000' } });
  });

  after(async () => {
    await server?.stop();
  });

  test('abandons the older analysis: only the newest version is published, without waiting for the older one', async () => {
    // A first analysis, so that the worker is up and takes the runaway version at once.
    const normal = 'untitled:queue.yaml';
    assert.deepEqual(await server.diagnostics(normal, await server.open(normal, queue)), []);
    const uri = 'untitled:changing.json';
    await server.open(uri, runaway, 'json');
    await delay(300);
    const changedAt = performance.now();
    const diagnostics = await server.diagnostics(uri, await server.change(uri, queueWithoutType));
    const answeredMs = performance.now() - changedAt;
    assert.deepEqual(diagnostics.map((diagnostic) => diagnostic.code), ['missing-type']);
    assert.deepEqual(server.published.filter((published) => published.uri === uri).map((published) => published.version), [2]);
    // The worker running the stale analysis was ended and a fresh one started.
    const boots = server.logs.flatMap((line) => [...line.matchAll(/analysis worker ready in (\d+) ms/g)].map((match) => Number(match[1])));
    assert.equal(boots.length, 2);
    // The answer took the grace given to the stale analysis, the fresh worker's boot (slower on a
    // loaded machine, so it is measured, not assumed) and one small analysis: not the seconds the
    // runaway version needs to parse.
    assert.ok(answeredMs < STALE_GRACE_MS + boots[1]! + 1500, `the newer version did not wait for the older analysis to end (${Math.round(answeredMs)} ms, the fresh worker booted in ${boots[1]} ms)`);
  });
});

describe('an analysis worker that runs out of memory', () => {
  let server: TestServer;

  before(async () => {
    // 64 MB is plenty for ordinary templates; the runaway list needs several times more.
    server = await TestServer.start({ env: { CFN_IMPACT_ANALYSIS_HEAP_MB: '64', CFN_IMPACT_ANALYSIS_DEADLINE_MS: '30000' } });
  });

  after(async () => {
    await server?.stop();
  });

  test('fails that analysis with a diagnostic; the server and the other documents carry on in a new worker', async () => {
    const normal = 'untitled:queue.yaml';
    const hungry = 'untitled:hungry.json';
    assert.deepEqual(await server.diagnostics(normal, await server.open(normal, queue)), []);
    const failed = await server.diagnostics(hungry, await server.open(hungry, runaway, 'json'), 30_000);
    assert.deepEqual(
      failed.map((diagnostic) => [diagnostic.code, diagnostic.message]),
      [['analysis-failed', 'Analysis failed: the analysis needed more than the 64 MB of memory it may use.']],
    );
    const edited = await server.diagnostics(normal, await server.change(normal, queueWithoutType));
    assert.deepEqual(edited.map((diagnostic) => diagnostic.code), ['missing-type']);
    assert.match(JSON.stringify(await server.hover(normal, 2, 4)), /Queue/);
    assert.equal(server.exit, undefined);
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
