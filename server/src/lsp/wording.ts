/**
 * How findings are worded for people, shared by diagnostics, code lenses and hovers so that the
 * three always say the same thing about the same change.
 */
import type { UpdateBehavior } from '../spec/types';
import type { ChangeDetail, Impact, ImpactReport, ResourceChange } from '../impact/types';
import { summarize } from '../impact/compareTemplates';
import { impactLabel, shownDetails } from '../impact/labels';

const listedNames = 3;

/**
 * The details that decide a change's impact, among those worth showing (labels.ts
 * `shownDetails`): for a replacement, those whose update behaviour may recreate the resource.
 */
export function decisiveDetails(change: ResourceChange): ChangeDetail[] {
  const details = shownDetails(change);
  if (change.impact === 'replacement' || change.impact === 'conditional-replacement') {
    const recreating = details.filter((d) => d.behavior === 'replacement' || d.behavior === 'conditional-replacement' || d.behavior === 'unknown');
    if (recreating.length > 0) return recreating;
  }
  if (change.impact === 'will-fail') {
    const failing = details.filter((d) => d.behavior === 'not-updatable');
    if (failing.length > 0) return failing;
  }
  return details;
}

/** The name a detail is known by: its top-level property, or the section for Metadata. */
export function detailName(detail: ChangeDetail): string {
  return detail.target.name ?? detail.target.attribute;
}

/** One detail's cause in a few words: `VpcId ← VPC replaced`, `CidrBlock ← parameter Cidr`, `CidrBlock changed`. */
export function detailCause(detail: ChangeDetail, replaced: ReadonlySet<string>): string {
  const name = detailName(detail);
  const entity = detail.causingEntity;
  if (detail.changeSource === 'ParameterReference' && entity) return `${name} ← parameter ${entity}`;
  if ((detail.changeSource === 'ResourceReference' || detail.changeSource === 'ResourceAttribute') && entity) {
    const logicalId = entity.split('.', 1)[0];
    return replaced.has(logicalId) ? `${name} ← ${logicalId} replaced` : `${name} ← ${entity}`;
  }
  return `${name} changed`;
}

/** Names a list with at most a few entries shown: `A, B, C +2 more`. */
export function shortList(items: string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= listedNames) return unique.join(', ');
  return `${unique.slice(0, listedNames).join(', ')} +${unique.length - listedNames} more`;
}

/** The logical ids a report replaces (for naming causes). */
export function replacedIds(report: ImpactReport): Set<string> {
  const ids = new Set<string>();
  for (const change of report.changes) if (change.impact === 'replacement') ids.add(change.logicalId);
  return ids;
}

/**
 * `Replacement: CidrBlock changed (parameter Cidr) → new VPC`; down a cascade the whole chain,
 * `Replacement: CidrBlock changed (parameter Cidr) → new VPC → new Subnet (VpcId)`. A step that
 * is only possibly replaced reads `maybe new Subnet`, and the message `Possible replacement`.
 */
export function replacementMessage(change: ResourceChange, replaced: ReadonlySet<string>): string {
  const message = replacementChainMessage(change, replaced);
  return change.condition !== undefined ? `${message} (if condition ${change.condition} holds)` : message;
}

function replacementChainMessage(change: ResourceChange, replaced: ReadonlySet<string>): string {
  const details = decisiveDetails(change);
  const names = shortList(details.map(detailName));
  const prefix = change.impact === 'conditional-replacement' ? 'Possible replacement' : 'Replacement';
  const step = (logicalId: string) => (replaced.has(logicalId) ? `new ${logicalId}` : `maybe new ${logicalId}`);
  // The engine's chain is the root cause in words, then each replaced logical id down to this one.
  const chain = change.replacementCause ?? [];
  if (chain.length >= 2 && chain[chain.length - 1] === change.logicalId) {
    const steps = chain.slice(1).map(step).join(' → ');
    return `${prefix}: ${chain[0]} → ${steps}${chain.length > 2 && names ? ` (${names})` : ''}`;
  }
  if (details.length === 0) return `${prefix}: ${change.reason}`;
  return `${prefix}: ${shortList(details.map((d) => detailCause(d, replaced)))} → ${step(change.logicalId)}`;
}

/** An impact as every view names it (impact/labels.ts), capitalised for a title: `⟳ Replace`, `✎ Update (no interruption)`. */
export function impactHeading(impact: Impact): string {
  const { symbol, label } = impactLabel(impact);
  return `${symbol} ${label.charAt(0).toUpperCase()}${label.slice(1)}`;
}

/** The code lens title of one changed resource; a removal says what becomes of it in the engine's words. */
export function changeLensTitle(change: ResourceChange, replaced: ReadonlySet<string>): string {
  const heading = impactHeading(change.impact);
  // A change to a resource that exists only under a condition decided at deploy time happens only if it holds.
  const qualifier = change.condition !== undefined ? ` · if ${change.condition}` : '';
  if (change.action === 'Add') return `${heading}${qualifier}`;
  if (change.action === 'Remove') return `${heading} ${change.logicalId} — ${change.reason}`;
  if (change.impact === 'will-fail') return `${heading} — ${change.reason}`;
  const causes = shortList(decisiveDetails(change).map((d) => detailCause(d, replaced)));
  return causes ? `${heading} — ${causes}${qualifier}` : `${heading}${qualifier}`;
}

/** The verdict for the whole stack: `No updates are to be performed` or `2 add · 3 modify (1 replace) · 1 remove`. */
export function verdictTitle(report: ImpactReport): string {
  if (report.status === 'noop') return 'No updates are to be performed';
  if (report.status === 'error') return `✖ Update would be rejected: ${report.message}`;
  return summarize(report.changes) || report.message;
}

/** What an update behaviour means, in the words of the CloudFormation documentation. */
export function behaviorText(behavior: UpdateBehavior): string {
  switch (behavior) {
    case 'no-interruption':
      return 'Update requires: No interruption';
    case 'some-interruption':
      return 'Update requires: Some interruptions';
    case 'conditional-replacement':
      return 'Update requires: Replacement in some cases (conditional)';
    case 'replacement':
      return 'Update requires: Replacement — changing this creates a new resource';
    case 'not-updatable':
      return 'Cannot be updated: changing this makes the update fail';
    default:
      return 'Update behaviour unknown: not described by the resource specification (assume the worst)';
  }
}
