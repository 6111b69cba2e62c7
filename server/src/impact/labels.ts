/**
 * The words and symbols every view (CLI, lenses, hovers) uses for an impact, so they agree.
 */
import type { Impact } from './types';

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
