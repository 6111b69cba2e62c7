/**
 * Reads a file's content at a git revision by running the `git` executable.
 *
 * Every command gets an argument array (never a shell string), runs in the file's own folder,
 * puts `--` before paths and treats pathspecs literally, so that file names with spaces, quotes,
 * `;`, `$()`, glob characters or a leading `-` are just names.
 */
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';

/** Where a file sits in a git repository. */
export interface GitLocation {
  /** The work tree's root folder. */
  toplevel: string;
  /** This work tree's git folder (holds HEAD). */
  gitDir: string;
  /** The folder shared by all work trees (holds refs and packed-refs). */
  commonDir: string;
  /** The file's path relative to the root, forward slashes, as git names it. */
  pathInRepo: string;
}

export type GitLookup =
  | { kind: 'tracked'; location: GitLocation }
  | { kind: 'untracked'; toplevel: string }
  | { kind: 'no-repository' }
  | { kind: 'git-missing'; message: string }
  | { kind: 'error'; message: string };

export type GitRead =
  | { kind: 'ok'; text: string; commit: string }
  | { kind: 'missing-at-revision'; commit: string }
  | { kind: 'bad-revision'; message: string }
  | { kind: 'error'; message: string };

export type GitResult = { ok: true; stdout: Buffer } | { ok: false; exitCode: number | null; message: string; missing: boolean };

const gitTimeoutMs = 10_000;
const maxTemplateBytes = 64 * 1024 * 1024;

/** Runs one git command with an argument array in `cwd`, never through a shell. */
export function runGit(args: string[], cwd: string): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      // Literal pathspecs: a file named `*.yaml` is that file, not a pattern.
      ['--literal-pathspecs', '-c', 'core.quotePath=false', ...args],
      {
        cwd,
        encoding: 'buffer',
        maxBuffer: maxTemplateBytes,
        timeout: gitTimeoutMs,
        windowsHide: true,
        // Never prompt, never take the index lock the user's own git commands may need.
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ ok: true, stdout });
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        const message = stderr.toString('utf8').trim() || error.message;
        resolve({ ok: false, exitCode: typeof code === 'number' ? code : null, message, missing: code === 'ENOENT' });
      },
    );
  });
}

/** Finds the repository that tracks a file, and the file's name in it. */
export async function locateInGit(filePath: string): Promise<GitLookup> {
  const folder = dirname(filePath);
  const top = await runGit(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], folder);
  if (!top.ok) {
    if (top.missing) return { kind: 'git-missing', message: 'git is not installed or not on PATH' };
    if (/not a git repository/i.test(top.message)) return { kind: 'no-repository' };
    return { kind: 'error', message: firstLine(top.message) };
  }
  const [toplevel, gitDir, commonDirRaw] = top.stdout.toString('utf8').split('\n');
  if (!toplevel || !gitDir || !commonDirRaw) return { kind: 'error', message: 'unexpected output from git rev-parse' };
  const commonDir = isAbsolute(commonDirRaw) ? commonDirRaw : join(folder, commonDirRaw);
  const listed = await runGit(['ls-files', '--error-unmatch', '--full-name', '-z', '--', basename(filePath)], folder);
  if (!listed.ok) {
    if (/did not match any file/i.test(listed.message)) return { kind: 'untracked', toplevel };
    return { kind: 'error', message: firstLine(listed.message) };
  }
  const pathInRepo = listed.stdout.toString('utf8').split('\0')[0];
  if (!pathInRepo) return { kind: 'untracked', toplevel };
  return { kind: 'tracked', location: { toplevel, gitDir, commonDir, pathInRepo } };
}

/** Whether a revision name is safe to pass to git: no option look-alikes, no revision ranges. */
export function isAcceptableRevision(ref: string): boolean {
  return /^[^\s-][^\s:]*$/.test(ref) && !ref.includes('..') && ref.length <= 256;
}

/** Reads the file at a revision (`HEAD` by default), with the commit it resolved to. */
export async function readAtRevision(location: GitLocation, ref = 'HEAD'): Promise<GitRead> {
  if (!isAcceptableRevision(ref)) return { kind: 'bad-revision', message: `not a revision name: ${ref}` };
  const resolved = await runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], location.toplevel);
  if (!resolved.ok) {
    if (resolved.missing) return { kind: 'error', message: 'git is not installed or not on PATH' };
    // A repository without commits has no HEAD yet: every file is new.
    if (ref === 'HEAD') return { kind: 'missing-at-revision', commit: '' };
    return { kind: 'bad-revision', message: `unknown revision ${ref}` };
  }
  const commit = resolved.stdout.toString('utf8').trim();
  const blob = await runGit(['cat-file', 'blob', `${commit}:${location.pathInRepo}`], location.toplevel);
  if (!blob.ok) {
    if (/does not exist|exists on disk, but not in|not a valid object name|path .* does not exist/i.test(blob.message)) {
      return { kind: 'missing-at-revision', commit };
    }
    return { kind: 'error', message: firstLine(blob.message) };
  }
  return { kind: 'ok', text: decodeText(blob.stdout), commit };
}

/**
 * A cheap fingerprint of where HEAD points, from file metadata only (no process): it changes on
 * commit, checkout, reset, pull and rebase, which is when baselines must be read again.
 */
export async function headFingerprint(location: GitLocation): Promise<string> {
  const parts: string[] = [];
  const head = await readFile(join(location.gitDir, 'HEAD'), 'utf8').catch(() => '');
  parts.push(head.trim());
  const symbolic = /^ref:\s*(\S+)/.exec(head);
  const files = [join(location.commonDir, 'packed-refs')];
  if (symbolic && !symbolic[1].includes('..')) files.push(join(location.commonDir, symbolic[1]));
  for (const file of files) {
    const info = await stat(file).catch(() => undefined);
    parts.push(info ? `${info.mtimeMs}:${info.size}` : '-');
  }
  return parts.join('|');
}

/** Decodes a blob as text: UTF-8, without a byte order mark. */
export function decodeText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The first line of git's message, cut short. */
export function firstLine(text: string): string {
  return text.split('\n', 1)[0].slice(0, 300);
}
