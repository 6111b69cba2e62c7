/**
 * Changed values for people: what a value was and became, with long values cut so that what
 * differs stays in view.
 */
import { deployTimeValueWords } from '../evaluate';
import type { ChangeDetail } from '../impact/types';

/**
 * What happened to one changed value: `"10.0.0.0/16" → "10.1.0.0/16"`, or, when a referenced
 * resource is replaced, `new physical id of VPC` rather than the unhelpful `${VPC} → ${VPC}`.
 * `quote` wraps rendered values (e.g. in Markdown code spans).
 */
export function describeValueChange(detail: ChangeDetail, quote: (text: string) => string = (t) => t): string {
  if (detail.changeSource === 'ResourceReference') return `new physical id of ${detail.causingEntity}`;
  if (detail.changeSource === 'ResourceAttribute') return `new value of ${detail.causingEntity}`;
  const { beforeValue, afterValue, changedLine } = detail.target;
  if (changedLine) {
    // Base64 text (user data) is shown decoded, at its first changed line.
    const [before, after] = focusOnDifference(JSON.stringify(changedLine.before), JSON.stringify(changedLine.after));
    return `line ${changedLine.line}: ${quote(before)} → ${quote(after)}`;
  }
  if (beforeValue === undefined && afterValue === undefined) return '';
  const [before, after] = focusOnDifference(beforeValue ?? '(absent)', afterValue ?? '(absent)');
  return `${quote(before)} → ${quote(after)}${lookupQualifier(detail)}`;
}

/** Where a lookup's changed entry is selected: ` if Size is large`, ` if Size is large or xlarge`. */
export function lookupQualifier(detail: ChangeDetail): string {
  const when = detail.when;
  if (when === undefined || when.values.length === 0) return '';
  const values = when.values.length <= 3 ? when.values.join(' or ') : `${when.values.slice(0, 3).join(', ')} or ${when.values.length - 3} more`;
  return ` if ${deployTimeValueWords(when.key)} is ${values}`;
}

/** One changed value at its path, for lists of them: `/Properties/CidrBlock: "10.0.0.0/16" → "10.1.0.0/16"`. */
export function changedValueLine(detail: ChangeDetail): string {
  const values = describeValueChange(detail);
  return values ? `${detail.target.path}: ${values}` : detail.target.path;
}

/** The longest side of a changed value shown whole. */
const SIDE_LENGTH = 60;
/** How much of a long value's beginning stays in view before the elision. */
const HEAD_LENGTH = 18;
/** How much of what both sides share stays in view before the first difference. */
const LEAD_LENGTH = 10;
/** Pieces of notation longer than this may be cut inside. */
const ATOMIC_LENGTH = 40;
/** How long the beginning may grow to keep a piece of notation whole. */
const HEAD_MAX_LENGTH = 36;

/** Spans a cut must not split: `${Env}`, `{{resolve:ssm:/app/version}}`, `<the availability zones of …>`. */
const NOTATION = /\$\{[^{}]*\}|\{\{resolve:[^{}]*\}\}|<[^<>]*>/g;

/**
 * Shortens two long renderings so that what differs stays visible: each keeps its beginning, then
 * `…`, then the stretch where the two first differ, then `…` if more follows. A cut never falls
 * inside a piece of notation (`${Env}`, `{{resolve:…}}`, `<…>`): it moves to the piece's edge.
 * Short values are left as they are.
 */
export function focusOnDifference(before: string, after: string): [string, string] {
  if (before.length <= SIDE_LENGTH && after.length <= SIDE_LENGTH) return [before, after];
  let common = 0;
  while (common < before.length && common < after.length && before[common] === after[common]) common++;
  return [shortened(before, common), shortened(after, common)];
}

/** One side shortened around `differsAt` (the length of what both sides share). */
function shortened(text: string, differsAt: number): string {
  if (text.length <= SIDE_LENGTH) return text;
  // A piece too long to keep whole may be cut inside; its delimiters stay at either end.
  const spans = [...text.matchAll(NOTATION)].filter((m) => m[0].length <= ATOMIC_LENGTH).map((m) => [m.index!, m.index! + m[0].length] as const);
  const inside = (at: number) => spans.find(([start, end]) => start < at && at < end);
  // The cut that ends a shown stretch at `at` moves before a piece it would split, or after it when nothing would be left.
  const endAt = (from: number, at: number) => {
    const span = inside(at);
    if (!span) return at;
    return span[0] > from ? span[0] : span[1];
  };
  // The difference is near the beginning: the beginning is shown, and what follows elided.
  const firstEnd = endAt(0, SIDE_LENGTH - 1);
  if (differsAt + LEAD_LENGTH / 2 < firstEnd) return `${text.slice(0, firstEnd)}…`;
  // The beginning, a piece that straddles its end kept whole when short enough.
  const straddling = inside(HEAD_LENGTH);
  const headEnd = straddling ? (straddling[1] <= HEAD_MAX_LENGTH ? straddling[1] : straddling[0]) : HEAD_LENGTH;
  const lead = `${text.slice(0, headEnd)}…`;
  const room = SIDE_LENGTH - lead.length - 1;
  // The stretch starts a little before the difference, or as far back as reaching the end allows.
  let from = Math.max(headEnd, Math.min(differsAt - LEAD_LENGTH, text.length - room));
  const split = inside(from);
  // A piece that ends before the difference is left out; one that holds it is shown whole.
  if (split) from = split[1] <= differsAt ? split[1] : Math.max(headEnd, split[0]);
  const end = from + room >= text.length ? text.length : endAt(from, from + room);
  return `${lead}${text.slice(from, end)}${end < text.length ? '…' : ''}`;
}
