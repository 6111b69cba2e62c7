/**
 * Nested stacks' child templates, read ahead on the main thread for the analysis worker, which
 * does no I/O: the edited side from open documents or the disk, the baseline side from where the
 * baseline came from (git, a file). Bounded in depth, count and size.
 */
import { basename, dirname, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_NESTED_DEPTH, DEFAULT_NESTED_STACKS, writtenChildPaths, type ChildTemplate } from '../impact';
import { filePathOf, type Baseline } from './baseline/baselines';
import { CLOUDFORMATION_TEMPLATE_LIMIT_BYTES } from './analysis';
import { readChildFile } from './childFile';
import type { NestedChildren } from './worker/messages';

/** Reads one child template, by its path relative to the top template's folder. */
export type ReadChild = (path: string) => Promise<ChildTemplate>;

/** The most text read ahead for one analysis, all child templates together. */
const MAX_TOTAL_CHARACTERS = 5_000_000;

/** Only a template that names one of these types can have nested stacks: others are not scanned. */
const NESTING_TYPES = ['AWS::CloudFormation::Stack', 'AWS::Serverless::Application'];

/** Whether a template names a type that nests a stack (a cheap test before parsing). */
export function mayNest(text: string): boolean {
  return NESTING_TYPES.some((type) => text.includes(type));
}

/**
 * The child templates of both sides of a document's analysis, or undefined when it names no
 * nested stack or is not a file (a child is found relative to the file).
 */
export async function readChildTemplates(uri: string, text: string, baseline: Baseline, openText: (uri: string) => string | undefined): Promise<ChildTemplatesRead | undefined> {
  const path = filePathOf(uri);
  if (path === undefined || !mayNest(text)) return undefined;
  const templatePath = basename(path);
  const folder = dirname(path);
  const uris: string[] = [];
  const newChildren = await readAhead(text, templatePath, (child) => {
    const file = resolvePath(folder, child);
    uris.push(pathToFileURL(file).href);
    return readEdited(file, openText);
  });
  const oldChildren = baseline.text !== undefined && mayNest(baseline.text) ? await readAhead(baseline.text, templatePath, baseline.readChild ?? notRead) : {};
  return { children: { templatePath, newChildren, oldChildren }, uris };
}

/** What was read ahead for one analysis, and the documents it read as the edited side (an edit to one of them analyses the parent again). */
export interface ChildTemplatesRead {
  children: NestedChildren;
  uris: string[];
}

/**
 * Follows the templates `text` names, level by level, as the engine will (literal local
 * `TemplateURL`s), within the engine's limits on depth and count and a limit on the text read.
 */
export async function readAhead(text: string, templatePath: string, read: ReadChild): Promise<Record<string, ChildTemplate>> {
  const found: Record<string, ChildTemplate> = {};
  let count = 0;
  let characters = 0;
  let level = writtenChildPaths(text, templatePath);
  for (let depth = 1; depth <= DEFAULT_NESTED_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const path of level) {
      if (path in found || path === templatePath) continue;
      if (count >= DEFAULT_NESTED_STACKS) return found;
      count += 1;
      const child = await read(path);
      if ('text' in child && characters + child.text.length > MAX_TOTAL_CHARACTERS) {
        found[path] = { problem: 'too-large' };
        continue;
      }
      found[path] = child;
      if ('text' in child) {
        characters += child.text.length;
        next.push(...writtenChildPaths(child.text, path));
      }
    }
    level = next;
  }
  return found;
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
