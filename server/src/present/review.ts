/**
 * The words of code review and CI: what became of each template of a branch, the summary over
 * all of them, the kinds of finding a SARIF log or a pull request annotation names, and how a
 * real change set compares with the prediction.
 */
import type { ChangeSetDisagreement } from '../impact/changeSetComparison';
import type { Impact, ImpactReport, ResourceChange } from '../impact/types';
import { impactLabel } from './impacts';
import { listSome } from './lists';
import { summarize, verdictMessage } from './verdict';

/** How a template file differs between the two sides of a review. */
export type TemplateFileChange = 'changed' | 'added' | 'deleted';

/** What becomes of one template: the verdict of its update, its stack's creation, or its deletion from the branch. */
export function fileVerdict(change: TemplateFileChange, report: ImpactReport | undefined): string {
  if (change === 'deleted' || !report) return 'Template deleted: nothing is deployed from it; a stack running it keeps running until it is deleted.';
  if (change === 'added') {
    if (report.status === 'error') return `New template, rejected: ${report.message ?? ''}`;
    return `New template, a new stack: ${summarize(report.changes) || 'no resources'}`;
  }
  return verdictMessage(report);
}

/** One template's heading in a branch review: `network/vpc.yaml (new)`. */
export function fileHeading(path: string, change: TemplateFileChange): string {
  return change === 'changed' ? path : `${path} (${change === 'added' ? 'new' : 'deleted'})`;
}

/** The one-line summary of a branch review: `3 templates: 1 update, 1 no-op, 1 rejected`. */
export function branchSummary(files: readonly { change: TemplateFileChange; report?: ImpactReport }[], notTemplates: number): string {
  const count = (f: (file: { change: TemplateFileChange; report?: ImpactReport }) => boolean) => files.filter(f).length;
  const parts = [
    [count((f) => f.report?.status === 'error'), 'rejected'],
    [count((f) => f.change === 'changed' && f.report?.status === 'update'), 'update'],
    [count((f) => f.change === 'changed' && f.report?.status === 'noop'), 'no-op'],
    [count((f) => f.change === 'added' && f.report?.status !== 'error'), 'new'],
    [count((f) => f.change === 'deleted'), 'deleted'],
  ] as const;
  const counted = parts.filter(([n]) => n > 0).map(([n, word]) => `${n} ${word}`);
  const head = files.length === 0 ? 'No template changed' : `${files.length} template${files.length === 1 ? '' : 's'} changed: ${counted.join(', ')}`;
  return notTemplates > 0 ? `${head} (${notTemplates} other changed file${notTemplates === 1 ? '' : 's'} not templates)` : head;
}

/** A kind of finding, as a SARIF rule and an annotation's level name it. */
export interface FindingKind {
  id: string;
  name: string;
  description: string;
  level: 'error' | 'warning' | 'note';
}

/** The kinds of resource change, by impact; `deletion` is data loss unless a DeletionPolicy keeps the resource. */
const CHANGE_KINDS: Record<Exclude<Impact, 'none'>, FindingKind> = {
  'will-fail': { id: 'will-fail', name: 'UpdateWillFail', description: 'CloudFormation accepts the update and then fails it on this resource, rolling the stack back.', level: 'error' },
  replacement: { id: 'replacement', name: 'Replacement', description: 'The resource is replaced: a new physical resource is created and the old one deleted, with its data and identity.', level: 'error' },
  'conditional-replacement': { id: 'conditional-replacement', name: 'ConditionalReplacement', description: 'The resource may be replaced, depending on values only known when the update runs.', level: 'warning' },
  delete: { id: 'deletion', name: 'DataLoss', description: 'The resource is removed from the stack and its physical resource deleted, with its data, unless its DeletionPolicy retains or snapshots it.', level: 'warning' },
  'some-interruption': { id: 'interruption', name: 'Interruption', description: 'The resource is updated in place with some interruption (a restart or a brief outage).', level: 'warning' },
  'no-interruption': { id: 'update', name: 'Update', description: 'The resource is updated in place without interruption.', level: 'note' },
  create: { id: 'addition', name: 'Addition', description: 'The resource is created.', level: 'note' },
};

/** The rule for a rejected update: CloudFormation refuses the template or the update before changing anything. */
export const REJECTED_KIND: FindingKind = {
  id: 'rejected',
  name: 'Rejected',
  description: 'CloudFormation rejects the template or the update: nothing is deployed.',
  level: 'error',
};

/** Every kind of resource change a review reports, mildest last. */
export function changeKinds(): FindingKind[] {
  return Object.values(CHANGE_KINDS);
}

/** The kind of finding a resource change is; undefined for a change that changes nothing. */
export function changeKind(change: ResourceChange): FindingKind | undefined {
  return change.impact === 'none' ? undefined : CHANGE_KINDS[change.impact];
}

/** A finding's kind for a diagnostic of ours or a template error: errors reject the update, the rest are named by their code. */
export function diagnosticKind(diagnostic: { severity: 'error' | 'warning' | 'info'; code: string }, text: string): FindingKind {
  if (diagnostic.severity === 'error') return REJECTED_KIND;
  return { id: diagnostic.code, name: diagnostic.code, description: text, level: diagnostic.severity === 'warning' ? 'warning' : 'note' };
}

/** An annotation's title for a change: `Replace WebServer (AWS::EC2::Instance)`. */
export function changeTitle(change: ResourceChange): string {
  const { label } = impactLabel(change.impact);
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} ${change.logicalId} (${change.resourceType})`;
}

/** One disagreement as a clause: `the change set replaces it (Replacement True), the prediction does not (False)`. */
export function disagreementText(d: ChangeSetDisagreement): string {
  switch (d.kind) {
    case 'only-in-change-set':
      return `only the change set lists it (${d.action}); the prediction leaves it unchanged`;
    case 'only-predicted':
      return `only the prediction lists it (${d.action}); the change set leaves it unchanged`;
    case 'action':
      return `the change set says ${d.changeSet}, the prediction ${d.predicted}`;
    case 'replacement':
      return `Replacement ${d.changeSet} in the change set, ${d.predicted} predicted`;
    case 'details': {
      const parts: string[] = [];
      if (d.onlyInChangeSet.length > 0) parts.push(`only the change set changes ${listSome(d.onlyInChangeSet, 5)}`);
      if (d.onlyPredicted.length > 0) parts.push(`only the prediction changes ${listSome(d.onlyPredicted, 5)}`);
      return parts.join('; ');
    }
    case 'drift-status':
      return `drift ${d.changeSet} in the change set, ${d.predicted} by the last drift detection`;
    case 'live-value':
      return `${d.property} is live ${d.changeSet} in the change set, ${d.predicted} when drift was last detected`;
  }
}

/** The verdict of a comparison with a change set. */
export function changeSetVerdict(changeSetName: string, agreeing: number, disagreeing: number, nested: number): string {
  const nestedNote = nested > 0 ? ` ${nested === 1 ? '1 change inside a nested stack is' : `${nested} changes inside nested stacks are`} not compared (the prediction covers this stack's own resources).` : '';
  if (disagreeing === 0) return `Change set ${changeSetName} agrees with the prediction on all ${agreeing} resource${agreeing === 1 ? '' : 's'}.${nestedNote}`;
  return `Change set ${changeSetName} and the prediction differ on ${disagreeing} resource${disagreeing === 1 ? '' : 's'} (agree on ${agreeing}).${nestedNote}`;
}

/** The title of the notice that carries a template's verdict on a pull request. */
export function fileNoticeTitle(path: string, change: TemplateFileChange): string {
  return `CloudFormation impact: ${fileHeading(path, change)}`;
}

/** One resource of a comparison with a change set: `✓ Queue (AWS::SQS::Queue): both Add` or `✗ Queue (…): the change set says Modify, the prediction Add`. */
export function comparedResourceLine(resource: { logicalId: string; resourceType: string; disagreements: readonly ChangeSetDisagreement[] }, action: string | undefined): string {
  const head = `${resource.logicalId} (${resource.resourceType})`;
  if (resource.disagreements.length === 0) return `✓ ${head}: both ${action ?? 'agree'}`;
  return `✗ ${head}: ${resource.disagreements.map(disagreementText).join('; ')}`;
}

/** The lens that offers comparing the prediction with the linked stack's change sets. */
export function changeSetLensTitle(names: readonly string[]): string {
  return names.length === 1 ? `Compare with change set ${names[0]}` : `Compare with a change set (${listSome(names)})`;
}
