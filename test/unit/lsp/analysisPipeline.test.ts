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

  test('give the same report keystroke after keystroke on a SAM template, whose processed template the worker moves in place, and after the baseline changes', async () => {
    const sam = (memoryOf: (name: string) => string, timeoutOfA = 3, comment = '') => {
      const fn = (name: string) => `  ${name}:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/${name}.zip
      Handler: app.handler
      Runtime: python3.12
      Timeout: ${name === 'A' ? timeoutOfA : 3}
${memoryOf(name)}      Events:
        Get:
          Type: Api
          Properties:
            Path: /${name.toLowerCase()}
            Method: get
        Work:
          Type: SQS
          Properties:
            Queue: !GetAtt ${name}Queue.Arn
`;
      const queues = ['A', 'B', 'C', 'D'].map((name) => `  ${name}Queue:\n    Type: AWS::SQS::Queue\n`).join('');
      return `Transform: AWS::Serverless-2016-10-31\nResources:\n${comment}${queues}${['A', 'B', 'C', 'D'].map(fn).join('')}Outputs:\n  Api:\n    Value: !Sub https://\${ServerlessRestApi}.execute-api.\${AWS::Region}.amazonaws.com/Prod/\n`;
    };
    const memory = (without: string[]) => (name: string) => (without.includes(name) ? '' : '      MemorySize: 256\n');
    const request = (version: number, text: string, key: string, baseline: string): AnalysisRequest => ({
      uri: 'file:///work/sam.yaml',
      version,
      languageId: 'yaml',
      text,
      parameters: { values: {}, onlyDeclared: true },
      baseline: { key, text: baseline, parameters: { values: {}, onlyDeclared: false } },
    });
    const direct = (text: string, baseline: string) => analyzeUpdate({ text: baseline }, { text }, { spec }).report;
    const first = sam(memory([]));
    // A comment above every resource moves them all; a timeout typed in the first function moves what follows it.
    const second = sam(memory([]), 3, '  # queues first\n');
    const third = sam(memory([]), 30, '  # queues first\n');
    const steps: [string, string, string][] = [
      [first, 'git@1', first],
      [second, 'git@1', first],
      [third, 'git@1', first],
      // The baseline becomes the text being edited (a commit): then C's memory is deleted, which
      // moves D, then D's queue event, whose mapping is removed where the baseline has it.
      [sam(memory(['C']), 30, '  # queues first\n'), 'git@2', third],
      [sam(memory(['C']), 30, '  # queues first\n').replace('        Work:\n          Type: SQS\n          Properties:\n            Queue: !GetAtt DQueue.Arn\n', ''), 'git@2', third],
      // B's path typed further, keystroke after keystroke: the implicit API is rebuilt each time.
      [third.replace('Path: /b\n', 'Path: /b/\n'), 'git@2', third],
      [third.replace('Path: /b\n', 'Path: /b/i\n'), 'git@2', third],
      [third.replace('Path: /b\n', 'Path: /b/it\n'), 'git@2', third],
    ];
    for (const [i, [text, key, baseline]] of steps.entries()) {
      const report = await workerReport(thread, request(10 + i, text, key, baseline));
      assert.deepEqual(report, direct(text, baseline), `step ${i + 1}`);
    }
    // Not a vacuous equality: the last step removes D's event source mapping, shown on the function
    // that generated it, in the baseline's text.
    const last = await workerReport(thread, request(20, steps[4]![0], 'git@2', third));
    const removed = last?.changes.find((c) => c.action === 'Remove');
    assert.deepEqual([removed?.logicalId, removed?.rangeIn], ['DWork', 'old']);
    assert.equal(third.slice(removed!.range.start, third.indexOf('\n', removed!.range.start)), 'D:');
    // And a new path is a new deployment of the API: the deployment's logical id hashes the definition.
    const typed = await workerReport(thread, request(21, steps[7]![0], 'git@2', third));
    const deployments = typed?.changes.filter((c) => c.resourceType === 'AWS::ApiGateway::Deployment').map((c) => c.action).sort();
    assert.deepEqual(deployments, ['Add', 'Remove']);
  });

  test('give the same report keystroke after keystroke in Globals, where a value SAM copies to each Lambda function makes them again', async () => {
    const sam = (globals: string) => `Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Runtime: python3.12
${globals}Resources:
${['A', 'B', 'C']
  .map(
    (name) => `  ${name}:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/${name}.zip
      Handler: app.handler
${name === 'C' ? '      Timeout: 3\n' : ''}      Events:
        Get:
          Type: Api
          Properties:
            Path: /${name.toLowerCase()}
            Method: get
`,
  )
  .join('')}`;
    const baseline = sam('    Timeout: 10\n');
    const request = (version: number, text: string): AnalysisRequest => ({
      uri: 'file:///work/globals.yaml',
      version,
      languageId: 'yaml',
      text,
      parameters: { values: {}, onlyDeclared: true },
      baseline: { key: 'git@1', text: baseline, parameters: { values: {}, onlyDeclared: false } },
    });
    // The timeout typed over, then the runtime, keystroke after keystroke.
    const texts = ['10', '1', '15'].map((timeout) => sam(`    Timeout: ${timeout}\n`));
    texts.push(texts[2]!.replace('Runtime: python3.12', 'Runtime: python3.1'), texts[2]!.replace('Runtime: python3.12', 'Runtime: python3.13'));
    for (const [i, text] of texts.entries()) {
      const report = await workerReport(thread, request(30 + i, text));
      assert.deepEqual(report, analyzeUpdate({ text: baseline }, { text }, { spec }).report, `step ${i + 1}`);
    }
    // Not a vacuous equality: A and B take the new timeout from Globals, in place; C keeps its own.
    const typed = await workerReport(thread, request(40, texts[2]!));
    const updated = typed?.changes.filter((c) => c.action === 'Modify').map((c) => [c.logicalId, c.replacement]);
    assert.deepEqual(updated, [
      ['A', 'False'],
      ['B', 'False'],
    ]);
  });

  test('give the same no-op for an unchanged template', async () => {
    const values = { Environment: 'staging' };
    const report = await workerReport(thread, stackRequest(3, deployed, values, 'stack@2'));
    assert.deepEqual(report, directReport(deployed, values));
    assert.equal(report?.status, 'noop');
  });
});
