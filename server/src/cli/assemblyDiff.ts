/**
 * `cfn-impact diff OLD_CDK_OUT NEW_CDK_OUT` and `cfn-impact diff --deployed CDK_OUT`: a CDK app's
 * cloud assemblies compared stack by stack (server/src/cdk/), read from disk here and, for
 * `--deployed`, each stack against the deployed stack of its name, in its environment
 * (read-only calls, as `--stack`).
 */
import { join } from 'node:path';
import type { AssemblyStack } from '../cdk/assembly';
import { readAssemblyFolder } from '../assemblies/assemblyFolder';
import { compareStack, pairStacks, type StackComparison, type StackSides } from '../cdk/stackComparison';
import type { AnalyzeOptions } from '../impact';
import { LineIndex } from '../template';
import type { Review, ReviewedFile } from './review';
import { openReader, stackSides, type AwsOptions } from './stackBaseline';
import type { CloudFormationReader } from '../stacks/cloudFormationReader';

import type { Result } from '../assemblies/assemblyFolder';

/** Each stack of the new assembly against the old assembly's stack of the same name; removed stacks after. */
export function assemblyReview(oldFolder: string, newFolder: string, options: AnalyzeOptions): Result<Review> {
  const old = readAssemblyFolder(oldFolder);
  if (!old.ok) return old;
  const current = readAssemblyFolder(newFolder);
  if (!current.ok) return current;
  const comparisons = pairStacks(old.value, current.value).map((sides) => compareStack(sides, options));
  return { ok: true, value: { files: comparisons.map((c) => reviewedStack(c, { old: oldFolder, new: newFolder })), branch: false, assembly: true, notTemplates: 0 } };
}

/** Each stack of the assembly against the deployed stack of its name, read in the stack's Region (else the one given). */
export async function deployedAssemblyReview(folder: string, aws: AwsOptions, options: AnalyzeOptions, warn: (message: string) => void): Promise<Result<Review>> {
  const current = readAssemblyFolder(folder);
  if (!current.ok) return current;
  const readers = new Map<string, CloudFormationReader>();
  const readerFor = async (stack: AssemblyStack): Promise<Result<CloudFormationReader>> => {
    const region = stack.region ?? aws.region;
    const key = region ?? '';
    const known = readers.get(key);
    if (known) return { ok: true, value: known };
    const opened = await openReader({ ...aws, region });
    if (!opened.ok) return opened;
    readers.set(key, opened.reader);
    return { ok: true, value: opened.reader };
  };
  const files: ReviewedFile[] = [];
  try {
    for (const stack of current.value.assembly.stacks) {
      const text = current.value.templates.get(stack.templateFile) ?? '';
      const reader = await readerFor(stack);
      if (!reader.ok) return reader;
      const deployed = await stackSides(reader.value, stack.stackName, text, undefined);
      if (!deployed.ok && !deployed.missing) return { ok: false, message: `${stack.displayName}: ${deployed.message}` };
      const sides: StackSides = { stack: stack.displayName, stackName: stack.stackName, new: { stack, side: deployed.ok ? deployed.after : { text } } };
      let stackOptions = options;
      if (deployed.ok) {
        sides.old = { side: deployed.before };
        const d = deployed.stack;
        stackOptions = { ...options, stackStatus: options.stackStatus ?? d.status, ...(d.region ? { region: d.region } : {}), ...(d.accountId ? { accountId: d.accountId } : {}), ...(d.crossStack ? { crossStack: d.crossStack } : {}), ...(d.lastOperationFailures ? { lastOperationFailures: d.lastOperationFailures } : {}), ...(d.drift ? { drift: d.drift } : {}) };
        if (d.crossStackProblem) warn(`${stack.displayName}: exports and imports could not be read, so they are compared offline: ${d.crossStackProblem}`);
      }
      files.push(reviewedStack(compareStack(sides, stackOptions), { old: `stack ${stack.stackName}`, new: folder }));
    }
  } finally {
    for (const reader of readers.values()) reader.dispose();
  }
  return { ok: true, value: { files, branch: false, assembly: true, notTemplates: 0 } };
}

/** A stack's comparison as one entry of a review, named by the stack and located in its template files. */
function reviewedStack(comparison: StackComparison, folders: { old: string; new: string }): ReviewedFile {
  const oldPath = comparison.old ? join(folders.old, comparison.old.stack.templateFile) : folders.old;
  const newPath = comparison.new ? join(folders.new, comparison.new.stack.templateFile) : oldPath;
  const names = new Map<string, string>();
  for (const [logicalId, info] of comparison.constructs.old) names.set(logicalId, info.path);
  for (const [logicalId, info] of comparison.constructs.new) names.set(logicalId, info.path);
  return {
    path: newPath,
    change: comparison.change === 'removed' ? 'deleted' : comparison.change,
    ...(comparison.report ? { report: comparison.report } : {}),
    stackName: comparison.stackName,
    files: { old: { path: oldPath, lines: new LineIndex(comparison.old?.text ?? '') }, new: { path: newPath, lines: new LineIndex(comparison.new?.text ?? '') } },
    cdk: { stack: comparison.stack, constructs: comparison.constructs, renames: comparison.renames, names },
  };
}
