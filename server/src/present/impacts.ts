/**
 * The symbol, words and level of each impact, the same in every face.
 */
import type { Impact } from '../impact/types';

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

/** An impact capitalised for a title: `⟳ Replace`, `✎ Update (no interruption)`. */
export function impactHeading(impact: Impact): string {
  const { symbol, label } = impactLabel(impact);
  return `${symbol} ${label.charAt(0).toUpperCase()}${label.slice(1)}`;
}
