/**
 * `cfn-impact diff --base REF [PATH...]`: every template that differs between REF and the working
 * tree (or `--head REF2`), each analysed with its own parameters file when a map names one.
 * Templates are recognised by content, as the language server recognises an open file; the other
 * changed files are counted and left alone. Nested stacks' templates are read at each side's
 * revision, and an unchanged template whose nested stack names a changed one is reviewed too.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { changedPaths, filesNamingNestedStacks, readSide, reviewRange, type ChangedPath, type GitAnswer, type ReviewRange } from '../git/changedFiles';
import { lookupByGlob } from '../git/glob';
import { readParameterFile } from '../evaluate/parameterFile';
import { analyzeCreation, analyzeUpdate, mayNestStacks, writtenChildPaths, type AnalyzeOptions } from '../impact';
import { isTemplateText, LineIndex } from '../template';
import type { LocalArtifacts } from '../sam';
import { childTemplatesInGit, type ChildTemplates } from './childTemplates';
import { artifactsAtHead } from './localArtifacts';
import type { Review, ReviewedFile } from './review';

/** How many templates naming nested stacks are read to find the parents of changed children. */
const MAX_PARENT_CANDIDATES = 500;

export interface BranchOptions {
  cwd: string;
  base: string;
  head?: string;
  pathspecs: string[];
  /** A JSON file mapping template globs (relative to the repository root) to parameters files (relative to the map). */
  parametersMap?: string;
  /** Values for every template, below a mapped file's. */
  shared: Record<string, string>;
  analyzeOptions: Omit<AnalyzeOptions, 'stackName'>;
}

export type BranchReview = { ok: true; review: Review } | { ok: false; message: string };

/** Reviews every changed template of a branch. */
export async function reviewBranch(options: BranchOptions): Promise<BranchReview> {
  const range = await reviewRange(options.cwd, options.base, options.head);
  if (!range.ok) return range;
  const changed = await changedPaths(range.value, options.cwd, options.pathspecs);
  if (!changed.ok) return changed;
  let map: Record<string, string> = {};
  if (options.parametersMap !== undefined) {
    const read = readParametersMap(resolve(options.cwd, options.parametersMap));
    if (!read.ok) return read;
    map = read.map;
  }
  const files: ReviewedFile[] = [];
  let notTemplates = 0;
  const parents = await parentsOfChangedChildren(range.value, changed.value);
  if (!parents.ok) return parents;
  for (const entry of [...changed.value, ...parents.value]) {
    const oldText = entry.change === 'added' ? undefined : await readSide(range.value, entry.path, 'base');
    const newText = entry.change === 'deleted' ? undefined : await readSide(range.value, entry.path, 'head');
    if (oldText && !oldText.ok) return oldText;
    if (newText && !newText.ok) return newText;
    const before = oldText?.value;
    const after = newText?.value;
    if (!(before !== undefined && isTemplateText(before)) && !(after !== undefined && isTemplateText(after))) {
      notTemplates++;
      continue;
    }
    const parameters = parametersFor(entry.path, map, options);
    if (!parameters.ok) return parameters;
    const oldLabel = `${options.base}:${entry.path}`;
    // Nested stacks' templates, each side at its own revision, as `diff OLD NEW` reads them next to each side.
    const children = after !== undefined && mayNestStacks(after) ? await childTemplatesInGit(range.value, entry.path, before, after, options.base) : undefined;
    // The head's local artifacts, looked for at the head, as `diff` looks for them beside the new file.
    const artifacts = after !== undefined ? await artifactsAtHead(range.value, entry.path, after) : undefined;
    files.push(reviewFile(entry, before, after, parameters.values, oldLabel, options, children, artifacts));
  }
  return { ok: true, review: { files, branch: true, notTemplates } };
}

/**
 * The templates the branch leaves unchanged whose nested stacks name a changed template: a child
 * changed alone changes the stack that runs it, and its plan is seen rolled up there, with the
 * values that parent passes. They are reviewed as changed (the head's nested stacks differ).
 */
async function parentsOfChangedChildren(range: ReviewRange, changed: readonly ChangedPath[]): Promise<GitAnswer<ChangedPath[]>> {
  const changedPaths = new Set(changed.filter((c) => c.change !== 'deleted').map((c) => c.path));
  if (changedPaths.size === 0) return { ok: true, value: [] };
  const candidates = await filesNamingNestedStacks(range);
  if (!candidates.ok) return candidates;
  const parents: ChangedPath[] = [];
  for (const path of candidates.value.slice(0, MAX_PARENT_CANDIDATES)) {
    if (changed.some((c) => c.path === path)) continue;
    const text = await readSide(range, path, 'head');
    if (!text.ok || !isTemplateText(text.value)) continue;
    if (writtenChildPaths(text.value, path).some((child) => changedPaths.has(child))) parents.push({ path, change: 'changed' });
  }
  return { ok: true, value: parents };
}

function reviewFile(
  entry: ChangedPath,
  before: string | undefined,
  after: string | undefined,
  parameters: { values: Record<string, string>; usePrevious: string[] },
  oldLabel: string,
  options: BranchOptions,
  children: ChildTemplates | undefined,
  artifacts: LocalArtifacts | undefined,
): ReviewedFile {
  // The report names the stack after its file; the analysis does not take that for its name.
  const stackName = basename(entry.path, extname(entry.path));
  const analyzeOptions: AnalyzeOptions = { ...options.analyzeOptions, ...(children ? { nested: children.nested } : {}) };
  const files = { old: { path: oldLabel, lines: new LineIndex(before ?? '') }, new: { path: entry.path, lines: new LineIndex(after ?? '') } };
  if (after === undefined) return { path: entry.path, change: 'deleted', stackName, files };
  const newSide = { text: after, parameters: parameters.values, usePreviousValues: parameters.usePrevious, ...(artifacts ? { artifacts } : {}) };
  // A template added on the branch creates a new stack; a changed one updates the stack running
  // the base's version, compared under the same values, as the editor compares a git baseline.
  const { report } =
    before === undefined || entry.change === 'added'
      ? analyzeCreation(newSide, analyzeOptions)
      : analyzeUpdate({ text: before, fallbackParameters: parameters.values }, newSide, analyzeOptions);
  return { path: entry.path, change: entry.change === 'added' ? 'added' : 'changed', report, stackName, files, ...(children ? { children } : {}) };
}

/** The parameter values of one template: its mapped file's, over the values given for all. */
function parametersFor(path: string, map: Record<string, string>, options: BranchOptions): { ok: true; values: { values: Record<string, string>; usePrevious: string[] } } | { ok: false; message: string } {
  const mapped = lookupByGlob(map, path);
  if (mapped === undefined) return { ok: true, values: { values: { ...options.shared }, usePrevious: [] } };
  const file = isAbsolute(mapped) ? mapped : resolve(dirname(resolve(options.cwd, options.parametersMap ?? '.')), mapped);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { ok: false, message: `cannot read ${file} (parameters of ${path}): ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
  const parsed = readParameterFile(text);
  if (!parsed.ok) return { ok: false, message: `${file}: ${parsed.message}` };
  return { ok: true, values: { values: { ...options.shared, ...parsed.parameters }, usePrevious: parsed.usePrevious } };
}

/** The map of `--parameters-map`: an object from template glob to parameters file, as `cfnImpact.parameters.files` is. */
function readParametersMap(path: string): { ok: true; map: Record<string, string> } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { ok: false, message: `cannot read the parameters map ${path}: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    return { ok: false, message: `${path}: a parameters map is a JSON object from template glob to parameters file, like {"stacks/*.yaml": "params/prod.json"}` };
  }
  return { ok: true, map: value as Record<string, string> };
}
