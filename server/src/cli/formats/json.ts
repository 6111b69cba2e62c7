/**
 * The `--json` rendering: one object. For one template, the report itself with 1-based
 * locations and the words every other face shows; for a branch, one such entry per file and a
 * summary.
 */
import { replacedIds } from '../../impact/claims';
import type { ImpactReport, NestedReport, ResourceChange } from '../../impact/types';
import { LineIndex } from '../../template';
import type { ChildTexts, ChildTemplates } from '../childTemplates';
import { branchSummary, changeReason, diagnosticText, fileVerdict, noteTexts, stackRiskText, verdictMessage } from '../../present';
import { fileStatus, reviewStatus, type CdkStackView, type FileLines, type Review, type ReviewedFile } from '../review';
import { assemblySummary, constructChangeReason, renameOf, stackVerdict } from '../../present/constructs';
import { sourceOfTrace } from '../../cdk/constructs';
import { stackStatuses } from '../renderReport';

/** The review as the one JSON object `--json` prints. */
export function renderJson(review: Review): string {
  if (review.assembly) return `${JSON.stringify(assemblyJson(review))}\n`;
  if (!review.branch && review.files.length === 1 && review.files[0].report) return `${JSON.stringify(reportJson(review.files[0].report, review.files[0].files, review.files[0].children))}\n`;
  const value = {
    status: reviewStatus(review),
    message: branchSummary(review.files, review.notTemplates),
    files: review.files.map((file) => ({ path: file.path, ...fileJson(file) })),
  };
  return `${JSON.stringify(value)}\n`;
}

function fileJson(file: ReviewedFile) {
  if (!file.report) return { status: fileStatus(file), message: fileVerdict(file.change, undefined), changes: [], diagnostics: [], notes: [] };
  return { ...reportJson(file.report, file.files, file.children), status: fileStatus(file), message: fileVerdict(file.change, file.report) };
}

/**
 * The report, with 1-based line/column positions added to every range, and the words every
 * other face shows (`message`, each change's `reason`, each diagnostic's `message`, the notes)
 * beside the structured causes they are worded from. A nested stack's plan is located in its
 * own files.
 */
function reportJson(report: ImpactReport, files: { old: FileLines; new: FileLines }, children: ChildTemplates | undefined) {
  return { ...planJson(report, files, children), notes: noteTexts(report.notes) };
}

/** A plan's shape, the top template's or a nested stack's. */
function planJson(report: ImpactReport | NestedReport, files: { old: FileLines; new: FileLines }, children: ChildTemplates | undefined): Record<string, unknown> {
  const where = (range: { start: number; end: number } | undefined, side: 'old' | 'new') => {
    if (!range) return undefined;
    const file = files[side];
    const start = file.lines.positionAt(range.start);
    const end = file.lines.positionAt(range.end);
    return { file: file.path, start: { line: start.line + 1, column: start.character + 1 }, end: { line: end.line + 1, column: end.character + 1 } };
  };
  const replaced = replacedIds(report.changes);
  return {
    ...('path' in report ? { path: report.path } : {}),
    status: report.status as string,
    message: verdictMessage({ ...report, notes: [] }),
    changes: report.changes.map((c) => ({
      ...c,
      reason: changeReason(c, replaced),
      location: where(c.range, c.rangeIn),
      details: c.details.map((d) => ({ ...d, location: where(d.range, d.rangeIn) })),
      ...(c.nested ? { nested: planJson(c.nested, childFiles(c.nested.path, children), children) } : {}),
    })),
    ...(report.risks ? { risks: report.risks.map((risk) => ({ ...risk, message: stackRiskText(risk) })) } : {}),
    diagnostics: report.diagnostics.map((d) => ({ ...d, message: diagnosticText(d), location: where(d.range, d.rangeIn) })),
  };
}

/** The two files of a nested stack's template, as the CLI read them. */
function childFiles(path: string, children: ChildTemplates | undefined): { old: FileLines; new: FileLines } {
  const side = (files: ChildTexts | undefined): FileLines => ({ path: files ? files.pathOf(path) : path, lines: new LineIndex(files?.texts.get(path) ?? '') });
  return { old: side(children?.oldFiles), new: side(children?.newFiles) };
}

/**
 * A CDK app's review: `{status, message, stacks: [...]}`, each stack as a template's report with
 * each change's construct path, the line of the app's code that created it when the assembly
 * recorded it, and words that name constructs.
 */
function assemblyJson(review: Review) {
  return {
    status: reviewStatus(review),
    message: assemblySummary(stackStatuses(review.files)),
    stacks: review.files.map((file) => {
      const cdk = file.cdk!;
      const status = fileStatus(file);
      if (!file.report) return { stack: cdk.stack, stackName: file.stackName, status, message: stackVerdict(file.change, undefined), changes: [], diagnostics: [], notes: [] };
      const plain = reportJson(file.report, file.files, file.children) as Record<string, unknown> & { notes: string[] };
      const replaced = replacedIds(file.report.changes);
      return {
        stack: cdk.stack,
        stackName: file.stackName,
        status,
        message: stackVerdict(file.change, file.report),
        changes: (plain.changes as Record<string, unknown>[]).map((change, index) => constructChange(change, file.report!.changes[index]!, cdk, replaced)),
        ...(plain.risks ? { risks: plain.risks } : {}),
        diagnostics: plain.diagnostics,
        notes: plain.notes,
      };
    }),
  };
}

/** A change of a CDK stack: its construct, where the app created it, a rename, and words that name constructs. */
function constructChange(json: Record<string, unknown>, change: ResourceChange, cdk: CdkStackView, replaced: ReadonlySet<string>) {
  const construct = (change.action === 'Remove' ? cdk.constructs.old : cdk.constructs.new).get(change.logicalId);
  const source = sourceOfTrace(construct?.trace);
  const rename = renameOf(change, cdk.renames);
  return {
    ...json,
    ...(construct ? { constructPath: construct.path } : {}),
    ...(source ? { source } : {}),
    ...(rename ? { rename: { from: rename.from.path, to: rename.to.path, fromLogicalId: rename.from.logicalId, toLogicalId: rename.to.logicalId } } : {}),
    reason: constructChangeReason(change, replaced, cdk.renames, cdk.names),
  };
}
