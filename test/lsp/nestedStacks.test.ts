// Nested stacks in the real server over stdio (docs/update-rules.md#nested-stacks): a parent whose
// child template was edited since the last commit, with git HEAD as the baseline of both. The
// main thread reads the child at HEAD and on disk (or from an open document); the worker rolls
// the child's plan up into the stack resource's lens.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { pathToUri, TestServer } from './support/languageServer';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

const parent = (url: string) => `Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ${url}
      Parameters:
        Cidr: 10.0.0.0/16
`;

const network = (cidr: string, name: string) => `Parameters:
  Cidr:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: ${cidr}
  Alerts:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: ${name}
`;

describe('nested stacks with a git baseline', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-nested-'));
    git(repo, 'init', '-q', '-b', 'main');
    mkdirSync(join(repo, 'stacks'));
    writeFileSync(join(repo, 'parent.yaml'), parent('stacks/network.yaml'));
    writeFileSync(join(repo, 'missing.yaml'), parent('stacks/network.yaml'));
    writeFileSync(join(repo, 'stacks', 'network.yaml'), network('!Ref Cidr', 'alerts'));
    git(repo, 'add', '--', 'parent.yaml', 'missing.yaml', 'stacks/network.yaml');
    git(repo, 'commit', '-q', '-m', 'first');
    // Edited since the commit: only the child, on disk.
    writeFileSync(join(repo, 'stacks', 'network.yaml'), network('10.9.0.0/16', 'alerts'));
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test("a child-only edit on disk is a lens on the parent's stack resource counting the child's changes", async () => {
    const uri = pathToUri(join(repo, 'parent.yaml'));
    await server.diagnostics(uri, await server.open(uri, parent('stacks/network.yaml')));
    const lenses = (await server.codeLenses(uri)) ?? [];
    const titles = lenses.filter((lens) => lens.range.start.line === 1).map((lens) => lens.command?.title);
    assert.deepEqual(titles, ['✎ nested: 1 replace']);
  });

  test("an open child document is read as edited: its unsaved text is the child's new side", async () => {
    const childUri = pathToUri(join(repo, 'stacks', 'network.yaml'));
    const unsaved = network('10.9.0.0/16', 'alarms');
    await server.diagnostics(childUri, await server.open(childUri, unsaved));
    const uri = pathToUri(join(repo, 'parent.yaml'));
    const version = await server.change(uri, `${parent('stacks/network.yaml')}\n`);
    await server.diagnostics(uri, version);
    const lenses = (await server.codeLenses(uri)) ?? [];
    const titles = lenses.filter((lens) => lens.range.start.line === 1).map((lens) => lens.command?.title);
    assert.deepEqual(titles, ['✎ nested: 1 replace · 1 modify']);
  });

  test('an edit to the open child analyses its parent again, without touching the parent', async () => {
    const childUri = pathToUri(join(repo, 'stacks', 'network.yaml'));
    // Back to the committed VPC: only the topic's new name is left in the child.
    await server.change(childUri, network('!Ref Cidr', 'alarms'));
    const uri = pathToUri(join(repo, 'parent.yaml'));
    const deadline = Date.now() + 15_000;
    let titles: (string | undefined)[] = [];
    while (Date.now() < deadline) {
      const lenses = (await server.codeLenses(uri)) ?? [];
      titles = lenses.filter((lens) => lens.range.start.line === 1).map((lens) => lens.command?.title);
      if (titles[0] === '✎ nested: 1 modify') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(titles, ['✎ nested: 1 modify']);
  });

  test('a TemplateURL naming a file that does not exist is an error at TemplateURL', async () => {
    const uri = pathToUri(join(repo, 'missing.yaml'));
    const text = parent('stacks/nowhere.yaml');
    const diagnostics = await server.diagnostics(uri, await server.open(uri, text));
    const error = diagnostics.find((d) => d.code === 'nested-template-missing');
    assert.equal(error?.severity, DiagnosticSeverity.Error);
    assert.equal(error?.message, 'Parameter TemplateURL of resource Network refers to a file or folder that does not exist stacks/nowhere.yaml');
    assert.equal(error?.range.start.line, 4);
  });
});
