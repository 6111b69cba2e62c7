/**
 * The files that differ between a revision and the working tree (or another revision), and their
 * content on either side: what a review of a branch reads. Every command takes an argument array
 * and literal pathspecs after `--` (repository.ts runs them).
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeText, firstLine, isAcceptableRevision, runGit } from './repository';

/** A path that differs, relative to the repository's root with forward slashes, and how. */
export interface ChangedPath {
  path: string;
  change: 'added' | 'changed' | 'deleted';
}

/** Where a branch review reads from: the repository, the base commit, and the head commit (absent: the working tree). */
export interface ReviewRange {
  toplevel: string;
  base: string;
  head?: string;
}

export type GitAnswer<T> = { ok: true; value: T } | { ok: false; message: string };

/** Resolves the repository around `cwd` and the base and head revisions to commits. */
export async function reviewRange(cwd: string, base: string, head: string | undefined): Promise<GitAnswer<ReviewRange>> {
  for (const ref of [base, head]) {
    if (ref !== undefined && !isAcceptableRevision(ref)) return { ok: false, message: `not a revision name: ${ref}` };
  }
  const top = await runGit(['rev-parse', '--show-toplevel'], cwd);
  if (!top.ok) return { ok: false, message: top.missing ? 'git is not installed or not on PATH' : firstLine(top.message) };
  const toplevel = top.stdout.toString('utf8').trim();
  const resolve = async (ref: string): Promise<GitAnswer<string>> => {
    const resolved = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], toplevel);
    return resolved.ok ? { ok: true, value: resolved.stdout.toString('utf8').trim() } : { ok: false, message: `unknown revision ${ref}` };
  };
  const baseCommit = await resolve(base);
  if (!baseCommit.ok) return baseCommit;
  if (head === undefined) return { ok: true, value: { toplevel, base: baseCommit.value } };
  const headCommit = await resolve(head);
  if (!headCommit.ok) return headCommit;
  return { ok: true, value: { toplevel, base: baseCommit.value, head: headCommit.value } };
}

/**
 * The paths that differ between base and head, limited to `pathspecs` (relative to `cwd`) when
 * given. Against the working tree, files git does not track yet (and does not ignore) count as
 * added: a new template is usually not committed when its author first checks it.
 */
export async function changedPaths(range: ReviewRange, cwd: string, pathspecs: readonly string[]): Promise<GitAnswer<ChangedPath[]>> {
  const sides = range.head === undefined ? [range.base] : [range.base, range.head];
  // From cwd, so that pathspecs mean what they meant on the user's command line; names are
  // printed relative to the root whatever the folder.
  const diff = await runGit(['diff', '--name-status', '-z', '--no-renames', '--no-ext-diff', ...sides, '--', ...pathspecs], cwd);
  if (!diff.ok) return { ok: false, message: firstLine(diff.message) };
  const found = new Map<string, ChangedPath['change']>();
  const fields = diff.stdout.toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i];
    const path = fields[i + 1];
    found.set(path, status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'changed');
  }
  if (range.head === undefined) {
    const untracked = await runGit(['ls-files', '--others', '--exclude-standard', '--full-name', '-z', '--', ...pathspecs], cwd);
    if (!untracked.ok) return { ok: false, message: firstLine(untracked.message) };
    for (const path of untracked.stdout.toString('utf8').split('\0')) if (path) found.set(path, 'added');
  }
  return { ok: true, value: [...found].map(([path, change]) => ({ path, change })).sort((a, b) => a.path.localeCompare(b.path)) };
}

/** A file's text at the base (`side` 'base') or at the head (a commit, or the working tree). */
export async function readSide(range: ReviewRange, path: string, side: 'base' | 'head'): Promise<GitAnswer<string>> {
  const commit = side === 'base' ? range.base : range.head;
  if (commit === undefined) {
    try {
      return { ok: true, value: decodeText(await readFile(join(range.toplevel, path))) };
    } catch (error) {
      return { ok: false, message: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
    }
  }
  const blob = await runGit(['cat-file', 'blob', `${commit}:${path}`], range.toplevel);
  return blob.ok ? { ok: true, value: decodeText(blob.stdout) } : { ok: false, message: firstLine(blob.message) };
}

/**
 * Whether a path (from the top of the repository, `/`-separated) is a file or folder at one side of
 * the range: in the working tree, or in the commit's tree. Undefined when git could not say.
 */
export async function pathExistsAt(range: ReviewRange, path: string, side: 'base' | 'head'): Promise<boolean | undefined> {
  const commit = side === 'base' ? range.base : range.head;
  if (commit === undefined) {
    try {
      await stat(join(range.toplevel, path));
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? false : undefined;
    }
  }
  const found = await runGit(['cat-file', '-e', `${commit}:${path}`], range.toplevel);
  if (found.ok) return true;
  // The commit was read already: git's "path does not exist" is the only answer that means missing.
  return found.exitCode === 128 && /does not exist|exists on disk, but not in/.test(found.message) ? false : undefined;
}

/**
 * The files at the head (a commit, or the working tree with files not yet tracked) whose text
 * names a type that nests a stack: the templates that may be the parents of a changed child.
 * `git grep` finds them without reading every file here.
 */
export async function filesNamingNestedStacks(range: ReviewRange): Promise<GitAnswer<string[]>> {
  const patterns = ['-e', 'AWS::CloudFormation::Stack', '-e', 'AWS::Serverless::Application'];
  const args = range.head === undefined ? ['grep', '-l', '-z', '-F', '-I', '--untracked', ...patterns, '--'] : ['grep', '-l', '-z', '-F', '-I', ...patterns, range.head, '--'];
  const grep = await runGit(args, range.toplevel);
  // Exit status 1 is git grep's "nothing found".
  if (!grep.ok) return grep.exitCode === 1 ? { ok: true, value: [] } : { ok: false, message: firstLine(grep.message) };
  const prefix = range.head === undefined ? '' : `${range.head}:`;
  const paths = grep.stdout
    .toString('utf8')
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => (prefix && line.startsWith(prefix) ? line.slice(prefix.length) : line));
  return { ok: true, value: paths };
}
