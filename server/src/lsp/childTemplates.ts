/**
 * Nested stacks' child templates, read ahead on the main thread for the analysis worker, which
 * does no I/O: the edited side from open documents or the disk, the baseline side from where the
 * baseline came from (git, a file, or the nested stacks a deployed stack runs, read with it). Bounded in depth, count and size.
 */
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mayNestStacks, readAhead, type ChildTemplate } from '../impact';
import { filePathOf, type Baseline } from './baseline/baselines';
import { CLOUDFORMATION_TEMPLATE_LIMIT_BYTES } from '../cloudformation/templateLimits';
import { readChildFile } from './childFile';
import type { NestedChildren } from './worker/messages';



/**
 * The child templates of both sides of a document's analysis, or undefined when it names no
 * nested stack or is not a file (a child is found relative to the file).
 */
export async function readChildTemplates(uri: string, text: string, baseline: Baseline, openText: (uri: string) => string | undefined): Promise<ChildTemplatesRead | undefined> {
  const path = filePathOf(uri);
  if (path === undefined || !mayNestStacks(text)) return undefined;
  const templatePath = basename(path);
  const folder = dirname(path);
  const uris: string[] = [];
  const newChildren = await readAhead(text, templatePath, (child) => {
    const file = resolvePath(folder, child);
    uris.push(pathToFileURL(file).href);
    return readEdited(file, openText);
  });
  const oldChildren = baseline.text !== undefined && mayNestStacks(baseline.text) ? await readAhead(baseline.text, templatePath, baseline.readChild ?? notRead) : {};
  const children: NestedChildren = { templatePath, newChildren, oldChildren };
  if (baseline.deployedNested) children.deployedChildren = baseline.deployedNested;
  return { children, uris };
}

/** What was read ahead for one analysis, and the documents it read as the edited side (an edit to one of them analyses the parent again). */
export interface ChildTemplatesRead {
  children: NestedChildren;
  uris: string[];
}

/** The edited side of a child: the open document's text, else the file on disk. */
async function readEdited(file: string, openText: (uri: string) => string | undefined): Promise<ChildTemplate> {
  const open = openText(pathToFileURL(file).href);
  if (open !== undefined) return open.length > CLOUDFORMATION_TEMPLATE_LIMIT_BYTES ? { problem: 'too-large' } : { text: open };
  return readChildFile(file);
}

/** A baseline whose children are not read (a deployed stack's). */
function notRead(): Promise<ChildTemplate> {
  return Promise.resolve({ problem: 'not-read' });
}
