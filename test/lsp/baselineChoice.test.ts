// Choosing another baseline through the custom requests: a file, an older git revision, none, and
// one that cannot be read (which is reported, never swapped for another one).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineTextRequest, chooseBaselineRequest } from '../../server/src/lsp/protocol';
import { git } from './support/gitRepository';
import { pathToUri, TestServer } from './support/languageServer';

const bucket = (versioning: string, tag: string) => `Resources:
  Data:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: data-${tag}
      VersioningConfiguration:
        Status: ${versioning}
`;


describe('choosing a baseline', () => {
  let repo: string;
  let server: TestServer;
  let uri: string;
  const current = bucket('Enabled', 'one');

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-choice-'));
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'bucket.yaml'), bucket('Suspended', 'zero'));
    git(repo, 'add', '--', 'bucket.yaml');
    git(repo, 'commit', '-q', '-m', 'first');
    git(repo, 'tag', 'v1');
    writeFileSync(join(repo, 'bucket.yaml'), current);
    git(repo, 'commit', '-q', '-am', 'second');
    writeFileSync(join(repo, 'other.yaml'), bucket('Suspended', 'one'));
    server = await TestServer.start({ workspace: repo });
    uri = pathToUri(join(repo, 'bucket.yaml'));
    await server.diagnostics(uri, await server.open(uri, current));
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test('against HEAD, the committed text, nothing changes', async () => {
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.deepEqual(lenses.map((lens) => lens.command?.title), ['No updates are to be performed — against HEAD']);
    assert.equal((await server.connection.sendRequest(baselineTextRequest, { uri }))?.text, current);
  });

  test('an older revision: the bucket name changed since, so the bucket is replaced', async () => {
    const status = await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'git', ref: 'v1' } });
    assert.deepEqual([status?.kind, status?.state, status?.label], ['git', 'ok', 'v1']);
    const diagnostics = await waitForPublished(server, uri, (d) => d.some((x) => x.code === 'replacement'));
    assert.match(String(diagnostics.find((d) => d.code === 'replacement')?.message), /^Replacement: BucketName changed → new Data/);
    assert.equal((await server.connection.sendRequest(baselineTextRequest, { uri }))?.text, bucket('Suspended', 'zero'));
  });

  test('another file: only the in-place versioning change remains', async () => {
    const status = await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'file', path: join(repo, 'other.yaml') } });
    assert.deepEqual([status?.kind, status?.state, status?.label], ['file', 'ok', 'other.yaml']);
    await waitForPublished(server, uri, (d) => d.length === 0);
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.deepEqual(
      lenses.map((lens) => [lens.range.start.line, lens.command?.title]),
      [
        [0, '1 modify — against other.yaml'],
        [1, '✎ Update (no interruption) — VersioningConfiguration changed'],
      ],
    );
  });

  test('a revision that does not exist is reported unreachable, not replaced by another baseline', async () => {
    const status = await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'git', ref: 'no-such-branch' } });
    assert.deepEqual([status?.kind, status?.state], ['git', 'unreachable']);
    assert.match(status?.detail ?? '', /unknown revision no-such-branch/);
    assert.equal(await server.connection.sendRequest(baselineTextRequest, { uri }), null);
  });

  test('a revision that looks like an option is refused before git sees it', async () => {
    const status = await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'git', ref: '--output=/tmp/x' } });
    assert.equal(status?.state, 'unreachable');
    assert.match(status?.detail ?? '', /not a revision name/);
  });

  test('none: no comparison, a lens that says so', async () => {
    const status = await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'none' } });
    assert.deepEqual([status?.kind, status?.state], ['none', 'none']);
    await waitForPublished(server, uri, (d) => d.length === 0);
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.match(lenses[0]?.command?.title ?? '', /^No baseline: No baseline chosen/);
  });

  test('back to the default: HEAD again', async () => {
    const status = await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'default' } });
    assert.deepEqual([status?.kind, status?.state, status?.label], ['git', 'ok', 'HEAD']);
  });
});

/** The next diagnostics published for a document that satisfy a condition. */
async function waitForPublished(server: TestServer, uri: string, matches: (diagnostics: import('vscode-languageserver-protocol').Diagnostic[]) => boolean) {
  const start = server.published.length;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = server.published.slice(start).find((p) => p.uri === uri && matches(p.diagnostics));
    if (found) return found.diagnostics;
    if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${uri}; published: ${JSON.stringify(server.published.slice(start))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
