/**
 * Child processes get argument arrays, never a shell string: no source file can reach a shell,
 * and git reads files whose names a shell would take apart (spaces, quotes, `;`, `$()`, a
 * leading `-`) as plain names, running nothing they contain.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isAcceptableRevision, locateInGit, readAtRevision } from '../../../server/src/git/repository';

const root = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs)$/.test(name) ? [path] : [];
  });
}

describe('child processes', () => {
  test('no source file can start a shell: only execFile/spawn imported, no exec, no shell option', () => {
    const users: string[] = [];
    for (const file of [...sourceFiles(join(root, 'server', 'src')), ...sourceFiles(join(root, 'client', 'src'))]) {
      const text = readFileSync(file, 'utf8');
      const name = relative(root, file).split('\\').join('/');
      assert.doesNotMatch(text, /require\(\s*['"](node:)?child_process['"]\s*\)/, `${name}: child_process through require`);
      assert.doesNotMatch(text, /import\s*\*\s*as\s+\w+\s+from\s+['"](node:)?child_process['"]/, `${name}: every child_process function imported`);
      const imports = [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](node:)?child_process['"]/g)];
      if (imports.length === 0) continue;
      users.push(name);
      for (const match of imports) {
        for (const imported of match[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean)) {
          assert.ok(['execFile', 'spawn', 'execFileSync', 'spawnSync'].includes(imported), `${name} imports ${imported}`);
        }
      }
      assert.doesNotMatch(text, /(^|[^.\w])exec(Sync)?\s*\(/m, `${name}: calls exec`);
      assert.doesNotMatch(text, /\bshell\s*:/, `${name}: passes a shell option`);
    }
    assert.deepEqual(users, ['server/src/git/repository.ts'], 'git is the only child process');
  });

  describe('git with hostile file names', () => {
    let repo: string;
    const names = ['with space.yaml', `it's "quoted".yaml`, 'a;touch pwned-semicolon.yaml', '$(touch pwned-subshell).yaml', '`touch pwned-backtick`.yaml', '-n.yaml', '--output=pwned-option.yaml', '*.yaml'];

    before(() => {
      repo = mkdtempSync(join(tmpdir(), 'cfn-impact-git-names-'));
      const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
      execFileSync('git', ['init', '-q'], { cwd: repo });
      names.forEach((name, i) => writeFileSync(join(repo, name), `Resources:\n  Bucket${i}:\n    Type: AWS::S3::Bucket\n`));
      execFileSync('git', ['add', '--', ...names], { cwd: repo });
      execFileSync('git', ['commit', '-q', '-m', 'hostile names'], { cwd: repo, env });
      // The working copies change, so that HEAD and the disk differ.
      for (const name of names) writeFileSync(join(repo, name), 'changed\n');
    });

    after(() => rmSync(repo, { recursive: true, force: true }));

    for (const [i, name] of names.entries()) {
      test(`${JSON.stringify(name)} is found and read at HEAD as that file`, async () => {
        const found = await locateInGit(join(repo, name));
        assert.equal(found.kind, 'tracked');
        assert.ok(found.kind === 'tracked');
        assert.equal(found.location.pathInRepo, name);
        const read = await readAtRevision(found.location);
        assert.equal(read.kind, 'ok');
        assert.ok(read.kind === 'ok');
        assert.equal(read.text, `Resources:\n  Bucket${i}:\n    Type: AWS::S3::Bucket\n`);
      });
    }

    test('nothing in the names ran', () => {
      for (const file of ['pwned-semicolon', 'pwned-subshell', 'pwned-backtick', 'pwned-option', 'pwned-semicolon.yaml', 'pwned-subshell).yaml']) {
        assert.equal(existsSync(join(repo, file)), false, file);
      }
    });

    test('revisions that look like options or ranges are refused before git sees them', async () => {
      for (const ref of ['--output=/tmp/x', '-p', 'HEAD..main', 'a b', 'HEAD:stack.yaml', '']) assert.equal(isAcceptableRevision(ref), false, ref);
      const found = await locateInGit(join(repo, 'with space.yaml'));
      assert.ok(found.kind === 'tracked');
      assert.equal((await readAtRevision(found.location, '--output=pwned-option')).kind, 'bad-revision');
      assert.equal(existsSync(join(repo, 'pwned-option')), false);
    });
  });
});
