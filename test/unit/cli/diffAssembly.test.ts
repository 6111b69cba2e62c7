/**
 * `cfn-impact diff OLD_CDK_OUT NEW_CDK_OUT` and `--deployed CDK_OUT` on real cloud assemblies:
 * a TypeScript app (test/fixtures/cdkService.ts) synthesized offline by `aws-cdk-lib`, in each
 * version a test needs. Expectations come from the rules: a new key schema or a bucket name
 * replaces the resource (the spec's "Update requires: Replacement"), the CDK's Retain policies
 * keep the old table and bucket (docs/update-rules.md#data-loss), resources that read a replaced
 * one follow it (#cascades), and a resource's own metadata updates it (#resource-metadata).
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';
import { READ_ACTIONS } from '../../../server/src/stacks/types';
import { deployedService, serviceApp, serviceLine, type ServiceVersion } from '../../fixtures/cdkService';
import { synthesizeApp } from '../../support/cdkApps';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: { AWS_REGION: 'us-east-1' } });
  return { code, stdout, stderr };
}

interface StackJson {
  stack: string;
  stackName: string;
  status: string;
  message: string;
  changes: { logicalId: string; action: string; impact: string; constructPath?: string; source?: { file: string; line: number; column: number }; reason: string; rename?: { from: string; to: string } }[];
  diagnostics: { code: string; message: string }[];
  notes: string[];
}

async function diffJson(oldOut: string, newOut: string): Promise<{ code: number; status: string; message: string; stacks: StackJson[] }> {
  const { code, stdout, stderr } = await run('diff', oldOut, newOut, '--json');
  assert.equal(stderr, '');
  return { code, ...(JSON.parse(stdout) as { status: string; message: string; stacks: StackJson[] }) };
}

const apps = new Map<string, { folder: string; assembly: string }>();
/** The app of one version, synthesized once. */
function app(version: ServiceVersion): { folder: string; assembly: string } {
  const key = JSON.stringify(version);
  let synthesized = apps.get(key);
  if (!synthesized) {
    synthesized = synthesizeApp(serviceApp(version), { entry: 'bin/service.ts' });
    apps.set(key, synthesized);
  }
  return synthesized;
}

const edited: ServiceVersion = { partitionKey: 'orderId', bucketName: 'svc-uploads-example', visibilitySeconds: 60, memorySize: 512, handlerCode: 'exports.handler = async () => ({ statusCode: 204 });\n' };

describe('cfn-impact diff on two cloud assemblies', () => {
  test('the same app synthesized twice is no update, and CDK machinery (BootstrapVersion, CDKMetadata) says nothing', async () => {
    const first = app({});
    const second = synthesizeApp(serviceApp({}), { entry: 'bin/service.ts' });
    const result = await diffJson(first.assembly, second.assembly);
    assert.equal(result.code, 0);
    assert.equal(result.status, 'noop');
    assert.equal(result.message, '1 stack: no changes.');
    assert.deepEqual(result.stacks.map((s) => [s.stack, s.status, s.message, s.changes.length, s.diagnostics, s.notes]), [['Svc', 'noop', 'No updates are to be performed.', 0, [], []]]);
  });

  test('each kind of edit, named by construct and located at the line of the app that created it', async () => {
    const result = await diffJson(app({}).assembly, app(edited).assembly);
    assert.equal(result.code, 0);
    const [stack] = result.stacks;
    assert.equal(stack!.stack, 'Svc');
    const byConstruct = new Map(stack!.changes.map((c) => [c.constructPath, c]));
    const source = join(app(edited).folder, 'lib', 'service-stack.ts');
    // A new partition key replaces the table; the CDK's default RemovalPolicy.RETAIN keeps the old one.
    const table = byConstruct.get('Svc/Orders')!;
    assert.equal(table.impact, 'replacement');
    assert.match(table.reason, /^KeySchema changed · data kept: the old table and its items stay in the account/);
    assert.deepEqual(table.source, { file: source, line: serviceLine(edited, 'new dynamodb.Table'), column: 19 });
    assert.equal(byConstruct.get('Svc/Uploads')!.impact, 'replacement');
    assert.equal(byConstruct.get('Svc/Jobs')!.impact, 'no-interruption');
    // The grant's policy and the function's environment read the replaced table and bucket.
    assert.equal(byConstruct.get('Svc/Handler/ServiceRole/DefaultPolicy')!.reason, 'PolicyDocument ← Svc/Orders replaced');
    const handler = byConstruct.get('Svc/Handler')!;
    assert.match(handler.reason, /^Code changed, Environment ← Svc\/Orders, Svc\/Uploads replaced, MemorySize changed; new asset [0-9a-f]{8} \(its content changed\)$/);
    // The role's policy is created by the grant, so it is located at the grant's line.
    assert.equal(byConstruct.get('Svc/Handler/ServiceRole/DefaultPolicy')!.source!.line, serviceLine(edited, 'table.grantReadWriteData(handler)'));
    assert.equal(handler.source!.line, serviceLine(edited, "new lambda.Function(this, 'Handler'"));
    assert.equal(stack!.changes.some((c) => c.constructPath === 'Svc/CDKMetadata'), false);
  });

  test("values are shown as they are: a name that contains a logical id is not taken for the resource", async () => {
    // SQS queue names may be anything; this one happens to start with the queue's own logical id.
    const { stdout } = await run('diff', app({}).assembly, app({ queueName: 'JobsDF1CC2D4-v2' }).assembly);
    assert.match(stdout, /^ {7}\/Properties\/QueueName \[replacement\]: \(absent\) → "JobsDF1CC2D4-v2"$/m);
    assert.match(stdout, /⟳ {2}replace +Svc\/Jobs +AWS::SQS::Queue +QueueName changed/);
  });

  test('a construct moved to another parent is a rename: the resource is replaced, and what keeps it is said', async () => {
    const moved: ServiceVersion = { tableInData: true };
    const result = await diffJson(app({}).assembly, app(moved).assembly);
    const changes = result.stacks[0]!.changes;
    const added = changes.find((c) => c.action === 'Add')!;
    const removed = changes.find((c) => c.action === 'Remove')!;
    assert.deepEqual([added.constructPath, removed.constructPath], ['Svc/Data/Orders', 'Svc/Orders']);
    assert.deepEqual(added.rename, { from: 'Svc/Orders', to: 'Svc/Data/Orders', fromLogicalId: 'OrdersA9B65338', toLogicalId: added.logicalId });
    assert.match(added.reason, /^renamed from Svc\/Orders: a new logical id, so CloudFormation creates a new resource here and removes the old one \(OrdersA9B65338\); `cdk refactor`, or overrideLogicalId\('OrdersA9B65338'\) on the moved construct, keeps the resource$/);
    assert.match(removed.reason, /^renamed to Svc\/Data\/Orders: a new logical id, so this resource is removed \(kept in the account, outside the stack\) and a new one created/);
     // A resource in a value is named by construct, as in the reasons.
    const { stdout } = await run('diff', app({}).assembly, app(moved).assembly);
    assert.match(stdout, /\/Properties\/PolicyDocument\/Statement\/0\/Resource \[no-interruption\]: \$\{Svc\/Orders\.Arn\} → \$\{Svc\/Data\/Orders\.Arn\}$/m);
  });

  test('a construct moved with its logical id kept changes only its aws:cdk:path metadata, which updates it in place', async () => {
    const kept: ServiceVersion = { tableInData: true, tableLogicalId: 'OrdersA9B65338' };
    const result = await diffJson(app({}).assembly, app(kept).assembly);
    assert.deepEqual(
      result.stacks[0]!.changes.map((c) => [c.constructPath, c.action, c.impact, c.reason]),
      [['Svc/Data/Orders', 'Modify', 'no-interruption', 'moved from Svc/Orders with its logical id kept: only its aws:cdk:path metadata is updated, its properties stay']],
    );
  });

  test("the legacy synthesizer's asset parameters are given by cdk deploy: the same asset is no update, a new one is the function's code", async () => {
    const legacy: ServiceVersion = { legacySynthesizer: true };
    const same = await diffJson(app(legacy).assembly, synthesizeApp(serviceApp(legacy), { entry: 'bin/service.ts' }).assembly);
    assert.deepEqual(same.stacks.map((s) => [s.status, s.diagnostics, s.notes]), [['noop', [], []]]);
    const changed = await diffJson(app(legacy).assembly, app({ ...legacy, handlerCode: 'exports.handler = async () => 1;\n' }).assembly);
    assert.deepEqual(changed.stacks[0]!.changes.map((c) => [c.constructPath, c.impact]), [['Svc/Handler', 'no-interruption']]);
    assert.match(changed.stacks[0]!.changes[0]!.reason, /^Code changed; new asset [0-9a-f]{8} \(its content changed\)$/);
    assert.deepEqual(changed.stacks[0]!.notes, []);
  });

  test('a stage with two stacks: each stack compared with its own, by its name in the app', async () => {
    const result = await diffJson(app({ inStage: true, edgeStack: true }).assembly, app({ inStage: true, edgeStack: true, memorySize: 1024 }).assembly);
    assert.deepEqual(
      result.stacks.map((s) => [s.stack, s.stackName, s.status]),
      [
        ['Prod/Svc', 'Prod-Svc', 'update'],
        ['Prod/Edge', 'Prod-Edge', 'noop'],
      ],
    );
    assert.deepEqual(result.stacks[0]!.changes.map((c) => c.constructPath), ['Prod/Svc/Handler']);
    assert.equal(result.message, '2 stacks: Prod/Svc updated; 1 unchanged.');
  });

  test('a stack moved into a stage with its stack name kept is the same stack: paired by stack name', async () => {
    const result = await diffJson(app({ stackName: 'svc-prod' }).assembly, app({ stackName: 'svc-prod', inStage: true, memorySize: 512 }).assembly);
    assert.deepEqual(result.stacks.map((s) => [s.stack, s.stackName, s.status]), [['Prod/Svc', 'svc-prod', 'update']]);
  });

  test('a stack added to the app is created; a stack removed from it is left running by cdk deploy', async () => {
    const added = await diffJson(app({}).assembly, app({ edgeStack: true }).assembly);
    assert.deepEqual(added.stacks.map((s) => [s.stack, s.status, s.message]), [
      ['Svc', 'noop', 'No updates are to be performed.'],
      ['Edge', 'create', 'New stack: 1 resource created.'],
    ]);
    assert.deepEqual(added.stacks[1]!.changes.filter((c) => c.constructPath !== 'Edge/CDKMetadata').map((c) => [c.constructPath, c.action]), [['Edge/Inbox', 'Add']]);
    const removed = await diffJson(app({ edgeStack: true }).assembly, app({}).assembly);
    assert.deepEqual(removed.stacks.map((s) => [s.stack, s.status]), [
      ['Svc', 'noop'],
      ['Edge', 'deleted'],
    ]);
    assert.equal(removed.stacks[1]!.message, 'Removed from the app: cdk deploy leaves the deployed stack running; cdk destroy, or deleting it, removes it.');
  });

  test('every format names constructs; GitHub and SARIF annotate the line of the app that created them', async () => {
    const [oldOut, newOut] = [app({}).assembly, app(edited).assembly];
    const text = await run('diff', oldOut, newOut);
    assert.match(text.stdout, /^== Svc {2}.*Svc\.template\.json → .*Svc\.template\.json$/m);
    assert.match(text.stdout, /⟳ {2}replace +Svc\/Orders +AWS::DynamoDB::Table +KeySchema changed/);
    assert.match(text.stdout, /^1 stack: Svc updated\.$/m);
    assert.doesNotMatch(text.stdout, /OrdersA9B65338|CDKMetadata|BootstrapVersion/);

    const markdown = await run('diff', oldOut, newOut, '--format', 'markdown');
    assert.match(markdown.stdout, /^\*\*1 stack: Svc updated\.\*\*$/m);
    assert.match(markdown.stdout, /^\| \| Construct \| Type \| Effect \|$/m);
    assert.match(markdown.stdout, /^\| ⟳ replace \| `Svc\/Orders` \| AWS::DynamoDB::Table \| KeySchema changed/m);

    const source = join(app(edited).folder, 'lib', 'service-stack.ts');
    const github = await run('diff', oldOut, newOut, '--format', 'github');
    const tableLine = serviceLine(edited, 'new dynamodb.Table');
    assert.ok(github.stdout.split('\n').some((line) => line.startsWith(`::error file=${source},line=${tableLine},endLine=${tableLine},col=19,endColumn=19,title=Replace OrdersA9B65338 (AWS%3A%3ADynamoDB%3A%3ATable)::Svc/Orders: KeySchema changed`)), github.stdout);
    assert.match(github.stdout, /^::notice file=.*Svc\.template\.json,title=CloudFormation impact%3A Svc::5 modify \(2 replace\)$/m);

    const sarif = JSON.parse((await run('diff', oldOut, newOut, '--format', 'sarif')).stdout) as { runs: { results: { ruleId: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[] }[] };
    const replaced = sarif.runs[0]!.results.find((r) => r.message.text.startsWith('Svc/Orders:'))!;
    assert.equal(replaced.ruleId, 'replacement');
    assert.equal(replaced.locations[0]!.physicalLocation.artifactLocation.uri, encodeURI(source));
    assert.equal(replaced.locations[0]!.physicalLocation.region!.startLine, tableLine);
  });

  test('a folder that is not an assembly beside one that is, and a broken manifest, are errors that say so', async () => {
    const template = join(app({}).assembly, 'Svc.template.json');
    const mixed = await run('diff', app({}).assembly, template, '--json');
    assert.equal(mixed.code, 1);
    assert.deepEqual(JSON.parse(mixed.stdout), { status: 'error', message: 'a CDK cloud assembly is compared with another: give two assembly folders (each holding manifest.json)', stacks: [] });
    const broken = mkdtempSync(join(tmpdir(), 'broken-assembly-'));
    writeFileSync(join(broken, 'manifest.json'), '{"artifacts": ');
    const unreadable = await run('diff', app({}).assembly, broken);
    assert.equal(unreadable.code, 1);
    assert.match(unreadable.stderr, /^cfn-impact diff: .*broken-assembly-\w+ is not a readable cloud assembly: manifest\.json is not JSON: /);
    // A template CloudFormation would never read is not read either.
    const large = mkdtempSync(join(tmpdir(), 'large-assembly-'));
    cpSync(app({}).assembly, large, { recursive: true });
    writeFileSync(join(large, 'Svc.template.json'), `${readFileSync(join(large, 'Svc.template.json'), 'utf8')}${' '.repeat(1_000_001)}`);
    const tooLarge = await run('diff', app({}).assembly, large);
    assert.equal(tooLarge.code, 1);
    assert.match(tooLarge.stderr, /Svc\.template\.json is over CloudFormation's 1 MB template limit: it cannot be deployed/);
  });
});

describe('cfn-impact diff --deployed CDK_OUT', () => {
  let endpoint: LocalEndpoint;
  before(async () => {
    const deployed = readFileSync(join(app({}).assembly, 'Svc.template.json'), 'utf8');
    endpoint = await startEndpoint({
      accountId: '111122223333',
      scenarios: [{ name: 'cdk-svc', scenario: deployedService(deployed) }],
    });
  });
  after(async () => {
    await endpoint.close();
  });

  test('each stack of the app against the deployed stack of its name; a stack not deployed yet is created; read-only calls only', async () => {
    const first = endpoint.calls.length;
    const { code, stdout, stderr } = await run('diff', '--deployed', app({ ...edited, edgeStack: true }).assembly, '--endpoint', endpoint.url, '--json');
    assert.equal(code, 0, stderr);
    const result = JSON.parse(stdout) as { status: string; stacks: StackJson[] };
    assert.deepEqual(result.stacks.map((s) => [s.stack, s.status]), [
      ['Svc', 'update'],
      ['Edge', 'create'],
    ]);
    const svc = result.stacks[0]!;
    assert.equal(svc.changes.find((c) => c.constructPath === 'Svc/Orders')!.impact, 'replacement');
    assert.deepEqual(svc.notes, []);
    const calls = endpoint.calls.slice(first);
    for (const call of calls) assert.ok((READ_ACTIONS as readonly string[]).includes(call.action), call.action);
    // GetTemplate and DescribeStacks go together for each stack, as for --stack; the not-deployed Edge reads nothing more.
    assert.deepEqual([...new Set(calls.map((c) => `${c.action} ${c.params.StackName ?? ''}`.trim()))].sort(), ['DescribeStacks Edge', 'DescribeStacks Svc', 'GetTemplate Edge', 'GetTemplate Svc', 'ListExports']);
  });
});
