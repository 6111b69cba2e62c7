// A resource updated for another reason, whose properties hold dynamic references, in the real
// server over stdio against git HEAD: its hover says the update may resolve them again
// (docs/update-rules.md#dynamic-references); a resource left as it is says nothing of them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { committedRepository } from './support/gitRepository';
import { hoverText, pathToUri, TestServer } from './support/languageServer';
import { functionWithReferences } from '../fixtures/dynamicReferences';

const template = (memory: number) => functionWithReferences(memory);

describe('dynamic references in the editor', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    repo = committedRepository('cfn-impact-lsp-dynamic-', { 'template.yaml': template(128) });
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test("the function's new memory: its hover says the update may resolve its reference again; the queue's hover says nothing of its own", async () => {
    const uri = pathToUri(join(repo, 'template.yaml'));
    const edited = template(256);
    await server.diagnostics(uri, await server.open(uri, edited));
    const fn = hoverText(await server.hover(uri, 1, 3));
    assert.match(fn, /updated, it resolves \{\{resolve:ssm:\/app\/version\}\}, \{\{resolve:secretsmanager:db-credentials:SecretString:password\}\} again: values stored there since the last deployment may go live with it/);
    const queue = hoverText(await server.hover(uri, edited.split('\n').indexOf('  Queue:'), 3));
    assert.doesNotMatch(queue, /resolves/);
  });
});
