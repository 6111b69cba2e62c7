// Real templates nobody here wrote, opened in the real server over stdio against their git HEAD,
// as a user who just cloned a repository of them would: no parameters file, no linked stack.
// Every one that CloudFormation accepts shows the no-op verdict, no error and no "rejected" lens;
// a one-line edit shows exactly its resource's change; and the CLI gives the same verdict for the
// same pair, because both faces share the engine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DiagnosticSeverity, type CodeLens } from 'vscode-languageserver-protocol';
import { main } from '../../server/src/cli/main';
import { CORPUS, CORPUS_EXCEPTIONS, ONE_LINE_EDITS, corpusPath, corpusSkip, corpusTemplates } from '../fixtures/realTemplates';
import { pathToUri, TestServer } from './support/languageServer';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

/** What `cfn-impact diff --json` answers for a pair of files. */
async function cliVerdict(oldPath: string, newPath: string): Promise<{ status: string; message: string; changes: { logicalId: string; action: string; impact: string }[] }> {
  let stdout = '';
  await main(['diff', '--json', oldPath, newPath], { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: {} });
  return JSON.parse(stdout);
}

function verdictLens(lenses: CodeLens[]): string {
  const titles = lenses.filter((lens) => lens.range.start.line === 0).map((lens) => lens.command?.title ?? '');
  assert.equal(titles.length, 1, `one verdict lens on the first line, got ${JSON.stringify(titles)}`);
  return titles[0];
}

/** How many documents are open and analysed at once: enough to keep the worker busy, few enough to stay gentle. */
const BATCH = 8;

describe('real templates in the language server, against git HEAD, with no parameter values', { skip: corpusSkip }, () => {
  if (corpusSkip) return;
  let repo: string;
  let server: TestServer;
  const files = corpusTemplates().map(corpusPath);
  /** Each edit gets its own copy of the template, committed as it is and edited in the working tree. */
  const editPaths = ONE_LINE_EDITS.map((edit, i) => join('edits', String(i), edit.file.split('/').pop()!));

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-real-templates-'));
    git(repo, 'init', '-q', '-b', 'main');
    const copy = (from: string, to: string) => {
      mkdirSync(dirname(join(repo, to)), { recursive: true });
      writeFileSync(join(repo, to), readFileSync(join(CORPUS, from)));
    };
    for (const path of files) copy(path, path);
    ONE_LINE_EDITS.forEach((edit, i) => copy(edit.file, editPaths[i]));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'the corpus as found');
    ONE_LINE_EDITS.forEach((edit, i) => {
      const path = join(repo, editPaths[i]);
      writeFileSync(path, readFileSync(path, 'utf8').replace(edit.from, edit.to));
    });
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  test('every template CloudFormation accepts is a no-op with no error and no "rejected" lens; the CLI agrees on every one', async () => {
    const problems: string[] = [];
    for (let start = 0; start < files.length; start += BATCH) {
      await Promise.all(
        files.slice(start, start + BATCH).map(async (path) => {
          const file = join(repo, path);
          const uri = pathToUri(file);
          const text = readFileSync(file, 'utf8');
          const diagnostics = await server.diagnostics(uri, await server.open(uri, text, path.endsWith('.json') ? 'json' : 'yaml'));
          const lenses = (await server.codeLenses(uri)) ?? [];
          await server.close(uri);
          const cli = await cliVerdict(file, file);
          const exception = CORPUS_EXCEPTIONS[path];
          if (exception) {
            // Not deployable as written: both faces say so, or (not a template at all) the editor stays silent.
            if (cli.status !== 'error') problems.push(`${path}: listed as rejected (${exception}) but the CLI says ${cli.status}`);
            if (lenses.length > 0 && !verdictLens(lenses).startsWith('✖ Update would be rejected')) problems.push(`${path}: the editor does not say it is rejected`);
            return;
          }
          const verdict = verdictLens(lenses);
          const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => `${d.code}: ${d.message}`);
          const rejected = lenses.map((lens) => lens.command?.title ?? '').filter((title) => /rejected/i.test(title));
          if (errors.length > 0) problems.push(`${path}: error diagnostics ${JSON.stringify(errors)}`);
          if (rejected.length > 0) problems.push(`${path}: lens ${JSON.stringify(rejected)}`);
          if (!verdict.startsWith('No updates are to be performed — against HEAD')) problems.push(`${path}: verdict lens "${verdict}"`);
          if (cli.status !== 'noop') problems.push(`${path}: the CLI says ${cli.status}: ${cli.message}`);
        }),
      );
    }
    assert.deepEqual(problems, []);
  });

  for (const [i, edit] of ONE_LINE_EDITS.entries()) {
    test(`a one-line edit gives exactly its resource's change, in the editor and the CLI: ${edit.file} ${edit.to.trim()}`, async () => {
      const file = join(repo, editPaths[i]);
      const uri = pathToUri(file);
      const text = readFileSync(file, 'utf8');
      const diagnostics = await server.diagnostics(uri, await server.open(uri, text, file.endsWith('.json') ? 'json' : 'yaml'));
      const lenses = (await server.codeLenses(uri)) ?? [];
      assert.deepEqual(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error), []);
      assert.match(verdictLens(lenses), /^1 modify( \(1 replace\))? — against HEAD/);
      const resourceLine = text.split('\n').findIndex((line) => line.trimStart().startsWith(`${edit.logicalId}:`) || line.trimStart().startsWith(`"${edit.logicalId}":`));
      const changeLenses = lenses.filter((lens) => lens.range.start.line !== 0);
      assert.deepEqual(changeLenses.map((lens) => lens.range.start.line), [resourceLine]);
      assert.match(changeLenses[0].command!.title, edit.impact === 'replacement' ? /^⟳ Replace/ : /^✎ Update \(no interruption\)/);

      const original = join(CORPUS, edit.file);
      const cli = await cliVerdict(original, file);
      assert.equal(cli.status, 'update');
      assert.deepEqual(cli.changes.map((c) => [c.logicalId, c.action, c.impact]), [[edit.logicalId, 'Modify', edit.impact]]);
      await server.close(uri);
    });
  }
});
