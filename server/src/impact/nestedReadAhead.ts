/**
 * Child templates read ahead, for callers whose reads are asynchronous (git, open documents) while
 * the engine's reader is not: the templates a template names, level by level, as the engine will
 * follow them (literal local `TemplateURL`s), within its limits on depth and count and a limit on
 * the text read. The reading itself is the caller's.
 */
import { DEFAULT_NESTED_DEPTH, DEFAULT_NESTED_STACKS, writtenChildPaths, type ChildTemplate } from './nested';

/** Reads one child template, by its path relative to the top template's folder. */
export type ReadChild = (path: string) => Promise<ChildTemplate>;

/** The most text read ahead for one analysis, all child templates together. */
const MAX_TOTAL_CHARACTERS = 5_000_000;

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
