/**
 * What `cfn-impact diff` has analysed, whichever way it was asked: one pair of files, a template
 * against its deployed stack, or every template a branch changes. Each output format renders this.
 */
import type { ImpactReport, ResourceChange } from '../impact/types';
import { changesSomething, stackRiskFails } from '../impact/claims';
import type { TemplateFileChange } from '../present';
import type { LineIndex } from '../template';
import type { ChildTemplates } from './childTemplates';
import type { ConstructIndex } from '../cdk/constructs';
import type { ConstructRename } from '../cdk/renames';

/** For a stack of a CDK app: its name in the app and the construct behind each logical id. */
export interface CdkStackView {
  /** The stack's display name (`Svc`, `Prod/Svc`). */
  stack: string;
  constructs: { old: ConstructIndex; new: ConstructIndex };
  renames: ConstructRename[];
  /** Logical id → construct path, for the words. */
  names: ReadonlyMap<string, string>;
}

/** A file's name as shown and where its offsets fall in lines. */
export interface FileLines {
  path: string;
  lines: LineIndex;
}

/** One template of a review and its analysis. */
export interface ReviewedFile {
  /** The template's path as reviewers know it: relative to the repository root in a branch review. */
  path: string;
  change: TemplateFileChange;
  /** Absent for a deleted template: nothing is deployed from it. */
  report?: ImpactReport;
  stackName: string;
  files: { old: FileLines; new: FileLines };
  /** The nested stacks' templates the CLI read for this file, to locate findings inside them. */
  children?: ChildTemplates;
  /** Set when the file is a stack of a CDK app's cloud assembly. */
  cdk?: CdkStackView;
}

export interface Review {
  files: ReviewedFile[];
  /** Whether this is a branch review (`--base`), printed as one result per file plus a summary. */
  branch: boolean;
  /** Changed files that are not templates (branch reviews only). */
  notTemplates: number;
  /** Whether the files are the stacks of a CDK app's cloud assembly, printed as one result per stack plus a summary. */
  assembly?: true;
}

export type FileStatus = 'update' | 'noop' | 'error' | 'create' | 'deleted';

/** A file's status in `--json`: the report's, `create` for a new template CloudFormation accepts, `deleted`. */
export function fileStatus(file: ReviewedFile): FileStatus {
  if (!file.report) return 'deleted';
  if (file.change === 'added' && file.report.status !== 'error') return 'create';
  return file.report.status;
}

/** The review's status: `error` when any file is rejected, `update` when any changes something, else `noop`. */
export function reviewStatus(review: Review): 'update' | 'noop' | 'error' {
  const statuses = review.files.map(fileStatus);
  if (statuses.includes('error')) return 'error';
  return statuses.some((s) => s !== 'noop') ? 'update' : 'noop';
}

export const FAIL_ON = ['replacement', 'will-fail', 'any'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** The process exit code of a review: 1 when any file is rejected, 2 when `--fail-on` trips for any file, else 0. */
export function reviewExitCode(review: Review, failOn: FailOn | undefined): number {
  if (review.files.some((f) => f.report?.status === 'error')) return 1;
  if (failOn && review.files.some((f) => f.report?.changes.some((c) => tripsGate(c, failOn)))) return 2;
  // An export another stack imports fails the update as surely as a resource that cannot be updated.
  if ((failOn === 'will-fail' || failOn === 'any') && review.files.some((f) => f.report !== undefined && stackRiskFails(f.report))) return 2;
  return 0;
}

/**
 * Whether a change trips the CI gate. A possible replacement counts, and so does a replacement
 * that will also fail. The gate weighs what happens (`impact`), not the change set's `Replacement`:
 * an instance type change is `Conditional` there but only interrupts the instance, and a resource
 * that only re-reads unchanged values changes nothing.
 */
function tripsGate(change: ResourceChange, failOn: FailOn): boolean {
  if (!changesSomething(change)) return false;
  if (failOn === 'any') return true;
  if (failOn === 'will-fail') return change.impact === 'will-fail';
  if (change.impact === 'will-fail') return change.replacement === 'True';
  return change.impact === 'replacement' || change.impact === 'conditional-replacement';
}
