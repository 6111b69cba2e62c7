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

const SIDE_LENGTH = 60;

/**
 * Shortens two long renderings so that what differs stays visible: a shared beginning is
 * elided (`…`), then each side is cut to a readable length. Short values are left as they are.
 */
export function focusOnDifference(before: string, after: string): [string, string] {
  if (before.length <= SIDE_LENGTH && after.length <= SIDE_LENGTH) return [before, after];
  let common = 0;
  while (common < before.length && common < after.length && before[common] === after[common]) common++;
  const keep = 12;
  const start = common > keep + 1 ? common - keep : 0;
  const cut = (text: string) => {
    const tail = start > 0 ? `…${text.slice(start)}` : text;
    return tail.length > SIDE_LENGTH ? `${tail.slice(0, SIDE_LENGTH - 1)}…` : tail;
  };
  return [cut(before), cut(after)];
}
