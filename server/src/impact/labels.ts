/**
 * The words and symbols every view (CLI, lenses, hovers) uses for an impact, so they agree, and
 * the rules every view follows to choose what it claims.
 */
import type { ChangeDetail, Impact, ResourceChange } from './types';

export interface ImpactLabel {
  symbol: string;
  /** A short verb phrase: "replace", "update (no interruption)". */
  label: string;
  /** How alarming the impact is, for colour and severity choices. */
  level: 'good' | 'info' | 'warning' | 'danger';
}

const LABELS: Record<Impact, ImpactLabel> = {
  none: { symbol: '=', label: 'no change', level: 'good' },
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
 * Whether a change changes anything. A change set lists resources that only re-read a value at
 * deploy time; when that value is known to stay the same (impact `none`) the views make no claim
 * about them: no row, lens, diagnostic or count. They stay in `--json`, as the change set has them.
 */
export function changesSomething(change: ResourceChange): boolean {
  return change.impact !== 'none';
}

/**
 * Whether a detail is the `Dynamic` `DirectModification` companion that CloudFormation writes
 * beside each `ParameterReference` detail, with the same target. Only companions are dynamic
 * direct modifications: every other `Dynamic` detail names the resource it reads.
 */
export function isCompanionDetail(detail: ChangeDetail): boolean {
  return detail.changeSource === 'DirectModification' && detail.evaluation === 'Dynamic';
}

/** The details worth showing a person: values that change, each once (companions left out). */
export function shownDetails(change: ResourceChange): ChangeDetail[] {
  return change.details.filter((d) => !d.keepsValue && !isCompanionDetail(d));
}

/**
 * What happened to one changed value, for people: `"10.0.0.0/16" → "10.1.0.0/16"`, or, when a
 * referenced resource is replaced, `new physical id of VPC` rather than the unhelpful
 * `${VPC} → ${VPC}`. `quote` wraps rendered values (e.g. in Markdown code spans).
 */
export function describeValueChange(detail: ChangeDetail, quote: (text: string) => string = (t) => t): string {
  if (detail.changeSource === 'ResourceReference') return `new physical id of ${detail.causingEntity}`;
  if (detail.changeSource === 'ResourceAttribute') return `new value of ${detail.causingEntity}`;
  const { beforeValue, afterValue } = detail.target;
  if (beforeValue === undefined && afterValue === undefined) return '';
  const [before, after] = focusOnDifference(beforeValue ?? '(absent)', afterValue ?? '(absent)');
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
