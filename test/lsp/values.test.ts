// Changed values in the real server over stdio against git HEAD, as the template writes them
// (docs/in-the-editor.md#values): an import of a Fn::Sub over a parameter with no value, and a
// lookup keyed by one, shown in the hover of the property with the entry that changed and where.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { committedRepository } from './support/gitRepository';
import { hoverText, pathToUri, TestServer } from './support/languageServer';
import { importedSubnet } from '../fixtures/changedValues';
import { sizedInstance } from '../fixtures/sizedInstance';

const subnet = importedSubnet;

describe('changed values in the editor', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    repo = committedRepository('cfn-impact-lsp-values-', { 'subnet.yaml': subnet('SubnetAPublic'), 'sized.yaml': sizedInstance('m5.large') });
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test('the hover of an Fn::ImportValue of a Fn::Sub shows the Sub as written', async () => {
    const uri = pathToUri(join(repo, 'subnet.yaml'));
    const edited = subnet('SubnetBPublic');
    await server.diagnostics(uri, await server.open(uri, edited));
    const hover = hoverText(await server.hover(uri, edited.split('\n').findIndex((line) => line.includes('SubnetId:')), 8));
    assert.ok(hover.includes('`!ImportValue "${ParentVPCStack}-SubnetAPublic"` → `!ImportValue "${ParentVPCStack}-SubnetBPublic"`'), hover);
  });

  test('the hover of a lookup keyed by a parameter with no value shows the entry that changed and where it applies', async () => {
    const uri = pathToUri(join(repo, 'sized.yaml'));
    const edited = sizedInstance('m5.xlarge');
    await server.diagnostics(uri, await server.open(uri, edited));
    const hover = hoverText(await server.hover(uri, edited.split('\n').findIndex((line) => line.includes('InstanceType:')), 8));
    assert.ok(hover.includes('`"m5.large"` → `"m5.xlarge"` if Size is large'), hover);
  });
});
