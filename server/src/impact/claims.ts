/**
 * What every face may claim about a change: the rules, not the words (those are in present/).
 */
import type { ChangeDetail, ImpactReport, ResourceChange } from './types';

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
 * Whether a change makes a new physical resource, for certain or possibly: an addition, or a
 * replacement. A snapshot resource (an API deployment, a function version) made anew takes a new
 * snapshot.
 */
export function makesNewResource(change: ResourceChange): boolean {
  return change.action === 'Add' || change.impact === 'replacement' || change.impact === 'conditional-replacement';
}

/** The logical ids a report replaces for certain (a cause named "replaced" is one of these). */
export function replacedIds(changes: readonly ResourceChange[]): Set<string> {
  const ids = new Set<string>();
  for (const change of changes) if (change.impact === 'replacement') ids.add(change.logicalId);
  return ids;
}

/** Whether a risk to the whole stack makes the update fail: an export it changes is imported by another stack. */
export function stackRiskFails(report: ImpactReport): boolean {
  return (report.risks ?? []).some((risk) => risk.kind === 'export-in-use');
}
