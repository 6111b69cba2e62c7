// What the real server does with documents that are not templates, with broken templates, and with
// hostile input: it stays silent on other YAML/JSON, points at template errors, and keeps serving.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TestServer } from './support/languageServer';

const template = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      DelaySeconds: 5
`;

describe('documents the server is given', () => {
  let server: TestServer;

  before(async () => {
    // No workspace and untitled documents: no git, so every template has no baseline.
    server = await TestServer.start();
  });

  after(async () => {
    await server?.stop();
  });

  test('YAML that is not a CloudFormation template gets no diagnostics, lenses or hovers', async () => {
    const uri = 'untitled:deployment.yaml';
    const kubernetes = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  template:\n    spec: {containers: [{name: web, image: "nginx:1"}]}\n';
    assert.deepEqual(await server.diagnostics(uri, await server.open(uri, kubernetes)), []);
    assert.deepEqual(await server.codeLenses(uri), []);
    assert.equal(await server.hover(uri, 5, 3), null);
  });

  test('JSON that merely has a Resources key is not a template either', async () => {
    const uri = 'untitled:config.json';
    const text = '{ "Resources": { "cpu": 2, "memory": "4Gi" }, "name": "job" }';
    assert.deepEqual(await server.diagnostics(uri, await server.open(uri, text, 'json')), []);
    assert.deepEqual(await server.codeLenses(uri), []);
  });

  test('a template without a baseline shows its problems and one lens that says why nothing is compared', async () => {
    const uri = 'untitled:queue.yaml';
    assert.deepEqual(await server.diagnostics(uri, await server.open(uri, template)), []);
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.deepEqual(
      lenses.map((lens) => [lens.range.start.line, lens.command?.command]),
      [[0, 'cfnImpact.chooseBaseline']],
    );
    assert.match(lenses[0].command?.title ?? '', /^No baseline: Not a file on disk/);
    const status = await server.status(uri, () => true);
    assert.deepEqual([status.kind, status.state], ['git', 'none']);
  });

  test('a YAML syntax error is reported where it is', async () => {
    const uri = 'untitled:broken.yaml';
    const broken = template.replace('DelaySeconds: 5', 'DelaySeconds: [5');
    const diagnostics = await server.diagnostics(uri, await server.open(uri, broken));
    assert.ok(diagnostics.length > 0, 'a syntax error is reported');
    assert.ok(diagnostics.every((d) => d.source === 'cfn-impact'));
    const line = broken.split('\n').findIndex((text) => text.includes('DelaySeconds'));
    assert.ok(
      diagnostics.some((d) => d.range.start.line >= line && d.severity === 1),
      `an error on or after line ${line}: ${JSON.stringify(diagnostics)}`,
    );
  });

  test('a structural error in a template points at the offending key', async () => {
    const uri = 'untitled:structure.yaml';
    const text = `${template}Outputz:\n  Url:\n    Value: x\n`;
    const diagnostics = await server.diagnostics(uri, await server.open(uri, text));
    const line = text.split('\n').indexOf('Outputz:');
    assert.ok(
      diagnostics.some((d) => d.range.start.line === line && d.range.start.character === 0 && d.range.end.character === 'Outputz'.length),
      JSON.stringify(diagnostics),
    );
  });

  test('only the latest of quickly typed versions is published', async () => {
    const uri = 'untitled:typing.yaml';
    await server.open(uri, template);
    let version = 1;
    for (let i = 0; i < 10; i++) version = await server.change(uri, template.replace('DelaySeconds: 5', `DelaySeconds: ${i}`));
    assert.deepEqual(await server.diagnostics(uri, version), []);
    const stale = server.published.filter((p) => p.uri === uri && p.version !== undefined && p.version > 1 && p.version < version);
    assert.ok(stale.length < 9, `debounced: ${stale.length} intermediate versions were published`);
  });

  test('binary garbage, deep nesting and alias bombs do not take the server down', async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    const nestedYaml = `Resources:\n  X:\n    Type: AWS::SQS::Queue\n    Properties: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`;
    const nestedJson = `{"AWSTemplateFormatVersion":"2010-09-09","Resources":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const aliases = ['AWSTemplateFormatVersion: "2010-09-09"', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) aliases.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    aliases.push('Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties: {Tags: *i}');
    const inputs: [string, string, string][] = [
      ['untitled:garbage.yaml', `Resources:\n${garbage}`, 'yaml'],
      ['untitled:nested.yaml', nestedYaml, 'yaml'],
      ['untitled:nested.json', nestedJson, 'json'],
      ['untitled:aliases.yaml', aliases.join('\n'), 'yaml'],
    ];
    for (const [uri, text, language] of inputs) {
      const diagnostics = await server.diagnostics(uri, await server.open(uri, text, language), 30_000);
      assert.ok(Array.isArray(diagnostics), uri);
      assert.ok(Array.isArray(await server.codeLenses(uri)), uri);
      await server.hover(uri, 1, 2);
      await server.close(uri);
    }
    // Still serving: a normal template is analysed as before.
    const uri = 'untitled:after-garbage.yaml';
    assert.deepEqual(await server.diagnostics(uri, await server.open(uri, template)), []);
    assert.equal(server.exit, undefined);
  });

  test('closing a document clears its diagnostics', async () => {
    const uri = 'untitled:closing.yaml';
    await server.diagnostics(uri, await server.open(uri, template.replace('DelaySeconds: 5', 'DelaySeconds: [5')));
    const before = server.published.length;
    await server.close(uri);
    const deadline = Date.now() + 5000;
    while (!server.published.slice(before).some((p) => p.uri === uri && p.diagnostics.length === 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(server.published.slice(before).some((p) => p.uri === uri && p.diagnostics.length === 0));
  });
});
