/**
 * Human renderings of an impact report: a coloured terminal summary and a Markdown one for
 * pull requests.
 */
import { changesSomething, describeValueChange, impactLabel, shownDetails } from '../impact/labels';
import type { ImpactReport, ResourceChange } from '../impact/types';
import type { LineIndex } from '../template';

interface RenderContext {
  stackName: string;
  files: { old: { path: string; lines: LineIndex }; new: { path: string; lines: LineIndex } };
  color?: boolean;
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

/** The terminal summary: verdict, one line per resource, diagnostics and notes. */
export function renderText(report: ImpactReport, ctx: RenderContext): string {
  const paint = styler(ctx.color ?? false);
  const lines: string[] = [];
  lines.push(paint('dim', `cfn-impact: ${ctx.files.old.path} → ${ctx.files.new.path} (stack ${ctx.stackName})`));
  if (report.status === 'noop') lines.push(paint('green', report.message));
  else if (report.status === 'error') lines.push(paint('red', `Rejected: ${report.message}`));
  else lines.push(paint('bold', `Update: ${report.message}`));

  const shown = report.changes.filter(changesSomething);
  if (shown.length > 0) {
    lines.push('');
    const idWidth = Math.min(40, Math.max(...shown.map((c) => c.logicalId.length)));
    const typeWidth = Math.min(44, Math.max(...shown.map((c) => c.resourceType.length)));
    const labelWidth = Math.max(...shown.map((c) => impactLabel(c.impact).label.length));
    for (const change of shown) {
      const label = impactLabel(change.impact);
      const head = `${label.symbol.padEnd(2)} ${label.label.padEnd(labelWidth)}`;
      lines.push(`  ${paint(LEVEL_STYLE[label.level], head)}  ${paint('bold', change.logicalId.padEnd(idWidth))}  ${paint('dim', change.resourceType.padEnd(typeWidth))}  ${change.reason}`);
      // A cascaded replacement names its root cause, which its one-line reason does not.
      if (change.replacementCause && change.replacementCause.length > 2) {
        lines.push(paint('dim', `       cause: ${change.replacementCause.join(' → ')}`));
      }
      const details = shownDetails(change);
      for (const detail of details.slice(0, 8)) {
        const change = describeValueChange(detail);
        const arrow = change ? `: ${change}` : '';
        const dynamic = detail.evaluation === 'Dynamic' ? ' (known at deploy time)' : '';
        lines.push(paint('dim', `       ${detail.target.path} [${detail.behavior}]${dynamic}${arrow}`));
      }
      if (details.length > 8) lines.push(paint('dim', `       … and ${details.length - 8} more`));
    }
  }
  const unchanged = unchangedLine(report);
  if (unchanged) lines.push('', paint('dim', `  ${impactLabel('none').symbol}  ${unchanged}`));
  if (report.diagnostics.length > 0) {
    lines.push('');
    for (const d of report.diagnostics) {
      const style = d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'blue';
      const where = location(d, ctx);
      lines.push(`  ${paint(style, d.severity)} ${where ? `${where} ` : ''}${d.message}`);
    }
  }
  if (report.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const note of report.notes) lines.push(`  - ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

const listedUnchanged = 6;

/**
 * One quiet line for the resources a change set lists although nothing changes for them, so that
 * a person comparing with the change set knows why they are not rows: `No change: SubnetA, Box …`.
 */
function unchangedLine(report: ImpactReport): string | undefined {
  const ids = report.changes.filter((c) => !changesSomething(c)).map((c) => c.logicalId);
  if (ids.length === 0) return undefined;
  const named = ids.length > listedUnchanged ? `${ids.slice(0, listedUnchanged).join(', ')} +${ids.length - listedUnchanged} more` : ids.join(', ');
  const them = ids.length === 1 ? 'it as Dynamic; the values it re-reads stay' : 'them as Dynamic; the values they re-read stay';
  return `No change: ${named}. A change set lists ${them} the same.`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A Markdown summary for a pull request description or comment. */
export function renderMarkdown(report: ImpactReport, ctx: RenderContext): string {
  const lines: string[] = [`### CloudFormation impact: \`${ctx.stackName}\``, ''];
  if (report.status === 'noop') lines.push(`**${report.message}**`);
  else if (report.status === 'error') lines.push(`**Rejected:** ${escapeCell(report.message)}`);
  else lines.push(`**${report.message}**`);
  const shown = report.changes.filter(changesSomething);
  if (shown.length > 0) {
    lines.push('', '| | Resource | Type | Effect |', '|---|---|---|---|');
    for (const change of shown) lines.push(markdownRow(change));
  }
  const unchanged = unchangedLine(report);
  if (unchanged) lines.push('', `_${escapeCell(unchanged)}_`);
  const problems = report.diagnostics.filter((d) => d.severity !== 'info');
  if (problems.length > 0) {
    lines.push('');
    for (const d of problems) lines.push(`- **${d.severity}** ${location(d, ctx)} ${escapeCell(d.message)}`);
  }
  if (report.notes.length > 0) {
    lines.push('', '<details><summary>Notes</summary>', '');
    for (const note of report.notes) lines.push(`- ${note}`);
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

function markdownRow(change: ResourceChange): string {
  const label = impactLabel(change.impact);
  return `| ${label.symbol} ${label.label} | \`${change.logicalId}\` | ${change.resourceType} | ${escapeCell(change.reason)} |`;
}
