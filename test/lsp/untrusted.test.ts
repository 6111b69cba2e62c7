// In an untrusted workspace the server runs no git command (and makes no AWS call) until the
// client says the workspace is trusted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { environmentNotification } from '../../server/src/lsp/protocol';
import { pathToUri, TestServer } from './support/languageServer';

const committed = 'Resources:\n  Data:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: data-one\n';
const edited = committed.replace('data-one', 'data-two');

describe('an untrusted workspace', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-untrusted-'));
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(join(repo, 'stack.yaml'), committed);
    execFileSync('git', ['add', '--', 'stack.yaml'], { cwd: repo });
    execFileSync('git', ['commit', '-q', '-m', 'first'], { cwd: repo, env });
    server = await TestServer.start({ workspace: repo, initializationOptions: { environment: { trusted: false, aws: {} } } });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test('has no git baseline: only template problems, and a status that says why', async () => {
    const uri = pathToUri(join(repo, 'stack.yaml'));
    assert.deepEqual(await server.diagnostics(uri, await server.open(uri, edited)), []);
    const status = await server.status(uri, () => true);
    assert.deepEqual([status.kind, status.state], ['git', 'none']);
    assert.match(status.detail ?? '', /not trusted/);
  });

  test('once trusted, HEAD becomes the baseline', async () => {
    const uri = pathToUri(join(repo, 'stack.yaml'));
    await server.connection.sendNotification(environmentNotification, { trusted: true, aws: {} });
    assert.equal((await server.status(uri, (s) => s.state === 'ok')).label, 'HEAD');
    const lenses = await server.codeLenses(uri);
    assert.match(lenses?.[0]?.command?.title ?? '', /^1 modify \(1 replace\) — against HEAD/);
  });
});
