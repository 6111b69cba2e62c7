// A template edited since its last commit, opened in the real server over stdio: the git HEAD
// version is the baseline, with no client setup, and the findings say what deploying the edit does.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { git } from './support/gitRepository';
import { pathToUri, TestServer } from './support/languageServer';
import { committedNetwork, editedNetwork } from '../fixtures/editedNetwork';

const committed = committedNetwork;
const edited = editedNetwork;

/** Zero-based line of the first line that is exactly `content`. */
function lineOf(text: string, content: string): number {
  const line = text.split('\n').indexOf(content);
  assert.notEqual(line, -1, `no line "${content}"`);
  return line;
}


describe('git HEAD as the baseline', () => {
  let repo: string;
  let server: TestServer;
  // A name that breaks any command line built as a string: spaces, quotes, `;`, `$()` and a leading `-`.
  const awkwardName = `-it's a "stack"; $(touch pwned).yaml`;

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-git-'));
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'stack.yaml'), committed);
    writeFileSync(join(repo, awkwardName), committed);
    writeFileSync(join(repo, 'same.yaml'), committed);
    git(repo, 'add', '--', 'stack.yaml', awkwardName, 'same.yaml');
    git(repo, 'commit', '-q', '-m', 'first');
    writeFileSync(join(repo, 'stack.yaml'), edited);
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test('each replaced resource gets a warning naming the cause chain, at its logical id', async () => {
    const uri = pathToUri(join(repo, 'stack.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.open(uri, edited));
    const replacements = diagnostics.filter((d) => d.code === 'replacement');
    assert.deepEqual(
      replacements.map((d) => [d.range.start.line, d.severity, d.source]),
      [
        [lineOf(edited, '  Network:'), DiagnosticSeverity.Warning, 'cfn-impact'],
        [lineOf(edited, '  PublicSubnet:'), DiagnosticSeverity.Warning, 'cfn-impact'],
      ],
    );
    assert.equal(replacements[0].message, 'Replacement: CidrBlock ← parameter Cidr → new Network');
    // The subnet's own CidrBlock changed too: both properties require replacement.
    assert.equal(replacements[1].message, 'Replacement: CidrBlock ← parameter Cidr → new Network → new PublicSubnet (VpcId, CidrBlock)');
    assert.equal(replacements[0].range.start.character, 2);
    assert.equal(replacements[0].range.end.character, 2 + 'Network'.length);
    // A no-interruption update is not a problem: it shows in the lens only.
    assert.equal(diagnostics.filter((d) => d.range.start.line === lineOf(edited, '  Logs:')).length, 0);
  });

  test('lenses say what happens to each resource and give the verdict on the first line', async () => {
    const uri = pathToUri(join(repo, 'stack.yaml'));
    const lenses = (await server.codeLenses(uri)) ?? [];
    const titlesAt = (line: number) => lenses.filter((lens) => lens.range.start.line === line).map((lens) => lens.command?.title ?? '');
    assert.equal(titlesAt(0).length, 1);
    assert.match(titlesAt(0)[0], /^1 add · 3 modify \(2 replace\) · 1 remove — against HEAD/);
    assert.deepEqual(titlesAt(lineOf(edited, '  Network:')), ['⟳ Replace — CidrBlock ← parameter Cidr']);
    assert.match(titlesAt(lineOf(edited, '  PublicSubnet:'))[0], /^⟳ Replace — (CidrBlock changed|VpcId ← Network replaced)/);
    assert.deepEqual(titlesAt(lineOf(edited, '  Logs:')), ['✎ Update (no interruption) — Tags changed']);
    assert.deepEqual(titlesAt(lineOf(edited, '  Alerts:')), ['+ Add']);
    assert.equal(titlesAt(lineOf(edited, 'Resources:')).length, 1);
    assert.match(titlesAt(lineOf(edited, 'Resources:'))[0], /^− Remove Jobs — .*deleted during cleanup/);
    // The edited parameter says, on its own line, what it replaces; its lens shows those resources.
    const cidrLine = lineOf(edited, '  Cidr:');
    assert.deepEqual(titlesAt(cidrLine), ['⟳ replaces Network, PublicSubnet']);
    for (const lens of lenses) {
      if (lens.range.start.line === cidrLine) {
        assert.equal(lens.command?.command, 'cfnImpact.showImpacts');
        assert.deepEqual(lens.command?.arguments, [{ uri, line: cidrLine, locations: [{ line: lineOf(edited, '  Network:'), character: 2 }, { line: lineOf(edited, '  PublicSubnet:'), character: 2 }] }]);
        continue;
      }
      assert.equal(lens.command?.command, 'cfnImpact.openDiff');
      assert.deepEqual(lens.command?.arguments, [{ uri, line: lens.range.start.line }]);
    }
  });

  test('hovering a property shows its update behaviour and what changed', async () => {
    const uri = pathToUri(join(repo, 'stack.yaml'));
    const line = lineOf(edited, '      CidrBlock: !Ref Cidr');
    const hover = await server.hover(uri, line, 8);
    const text = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    assert.match(text, /Update requires: Replacement/);
    assert.match(text, /Changed in this update/);
    assert.match(text, /parameter Cidr/);
    assert.match(text, /docs\.aws\.amazon\.com/);
    assert.deepEqual(hover?.range?.start, { line, character: 6 });
  });

  test('hovering an unchanged property still tells what changing it would do', async () => {
    const uri = pathToUri(join(repo, 'same.yaml'));
    assert.deepEqual(await server.diagnostics(uri, await server.open(uri, committed)), []);
    const hover = await server.hover(uri, lineOf(committed, '      VpcId: !Ref Network'), 8);
    const text = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    assert.match(text, /Update requires: Replacement/);
    assert.doesNotMatch(text, /Changed in this update/);
  });

  test('an unchanged template gets the no-op verdict and no findings', async () => {
    const uri = pathToUri(join(repo, 'same.yaml'));
    const reordered = committed.replace("AWSTemplateFormatVersion: '2010-09-09'\n", '') + "AWSTemplateFormatVersion: '2010-09-09' # moved\n";
    const version = await server.change(uri, reordered);
    assert.deepEqual(await server.diagnostics(uri, version), []);
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.deepEqual(
      lenses.map((lens) => [lens.range.start.line, lens.command?.title]),
      [[0, 'No updates are to be performed — against HEAD']],
    );
  });

  test('the baseline status names HEAD and the commit it was read at', async () => {
    const uri = pathToUri(join(repo, 'stack.yaml'));
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    const status = await server.status(uri, (s) => s.state === 'ok');
    assert.equal(status.kind, 'git');
    assert.equal(status.label, 'HEAD');
    assert.equal(status.revision, head.slice(0, 12));
  });

  test('a file name full of shell characters is read from git like any other', async () => {
    const uri = pathToUri(join(repo, awkwardName));
    const text = committed.replace('Default: 10.0.0.0/16', 'Default: 10.9.0.0/16');
    const diagnostics = await server.diagnostics(uri, await server.open(uri, text));
    assert.equal(diagnostics[0]?.message, 'Replacement: CidrBlock ← parameter Cidr → new Network');
    assert.equal((await server.status(uri, (s) => s.state === 'ok')).label, 'HEAD');
    await server.close(uri);
  });

  test('an untracked file has no baseline and says so', async () => {
    writeFileSync(join(repo, 'new.yaml'), edited);
    const uri = pathToUri(join(repo, 'new.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.open(uri, edited));
    assert.deepEqual(diagnostics, []);
    const status = await server.status(uri, () => true);
    assert.deepEqual([status.kind, status.state], ['git', 'none']);
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.equal(lenses.length, 1);
    assert.match(lenses[0].command?.title ?? '', /^No baseline: Not tracked by git/);
    await server.close(uri);
  });

  test('when HEAD moves to a commit holding the edit, the findings are withdrawn', async () => {
    const uri = pathToUri(join(repo, 'stack.yaml'));
    const before = server.published.length;
    git(repo, 'commit', '-q', '-am', 'second');
    const head = git(repo, 'rev-parse', 'HEAD').trim();
    await server.status(uri, (s) => s.revision === head.slice(0, 12));
    const republished = await waitUntil(() => server.published.slice(before).find((p) => p.uri === uri && p.diagnostics.length === 0));
    assert.deepEqual(republished.diagnostics, []);
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.equal(lenses[0]?.command?.title, 'No updates are to be performed — against HEAD');
  });
});

async function waitUntil<T>(probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
