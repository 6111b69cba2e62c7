// A lookup keyed by a parameter with no value, edited in one entry, in the real server over stdio
// against git HEAD: the hover on the instance shows the entry that changed and the key that
// selects it (docs/update-rules.md#lookup-entries).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol';
import { pathToUri, TestServer } from './support/languageServer';
import { sizedInstance } from '../fixtures/sizedInstance';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

function hoverText(hover: Hover | null): string {
  return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
}

describe('a lookup entry edited, in the editor', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-lookup-'));
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'template.yaml'), sizedInstance('m5.large'));
    git(repo, 'add', '--', 'template.yaml');
    git(repo, 'commit', '-q', '-m', 'first');
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test("the instance's hover names the entry's values and the Size that selects it", async () => {
    const uri = pathToUri(join(repo, 'template.yaml'));
    const edited = sizedInstance('m5.xlarge');
    await server.diagnostics(uri, await server.open(uri, edited));
    const hover = hoverText(await server.hover(uri, edited.split('\n').indexOf('  Instance:'), 3));
    assert.match(hover, /InstanceType changed if Size is large/);
  });
});
