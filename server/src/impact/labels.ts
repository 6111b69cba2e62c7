/**
 * The words and symbols every view (CLI, lenses, hovers) uses for an impact, so they agree.
 */
import type { ChangeDetail, Impact } from './types';

export interface ImpactLabel {
  symbol: string;
  /** A short verb phrase: "replace", "update (no interruption)". */
  label: string;
  /** How alarming the impact is, for colour and severity choices. */
  level: 'good' | 'info' | 'warning' | 'danger';
}

const LABELS: Record<Impact, ImpactLabel> = {
  create: { symbol: '+', label: 'add', level: 'good' },
  delete: { symbol: '−', label: 'remove', level: 'warning' },
  'no-interruption': { symbol: '✎', label: 'update (no interruption)', level: 'info' },
  'some-interruption': { symbol: '✎', label: 'update (some interruption)', level: 'warning' },
  'conditional-replacement': { symbol: '⟳?', label: 'may replace', level: 'warning' },
  replacement: { symbol: '⟳', label: 'replace', level: 'danger' },
  'will-fail': { symbol: '⚠', label: 'will fail', level: 'danger' },
};

/** The symbol, label and level of an impact. */
export function impactLabel(impact: Impact): ImpactLabel {
  return LABELS[impact];
}

/**
 * What happened to one changed value, for people: `"10.0.0.0/16" → "10.1.0.0/16"`, or, when a
 * referenced resource is replaced, `new physical id of VPC` rather than the unhelpful
 * `${VPC} → ${VPC}`. `quote` wraps rendered values (e.g. in Markdown code spans).
 */
export function describeValueChange(detail: ChangeDetail, quote: (text: string) => string = (t) => t): string {
  if (detail.changeSource === 'ResourceReference') return `new physical id of ${detail.causingEntity}`;
  if (detail.changeSource === 'ResourceAttribute') return `new value of ${detail.causingEntity}`;
  if (detail.before === undefined && detail.after === undefined) return '';
  const [before, after] = focusOnDifference(detail.before ?? '(absent)', detail.after ?? '(absent)');
  return `${quote(before)} → ${quote(after)}`;
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
