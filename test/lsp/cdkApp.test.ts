// A CDK app in the editor, through the real server over stdio: the TypeScript source of an app
// with cdk.json, synthesized by aws-cdk-lib into cdk.out/, compared with a baseline assembly
// folder (cfnImpact.cdk.baseline). Each line that created a changed construct gets a lens, a
// hover and, for a replacement, a problem (docs/in-the-editor.md#cdk-apps); a new synth is
// picked up when the client reports its manifest.json changed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { commands, type ShowImpactsArguments } from '../../server/src/lsp/protocol';
import { hoverText, pathToUri, TestServer } from './support/languageServer';
import { deployedService, serviceApp, serviceLine, type ServiceVersion } from '../fixtures/cdkService';
import { appFolder, synthesize } from '../support/cdkApps';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { READ_ACTIONS } from '../../server/src/stacks/types';

const edited: ServiceVersion = { partitionKey: 'orderId', visibilitySeconds: 60 };

function lensAt(lenses: CodeLens[] | null, line: number): CodeLens | undefined {
  return (lenses ?? []).find((lens) => lens.range.start.line === line);
}

describe('a CDK app source file against a baseline assembly', () => {
  let folder: string;
  let server: TestServer;
  const source = () => join(folder, 'lib', 'service-stack.ts');
  const uri = () => pathToUri(source());
  const line = (text: string) => serviceLine(edited, text) - 1;

  before(async () => {
    // The baseline: the app as main has it, synthesized into a folder of its own (as CI would keep it).
    folder = appFolder(serviceApp({}));
    synthesize(folder, { entry: 'bin/service.ts', outdir: 'baseline.out' });
    // The working copy: edited and synthesized into cdk.out/, as `cdk synth` (with CDK_DEBUG=true) leaves it.
    appFolder(serviceApp(edited), folder);
    synthesize(folder, { entry: 'bin/service.ts' });
    server = await TestServer.start({ workspace: folder, settings: { cdk: { baseline: 'baseline.out' } } });
  });

  after(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the line that created the table says it is replaced and what becomes of its data; its problem says so too', async () => {
    const version = await server.open(uri(), readFileSync(source(), 'utf8'), 'typescript');
    const diagnostics = await server.diagnostics(uri(), version);
    const lenses = await server.codeLenses(uri());
    const table = lensAt(lenses, line('new dynamodb.Table'));
    assert.ok(table, JSON.stringify(lenses));
    // KeySchema: Update requires Replacement; the CDK's RemovalPolicy.RETAIN keeps the old table.
    assert.match(table.command!.title, /^⟳ Replace — KeySchema changed · old table kept · new one empty/);
    assert.ok(table.command!.title.length <= 90);
    assert.equal(table.command!.command, commands.showImpacts);
    // Clicking it peeks at the table in the synthesized template.
    const args = table.command!.arguments![0] as ShowImpactsArguments;
    const template = readFileSync(join(folder, 'cdk.out', 'Svc.template.json'), 'utf8').split('\n');
    assert.deepEqual(args.locations.map((l) => [l.uri, template[l.line]!.trim()]), [[pathToUri(join(folder, 'cdk.out', 'Svc.template.json')), '"OrdersA9B65338": {']]);

    const jobs = lensAt(lenses, line("new sqs.Queue(this, 'Jobs'"));
    assert.equal(jobs?.command?.title, '✎ Update (no interruption) — VisibilityTimeout changed');
    // The grant's policy and the function's environment follow the replaced table.
    assert.match(lensAt(lenses, line('table.grantReadWriteData'))!.command!.title, /^✎ Update \(no interruption\) — PolicyDocument ← Svc\/Orders replaced/);
    assert.match(lensAt(lenses, line("new lambda.Function(this, 'Handler'"))!.command!.title, /^✎ Update \(no interruption\) — Environment ← Svc\/Orders replaced/);
    // Unchanged constructs say nothing; the stack's summary is at the top.
    assert.equal(lensAt(lenses, line("new s3.Bucket(this, 'Uploads'")), undefined);
    assert.equal(lensAt(lenses, 0)?.command?.title, 'Svc: 4 modify (1 replace) · against baseline.out');

    const tableProblems = diagnostics.filter((d) => d.range.start.line === line('new dynamodb.Table'));
    assert.equal(tableProblems.length, 1);
    assert.equal(tableProblems[0]!.severity, 2);
    assert.match(String(tableProblems[0]!.message), /^Svc\/Orders: /);
  });

  test('the hover on that line lists the construct\'s resources and what happens to each', async () => {
    const hover = hoverText(await server.hover(uri(), line('new dynamodb.Table'), 10));
    assert.match(hover, /^- ⟳ \*\*Svc\/Orders\*\* \(AWS::DynamoDB::Table, OrdersA9B65338\): replace — KeySchema changed · data kept/);
  });

  test('a new synth is picked up once its manifest.json is reported changed', async () => {
    const next: ServiceVersion = { ...edited, memorySize: 1024 };
    const handlerLine = serviceLine(next, "new lambda.Function(this, 'Handler'") - 1;
    assert.doesNotMatch(hoverText(await server.hover(uri(), handlerLine, 10)), /MemorySize/);
    appFolder(serviceApp(next), folder);
    synthesize(folder, { entry: 'bin/service.ts' });
    const text = readFileSync(source(), 'utf8');
    const version = await server.change(uri(), text);
    await server.diagnostics(uri(), version);
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToUri(join(folder, 'cdk.out', 'manifest.json')), type: 2 }] });
    assert.match(hoverText(await server.hover(uri(), handlerLine, 10)), /MemorySize changed/);
  });
});

describe('a CDK app synthesized without creation traces', () => {
  let folder: string;
  let server: TestServer;

  before(async () => {
    folder = appFolder(serviceApp({}));
    synthesize(folder, { entry: 'bin/service.ts', outdir: 'baseline.out', stackTraces: false });
    appFolder(serviceApp(edited), folder);
    synthesize(folder, { entry: 'bin/service.ts', stackTraces: false });
    server = await TestServer.start({ workspace: folder, settings: { cdk: { baseline: 'baseline.out' } } });
  });

  after(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  test("places each change at the construct's id in the file, and says it is approximate", async () => {
    const uri = pathToUri(join(folder, 'lib', 'service-stack.ts'));
    await server.open(uri, readFileSync(join(folder, 'lib', 'service-stack.ts'), 'utf8'), 'typescript');
    const lenses = await server.codeLenses(uri);
    const table = lensAt(lenses, serviceLine(edited, 'new dynamodb.Table') - 1);
    assert.match(table!.command!.title, /^≈ ⟳ Replace — KeySchema changed/);
    const hover = hoverText(await server.hover(uri, serviceLine(edited, 'new dynamodb.Table') - 1, 10));
    assert.match(hover, /synthesize with `CDK_DEBUG=true` for the exact line/);
  });

  test('a Python file of the app (a Python app runs the CDK through jsii, whose traces are not its code) gets the lenses by construct id', async () => {
    const python = [
      'from aws_cdk import Stack, aws_dynamodb as dynamodb, aws_sqs as sqs',
      '',
      'class ServiceStack(Stack):',
      '    def __init__(self, scope, construct_id, **kwargs):',
      '        super().__init__(scope, construct_id, **kwargs)',
      '        table = dynamodb.Table(self, "Orders", partition_key=dynamodb.Attribute(name="orderId", type=dynamodb.AttributeType.STRING))',
      '        queue = sqs.Queue(self, "Jobs", visibility_timeout=Duration.seconds(60))',
      '',
    ].join('\n');
    const uri = pathToUri(join(folder, 'service_stack.py'));
    await server.open(uri, python, 'python');
    const lenses = await server.codeLenses(uri);
    assert.match(lensAt(lenses, 5)?.command?.title ?? '', /^≈ ⟳ Replace — KeySchema changed/, JSON.stringify(lenses));
    assert.equal(lensAt(lenses, 6)?.command?.title, '≈ ✎ Update (no interruption) — VisibilityTimeout changed');
  });

  test('a file of the app with no synth yet says how to get one', async () => {
    rmSync(join(folder, 'cdk.out'), { recursive: true, force: true });
    const uri = pathToUri(join(folder, 'bin', 'service.ts'));
    await server.open(uri, readFileSync(join(folder, 'bin', 'service.ts'), 'utf8'), 'typescript');
    assert.deepEqual((await server.codeLenses(uri))?.map((lens) => lens.command?.title), ['No synthesized app in cdk.out/: run cdk synth to see what deploying it changes.']);
  });
});

describe('a CDK app source file against its deployed stacks', () => {
  let folder: string;
  let server: TestServer;
  let endpoint: LocalEndpoint;

  before(async () => {
    folder = appFolder(serviceApp({}));
    const deployed = readFileSync(join(synthesize(folder, { entry: 'bin/service.ts', outdir: 'deployed.out' }), 'Svc.template.json'), 'utf8');
    appFolder(serviceApp(edited), folder);
    synthesize(folder, { entry: 'bin/service.ts' });
    endpoint = await startEndpoint({
      accountId: '111122223333',
      scenarios: [{ name: 'cdk-svc', scenario: deployedService(deployed) }],
    });
    // cfnImpact.cdk.baseline is `deployed` by default; the stacks are read where the AWS settings say.
    server = await TestServer.start({
      workspace: folder,
      initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } },
      env: { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' },
    });
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  test('each construct line is compared with the deployed stack of the app\'s stack name, with read-only calls', async () => {
    const uri = pathToUri(join(folder, 'lib', 'service-stack.ts'));
    await server.open(uri, readFileSync(join(folder, 'lib', 'service-stack.ts'), 'utf8'), 'typescript');
    const lenses = await server.codeLenses(uri);
    assert.match(lensAt(lenses, serviceLine(edited, 'new dynamodb.Table') - 1)!.command!.title, /^⟳ Replace — KeySchema changed · old table kept · new one empty/);
    assert.equal(lensAt(lenses, 0)?.command?.title, 'Svc: 4 modify (1 replace) · against deployed stacks');
    const calls = endpoint.calls.map((c) => c.action);
    for (const action of calls) assert.ok((READ_ACTIONS as readonly string[]).includes(action), action);
    assert.deepEqual([...new Set(calls)].sort(), ['DescribeStacks', 'GetTemplate', 'ListExports']);
  });
});
