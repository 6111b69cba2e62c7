/**
 * The `--json` rendering: one object. For one template, the report itself with 1-based
 * locations and the words every other face shows; for a branch, one such entry per file and a
 * summary.
 */
import { replacedIds } from '../../impact/claims';
import type { ImpactReport } from '../../impact/types';
import { branchSummary, changeReason, diagnosticText, fileVerdict, noteTexts, stackRiskText, verdictMessage } from '../../present';
import { fileStatus, reviewStatus, type FileLines, type Review, type ReviewedFile } from '../review';

/** The review as the one JSON object `--json` prints. */
export function renderJson(review: Review): string {
  if (!review.branch && review.files.length === 1 && review.files[0].report) return `${JSON.stringify(reportJson(review.files[0].report, review.files[0].files))}\n`;
  const value = {
    status: reviewStatus(review),
    message: branchSummary(review.files, review.notTemplates),
    files: review.files.map((file) => ({ path: file.path, ...fileJson(file) })),
  };
  return `${JSON.stringify(value)}\n`;
}

function fileJson(file: ReviewedFile) {
  if (!file.report) return { status: fileStatus(file), message: fileVerdict(file.change, undefined), changes: [], diagnostics: [], notes: [] };
  return { ...reportJson(file.report, file.files), status: fileStatus(file), message: fileVerdict(file.change, file.report) };
}

/**
 * The report, with 1-based line/column positions added to every range, and the words every
 * other face shows (`message`, each change's `reason`, each diagnostic's `message`, the notes)
 * beside the structured causes they are worded from.
 */
function reportJson(report: ImpactReport, files: { old: FileLines; new: FileLines }) {
  const where = (range: { start: number; end: number } | undefined, side: 'old' | 'new') => {
    if (!range) return undefined;
    const file = files[side];
    const start = file.lines.positionAt(range.start);
    const end = file.lines.positionAt(range.end);
    return { file: file.path, start: { line: start.line + 1, column: start.character + 1 }, end: { line: end.line + 1, column: end.character + 1 } };
  };
  const replaced = replacedIds(report.changes);
  return {
    status: report.status as string,
    message: verdictMessage(report),
    changes: report.changes.map((c) => ({
      ...c,
      reason: changeReason(c, replaced),
      location: where(c.range, c.rangeIn),
      details: c.details.map((d) => ({ ...d, location: where(d.range, d.rangeIn) })),
    })),
    ...(report.risks ? { risks: report.risks.map((risk) => ({ ...risk, message: stackRiskText(risk) })) } : {}),
    diagnostics: report.diagnostics.map((d) => ({ ...d, message: diagnosticText(d), location: where(d.range, d.rangeIn) })),
    notes: noteTexts(report.notes),
  };
}
