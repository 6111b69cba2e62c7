// A CDK app in a real VS Code, seen the way its author sees it: the TypeScript file that defines
// the stack, after `cdk synth`, shows above each construct it changes what the deployment will do
// to it, against a baseline assembly synthesized from the app's previous version. Needs the .vsix
// from `npm run package`; the app is synthesized offline by aws-cdk-lib.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer, type CodeServer } from './support/code-server';
import { missingVsixReason, vsixPath } from './support/paths';
import { Workbench, type ShownLens } from './support/workbench';
import { serviceApp, type ServiceVersion } from '../fixtures/cdkService';
import { appFolder, synthesize } from '../support/cdkApps';

const skip = missingVsixReason();
if (skip) console.log(`skipping the CDK end-to-end suite: ${skip}`);

const edited: ServiceVersion = { partitionKey: 'orderId', visibilitySeconds: 60, memorySize: 512 };

describe('a CDK app in code-server', { skip, timeout: 300_000 }, () => {
  let folder: string;
  let server: CodeServer;
  let workbench: Workbench;
  let lenses: ShownLens[] = [];

  before(async () => {
    folder = appFolder(serviceApp({}));
    synthesize(folder, { entry: 'bin/service.ts', outdir: 'baseline.out' });
    appFolder(serviceApp(edited), folder);
    synthesize(folder, { entry: 'bin/service.ts' });
    // The app's node_modules served the synth; the editor needs only the sources and the assemblies.
    rmSync(join(folder, 'node_modules'), { force: true });
    server = await startCodeServer({
      name: 'cdk',
      workspace: folder,
      vsix: vsixPath(),
      // Without node_modules TypeScript would underline every import; the lenses are what is looked at.
      settings: { 'cfnImpact.cdk.baseline': 'baseline.out', 'typescript.validate.enable': false },
    });
    workbench = await Workbench.open(server.url, 'cdk');
    await workbench.openFile('lib/service-stack.ts');
    lenses = await workbench.settledCodeLenses((shown) => shown.some((lens) => lens.text.includes('Replace')), 'lenses on the construct lines');
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  test('each line that created a changed construct says what the deployment does to it', async () => {
    await workbench.screenshot('cdk-lenses');
    const above = (start: string) => lenses.filter((lens) => lens.line.trim().startsWith(start)).map((lens) => lens.text);
    // A new partition key replaces the table; RemovalPolicy.RETAIN, the CDK's default for tables, keeps the old one.
    assert.match(above('const table = new dynamodb.Table(')[0] ?? '', /^⟳ Replace — KeySchema changed · old table kept · new one empty/, JSON.stringify(lenses));
    assert.deepEqual(above("const queue = new sqs.Queue(this, 'Jobs'"), ['✎ Update (no interruption) — VisibilityTimeout changed']);
    assert.match(above("const handler = new lambda.Function(this, 'Handler'")[0] ?? '', /^✎ Update \(no interruption\) — /);
    assert.deepEqual(above("const bucket = new s3.Bucket(this, 'Uploads'"), []);
    assert.ok(lenses.some((lens) => lens.text === 'Svc: 4 modify (1 replace) · against baseline.out'), JSON.stringify(lenses));
  });

  test('the hover on the table line tells what happens to its resource', async () => {
    const hover = await workbench.hover("const table = new dynamodb.Table(this, 'Orders', {", 'Table');
    await workbench.screenshot('cdk-hover');
    assert.match(hover, /Svc\/Orders \(AWS::DynamoDB::Table, OrdersA9B65338\): replace — KeySchema changed · data kept/);
  });
});
