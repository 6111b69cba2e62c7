/** Git repositories for the protocol tests: made in a temporary folder, committed under a fixed identity. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const IDENTITY = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

/** Runs git in `cwd` (argument arrays, no shell) and returns what it printed. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...IDENTITY } });
}

/** A new repository on branch `main` whose first commit holds `files` (path → text). */
export function committedRepository(prefix: string, files: Record<string, string>): string {
  const repo = mkdtempSync(join(tmpdir(), prefix));
  git(repo, 'init', '-q', '-b', 'main');
  for (const [path, text] of Object.entries(files)) writeFileSync(join(repo, path), text);
  git(repo, 'add', '--', ...Object.keys(files));
  git(repo, 'commit', '-q', '-m', 'first');
  return repo;
}
