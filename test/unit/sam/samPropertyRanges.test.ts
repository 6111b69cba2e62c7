/**
 * Where the changes of generated resources point in a SAM template: at the SAM property that holds
 * the changed value, as written, so that a person finds the line they edited (an event's own
 * property, a property set in Globals, or the SAM property that produced the resource).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

const worker = `Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    MemorySize: 128
Resources:
  Worker:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://artifacts/worker.zip
      Handler: app.handler
      Runtime: python3.12
      Events:
        Jobs:
          Type: SQS
          Properties:
            Queue: arn:aws:sqs:us-east-1:123456789012:jobs
            BatchSize: 10
`;

function impact(before: string, after: string): ImpactReport {
  return analyzeUpdate({ text: before }, { text: after }, { spec }).report;
}

/** The one-based line of the new template a change's detail at `path` points at. */
function lineOfDetail(report: ImpactReport, text: string, logicalId: string, path: string): number {
  const detail = report.changes.find((c) => c.logicalId === logicalId)?.details.find((d) => d.target.path === path);
  assert.ok(detail?.range && detail.rangeIn === 'new', `${logicalId} ${path} has a range in the new template: ${JSON.stringify(report.changes)}`);
  return text.slice(0, detail.range.start).split('\n').length;
}

function lineNumber(text: string, line: string): number {
  const index = text.split('\n').indexOf(line);
  assert.notEqual(index, -1, `no line "${line}"`);
  return index + 1;
}

describe('changes of generated resources point at the SAM property they come from', () => {
  test("an event's BatchSize is its event source mapping's: the change points at the event's BatchSize", () => {
    const after = worker.replace('BatchSize: 10', 'BatchSize: 5');
    const report = impact(worker, after);
    assert.equal(lineOfDetail(report, after, 'WorkerJobs', '/Properties/BatchSize'), lineNumber(after, '            BatchSize: 5'));
    assert.deepEqual(report.changes.find((c) => c.logicalId === 'WorkerJobs')?.generatedBy, { logicalId: 'Worker', property: 'Events.Jobs.Properties.BatchSize' });
  });

  test('a property the function takes from Globals points at Globals', () => {
    const after = worker.replace('MemorySize: 128', 'MemorySize: 256');
    const report = impact(worker, after);
    assert.equal(lineOfDetail(report, after, 'Worker', '/Properties/MemorySize'), lineNumber(after, '    MemorySize: 256'));
  });

  test("an Api's local DefinitionUri: the note that its file is not in the comparison points at DefinitionUri", () => {
    const api = `Transform: AWS::Serverless-2016-10-31
Resources:
  Orders:
    Type: AWS::Serverless::Api
    Properties:
      StageName: prod
      DefinitionUri: api/openapi.yaml
`;
    const note = impact(api, api).notes.find((n) => n.kind === 'sam-local-artifact');
    assert.ok(note?.range, JSON.stringify(note));
    assert.equal(api.slice(note.range.start, note.range.end), 'api/openapi.yaml');
  });
});
