/**
 * Nested stacks in words: the child's plan summarised on the stack resource's row and lens, and
 * the findings about following a nested stack's template.
 */
import { changesSomething } from '../impact/claims';
import { listSome } from './lists';
import type { ChildTemplateProblem, Finding, NestedReport } from '../impact/types';

type NestedFinding = Extract<Finding, { kind: 'nested-template-remote' | 'nested-cycle' | 'nested-too-deep' | 'nested-too-many' | 'nested-template-unreadable' | 'nested-template-invalid' }>;

/** Resources losing data named in the summary before the rest are counted. */
const LOSING_SHOWN = 3;

/**
 * The child's plan in a few words, each kind of change counted once, worst first:
 * `nested: 1 replace · 2 modify`, `nested: 1 replace · data loss: Orders`, `nested: no changes`,
 * `nested: template error`.
 */
export function nestedSummary(nested: NestedReport): string {
  if (nested.status === 'error') return 'nested: template error';
  const changes = nested.changes.filter(changesSomething);
  const count = (impacts: readonly string[]) => changes.filter((c) => impacts.includes(c.impact)).length;
  const parts = [
    [count(['will-fail']), 'will fail'],
    [count(['replacement']), 'replace'],
    [count(['conditional-replacement']), 'may replace'],
    [count(['no-interruption', 'some-interruption']), 'modify'],
    [count(['create']), 'add'],
    [count(['delete']), 'remove'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, words]) => `${n} ${words}`);
  // Data deleted inside the child is the costliest surprise a nested stack hides: it is named here.
  const losing = changes.filter((c) => c.risks?.some((risk) => risk.kind === 'data-loss')).map((c) => c.logicalId);
  if (losing.length > 0) said.push(`data loss: ${listSome(losing, LOSING_SHOWN)}`);
  return `nested: ${said.length > 0 ? said.join(' · ') : 'no changes'}`;
}

/** The child's summary as a suffix for a row or lens: ` · nested: 1 replace`; empty without a child plan. */
export function nestedSuffix(nested: NestedReport | undefined): string {
  return nested ? ` · ${nestedSummary(nested)}` : '';
}

const PROBLEMS: Record<Exclude<ChildTemplateProblem, 'not-read'>, string> = {
  missing: 'does not exist',
  'too-large': "is over CloudFormation's 1 MB template limit",
  unreadable: 'could not be read',
};

/** A finding about a nested stack's template in words. */
export function nestedFindingText(finding: NestedFinding): string {
  switch (finding.kind) {
    case 'nested-template-remote':
      return `${finding.logicalId}: the nested stack's template is at ${finding.url}, which is not read here; what changes inside the nested stack is not analysed`;
    case 'nested-cycle':
      return `${finding.logicalId}: the nested stack's template ${finding.path} is one of the templates above it; CloudFormation would nest it without end, and it is not followed here`;
    case 'nested-too-deep':
      return `${finding.logicalId}: the nested stack's template ${finding.path} is more than ${finding.limit} levels down and is not analysed`;
    case 'nested-too-many':
      return `${finding.logicalId}: more than ${finding.limit} nested stacks in one analysis; the nested stack's template ${finding.path} is not analysed`;
    case 'nested-template-unreadable':
      if (finding.reason === 'not-read') {
        return finding.side === 'new'
          ? `${finding.logicalId}: the nested stack's template ${finding.path} was not read for this analysis; what changes inside the nested stack is not analysed`
          : `${finding.logicalId}: the deployed nested stack's template is not read yet; what changes inside the nested stack (${finding.path}) is not analysed`;
      }
      if (finding.deployed) {
        return finding.reason === 'missing'
          ? `${finding.logicalId}: the deployed stack runs no nested stack ${finding.logicalId} to compare with; what changes inside it (${finding.path}) is not analysed`
          : `${finding.logicalId}: the template of the deployed nested stack ${finding.logicalId} ${PROBLEMS[finding.reason]}; what changes inside it (${finding.path}) is not analysed`;
      }
      return finding.side === 'new'
        ? `${finding.logicalId}: the nested stack's template ${finding.path} ${PROBLEMS[finding.reason]}`
        : `${finding.logicalId}: the baseline of the nested stack's template ${finding.path} ${PROBLEMS[finding.reason]}; what changes inside the nested stack is not analysed`;
    case 'nested-template-invalid':
      return `${finding.logicalId}: the nested stack's template ${finding.path} has ${finding.errors} error(s) (first: ${finding.first}); the update fails when CloudFormation updates the nested stack, and rolls back`;
  }
}
