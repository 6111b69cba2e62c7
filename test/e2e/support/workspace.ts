// Builds the folder a test opens: a git repository whose committed files are the baseline and whose
// working tree holds the edits a person has made since.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitWorkspace {
  readonly path: string;
  remove(): void;
}

function git(cwd: string, args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [relativePath, text] of Object.entries(files)) {
    const path = join(root, relativePath);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}

/** Commits `committed` as HEAD, then writes `working` over it without committing. */
export function createGitWorkspace(committed: Record<string, string>, working: Record<string, string>): GitWorkspace {
  const path = mkdtempSync(join(tmpdir(), 'cfn-impact-workspace-'));
  git(path, ['init', '-q', '-b', 'main']);
  writeFiles(path, committed);
  git(path, ['add', '--all']);
  git(path, ['commit', '-q', '-m', 'baseline']);
  writeFiles(path, working);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
