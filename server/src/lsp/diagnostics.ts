/**
 * Turns an analysis into LSP diagnostics: template problems where they are, one finding per
 * resource whose update replaces it, interrupts it or fails, and the Serverless transform's limits
 * on the SAM lines they concern.
 */
import { DiagnosticSeverity, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver';
import { changesSomething, replacedIds } from '../impact/claims';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range as SourceRange, TemplateError } from '../template/ast';
import type { EvaluatedTemplate } from '../evaluate/types';
import type { ImpactReport, ResourceChange } from '../impact/types';
import { changedValueLine, changeProblem, decisiveDetails, diagnosticText, noteSeverity, noteText, verdictMessage } from '../present';

export const diagnosticSource = 'cfn-impact';

/** All diagnostics of one analysed version: template errors, evaluation errors and the report's findings. */
export function buildDiagnostics(document: TextDocument, after: EvaluatedTemplate, report: ImpactReport | undefined): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const push = (diagnostic: Diagnostic) => {
    const key = `${diagnostic.code}|${diagnostic.range.start.line}:${diagnostic.range.start.character}|${diagnostic.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(diagnostic);
  };
  for (const error of after.model.errors) push(templateErrorDiagnostic(document, error));
  for (const error of after.errors) push(templateErrorDiagnostic(document, error));
  for (const note of after.notes) {
    // What the Serverless transform cannot show the comparison is said on the SAM line it is about
    // (a local CodeUri whose files are not in the template, a feature analysed as written), and so
    // is a local path aws cloudformation package uploads.
    if ((!note.kind.startsWith('sam-') && note.kind !== 'packaged-artifact') || note.range === undefined) continue;
    const severity = noteSeverity(note) === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information;
    push({ range: toLspRange(document, note.range), severity, code: note.kind, source: diagnosticSource, message: noteText(note) });
  }
  if (!report) return out;

  const replaced = replacedIds(report.changes);
  for (const change of report.changes) {
    const diagnostic = changeDiagnostic(document, change, replaced);
    if (diagnostic) push(diagnostic);
  }
  let rejected = false;
  for (const finding of report.diagnostics) {
    const range = finding.range && finding.rangeIn === 'new' ? finding.range : resourceKeyRange(after, finding.logicalId);
    const severity = severityOf(finding.severity);
    if (severity === DiagnosticSeverity.Error) rejected = true;
    push({ range: toLspRange(document, range), severity, code: finding.code, source: diagnosticSource, message: diagnosticText(finding) });
  }
  if (report.status === 'error' && !rejected) {
    push({
      range: toLspRange(document, undefined),
      severity: DiagnosticSeverity.Error,
      code: 'update-rejected',
      source: diagnosticSource,
      message: verdictMessage(report),
    });
  }
  return out;
}

function changeDiagnostic(document: TextDocument, change: ResourceChange, replaced: ReadonlySet<string>): Diagnostic | undefined {
  if (change.rangeIn !== 'new' || !changesSomething(change)) return undefined;
  const problem = changeProblem(change, replaced);
  if (problem === undefined) return undefined;
  return {
    range: toLspRange(document, problemRange(change)),
    severity: severityOf(problem.severity),
    code: change.impact,
    source: diagnosticSource,
    message: problem.message,
    relatedInformation: relatedLocations(document, change),
  };
}

/**
 * Where a change's problem is shown: at the resource's logical id, or, for a resource the
 * Serverless transform generated, at the SAM property whose value decides it (in the SAM resource
 * or in Globals), which is what the person edited; the SAM resource's key when none is known.
 */
function problemRange(change: ResourceChange): SourceRange {
  if (!change.generatedBy) return change.range;
  return decisiveDetails(change).find((detail) => detail.range && detail.rangeIn === 'new')?.range ?? change.range;
}

/** Points at the changed values themselves, so a person can jump from the resource to the edit. */
function relatedLocations(document: TextDocument, change: ResourceChange): DiagnosticRelatedInformation[] | undefined {
  const related: DiagnosticRelatedInformation[] = [];
  for (const detail of decisiveDetails(change)) {
    if (!detail.range || detail.rangeIn !== 'new' || related.length >= 5) continue;
    related.push({ location: { uri: document.uri, range: toLspRange(document, detail.range) }, message: changedValueLine(detail) });
  }
  return related.length > 0 ? related : undefined;
}

function templateErrorDiagnostic(document: TextDocument, error: TemplateError): Diagnostic {
  return {
    range: toLspRange(document, error.range),
    severity: error.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
    code: error.code,
    source: diagnosticSource,
    message: error.message,
  };
}

function resourceKeyRange(after: EvaluatedTemplate, logicalId: string | undefined): SourceRange | undefined {
  return logicalId ? after.model.resources.get(logicalId)?.keyRange : undefined;
}

function severityOf(severity: 'error' | 'warning' | 'info'): DiagnosticSeverity {
  return severity === 'error' ? DiagnosticSeverity.Error : severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information;
}

/** An offset range as an LSP range; no range means the first line (findings about the whole template). */
export function toLspRange(document: TextDocument, range: SourceRange | undefined) {
  if (!range) {
    const firstLineEnd = document.getText().indexOf('\n');
    return { start: { line: 0, character: 0 }, end: document.positionAt(firstLineEnd < 0 ? document.getText().length : firstLineEnd) };
  }
  return { start: document.positionAt(range.start), end: document.positionAt(Math.max(range.start, range.end)) };
}
