// A lookup keyed by a parameter with no value, edited in one entry, in the real server over stdio
// against git HEAD: the hover on the instance shows the entry that changed and the key that
// selects it (docs/update-rules.md#lookup-entries).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { committedRepository } from './support/gitRepository';
import { hoverText, pathToUri, TestServer } from './support/languageServer';
import { sizedInstance } from '../fixtures/sizedInstance';

describe('a lookup entry edited, in the editor', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    repo = committedRepository('cfn-impact-lsp-lookup-', { 'template.yaml': sizedInstance('m5.large') });
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
