/**
 * A CDK cloud assembly's folder (`cdk.out/`, or one CI synthesized) read from disk for both faces:
 * the manifest and nested manifests through server/src/cdk/assembly.ts, then each stack's template.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readCloudAssembly } from '../cdk/assembly';
import type { AssemblyWithTemplates } from '../cdk/stackComparison';
import { CLOUDFORMATION_TEMPLATE_LIMIT_BYTES } from '../cloudformation/templateLimits';

/** Apps hold a few stacks, large ones some dozens: past this, a folder is not one app's assembly. */
const MAX_STACKS = 200;

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

export type Result<T> = { ok: true; value: T } | { ok: false; message: string };

/** Whether `path` is a cloud assembly's folder: a folder holding `manifest.json`. */
export function isAssemblyFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory() && existsSync(join(path, 'manifest.json'));
  } catch {
    return false;
  }
}

/** An assembly folder's stacks and their templates. */
export function readAssemblyFolder(folder: string): Result<AssemblyWithTemplates> {
  const read = (relativePath: string) => {
    try {
      return { ok: true as const, text: readFileSync(join(folder, relativePath), 'utf8') };
    } catch (e) {
      return { ok: false as const, message: `cannot read ${join(folder, relativePath)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
    }
  };
  const assembly = readCloudAssembly(read);
  if (!assembly.ok) return { ok: false, message: `${folder} is not a readable cloud assembly: ${assembly.message}` };
  if (assembly.assembly.stacks.length > MAX_STACKS) return { ok: false, message: `${folder} holds ${assembly.assembly.stacks.length} stacks, more than the ${MAX_STACKS} compared at once` };
  const templates = new Map<string, string>();
  for (const stack of assembly.assembly.stacks) {
    // A template CloudFormation would never read is not read here either (nor held in memory).
    const size = fileSize(join(folder, stack.templateFile));
    if (size !== undefined && size > CLOUDFORMATION_TEMPLATE_LIMIT_BYTES) return { ok: false, message: `${join(folder, stack.templateFile)} is over CloudFormation's 1 MB template limit: it cannot be deployed` };
    const text = read(stack.templateFile);
    if (!text.ok) return { ok: false, message: text.message };
    templates.set(stack.templateFile, text.text);
  }
  return { ok: true, value: { assembly: assembly.assembly, templates } };
}
