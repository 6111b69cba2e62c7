// An edit outside the resources, in the real server over stdio against git HEAD
// (docs/in-the-editor.md#edit-sites): a real 1,092-line template (AWS's ECS cluster in a private
// VPC, as JSON) with a parameter's Default and a mapping entry edited, and a SAM app with a
// Globals value and a condition edited. Each edited line gets a lens naming what it changes, whose command
// lists those resources where they are, and a hover that lists them with why.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { commands, impactLocationsRequest, type ShowImpactsArguments } from '../../server/src/lsp/protocol';
import { committedRepository } from './support/gitRepository';
import { hoverText, pathToUri, TestServer } from './support/languageServer';
import { CORPUS, corpusSkip } from '../fixtures/realTemplates';
import { committedSamApp } from '../fixtures/samHelloWorld';

const CLUSTER = 'aws-cloudformation-templates/ECS/EC2LaunchType/clusters/private-vpc.json';

/** The `sam init` app with a condition that decides its function's memory. */
const samApp = committedSamApp
  .replace('Resources:\n', 'Conditions:\n  Verbose: !Equals [off, on]\nResources:\n')
  .replace('      Handler: app.lambda_handler\n', '      Handler: app.lambda_handler\n      MemorySize: !If [Verbose, 256, 128]\n');

/** The lens on a line, if there is one that is an edit's (its command shows the impacts). */
function editLens(lenses: CodeLens[] | null, line: number): { title: string; args: ShowImpactsArguments } | undefined {
  const lens = (lenses ?? []).find((l) => l.range.start.line === line && l.command?.command === commands.showImpacts);
  return lens ? { title: lens.command!.title, args: lens.command!.arguments![0] as ShowImpactsArguments } : undefined;
}

describe('edits outside the resources, in the editor', { skip: corpusSkip }, () => {
  if (corpusSkip) return;
  let repo: string;
  let server: TestServer;
  const committed = readFileSync(join(CORPUS, CLUSTER), 'utf8');
  const edited = committed.replace('"Default": "c4.xlarge"', '"Default": "m4.large"').replace('"CIDR": "10.0.0.0/24"', '"CIDR": "10.0.8.0/24"');
  const lines = edited.split('\n');
  /** The line of a key in the Parameters or Resources section, as the template indents them. */
  const keyLine = (key: string) => lines.indexOf(`        "${key}": {`);
  const uri = () => pathToUri(join(repo, 'cluster.json'));

  before(async () => {
    repo = committedRepository('cfn-impact-lsp-edit-sites-', { 'cluster.json': committed, 'app.yaml': samApp });
    server = await TestServer.start({ workspace: repo });
    await server.diagnostics(uri(), await server.open(uri(), edited, 'json'));
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test("a parameter's Default: a lens on the parameter naming what it replaces, which lists what it changes where they are", async () => {
    const line = keyLine('InstanceType');
    const lens = editLens(await server.codeLenses(uri()), line);
    assert.ok(lens, `a lens on line ${line}`);
    // The launch configuration is replaced (InstanceType: Update requires Replacement); its group
    // follows it. The replaced resource is named, the update counted.
    assert.equal(lens.title, '⟳ replaces ContainerInstances · ✎ updates 1');
    assert.deepEqual(lens.args.locations.map((p) => p.line), [keyLine('ECSAutoScalingGroup'), keyLine('ContainerInstances')]);
    const hover = hoverText(await server.hover(uri(), lines.indexOf('            "Default": "m4.large",'), 14));
    assert.match(hover, /\*\*Parameter InstanceType\*\*: this edit changes 2 resources/);
    assert.match(hover, /`ECSAutoScalingGroup` — .*\(through ContainerInstances\)/);
  });

  test('a mapping entry: a lens on the entry naming the replaced subnet and what follows it', async () => {
    const line = lines.indexOf('                "CIDR": "10.0.8.0/24"');
    const lens = editLens(await server.codeLenses(uri()), line);
    assert.ok(lens, `a lens on line ${line}`);
    assert.equal(lens.title, '⟳ replaces PublicSubnetOne, PublicSubnetOneRouteTableAssociation and 1 more · ✎ updates 2');
    assert.ok(lens.title.length <= 90);
    const hover = hoverText(await server.hover(uri(), line, 18));
    assert.match(hover, /\*\*Mapping entry SubnetConfig\.PublicOne\.CIDR\*\*: this edit changes 5 resources/);
    assert.match(hover, /`NatGatewayOne` — \*\*⟳ Replace\*\*/);
  });

  test('Go to Next Impact walks the changed resources in template order', async () => {
    const { lines: impacts } = await server.connection.sendRequest(impactLocationsRequest, { uri: uri() });
    const changed = ['PublicSubnetOne', 'PublicSubnetOneRouteTableAssociation', 'NatGatewayOne', 'PrivateRouteOne', 'PublicLoadBalancer', 'ContainerInstances', 'ECSAutoScalingGroup'];
    const inTemplateOrder = changed.map(keyLine).sort((a, b) => a - b);
    assert.deepEqual(impacts, inTemplateOrder);
  });

  test('a SAM Globals value and a condition: lenses on their lines', async () => {
    const app = pathToUri(join(repo, 'app.yaml'));
    const edited = samApp.replace('Timeout: 3', 'Timeout: 10').replace('!Equals [off, on]', '!Equals [on, on]');
    await server.diagnostics(app, await server.open(app, edited));
    const appLines = edited.split('\n');
    const timeout = editLens(await server.codeLenses(app), appLines.indexOf('    Timeout: 10'));
    assert.equal(timeout?.title, '✎ updates HelloWorldFunction');
    const condition = editLens(await server.codeLenses(app), appLines.indexOf('  Verbose: !Equals [on, on]'));
    assert.equal(condition?.title, '✎ updates HelloWorldFunction');
  });
});
