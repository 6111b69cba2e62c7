/**
 * Local paths that `aws cloudformation package` uploads before CloudFormation sees a plain
 * template (docs/update-rules.md#cloudformation-package): the path stands for the upload, so the
 * same path compares equal and another path is a change, and a note at the path says that the
 * files there are not visible. A URL is not a local path.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeUpdate } from '../../../server/src/impact';
import { buildDiagnostics } from '../../../server/src/lsp/diagnostics';
import { noteText } from '../../../server/src/present';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

const packaged = (code: string, script = 'etl/job.py') => `Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      Code: ${code}
      Handler: index.handler
      Runtime: nodejs20.x
      Role: arn:aws:iam::123456789012:role/app
  Job:
    Type: AWS::Glue::Job
    Properties:
      Role: arn:aws:iam::123456789012:role/glue
      Command:
        Name: glueetl
        ScriptLocation: ${script}
`;

describe('a plain template with local paths aws cloudformation package uploads', () => {
  test('compared with itself is a no-op, with a note at each local path, in template order', () => {
    const analysis = analyzeUpdate({ text: packaged('./src') }, { text: packaged('./src') }, { spec });
    assert.equal(analysis.report.status, 'noop');
    const notes = analysis.report.notes.filter((n) => n.kind === 'packaged-artifact');
    assert.deepEqual(notes.map((n) => ({ ...n, range: undefined })), [
      { kind: 'packaged-artifact', logicalId: 'Fn', property: 'Code', path: './src', range: undefined },
      { kind: 'packaged-artifact', logicalId: 'Job', property: 'Command.ScriptLocation', path: 'etl/job.py', range: undefined },
    ]);
    assert.match(noteText(notes[0]!), /^Fn: Code \.\/src is a local path that aws cloudformation package \(or sam package\) uploads to S3 before deploying: .* a change to the files there is not visible/);
  });

  test('another path is another upload: the function\'s code changes', () => {
    const { report } = analyzeUpdate({ text: packaged('./src') }, { text: packaged('./dist') }, { spec });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.details.map((d) => d.target.name)]), [['Fn', ['Code']]]);
  });

  test('an S3 URL is not a local path: no note', () => {
    const { report } = analyzeUpdate({ text: packaged('./src', 's3://scripts/job.py') }, { text: packaged('./src', 's3://scripts/job.py') }, { spec });
    assert.deepEqual(report.notes.filter((n) => n.kind === 'packaged-artifact').map((n) => n.logicalId), ['Fn']);
  });

  test('the editor shows the note as an information diagnostic on the path', () => {
    const text = packaged('./src');
    const analysis = analyzeUpdate({ text }, { text }, { spec });
    const document = TextDocument.create('file:///stack.yaml', 'yaml', 1, text);
    const shown = buildDiagnostics(document, analysis.after, analysis.report).filter((d) => d.code === 'packaged-artifact');
    assert.deepEqual(shown.map((d) => [d.severity, d.range.start.line, document.getText(d.range)]), [
      [DiagnosticSeverity.Information, 4, './src'],
      [DiagnosticSeverity.Information, 14, 'etl/job.py'],
    ]);
  });
});
