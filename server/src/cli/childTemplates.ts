/**
 * The CLI's reader of nested stacks' child templates: files relative to each side's template.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { ChildTemplate, NestedTemplates } from '../impact';

/** CloudFormation's limit on a template's size; a larger child is not read. */
const MAX_TEMPLATE_BYTES = 1_000_000;

/** Child templates read from disk for one side, kept by the path the engine asked for (for locations in `--json`). */
export class ChildFiles {
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
  newFiles: ChildFiles;
  oldFiles: ChildFiles | undefined;
}

/**
 * Where `diff` reads nested templates: the new side next to NEW_TEMPLATE, the old side next to
 * OLD_TEMPLATE; with a deployed stack as baseline (`oldPath` undefined) the old side reads none.
 */
export function childTemplatesOf(newPath: string, oldPath: string | undefined): ChildTemplates {
  const newFiles = new ChildFiles(dirname(newPath));
  const oldFiles = oldPath !== undefined ? new ChildFiles(dirname(oldPath)) : undefined;
  return {
    nested: {
      templatePath: basename(newPath),
      readNew: (path) => newFiles.read(path),
      readOld: (path) => (oldFiles ? oldFiles.read(path) : { problem: 'not-read' }),
    },
    newFiles,
    oldFiles,
  };
}
