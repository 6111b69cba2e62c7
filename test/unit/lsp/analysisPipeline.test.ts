/**
 * One analysis pipeline: the language server's worker thread answers with the report that
 * `analyzeUpdate` (what the CLI and the engine's tests call) gives for the same template pair,
 * whether the worker evaluates the baseline afresh or takes it from its cache.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeUpdate, type TemplateSide } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import type { Logger } from '../../../server/src/lsp/runSafe';
import { AnalysisThread, analysisLimits } from '../../../server/src/lsp/worker/analysisThread';
import type { AnalysisRequest } from '../../../server/src/lsp/worker/messages';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();
const example = (name: string) => readFileSync(join(__dirname, '..', '..', '..', 'examples', 'network', name), 'utf8');
const deployed = example('deployed.yaml');
const update = example('update.yaml');

const logger: Logger = { error: () => undefined, info: () => undefined };

/** A request as the server builds it for a template linked to a deployed stack. */
function stackRequest(version: number, text: string, stackValues: Record<string, string>, key: string): AnalysisRequest {
  return {
    uri: 'file:///work/network.yaml',
    version,
    languageId: 'yaml',
    text,
    // The stack's values carry over to the parameters the edited template still declares.
    parameters: { values: stackValues, onlyDeclared: true },
    stackName: 'network',
    stackStatus: 'UPDATE_COMPLETE',
    region: 'eu-west-1',
    baseline: { key, text: deployed, parameters: { values: stackValues, onlyDeclared: false } },
  };
}

/** The same pair as `analyzeUpdate` takes it: the stack's values on the old side, carried over on the new. */
function directReport(text: string, stackValues: Record<string, string>): ImpactReport {
  const old: TemplateSide = { text: deployed, parameters: stackValues };
  const edited: TemplateSide = { text, fallbackParameters: stackValues };
  return analyzeUpdate(old, edited, { spec, stackName: 'network', stackStatus: 'UPDATE_COMPLETE', region: 'eu-west-1' }).report;
}

async function workerReport(thread: AnalysisThread, request: AnalysisRequest): Promise<ImpactReport | undefined> {
  const outcome = await thread.analyse(request);
  assert.equal(outcome.kind, 'done', JSON.stringify(outcome));
  return outcome.kind === 'done' ? outcome.reply.report : undefined;
}

describe('the analysis worker and analyzeUpdate', () => {
  let thread: AnalysisThread;

  before(() => {
    thread = new AnalysisThread(logger, analysisLimits({}));
  });

  after(() => {
    thread?.dispose();
  });

  test('give the same report for the demo pair, with the baseline evaluated afresh and then from the cache', async () => {
    const values = { Environment: 'production' };
    const fresh = await workerReport(thread, stackRequest(1, update, values, 'stack@1'));
    assert.deepEqual(fresh, directReport(update, values));
    // Not a vacuous equality: the new VPC CIDR replaces the VPC and what refers to it (run 7).
    assert.equal(fresh?.status, 'update');
    assert.equal(fresh?.changes.find((c) => c.logicalId === 'VPC')?.replacement, 'True');

    // The next version of the document, without the new queue, against the same baseline: the worker's cached evaluation.
    const edited = update.replace('  Queue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 60\n', '');
    const cached = await workerReport(thread, stackRequest(2, edited, values, 'stack@1'));
    assert.deepEqual(cached, directReport(edited, values));
    assert.deepEqual(
      cached?.changes.filter((c) => c.action !== 'Modify').map((c) => [c.logicalId, c.action]),
      [['AccessLogs', 'Remove']],
    );
  });

  test('give the same no-op for an unchanged template', async () => {
    const values = { Environment: 'staging' };
    const report = await workerReport(thread, stackRequest(3, deployed, values, 'stack@2'));
    assert.deepEqual(report, directReport(deployed, values));
    assert.equal(report?.status, 'noop');
  });
});
