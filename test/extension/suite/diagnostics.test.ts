// Diagnostics, as VS Code's Problems panel and every other consumer read them: a replacement is a
// warning on the replaced resource, an update CloudFormation will refuse is an error, and a
// template error carries CloudFormation's own message where the error is.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it } from 'mocha';
import { workspaceFiles } from '../workspace';
import { lineOf, openInEditor, waitForDiagnostics } from './support';

/** The diagnostics whose range starts on the line whose text is `text`. */
function onLine(document: vscode.TextDocument, diagnostics: vscode.Diagnostic[], text: string): vscode.Diagnostic[] {
  const line = lineOf(document, text);
  return diagnostics.filter((diagnostic) => diagnostic.range.start.line === line);
}

describe('diagnostics', () => {
  it('warns on each replaced resource of the network template, naming the new resource', async () => {
    const document = await openInEditor(workspaceFiles.network);
    const diagnostics = await waitForDiagnostics(
      document.uri,
      (found) => found.filter((diagnostic) => /Replacement/.test(diagnostic.message)).length >= 2,
      'two replacement warnings',
    );
    for (const [line, name] of [
      ['  Network:', 'Network'],
      ['  PublicSubnet:', 'PublicSubnet'],
    ]) {
      const found = onLine(document, diagnostics, line).filter((diagnostic) => /Replacement/.test(diagnostic.message));
      assert.equal(found.length, 1, `one replacement warning on ${name}: ${JSON.stringify(diagnostics.map((d) => d.message))}`);
      assert.equal(found[0].severity, vscode.DiagnosticSeverity.Warning);
      assert.match(found[0].message, new RegExp(`new ${name}\\b`));
    }
    // The bucket is updated in place and the queue removed: neither is a problem.
    assert.deepEqual(onLine(document, diagnostics, '  Logs:'), []);
  });

  it('reports an update that will fail as an error: a named table cannot be replaced', async () => {
    const document = await openInEditor(workspaceFiles.table);
    const diagnostics = await waitForDiagnostics(
      document.uri,
      (found) => found.some((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error),
      'an error on the named table',
    );
    const errors = onLine(document, diagnostics, '  Table:').filter((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error);
    assert.equal(errors.length, 1, JSON.stringify(diagnostics.map((d) => d.message)));
    // AWS's wording (knowledge-center article "cloudformation-custom-name"): the name must change first.
    assert.match(errors[0].message, /^Update will fail: CloudFormation cannot update a stack when a custom-named resource requires replacing\. Rename orders/);
  });

  it('reports a reference to an undeclared resource with CloudFormation’s message, at the reference', async () => {
    const document = await openInEditor(workspaceFiles.brokenReference);
    const diagnostics = await waitForDiagnostics(
      document.uri,
      (found) => found.some((diagnostic) => /Unresolved resource dependencies/.test(diagnostic.message)),
      'the unresolved reference',
    );
    const error = diagnostics.find((diagnostic) => /Unresolved resource dependencies/.test(diagnostic.message));
    assert.ok(error);
    assert.equal(error.severity, vscode.DiagnosticSeverity.Error);
    assert.match(error.message, /Template format error: Unresolved resource dependencies \[Missing\] in the Resources block of the template/);
    assert.equal(error.range.start.line, lineOf(document, '          Value: !Ref Missing'));
  });
});
