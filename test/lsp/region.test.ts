// The Region in the editor, through the real server over stdio against git HEAD
// (docs/update-rules.md#region): unknown unless the user says it, the per-template setting
// first, then the first Region stacks are read from.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { committedRepository } from './support/gitRepository';
import { hoverText, pathToUri, TestServer } from './support/languageServer';
import { imageByRegion } from '../fixtures/regionalTemplates';

const edited = imageByRegion('ami-33333333');
const hostLine = edited.split('\n').indexOf('  Host:');

describe("an edit to one Region's entry, in the editor", () => {
  let repo: string;
  const servers: TestServer[] = [];

  before(() => {
    repo = committedRepository('cfn-impact-lsp-region-', { 'stack.yaml': imageByRegion('ami-22222222') });
  });

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(repo, { recursive: true, force: true });
  });

  /** The hover on the instance and the lenses, once the edited text is analysed. */
  async function analysed(options: Parameters<typeof TestServer.start>[0]): Promise<{ hover: string; lenses: string[] }> {
    const server = await TestServer.start({ workspace: repo, ...options });
    servers.push(server);
    const uri = pathToUri(join(repo, 'stack.yaml'));
    await server.diagnostics(uri, await server.open(uri, edited));
    const lenses = ((await server.codeLenses(uri)) ?? []).map((lens) => lens.command?.title ?? '');
    return { hover: hoverText(await server.hover(uri, hostLine, 3)), lenses };
  }

  test('with no Region, the instance is replaced if the stack runs in eu-west-1', async () => {
    const { hover } = await analysed({});
    assert.match(hover, /ImageId changed if the Region is eu-west-1/);
  });

  test('a template deployed to another Region (cfnImpact.analysis.regions, before cfnImpact.aws.regions) is not changed', async () => {
    const { hover, lenses } = await analysed({
      settings: { analysis: { regions: { '*.yaml': 'us-east-1' } } },
      initializationOptions: { environment: { aws: { regions: ['eu-west-1'] } } },
    });
    assert.doesNotMatch(hover, /ImageId changed/);
    assert.deepEqual(lenses.filter((title) => /Replace/.test(title)), []);
  });

  test('with stacks read from eu-west-1 first (cfnImpact.aws.regions), the replacement is unqualified', async () => {
    const { hover } = await analysed({ initializationOptions: { environment: { aws: { regions: ['eu-west-1', 'us-east-1'] } } } });
    assert.match(hover, /ImageId changed/);
    assert.doesNotMatch(hover, /if the Region is/);
  });
});
