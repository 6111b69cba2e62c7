/**
 * The CLI's reader of nested stacks' child templates: files relative to each side's template, a
 * deployed stack's nested stacks, or the two sides of a branch review in git.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, posix } from 'node:path';
import { joinPath, mayNestStacks, readAhead, type ChildTemplate, type NestedTemplates, type ReadChild } from '../impact';
import { readSide, type ReviewRange } from '../git/changedFiles';
import type { DeployedNestedStacks } from '../stacks/deployedNestedStacks';

/** CloudFormation's limit on a template's size; a larger child is not read. */
const MAX_TEMPLATE_BYTES = 1_000_000;

/** The child templates one side read, by the path the engine asked for, and where each is for people (locations in `--json`). */
export interface ChildTexts {
  readonly texts: Map<string, string>;
  pathOf(path: string): string;
}

/** Child templates read from disk for one side, kept by the path the engine asked for (for locations in `--json`). */
export class ChildFiles implements ChildTexts {
  readonly texts = new Map<string, string>();

  constructor(private readonly folder: string) {}

  /** The child at `path`, relative to this side's folder. */
  read(path: string): ChildTemplate {
    const file = join(this.folder, path);
    try {
      if (statSync(file).size > MAX_TEMPLATE_BYTES) return { problem: 'too-large' };
      const text = readFileSync(file, 'utf8');
      this.texts.set(path, text);
      return { text };
    } catch (e) {
      return { problem: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
    }
  }

  /** The on-disk path of a child the engine read, for people. */
  pathOf(path: string): string {
    return join(this.folder, path);
  }
}

/** The reader the engine is given, and the files it read on each side (for locations in `--json`). */
export interface ChildTemplates {
  nested: NestedTemplates;
  newFiles: ChildTexts;
  oldFiles: ChildTexts | undefined;
}

/**
 * Where `diff` reads nested templates: the new side next to NEW_TEMPLATE, the old side next to
 * OLD_TEMPLATE; with a deployed stack as baseline (`oldPath` undefined) the old side is the
 * nested stacks the stack runs, as read with it.
 */
export function childTemplatesOf(newPath: string, oldPath: string | undefined, deployed?: DeployedNestedStacks): ChildTemplates {
  const newFiles = new ChildFiles(dirname(newPath));
  const oldFiles = oldPath !== undefined ? new ChildFiles(dirname(oldPath)) : undefined;
  const nested: NestedTemplates = {
    templatePath: basename(newPath),
    readNew: (path) => newFiles.read(path),
    readOld: (path) => (oldFiles ? oldFiles.read(path) : { problem: 'not-read' }),
  };
  if (deployed) nested.readDeployed = (stackPath) => (Object.hasOwn(deployed, stackPath) ? deployed[stackPath] : undefined);
  return { nested, newFiles, oldFiles };
}

/**
 * Where `diff --base` reads nested templates: each side's children at that side of the review
 * (the base commit; the head commit or the working tree), read ahead (git reads are asynchronous,
 * the engine's are not), relative to the template's folder in the repository. A path that climbs
 * out of the repository is a file that does not exist.
 */
export async function childTemplatesInGit(range: ReviewRange, templatePath: string, oldText: string | undefined, newText: string, baseLabel: string): Promise<ChildTemplates> {
  const folder = posix.dirname(templatePath) === '.' ? '' : posix.dirname(templatePath);
  const readAt =
    (side: 'base' | 'head'): ReadChild =>
    async (path) => {
      const inRepository = joinPath(folder, path);
      if (inRepository === '..' || inRepository.startsWith('../')) return { problem: 'missing' };
      const read = await readSide(range, inRepository, side);
      if (!read.ok) return { problem: 'missing' };
      return read.value.length > MAX_TEMPLATE_BYTES ? { problem: 'too-large' } : { text: read.value };
    };
  const name = posix.basename(templatePath);
  const newChildren = await readAhead(newText, name, readAt('head'));
  const oldChildren = oldText !== undefined && mayNestStacks(oldText) ? await readAhead(oldText, name, readAt('base')) : {};
  const from = (children: Record<string, ChildTemplate>) => (path: string): ChildTemplate => (Object.hasOwn(children, path) ? children[path]! : { problem: 'not-read' });
  const texts = (children: Record<string, ChildTemplate>, label: (path: string) => string): ChildTexts => ({
    texts: new Map(Object.entries(children).flatMap(([path, child]) => ('text' in child ? [[path, child.text] as const] : []))),
    pathOf: label,
  });
  return {
    nested: { templatePath: name, readNew: from(newChildren), readOld: from(oldChildren) },
    newFiles: texts(newChildren, (path) => joinPath(folder, path)),
    oldFiles: texts(oldChildren, (path) => `${baseLabel}:${joinPath(folder, path)}`),
  };
}
