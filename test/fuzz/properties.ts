/**
 * The properties every input must have, as checks that return what went wrong (an empty list
 * when nothing did), so that the short test slice can assert them and the long run can count.
 */
import { analyzeUpdate, replacedIds } from '../../server/src/impact';
import { changeReason, verdictMessage } from '../../server/src/present';
import type { ImpactReport } from '../../server/src/impact';
import type { ResourceSpec } from '../../server/src/spec/types';
import { renderJson, renderYaml, type Plain } from './templateArbitrary';

/** CPU time one analysis may take (two small templates; hostile ones are bounded by the engine). */
export const CPU_BOUND_MS = 2000;

/** A template every generated one is compared against. */
export const BASELINE = 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n  Bucket:\n    Type: AWS::S3::Bucket\n';

/** What the properties measured: the slowest analysis, for the long run's summary. */
export const measurements = { analyses: 0, slowestMs: 0, slowestInput: '' };

/** Analyses one pair, catching what it throws and timing it; a violation describes anything out of bounds. */
function analyze(spec: ResourceSpec, before: string, after: string, violations: string[], label: string): ImpactReport | undefined {
  const cpuBefore = process.cpuUsage();
  let report: ImpactReport | undefined;
  try {
    report = analyzeUpdate({ text: before }, { text: after }, { spec }).report;
  } catch (error) {
    violations.push(`${label}: threw ${(error as Error)?.stack ?? String(error)}`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const ms = (cpu.user + cpu.system) / 1000;
  measurements.analyses++;
  if (ms > measurements.slowestMs) {
    measurements.slowestMs = ms;
    measurements.slowestInput = `${label}: ${after.length} characters`;
  }
  if (ms > CPU_BOUND_MS) violations.push(`${label}: took ${ms.toFixed(0)} ms of CPU time`);
  if (report) {
    const internal = report.diagnostics.find((d) => d.code === 'internal-error');
    if (internal) violations.push(`${label}: ${internal.message}`);
  }
  return report;
}

/** The parts of a verdict that must not depend on the text's format. */
function verdictOf(report: ImpactReport): string {
  const changes = report.changes.map((c) => `${c.logicalId}:${c.action}:${c.replacement ?? ''}:${c.impact}`);
  const errors = [...new Set(report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
  return JSON.stringify({ status: report.status, changes, errors });
}

/** Self-comparison must never plan an update: the same text evaluates to the same values. */
function checkSelfDiff(spec: ResourceSpec, text: string, violations: string[], label: string): void {
  const report = analyze(spec, text, text, violations, `${label} against itself`);
  if (report?.status === 'update') {
    const replaced = replacedIds(report.changes);
    violations.push(`${label} against itself: planned ${verdictMessage(report)} (${report.changes.map((c) => `${c.logicalId} ${c.action}: ${changeReason(c, replaced)}`).join('; ')})`);
  }
}

/**
 * A generated template, as JSON and as YAML: neither throws nor overruns, each compared with
 * itself is a no-op or an error, and both give the same verdict against the baseline.
 */
export function checkGeneratedTemplate(spec: ResourceSpec, template: Plain): string[] {
  const violations: string[] = [];
  const json = renderJson(template);
  const yaml = renderYaml(template);
  checkSelfDiff(spec, json, violations, 'JSON');
  checkSelfDiff(spec, yaml, violations, 'YAML');
  const fromJson = analyze(spec, BASELINE, json, violations, 'JSON after the baseline');
  const fromYaml = analyze(spec, BASELINE, yaml, violations, 'YAML after the baseline');
  if (fromJson && fromYaml && verdictOf(fromJson) !== verdictOf(fromYaml)) {
    violations.push(`JSON and YAML verdicts differ:\n  JSON ${verdictOf(fromJson)}\n  YAML ${verdictOf(fromYaml)}`);
  }
  analyze(spec, json, BASELINE, violations, 'baseline after JSON');
  return violations;
}

/** A mutated real template: never throws nor overruns, compared with itself is no update, and diffs with its original both ways. */
export function checkMutatedTemplate(spec: ResourceSpec, original: string, mutated: string): string[] {
  const violations: string[] = [];
  checkSelfDiff(spec, mutated, violations, 'mutant');
  analyze(spec, original, mutated, violations, 'mutant after original');
  analyze(spec, mutated, original, violations, 'original after mutant');
  return violations;
}
