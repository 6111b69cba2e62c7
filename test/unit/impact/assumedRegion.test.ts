/**
 * A Region taken for granted (docs/update-rules.md#account-and-stack-name): with no Region given
 * and no stack linked, `AWS::Region` is `us-east-1`. Where it selects a mapping entry or decides a
 * condition, that default decides what the comparison sees, so a note says so at the place, in
 * the CLI and as an information diagnostic in the editor; nowhere else.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeUpdate, type AnalyzeOptions } from '../../../server/src/impact';
import { buildDiagnostics } from '../../../server/src/lsp/diagnostics';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

/** An instance whose image each Region has its own of; the one for eu-west-1 edited. */
const byRegion = (euImage: string) => `Mappings:
  RegionMap:
    us-east-1: { AMI: ami-11111111 }
    eu-west-1: { AMI: ${euImage} }
Resources:
  Host:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: !FindInMap [RegionMap, !Ref 'AWS::Region', AMI]
      InstanceType: t3.micro
`;

function analysis(before: string, after: string, options: Omit<AnalyzeOptions, 'spec'> = {}) {
  return analyzeUpdate({ text: before }, { text: after }, { spec, ...options });
}

describe('AWS::Region taken as us-east-1', () => {
  test("where it selects a mapping entry, a note at the Ref says so: the edit for eu-west-1 is not seen in us-east-1's", () => {
    const after = byRegion('ami-33333333');
    const { report } = analysis(byRegion('ami-22222222'), after);
    assert.equal(report.status, 'noop');
    const notes = report.notes.filter((n) => n.kind === 'region-assumed');
    assert.deepEqual(notes.map((n) => ({ ...n, range: undefined })), [{ kind: 'region-assumed', region: 'us-east-1', range: undefined }]);
    assert.equal(after.slice(notes[0]!.range!.start, notes[0]!.range!.end), "!Ref 'AWS::Region'");
  });

  test('with the Region given, the lookup is decided by it and nothing is noted', () => {
    const { report } = analysis(byRegion('ami-22222222'), byRegion('ami-33333333'), { region: 'eu-west-1' });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact]), [['Host', 'replacement']]);
    assert.deepEqual(report.notes.filter((n) => n.kind === 'region-assumed'), []);
  });

  test('where it decides a condition, the note is at the comparison', () => {
    const text = `Conditions:
  InVirginia: !Equals [!Ref AWS::Region, us-east-1]
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Condition: InVirginia
`;
    const notes = analysis(text, text).report.notes.filter((n) => n.kind === 'region-assumed');
    assert.equal(notes.length, 1);
    assert.equal(text.slice(notes[0]!.range!.start, notes[0]!.range!.end), '!Ref AWS::Region');
  });

  test('a Region read only into a name or an ARN decides nothing: no note', () => {
    const text = "Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Sub 'jobs-${AWS::Region}'\n";
    assert.deepEqual(analysis(text, text).report.notes.filter((n) => n.kind === 'region-assumed'), []);
  });

  test('the editor shows it as an information diagnostic on the Ref, saying how to give the Region', () => {
    const after = byRegion('ami-33333333');
    const analysed = analysis(byRegion('ami-22222222'), after);
    const document = TextDocument.create('file:///stack.yaml', 'yaml', 1, after);
    const [region] = buildDiagnostics(document, analysed.after, analysed.report).filter((d) => d.code === 'region-assumed');
    assert.ok(region);
    assert.equal(region.severity, DiagnosticSeverity.Information);
    assert.equal(region.range.start.line, 8);
    assert.match(String(region.message), /AWS::Region is taken as us-east-1 where it selects a mapping entry or decides a condition/);
    assert.match(String(region.message), /link the deployed stack/);
  });
});
