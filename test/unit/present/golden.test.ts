/**
 * The golden table: for a set of findings, what every face prints. One finding reads the same
 * in the code lens, the problem, the hover, the CLI row, the Markdown row and `--json`, because
 * all of them are worded by server/src/present/. The expectations are the vocabulary itself,
 * written by hand: a change here is a change of what users read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { main } from '../../../server/src/cli/main';
import { analyzeUpdate } from '../../../server/src/impact';
import { buildCodeLenses } from '../../../server/src/lsp/codeLens';
import { buildDiagnostics } from '../../../server/src/lsp/diagnostics';
import { buildHover } from '../../../server/src/lsp/hover';
import { encodeOutline, readOutline } from '../../../server/src/lsp/worker/outline';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const spec = loadResourceSpec();
const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-golden-'));

/** What each face prints about one resource. */
interface Row {
  lens?: string;
  problem?: string;
  hover?: string;
  cli?: string;
  markdown?: string;
  json?: string;
}

async function cli(before: string, after: string, ...flags: string[]): Promise<string> {
  const oldPath = join(dir, 'old.yaml');
  const newPath = join(dir, 'new.yaml');
  writeFileSync(oldPath, before);
  writeFileSync(newPath, after);
  let stdout = '';
  await main(['diff', oldPath, newPath, '--stack-name', 'app', ...flags], { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: {} });
  return stdout;
}

/** Every face's words for each changed resource of a template pair, plus the verdict lens (the CLI's row keeps its columns, two spaces apart). */
async function faces(before: string, after: string): Promise<{ verdict: string; rows: Record<string, Row> }> {
  const { report, after: evaluated } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const document = TextDocument.create('file:///app.yaml', 'yaml', 1, after);
  const outline = readOutline(encodeOutline(evaluated));
  const lenses = buildCodeLenses(document, outline, report, 'HEAD');
  const diagnostics = buildDiagnostics(document, evaluated, report);
  const text = await cli(before, after);
  const markdown = await cli(before, after, '--markdown');
  const json = JSON.parse(await cli(before, after, '--json')) as { changes: { logicalId: string; reason: string }[] };
  const rows: Record<string, Row> = {};
  const lineOf = (logicalId: string) => after.split('\n').findIndex((line) => line === `  ${logicalId}:`);
  for (const change of report.changes) {
    const row: Row = {};
    const line = lineOf(change.logicalId);
    if (change.action !== 'Remove') {
      row.lens = lenses.find((lens) => lens.range.start.line === line)?.command?.title;
      const problem = diagnostics.find((d) => d.range.start.line === line);
      if (problem) row.problem = typeof problem.message === 'string' ? problem.message : problem.message.value;
      const hover = buildHover(document, outline, report, spec, document.offsetAt({ line, character: 3 }));
      const value = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
      row.hover = value.split('\n').find((l) => l.startsWith('**') && l.includes('**:')) ?? value.split('\n').find((l) => l.startsWith('Not changed'));
    } else {
      row.lens = lenses.find((lens) => lens.command?.title.includes(` ${change.logicalId} — `))?.command?.title;
    }
    row.cli = text.split('\n').find((l) => new RegExp(`\\s${change.logicalId}\\s`).test(l))?.trim().replace(/\s{2,}/g, '  ');
    row.markdown = markdown.split('\n').find((l) => l.includes(`\`${change.logicalId}\``));
    row.json = json.changes.find((c) => c.logicalId === change.logicalId)?.reason;
    // A face that says nothing about a resource has no entry in its row.
    rows[change.logicalId] = Object.fromEntries(Object.entries(row).filter(([, words]) => words !== undefined));
  }
  return { verdict: lenses.find((lens) => lens.range.start.line === 0)?.command?.title ?? '', rows };
}

const network = `Parameters:
  Cidr: { Type: String, Default: 10.0.0.0/16 }
  Size: { Type: String, Default: t3.micro }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref Cidr
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: 10.0.0.0/24
  Box:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-12345678
      InstanceType: !Ref Size
  Logs:
    Type: AWS::S3::Bucket
    DeletionPolicy: Retain
`;

describe('the golden table: one finding, the same words in every face', () => {
  test('a cascaded replacement, an interruption and a kept removal', async () => {
    const after = network
      .replace('Default: 10.0.0.0/16', 'Default: 10.1.0.0/16')
      .replace('Default: t3.micro', 'Default: t3.small')
      .replace('  Logs:\n    Type: AWS::S3::Bucket\n    DeletionPolicy: Retain\n', '');
    const { verdict, rows } = await faces(network, after);
    assert.equal(verdict, '3 modify (2 replace) · 1 remove — against HEAD');
    assert.deepEqual(rows, {
      VPC: {
        lens: '⟳ Replace — CidrBlock ← parameter Cidr',
        problem: 'Replacement: CidrBlock ← parameter Cidr → new VPC',
        hover: '**⟳ Replace**: CidrBlock ← parameter Cidr',
        cli: '⟳  replace  VPC  AWS::EC2::VPC  CidrBlock ← parameter Cidr',
        markdown: '| ⟳ replace | `VPC` | AWS::EC2::VPC | CidrBlock ← parameter Cidr |',
        json: 'CidrBlock ← parameter Cidr',
      },
      Subnet: {
        lens: '⟳ Replace — VpcId ← VPC replaced',
        problem: 'Replacement: CidrBlock ← parameter Cidr → new VPC → new Subnet (VpcId)',
        hover: '**⟳ Replace**: VpcId ← VPC replaced',
        cli: '⟳  replace  Subnet  AWS::EC2::Subnet  VpcId ← VPC replaced',
        markdown: '| ⟳ replace | `Subnet` | AWS::EC2::Subnet | VpcId ← VPC replaced |',
        json: 'VpcId ← VPC replaced',
      },
      Box: {
        lens: '✎ Update (some interruption) — InstanceType ← parameter Size',
        problem: 'Update with some interruption: InstanceType ← parameter Size',
        hover: '**✎ Update (some interruption)**: InstanceType ← parameter Size',
        cli: '✎  update (some interruption)  Box  AWS::EC2::Instance  InstanceType ← parameter Size',
        markdown: '| ✎ update (some interruption) | `Box` | AWS::EC2::Instance | InstanceType ← parameter Size |',
        json: 'InstanceType ← parameter Size',
      },
      Logs: {
        lens: '− Remove Logs — removed from the template; kept in the account (DeletionPolicy: Retain)',
        cli: '−  remove  Logs  AWS::S3::Bucket  removed from the template; kept in the account (DeletionPolicy: Retain)',
        markdown: '| − remove | `Logs` | AWS::S3::Bucket | removed from the template; kept in the account (DeletionPolicy: Retain) |',
        json: 'removed from the template; kept in the account (DeletionPolicy: Retain)',
      },
    });
  });

  test('a failure, an addition under a condition only AWS decides, and a resource that only re-reads an unchanged value', async () => {
    const before = `Parameters:
  Env: { Type: String }
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Timeout: '300'
  Net:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: 10.0.0.0/16
  Sub:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Net
      CidrBlock: !Select [0, !Cidr [!GetAtt Net.CidrBlock, 4, 8]]
`;
    const after = before
      .replace("Timeout: '300'", "Timeout: '600'")
      .replace('      CidrBlock: 10.0.0.0/16\n', '      CidrBlock: 10.0.0.0/16\n      Tags: [{ Key: team, Value: net }]\n')
      .concat('  Alarm:\n    Type: AWS::SNS::Topic\n    Condition: IsProd\n');
    const { verdict, rows } = await faces(before, after);
    assert.equal(verdict, '1 add · 2 modify · 1 will fail — against HEAD');
    assert.deepEqual(rows, {
      Wait: {
        lens: '⚠ Will fail — Update to resource type AWS::CloudFormation::WaitCondition is not supported.',
        problem: 'Update will fail: Update to resource type AWS::CloudFormation::WaitCondition is not supported.',
        hover: '**⚠ Will fail**: Update to resource type AWS::CloudFormation::WaitCondition is not supported.',
        cli: '⚠  will fail  Wait  AWS::CloudFormation::WaitCondition  Update to resource type AWS::CloudFormation::WaitCondition is not supported.',
        markdown: '| ⚠ will fail | `Wait` | AWS::CloudFormation::WaitCondition | Update to resource type AWS::CloudFormation::WaitCondition is not supported. |',
        json: 'Update to resource type AWS::CloudFormation::WaitCondition is not supported.',
      },
      Net: {
        lens: '✎ Update (no interruption) — Tags changed',
        hover: '**✎ Update (no interruption)**: Tags changed',
        cli: '✎  update (no interruption)  Net  AWS::EC2::VPC  Tags changed',
        markdown: '| ✎ update (no interruption) | `Net` | AWS::EC2::VPC | Tags changed |',
        json: 'Tags changed',
      },
      Sub: {
        hover: 'Not changed by this update: Sub re-reads Net.CidrBlock, which keeps its value. A change set lists it as Dynamic all the same.',
        json: 'nothing changes: it re-reads Net.CidrBlock, which keeps its value',
      },
      Alarm: {
        lens: '+ Add · if IsProd holds',
        hover: '**+ Add**: created if condition IsProd holds (decided at deploy time)',
        cli: '+  add  Alarm  AWS::SNS::Topic  created if condition IsProd holds (decided at deploy time)',
        markdown: '| + add | `Alarm` | AWS::SNS::Topic | created if condition IsProd holds (decided at deploy time) |',
        json: 'created if condition IsProd holds (decided at deploy time)',
      },
    });
  });
});

/** The `sam init` hello-world function, published under an alias, its code in S3. */
const samApp = `Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Timeout: 3
Resources:
  HelloWorldFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://artifacts/hello-v1.zip
      Handler: app.lambda_handler
      Runtime: python3.12
      AutoPublishAlias: live
      Events:
        HelloWorld:
          Type: Api
          Properties:
            Path: /hello
            Method: get
`;

/** What the editor shows on a SAM template: every lens, every problem, and the hover at each of `spots` (its lines). */
function samFaces(before: string, after: string, spots: string[]): { lenses: [number, string][]; problems: [number, string][]; hovers: Record<string, string[]> } {
  const { report, after: evaluated } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const document = TextDocument.create('file:///template.yaml', 'yaml', 1, after);
  const outline = readOutline(encodeOutline(evaluated));
  const lenses = buildCodeLenses(document, outline, report, 'HEAD').map((lens): [number, string] => [lens.range.start.line, lens.command?.title ?? '']);
  const problems = buildDiagnostics(document, evaluated, report).map((d): [number, string] => [d.range.start.line, typeof d.message === 'string' ? d.message : d.message.value]);
  const hovers: Record<string, string[]> = {};
  for (const spot of spots) {
    const hover = buildHover(document, outline, report, spec, after.indexOf(spot) + 1);
    hovers[spot] = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value.split('\n') : [];
  }
  return { lenses, problems, hovers };
}

describe('the golden table of a SAM template: the SAM lines speak for what they generate', () => {
  const lineOf = (text: string, line: string) => text.split('\n').indexOf(line);

  test('new code, a longer Timeout and a new Api event: one lens on the function, and its hover lists every generated resource', () => {
    const after = samApp
      .replace('Timeout: 3', 'Timeout: 10')
      .replace('hello-v1.zip', 'hello-v2.zip')
      .replace('            Method: get\n', '            Method: get\n        Goodbye:\n          Type: Api\n          Properties:\n            Path: /goodbye\n            Method: get\n');
    const { lenses, problems, hovers } = samFaces(samApp, after, ['HelloWorldFunction:', 'Goodbye:']);
    assert.deepEqual(lenses, [
      [0, '3 add · 4 modify · 2 remove — against HEAD'],
      [lineOf(after, '  HelloWorldFunction:'), '✎ Update (no interruption) · + new version · ⟳ API deployment · + permission · ✎ API'],
    ]);
    assert.deepEqual(problems, []);
    const fn = hovers['HelloWorldFunction:']!;
    assert.deepEqual(fn.slice(0, 3), ['**HelloWorldFunction** · `AWS::Serverless::Function`', '', 'The Serverless transform generates from it:']);
    assert.ok(fn.includes('- `HelloWorldFunction` · AWS::Lambda::Function — **✎ Update (no interruption)**: Timeout changed, Code changed'), fn.join('\n'));
    assert.ok(fn.includes('- `HelloWorldFunctionRole` · AWS::IAM::Role — unchanged'), fn.join('\n'));
    assert.ok(fn.includes('- `HelloWorldFunctionAliaslive` · AWS::Lambda::Alias — **✎ Update (no interruption)**: FunctionVersion changed'), fn.join('\n'));
    assert.ok(fn.includes('- `HelloWorldFunctionGoodbyePermissionProd` · AWS::Lambda::Permission — **+ Add**: created: new in the template'), fn.join('\n'));
    assert.ok(fn.some((line) => /^- `HelloWorldFunctionVersion[0-9a-f]{10}` · AWS::Lambda::Version — \*\*− Remove\*\*: removed from the template; kept in the account \(DeletionPolicy: Retain\)$/.test(line)), fn.join('\n'));
    assert.ok(fn.some((line) => /^- `ServerlessRestApiDeployment[0-9a-f]{10}` · AWS::ApiGateway::Deployment — \*\*− Remove\*\*: removed from the template; deleted during cleanup$/.test(line)), fn.join('\n'));
    assert.equal(hovers['Goodbye:']![0], '**Events.Goodbye** · `AWS::Serverless::Function`');
    assert.ok(hovers['Goodbye:']!.includes('- `HelloWorldFunctionGoodbyePermissionProd` · AWS::Lambda::Permission — **+ Add**: created: new in the template'));
  });

  test('AutoPublishAlias removed: the lens on the function names the version and alias going, the API calling the function itself', () => {
    const after = samApp.replace('      AutoPublishAlias: live\n', '');
    const { lenses, problems } = samFaces(samApp, after, []);
    // The API's integration and the permission named the alias; now they name the function. A
    // permission cannot be updated in place, and the new API definition is a new deployment.
    assert.deepEqual(lenses, [
      [0, '1 add · 3 modify (1 replace) · 3 remove — against HEAD'],
      [lineOf(after, '  HelloWorldFunction:'), '⟳ API deployment · ⟳ permission · ✎ API · − version · − alias'],
    ]);
    assert.deepEqual(problems, [[lineOf(after, '        HelloWorld:'), 'Replacement: FunctionName changed → new HelloWorldFunctionHelloWorldPermissionProd']]);
  });

  test('a layer with new content and a queue event with a new batch size: a new layer version, kept, and the mapping updated', () => {
    const before = `Transform: AWS::Serverless-2016-10-31
Resources:
  Deps:
    Type: AWS::Serverless::LayerVersion
    Properties:
      ContentUri: s3://artifacts/deps-v1.zip
  Worker:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://artifacts/worker.zip
      Handler: app.handler
      Runtime: python3.12
      Layers:
        - !Ref Deps
      Events:
        Jobs:
          Type: SQS
          Properties:
            Queue: arn:aws:sqs:us-east-1:123456789012:jobs
`;
    const after = before.replace('deps-v1', 'deps-v2').replace('jobs\n', 'jobs\n            BatchSize: 5\n');
    const { lenses, problems } = samFaces(before, after, []);
    assert.deepEqual(lenses, [
      [0, '1 add · 2 modify · 1 remove — against HEAD'],
      [lineOf(after, '  Deps:'), '+ new layer version'],
      [lineOf(after, '  Worker:'), '✎ Update (no interruption) · ✎ event source mapping'],
    ]);
    assert.deepEqual(problems, []);
  });

  test('a role path set in Globals: the role replacement is a problem on that Globals line, and its hover names the role', () => {
    const after = samApp.replace('    Timeout: 3\n', '    Timeout: 3\n    RolePath: /app/\n');
    const { lenses, problems, hovers } = samFaces(samApp, after, ['RolePath']);
    assert.deepEqual(lenses, [
      [0, '2 modify (1 replace) — against HEAD'],
      [lineOf(after, '  HelloWorldFunction:'), '✎ Update (no interruption) · ⟳ role'],
    ]);
    assert.deepEqual(problems, [[lineOf(after, '    RolePath: /app/'), 'Replacement: Path changed → new HelloWorldFunctionRole']]);
    assert.deepEqual(hovers.RolePath, [
      '**Globals.Function.RolePath** · `AWS::Serverless::Function`',
      '',
      'The Serverless transform generates from it:',
      '- `HelloWorldFunctionRole` · AWS::IAM::Role — **⟳ Replace**: Path changed',
    ]);
  });
});
