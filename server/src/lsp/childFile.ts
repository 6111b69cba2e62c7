/**
 * One nested stack's child template read from the disk, by the language server's main thread.
 */
import { readFile, stat } from 'node:fs/promises';
import type { ChildTemplate } from '../impact';
import { CLOUDFORMATION_TEMPLATE_LIMIT_BYTES } from '../cloudformation/templateLimits';

/** A child template from the disk. */
export async function readChildFile(file: string): Promise<ChildTemplate> {
  try {
    if ((await stat(file)).size > CLOUDFORMATION_TEMPLATE_LIMIT_BYTES) return { problem: 'too-large' };
    return { text: await readFile(file, 'utf8') };
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable' };
  }
}

