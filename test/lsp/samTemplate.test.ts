// The `sam init` hello-world template, edited since its last commit, in the real server over
// stdio: what deploying the edit does is said on the SAM lines the person wrote, not on the
// CloudFormation resources the Serverless transform generates from them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { git } from './support/gitRepository';
import { hoverText, pathToUri, TestServer } from './support/languageServer';
import { committedSamApp, editedSamApp } from '../fixtures/samHelloWorld';

const committed = committedSamApp;
const edited = editedSamApp;

/** A longer timeout alone: SAM's version id does not hash it, so the alias keeps the version it serves. */
const longerTimeout = committed.replace('Timeout: 3', 'Timeout: 10');

/** A role path for every function, set in Globals: IAM cannot change a role's path in place. */
const withRolePath = committed.replace('    Timeout: 3\n', '    Timeout: 3\n    RolePath: /app/\n');

/** Zero-based line of the first line that is exactly `content`. */
function lineOf(text: string, content: string): number {
  const line = text.split('\n').indexOf(content);
  assert.notEqual(line, -1, `no line "${content}"`);
  return line;
}



describe('a SAM template against git HEAD', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-sam-'));
    git(repo, 'init', '-q', '-b', 'main');
    // The code folders the templates name are there, as `sam init` makes them.
    for (const folder of ['hello_world', 'hello_world_v2']) {
      mkdirSync(join(repo, folder));
      writeFileSync(join(repo, folder, 'app.py'), 'def lambda_handler(event, context):\n    return {"statusCode": 200}\n');
    }
    writeFileSync(join(repo, 'template.yaml'), committed);
    writeFileSync(join(repo, 'globals.yaml'), committed);
    writeFileSync(join(repo, 'timeout.yaml'), committed);
    git(repo, 'add', '--', 'template.yaml', 'globals.yaml', 'timeout.yaml');
    git(repo, 'commit', '-q', '-m', 'sam init');
    writeFileSync(join(repo, 'template.yaml'), edited);
    writeFileSync(join(repo, 'globals.yaml'), withRolePath);
    writeFileSync(join(repo, 'timeout.yaml'), longerTimeout);
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test('Timeout and CodeUri edited: the function line has one lens, an update without interruption and a new version', async () => {
    const uri = pathToUri(join(repo, 'template.yaml'));
    await server.diagnostics(uri, await server.open(uri, edited));
    const lenses = (await server.codeLenses(uri)) ?? [];
    const titles = lenses.map((lens) => [lens.range.start.line, lens.command?.title]);
    // The function, its new version and the alias that moves to it (the old version is kept:
    // SAM retains versions); on the Globals Timeout, what that edit updates; and nothing on any
    // other line but the verdict.
    assert.deepEqual(titles, [
      [0, '1 add · 2 modify · 1 remove — against HEAD'],
      [lineOf(edited, '  HelloWorldFunction:'), 'Timeout, CodeUri → ✎ Update (no interruption) · + new version'],
      [lineOf(edited, '    Timeout: 10'), '✎ updates HelloWorldFunction'],
    ]);
  });

  test('the local CodeUri is said, on its line, to hide changes to its files; an update without interruption is no problem', async () => {
    const uri = pathToUri(join(repo, 'template.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.change(uri, edited));
    assert.deepEqual(
      diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.range.end.character, d.severity, d.code]),
      [[lineOf(edited, '      CodeUri: hello_world_v2/'), '      CodeUri: '.length, '      CodeUri: hello_world_v2/'.length, DiagnosticSeverity.Information, 'sam-local-artifact']],
    );
    const message = diagnostics[0].message;
    assert.match(typeof message === 'string' ? message : message.value, /hello_world_v2\/ is a local path .* not visible to this comparison/);
  });

  test('a CodeUri folder that is not beside the template is a warning at CodeUri; the creation is still predicted', async () => {
    const typo = edited.replace('CodeUri: hello_world_v2/', 'CodeUri: hello_wrld/');
    const uri = pathToUri(join(repo, 'typo.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.open(uri, typo));
    const line = lineOf(typo, '      CodeUri: hello_wrld/');
    assert.deepEqual(
      diagnostics.filter((d) => d.range.start.line === line).map((d) => [d.range.start.character, d.range.end.character, d.severity, d.code]),
      [['      CodeUri: '.length, '      CodeUri: hello_wrld/'.length, DiagnosticSeverity.Warning, 'sam-local-artifact-missing']],
    );
    assert.deepEqual(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error), []);
  });

  test("keystrokes in one function move what follows it: the next function's lens and CodeUri note", async () => {
    const uri = pathToUri(join(repo, 'template.yaml'));
    // A second function, new since HEAD, after the first.
    const second = '  SecondFunction:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: hello_world/\n      Handler: app.lambda_handler\n      Runtime: python3.13\n';
    let text = edited.replace('\nOutputs:\n', `\n${second}\nOutputs:\n`);
    await server.diagnostics(uri, await server.change(uri, text));
    // A comment above the first function, then its handler typed letter by letter: each analysis
    // starts from the last expansion, whose ranges for the second function must follow the text.
    text = text.replace('Resources:\n', 'Resources:\n  # the functions\n');
    for (const handler of ['app.lambda_handler2', 'app.lambda_handler23']) {
      // The first function's handler comes first in the text.
      text = text.replace(/Handler: app\.lambda_handler\d*/, `Handler: ${handler}`);
      const diagnostics = await server.diagnostics(uri, await server.change(uri, text));
      assert.deepEqual(
        diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.code]).sort((a, b) => (a[0] as number) - (b[0] as number)),
        [
          [lineOf(text, '      CodeUri: hello_world_v2/'), '      CodeUri: '.length, 'sam-local-artifact'],
          [lineOf(text, '      CodeUri: hello_world/'), '      CodeUri: '.length, 'sam-local-artifact'],
        ],
      );
      const lenses = (await server.codeLenses(uri)) ?? [];
      const onLine = (line: number) => lenses.filter((lens) => lens.range.start.line === line).map((lens) => lens.command?.title ?? '');
      assert.deepEqual(onLine(lineOf(text, '  HelloWorldFunction:')), ['Handler, Timeout and 1 more → ✎ Update (no interruption) · + new version']);
      assert.match(onLine(lineOf(text, '  SecondFunction:'))[0] ?? '', /^\+ Add/);
    }
    await server.diagnostics(uri, await server.change(uri, edited));
  });

  test('while a key typed above a function does not parse yet, its lens, its hover and its CodeUri note stay with it, beside the YAML error', async () => {
    const uri = pathToUri(join(repo, 'template.yaml'));
    await server.diagnostics(uri, await server.change(uri, edited));
    const typing = (key: string) => edited.replace('    Timeout: 10\n', `    Timeout: 10\n    ${key}\n`);
    const titles = async () => ((await server.codeLenses(uri)) ?? []).map((lens) => [lens.range.start.line, lens.command?.title]);
    const hoverOnFunction = async (text: string) => server.hover(uri, lineOf(text, '  HelloWorldFunction:'), 4);
    const parsedHover = await hoverOnFunction(edited);
    assert.match(hoverText(parsedHover), /HelloWorldFunctionAliaslive/);
    try {
      for (const key of ['M', 'Mem', 'MemorySize']) {
        const text = typing(key);
        const diagnostics = await server.diagnostics(uri, await server.change(uri, text));
        // The parser's error, then the note the last text that parsed had, on the line CodeUri now is.
        assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code]), [
          [lineOf(text, `    ${key}`), 'yaml-syntax'],
          [lineOf(text, '      CodeUri: hello_world_v2/'), 'sam-local-artifact'],
        ]);
        const lenses = await titles();
        assert.match(String(lenses[0]?.[1]), /^✖ Update would be rejected: .+ — against HEAD · below, the last text that parsed$/);
        // The function's lens is the one before the key was begun, one line lower, as the function now is.
        assert.deepEqual(lenses.slice(1), [
          [lineOf(text, '  HelloWorldFunction:'), 'Timeout, CodeUri → ✎ Update (no interruption) · + new version'],
          [lineOf(text, '    Timeout: 10'), '✎ updates HelloWorldFunction'],
        ]);
        // So is its hover, over the function's key where it now is; the key being typed has none.
        const hover = await hoverOnFunction(text);
        assert.equal(hoverText(hover), hoverText(parsedHover));
        assert.equal(hover?.range?.start.line, lineOf(text, '  HelloWorldFunction:'));
        assert.equal(await server.hover(uri, lineOf(text, `    ${key}`), 5), null);
      }
      const typed = typing('MemorySize: 256');
      await server.diagnostics(uri, await server.change(uri, typed));
      assert.deepEqual(await titles(), [
        [0, '1 add · 2 modify · 1 remove — against HEAD'],
        [lineOf(typed, '  HelloWorldFunction:'), 'Timeout, CodeUri and 1 more → ✎ Update (no interruption) · + new version'],
        [lineOf(typed, '    Timeout: 10'), '✎ updates HelloWorldFunction'],
        [lineOf(typed, '    MemorySize: 256'), '✎ updates HelloWorldFunction'],
      ]);
    } finally {
      await server.diagnostics(uri, await server.change(uri, edited));
    }
  });

  test('hovers on the SAM lines name the generated resources and what happens to each', async () => {
    const uri = pathToUri(join(repo, 'template.yaml'));
    const onFunction = hoverText(await server.hover(uri, lineOf(edited, '  HelloWorldFunction:'), 4));
    assert.match(onFunction, /^\*\*HelloWorldFunction\*\* · `AWS::Serverless::Function`/);
    assert.match(onFunction, /`HelloWorldFunctionAliaslive` · AWS::Lambda::Alias — \*\*✎ Update \(no interruption\)\*\*: FunctionVersion changed/);
    assert.match(onFunction, /`HelloWorldFunctionVersion[0-9a-f]{10}` · AWS::Lambda::Version — \*\*\+ Add\*\*/);
    assert.match(onFunction, /`HelloWorldFunctionRole` · AWS::IAM::Role — unchanged/);
    assert.match(onFunction, /`ServerlessRestApi` · AWS::ApiGateway::RestApi — unchanged/);
    const onTimeout = hoverText(await server.hover(uri, lineOf(edited, '    Timeout: 10'), 6));
    assert.match(onTimeout, /^\*\*Globals\.Function\.Timeout\*\*/);
    assert.match(onTimeout, /`HelloWorldFunction` · AWS::Lambda::Function — \*\*✎ Update \(no interruption\)\*\*: Timeout changed/);
  });

  test('a role path set in Globals replaces the generated role: the warning is on the Globals line, the lens on the function', async () => {
    const uri = pathToUri(join(repo, 'globals.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.open(uri, withRolePath));
    const replacements = diagnostics.filter((d) => d.code === 'replacement');
    assert.deepEqual(
      replacements.map((d) => [d.range.start.line, d.range.start.character, d.range.end.character, d.severity]),
      [[lineOf(withRolePath, '    RolePath: /app/'), 4, 4 + 'RolePath'.length, DiagnosticSeverity.Warning]],
    );
    assert.equal(replacements[0].message, 'Replacement: Path changed → new HelloWorldFunctionRole');
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.deepEqual(
      lenses.filter((lens) => lens.range.start.line !== 0).map((lens) => [lens.range.start.line, lens.command?.title]),
      [
        [lineOf(withRolePath, '  HelloWorldFunction:'), 'RolePath → ✎ Update (no interruption) · ⟳ role'],
        [lineOf(withRolePath, '    RolePath: /app/'), '⟳ replaces HelloWorldFunction role'],
      ],
    );
  });

  test('a longer timeout under AutoPublishAlias: the warning that the alias keeps its version is on the Globals Timeout line', async () => {
    const uri = pathToUri(join(repo, 'timeout.yaml'));
    const diagnostics = await server.diagnostics(uri, await server.open(uri, longerTimeout));
    const unpublished = diagnostics.filter((d) => d.code === 'version-not-republished');
    assert.deepEqual(
      unpublished.map((d) => [d.range.start.line, d.severity]),
      [[lineOf(longerTimeout, '    Timeout: 10'), DiagnosticSeverity.Warning]],
    );
    assert.match(String(unpublished[0].message), /^Not published: this update changes HelloWorldFunction's Timeout, .* HelloWorldFunctionAliaslive still points at the function as it was\. SAM publishes a new version only when/);
  });
});
