/**
 * Human renderings of an impact report: a coloured terminal summary and a Markdown one for
 * pull requests.
 */
import { describeValueChange, impactLabel } from '../impact/labels';
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

  if (report.changes.length > 0) {
    lines.push('');
    const idWidth = Math.min(40, Math.max(...report.changes.map((c) => c.logicalId.length)));
    const typeWidth = Math.min(44, Math.max(...report.changes.map((c) => c.resourceType.length)));
    const labelWidth = Math.max(...report.changes.map((c) => impactLabel(c.impact).label.length));
    for (const change of report.changes) {
      const label = impactLabel(change.impact);
      const head = `${label.symbol.padEnd(2)} ${label.label.padEnd(labelWidth)}`;
      lines.push(`  ${paint(LEVEL_STYLE[label.level], head)}  ${paint('bold', change.logicalId.padEnd(idWidth))}  ${paint('dim', change.resourceType.padEnd(typeWidth))}  ${change.reason}`);
      // A cascaded replacement names its root cause, which its one-line reason does not.
      if (change.replacementCause && change.replacementCause.length > 2) {
        lines.push(paint('dim', `       cause: ${change.replacementCause.join(' → ')}`));
      }
      for (const detail of change.details.slice(0, 8)) {
        const change = describeValueChange(detail);
        const arrow = change ? `: ${change}` : '';
        const dynamic = detail.evaluation === 'Dynamic' ? ' (known at deploy time)' : '';
        lines.push(paint('dim', `       ${detail.target.path} [${detail.behavior}]${dynamic}${arrow}`));
      }
      if (change.details.length > 8) lines.push(paint('dim', `       … and ${change.details.length - 8} more`));
    }
  }
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

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** A Markdown summary for a pull request description or comment. */
export function renderMarkdown(report: ImpactReport, ctx: RenderContext): string {
  const lines: string[] = [`### CloudFormation impact: \`${ctx.stackName}\``, ''];
  if (report.status === 'noop') lines.push(`**${report.message}**`);
  else if (report.status === 'error') lines.push(`**Rejected:** ${escapeCell(report.message)}`);
  else lines.push(`**${report.message}**`);
  if (report.changes.length > 0) {
    lines.push('', '| | Resource | Type | Effect |', '|---|---|---|---|');
    for (const change of report.changes) lines.push(markdownRow(change));
  }
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
