/**
 * The verdict for the whole stack in words: CloudFormation's own for a no-op or a rejection, a
 * count of what happens for an update.
 */
import { changesSomething } from '../impact/claims';
import type { ImpactReport, ResourceChange } from '../impact/types';
import { fittedLens, fittedLensKeeping } from './lens';
import { listSome } from './lists';
import { stackFailureClause } from './risks';

/**
 * The one-line summary of an update, e.g. `2 add · 3 modify (1 replace) · 1 remove`. It counts
 * what happens: changes that change nothing are left out, and replacements are this analysis's,
 * not the change set's `Replacement` (an instance type change is `Conditional` there and an
 * interruption here).
 */
export function summarize(all: readonly ResourceChange[]): string {
  const changes = all.filter(changesSomething);
  const count = (f: (c: ResourceChange) => boolean) => changes.filter(f).length;
  const add = count((c) => c.action === 'Add');
  const modify = count((c) => c.action === 'Modify');
  const replace = count((c) => c.impact === 'replacement' || (c.impact === 'will-fail' && c.replacement === 'True'));
  const maybe = count((c) => c.impact === 'conditional-replacement');
  const remove = count((c) => c.action === 'Remove');
  const fail = count((c) => c.impact === 'will-fail');
  const parts: string[] = [];
  if (add) parts.push(`${add} add`);
  if (modify) {
    const qualifiers = [replace ? `${replace} replace` : '', maybe ? `${maybe} may replace` : ''].filter(Boolean);
    parts.push(`${modify} modify${qualifiers.length ? ` (${qualifiers.join(', ')})` : ''}`);
  }
  if (remove) parts.push(`${remove} remove`);
  if (fail) parts.push(`${fail} will fail`);
  return parts.join(' · ');
}

/** The verdict as one sentence: CloudFormation's message for a no-op or a rejection, the summary for an update. */
export function verdictMessage(report: ImpactReport): string {
  if (report.status === 'update') return `${summarize(report.changes) || 'No resource changes, only values re-read at deploy time'}${stackFailureClause(report.risks)}`;
  return report.message ?? '';
}

/** The verdict as a title (the first code lens): `No updates are to be performed`, `✖ Update would be rejected: …`, or the summary. */
export function verdictTitle(report: ImpactReport): string {
  if (report.status === 'noop') return 'No updates are to be performed';
  if (report.status === 'error') return `✖ Update would be rejected: ${report.message ?? ''}`;
  return verdictMessage(report);
}

/**
 * The verdict lens on a template's first line: the verdict against what it is measured with, and
 * the resources it removes when the template has no Resources key to name them on.
 */
export function verdictLensTitle(report: ImpactReport, baselineLabel: string, removedHere: readonly string[]): string {
  const removes = removedHere.length > 0 ? ` · removes ${listSome(removedHere)}` : '';
  // The verdict matters most: what it is measured against gives way first (the status bar says it too).
  const verdict = verdictTitle(report);
  return fittedLens([`${verdict} — against ${baselineLabel}${removes}`, `${verdict}${removes}`, verdict]);
}

/**
 * The verdict lens while the text does not parse (a key typed, before its colon): the parser's
 * message, and that the lenses below stand as they were for the last text that parsed.
 */
export function unparsedVerdictLensTitle(report: ImpactReport, baselineLabel: string): string {
  return fittedLensKeeping(verdictTitle(report), ` — against ${baselineLabel} · below, the last text that parsed`);
}

/** The verdict of the Markdown summary: `**No updates are to be performed.**`, `**Rejected:** …`, `**1 modify**`. */
export function markdownVerdict(report: ImpactReport, escape: (text: string) => string): string {
  return report.status === 'error' ? `**Rejected:** ${escape(verdictMessage(report))}` : `**${escape(verdictMessage(report))}**`;
}

/** The verdict line of the terminal summary: `No updates are to be performed.`, `Rejected: …`, `Update: …`. */
export function verdictLine(report: ImpactReport): string {
  if (report.status === 'noop') return verdictMessage(report);
  if (report.status === 'error') return `Rejected: ${verdictMessage(report)}`;
  return `Update: ${verdictMessage(report)}`;
}
