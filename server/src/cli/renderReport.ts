/**
 * Human renderings of an impact report: a coloured terminal summary and a Markdown one for
 * pull requests.
 */
import { changesSomething, replacedIds, shownDetails } from '../impact/claims';
import { branchSummary, changeReason, detailSummaryLine, diagnosticText, fileHeading, fileVerdict, impactLabel, moreLine, noteTexts, replacementChain, samResourceLensTitle, unchangedSummary, verdictLine, markdownVerdict } from '../present';
import type { CdkStackView, Review, ReviewedFile } from './review';
import { assemblySummary, constructChangeReason, namedByConstruct, namedReplaced, stackHeading, stackVerdict } from '../present/constructs';
import { isCdkMetadata } from '../cdk/cdkTemplate';
import { fileStatus } from './review';
import type { ImpactReport, NestedReport, ResourceChange } from '../impact/types';
import type { LineIndex } from '../template';

interface RenderContext {
  stackName: string;
  files: { old: { path: string; lines: LineIndex }; new: { path: string; lines: LineIndex } };
  color?: boolean;
  /** For a stack of a CDK app: resources are named by construct path, renames said as such. */
  cdk?: CdkStackView;
}

/** How a context names resources and words a change: by construct path in a CDK app, else by logical id. */
function wording(ctx: RenderContext, replaced: ReadonlySet<string>) {
  const cdk = ctx.cdk;
  return {
    /** The change as the words name its resources (namedByConstruct), and the replaced ones likewise. */
    inWords: (change: ResourceChange) => (cdk ? namedByConstruct(change, cdk.names) : change),
    replacedInWords: cdk ? namedReplaced(replaced, cdk.names) : replaced,
    nameOf: (logicalId: string) => cdk?.names.get(logicalId) ?? logicalId,
    reasonOf: (change: ResourceChange) => (cdk ? constructChangeReason(change, replaced, cdk.renames, cdk.names) : changeReason(change, replaced)),
    // The CDK's version report changes with the CDK's version; nobody needs to read it.
    shown: (changes: readonly ResourceChange[]) => changes.filter((c) => changesSomething(c) && !(cdk && isCdkMetadata(c))),
  };
}

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, dim: 2, bold: 1 } as const;
type Style = keyof typeof CODES;

function styler(enabled: boolean) {
  return (style: Style, text: string) => (enabled ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text);
}

const LEVEL_STYLE = { good: 'green', info: 'blue', warning: 'yellow', danger: 'red' } as const;

function location(change: { range?: { start: number }; rangeIn: 'old' | 'new' }, ctx: RenderContext): string {
  if (!change.range) return '';
  const file = ctx.files[change.rangeIn];
  const pos = file.lines.positionAt(change.range.start);
  return `${file.path}:${pos.line + 1}:${pos.character + 1}`;
}

/** A nested stack's rows shown under its stack resource before the rest are counted. */
const NESTED_SHOWN = 10;

/** What happens inside a nested stack, one line per child change, each with the child's path: `stacks/network.yaml › ⟳ replace Vpc — CidrBlock changed`. */
function nestedRows(nested: NestedReport): string[] {
  const replaced = replacedIds(nested.changes);
  const shown = nested.changes.filter(changesSomething);
  const rows = shown.slice(0, NESTED_SHOWN).map((child) => {
    const label = impactLabel(child.impact);
    const reason = changeReason(child, replaced);
    return `${nested.path} › ${label.symbol} ${label.label} ${child.logicalId}${reason ? ` — ${reason}` : ''}`;
  });
  if (shown.length > NESTED_SHOWN) rows.push(`${nested.path} › ${moreLine(shown.length - NESTED_SHOWN)}`);
  return rows;
}

/** The terminal summary: verdict, one line per resource, diagnostics and notes. */
export function renderText(report: ImpactReport, ctx: RenderContext, heading = true): string {
  const paint = styler(ctx.color ?? false);
  const lines: string[] = [];
  if (heading) lines.push(paint('dim', `cfn-impact: ${ctx.files.old.path} → ${ctx.files.new.path} (stack ${ctx.stackName})`));
  lines.push(paint(report.status === 'noop' ? 'green' : report.status === 'error' ? 'red' : 'bold', verdictLine(report)));

  const replaced = replacedIds(report.changes);
  const { inWords, replacedInWords, nameOf, reasonOf, shown: shownOf } = wording(ctx, replaced);
  const shown = shownOf(report.changes);
  if (shown.length > 0) {
    lines.push('');
    const idWidth = Math.min(40, Math.max(...shown.map((c) => nameOf(c.logicalId).length)));
    const typeWidth = Math.min(44, Math.max(...shown.map((c) => c.resourceType.length)));
    const labelWidth = Math.max(...shown.map((c) => impactLabel(c.impact).label.length));
    for (const change of rowsBySamResource(shown)) {
      if ('samLogicalId' in change) {
        // The rows of what one SAM resource generated follow the line that sums them up, as its lens does.
        lines.push(`  ${paint('bold', change.samLogicalId)}  ${paint('dim', '(SAM)')}  ${change.title}`);
        continue;
      }
      const label = impactLabel(change.impact);
      const head = `${label.symbol.padEnd(2)} ${label.label.padEnd(labelWidth)}`;
      lines.push(`  ${paint(LEVEL_STYLE[label.level], head)}  ${paint('bold', nameOf(change.logicalId).padEnd(idWidth))}  ${paint('dim', change.resourceType.padEnd(typeWidth))}  ${reasonOf(change)}`);
      // A cascaded replacement names its root cause, which its one-line reason does not.
      if (change.replacementCause && change.replacementCause.chain.length > 1) {
        lines.push(paint('dim', `       cause: ${replacementChain(inWords(change), replacedInWords) ?? ''}`));
      }
      const details = shownDetails(inWords(change));
      for (const detail of details.slice(0, DETAILS_SHOWN)) lines.push(paint('dim', `       ${detailSummaryLine(detail)}`));
      if (details.length > DETAILS_SHOWN) lines.push(paint('dim', `       ${moreLine(details.length - DETAILS_SHOWN)}`));
      if (change.nested) lines.push(...nestedRows(change.nested).map((row) => paint('dim', `       ${row}`)));
    }
  }
  const unchanged = unchangedLine(report, nameOf);
  if (unchanged) lines.push('', paint('dim', `  ${impactLabel('none').symbol}  ${unchanged}`));
  if (report.diagnostics.length > 0) {
    lines.push('');
    for (const d of report.diagnostics) {
      const style = d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'blue';
      const where = location(d, ctx);
      lines.push(`  ${paint(style, d.severity)} ${where ? `${where} ` : ''}${diagnosticText(d)}`);
    }
  }
  if (report.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const note of noteTexts(report.notes)) lines.push(`  - ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The rows in report order, except that the changes attributed to a SAM resource are gathered at
 * the first of them, after a line that sums them up (the words of the SAM resource's lens).
 */
function rowsBySamResource(shown: readonly ResourceChange[]): (ResourceChange | { samLogicalId: string; title: string })[] {
  const groups = new Map<string, ResourceChange[]>();
  for (const change of shown) {
    if (!change.generatedBy) continue;
    const group = groups.get(change.generatedBy.logicalId) ?? [];
    group.push(change);
    groups.set(change.generatedBy.logicalId, group);
  }
  const rows: (ResourceChange | { samLogicalId: string; title: string })[] = [];
  for (const change of shown) {
    const samLogicalId = change.generatedBy?.logicalId;
    if (samLogicalId === undefined) {
      rows.push(change);
      continue;
    }
    const group = groups.get(samLogicalId);
    if (!group) continue;
    rows.push({ samLogicalId, title: samResourceLensTitle(samLogicalId, group) }, ...group);
    groups.delete(samLogicalId);
  }
  return rows;
}

/** Changed values listed under a row before the rest are counted. */
const DETAILS_SHOWN = 8;

/** The quiet line about resources a change set lists although nothing changes for them, if any. */
function unchangedLine(report: ImpactReport, nameOf: (logicalId: string) => string = (id) => id): string | undefined {
  const ids = report.changes.filter((c) => !changesSomething(c)).map((c) => nameOf(c.logicalId));
  return ids.length > 0 ? unchangedSummary(ids) : undefined;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A Markdown summary for a pull request description or comment. */
export function renderMarkdown(report: ImpactReport, ctx: RenderContext): string {
  const lines: string[] = [`### CloudFormation impact: \`${ctx.cdk?.stack ?? ctx.stackName}\``, ''];
  lines.push(markdownVerdict(report, escapeCell));
  const replaced = replacedIds(report.changes);
  const { nameOf, reasonOf, shown: shownOf } = wording(ctx, replaced);
  const shown = shownOf(report.changes);
  if (shown.length > 0) {
    lines.push('', `| | ${ctx.cdk ? 'Construct' : 'Resource'} | Type | Effect |`, '|---|---|---|---|');
    for (const change of shown) {
      const label = impactLabel(change.impact);
      lines.push(`| ${label.symbol} ${label.label} | \`${nameOf(change.logicalId)}\` | ${change.resourceType} | ${escapeCell(reasonOf(change))} |`);
    }
  }
  const unchanged = unchangedLine(report, nameOf);
  if (unchanged) lines.push('', `_${escapeCell(unchanged)}_`);
  const problems = report.diagnostics.filter((d) => d.severity !== 'info');
  if (problems.length > 0) {
    lines.push('');
    for (const d of problems) lines.push(`- **${d.severity}** ${location(d, ctx)} ${escapeCell(diagnosticText(d))}`);
  }
  if (report.notes.length > 0) {
    lines.push('', '<details><summary>Notes</summary>', '');
    for (const note of noteTexts(report.notes)) lines.push(`- ${note}`);
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

/** The terminal rendering of a review: each file's summary, and for a branch a heading per file and one summary line. */
export function renderReviewText(review: Review, color: boolean): string {
  if (review.assembly) return renderAssemblyText(review, color);
  if (!review.branch) return review.files.map((f) => (f.report ? renderText(f.report, { stackName: f.stackName, files: f.files, color }) : '')).join('');
  const paint = styler(color);
  const parts = review.files.map((f) => {
    const heading = paint('bold', `== ${fileHeading(f.path, f.change)}`);
    if (!f.report) return `${heading}\n${fileVerdict(f.change, undefined)}\n`;
    const body = renderText(f.report, { stackName: f.stackName, files: f.files, color });
    return f.change === 'added' ? `${heading}\n${fileVerdict(f.change, f.report)}\n${body.split('\n').slice(2).join('\n')}` : `${heading}\n${body}`;
  });
  return `${[...parts, paint('bold', branchSummary(review.files, review.notTemplates))].join('\n')}\n`;
}

/** The Markdown rendering of a review: each file's summary, and for a branch a summary line first. */
export function renderReviewMarkdown(review: Review): string {
  if (review.assembly) return renderAssemblyMarkdown(review);
  const sections = review.files.map((f) => {
    if (f.report && f.change === 'changed') return renderMarkdown(f.report, { stackName: f.stackName, files: f.files });
    if (!f.report) return `### \`${f.path}\`\n\n${escapeCell(fileVerdict(f.change, undefined))}\n`;
    const body = renderMarkdown(f.report, { stackName: f.stackName, files: f.files }).split('\n').slice(3).join('\n');
    return `### \`${f.path}\` (new)\n\n**${escapeCell(fileVerdict(f.change, f.report))}**\n${body}`;
  });
  if (!review.branch) return sections.join('');
  return [`## CloudFormation impact`, '', `**${escapeCell(branchSummary(review.files, review.notTemplates))}**`, '', ...sections].join('\n');
}

/** An app's stacks in the terminal: a heading and the summary per stack, then the app's summary line. */
function renderAssemblyText(review: Review, color: boolean): string {
  const paint = styler(color);
  const parts = review.files.map((f) => {
    const cdk = f.cdk!;
    const paths = f.change === 'changed' ? `${f.files.old.path} → ${f.files.new.path}` : f.change === 'added' ? f.files.new.path : f.files.old.path;
    const heading = paint('bold', `== ${stackHeading(cdk.stack, f.change)}`) + paint('dim', `  ${paths}`);
    if (!f.report || f.change !== 'changed') {
      const body = f.report ? renderText(f.report, { stackName: f.stackName, files: f.files, color, cdk }, false).split('\n').slice(1).join('\n') : '';
      return `${heading}\n${stackVerdict(f.change, f.report)}\n${body}`;
    }
    return `${heading}\n${renderText(f.report, { stackName: f.stackName, files: f.files, color, cdk }, false)}`;
  });
  return `${[...parts, paint('bold', assemblySummary(stackStatuses(review.files)))].join('\n')}\n`;
}

/** An app's stacks in Markdown: the app's summary line, then a section per stack. */
function renderAssemblyMarkdown(review: Review): string {
  const sections = review.files.map((f) => {
    const cdk = f.cdk!;
    if (f.report && f.change === 'changed') return renderMarkdown(f.report, { stackName: f.stackName, files: f.files, cdk });
    const body = f.report ? renderMarkdown(f.report, { stackName: f.stackName, files: f.files, cdk }).split('\n').slice(3).join('\n') : '';
    return `### \`${escapeCell(stackHeading(cdk.stack, f.change))}\`\n\n**${escapeCell(stackVerdict(f.change, f.report))}**\n${body}`;
  });
  return [`## CloudFormation impact`, '', `**${escapeCell(assemblySummary(stackStatuses(review.files)))}**`, '', ...sections].join('\n');
}

/** Each stack's name in the app and its status. */
export function stackStatuses(files: readonly ReviewedFile[]): { stack: string; status: ReturnType<typeof fileStatus> }[] {
  return files.map((f) => ({ stack: f.cdk?.stack ?? f.stackName, status: fileStatus(f) }));
}
