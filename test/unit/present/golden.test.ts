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
import { analyzeUpdate, type ChildTemplate } from '../../../server/src/impact';
import { buildCodeLenses } from '../../../server/src/lsp/codeLens';
import { buildDiagnostics } from '../../../server/src/lsp/diagnostics';
import { buildHover } from '../../../server/src/lsp/hover';
import { encodeOutline, readOutline } from '../../../server/src/lsp/worker/outline';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

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

/** Child templates of nested stacks, by path relative to the template, for each side. */
interface ChildFiles {
  old: Record<string, string>;
  new: Record<string, string>;
}

async function cli(before: string, after: string, ...flags: string[]): Promise<string> {
  return cliWithChildren(before, after, { old: {}, new: {} }, ...flags);
}

/** The CLI over two folders, each side's template next to its child templates. */
async function cliWithChildren(before: string, after: string, children: ChildFiles, ...flags: string[]): Promise<string> {
  const sides = Object.keys(children.old).length + Object.keys(children.new).length > 0;
  const oldPath = sides ? join(dir, 'old', 'template.yaml') : join(dir, 'old.yaml');
  const newPath = sides ? join(dir, 'new', 'template.yaml') : join(dir, 'new.yaml');
  for (const [side, files] of [['old', children.old], ['new', children.new]] as const) {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, side, path)), { recursive: true });
      writeFileSync(join(dir, side, path), text);
    }
  }
  mkdirSync(dirname(oldPath), { recursive: true });
  mkdirSync(dirname(newPath), { recursive: true });
  writeFileSync(oldPath, before);
  writeFileSync(newPath, after);
  let stdout = '';
  await main(['diff', oldPath, newPath, '--stack-name', 'app', ...flags], { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: {} });
  return stdout;
}

/** Every face's words for each changed resource of a template pair, plus the verdict lens (the CLI's row keeps its columns, two spaces apart). */
async function faces(before: string, after: string, children: ChildFiles = { old: {}, new: {} }): Promise<{ verdict: string; rows: Record<string, Row> }> {
  const read = (files: Record<string, string>) => (path: string): ChildTemplate => (path in files ? { text: files[path] } : { problem: 'missing' });
  const nested = { templatePath: 'template.yaml', readOld: read(children.old), readNew: read(children.new) };
  const { report, after: evaluated } = analyzeUpdate({ text: before }, { text: after }, { spec, nested });
  const document = TextDocument.create('file:///app.yaml', 'yaml', 1, after);
  const outline = readOutline(encodeOutline(evaluated));
  const lenses = buildCodeLenses(document, outline, report, 'HEAD');
  const diagnostics = buildDiagnostics(document, evaluated, report);
  const text = await cliWithChildren(before, after, children);
  const markdown = await cliWithChildren(before, after, children, '--markdown');
  const json = JSON.parse(await cliWithChildren(before, after, children, '--json')) as { changes: { logicalId: string; reason: string }[] };
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
  test('data loss on a replaced table, a removed bucket left behind, and an RDS instance snapshotted by default', async () => {
    const before = `Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
      KeySchema: [{ AttributeName: id, KeyType: HASH }]
  Uploads:
    Type: AWS::S3::Bucket
  Db:
    Type: AWS::RDS::DBInstance
    Properties:
      Engine: mysql
      DBInstanceClass: db.t3.micro
      AllocatedStorage: "20"
`;
    const after = `Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: orderId, AttributeType: S }]
      KeySchema: [{ AttributeName: orderId, KeyType: HASH }]
`;
    const { verdict, rows } = await faces(before, after);
    assert.equal(verdict, '1 modify (1 replace) · 2 remove — against HEAD');
    const loss = 'data loss: the old table and its items are deleted (UpdateReplacePolicy: Delete)';
    const leftBehind = 'cleanup may fail: the bucket cannot be deleted while it holds objects and is then left behind';
    // A lens says the fate of the data in a few words (at most 90 characters); the rest say it in full.
    assert.deepEqual(rows, {
      Orders: {
        lens: '⟳ Replace — KeySchema changed · data lost',
        problem: 'Replacement: KeySchema changed → new Orders',
        hover: `**⟳ Replace**: KeySchema changed · ${loss}`,
        cli: `⟳  replace  Orders  AWS::DynamoDB::Table  KeySchema changed · ${loss}`,
        markdown: `| ⟳ replace | \`Orders\` | AWS::DynamoDB::Table | KeySchema changed · ${loss} |`,
        json: `KeySchema changed · ${loss}`,
      },
      Uploads: {
        lens: '− Remove Uploads — removed from the template; deleted during cleanup · cleanup may fail',
        cli: `−  remove  Uploads  AWS::S3::Bucket  removed from the template; deleted during cleanup · ${leftBehind}`,
        markdown: `| − remove | \`Uploads\` | AWS::S3::Bucket | removed from the template; deleted during cleanup · ${leftBehind} |`,
        json: `removed from the template; deleted during cleanup · ${leftBehind}`,
      },
      Db: {
        lens: '− Remove Db — snapshotted, then deleted',
        cli: '−  remove  Db  AWS::RDS::DBInstance  removed from the template; deleted during cleanup after a final snapshot (DeletionPolicy: Snapshot, the default for this type)',
        markdown: '| − remove | `Db` | AWS::RDS::DBInstance | removed from the template; deleted during cleanup after a final snapshot (DeletionPolicy: Snapshot, the default for this type) |',
        json: 'removed from the template; deleted during cleanup after a final snapshot (DeletionPolicy: Snapshot, the default for this type)',
      },
    });
  });

  test("a nested stack whose child changed: its lens and row count the child's changes", async () => {
    const parent = `Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: network.yaml
      Parameters:
        Cidr: 10.0.0.0/16
`;
    const network = (name: string, cidr: string) => `Parameters:
  Cidr: { Type: String }
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: ${cidr}
  Alerts:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: ${name}
  Audit:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: ${name}
`;
    const children = { old: { 'network.yaml': network('alerts', '!Ref Cidr') }, new: { 'network.yaml': network('alarms', '10.9.0.0/16') } };
    const { verdict, rows } = await faces(parent, parent, children);
    assert.equal(verdict, '1 modify — against HEAD');
    assert.deepEqual(rows, {
      Network: {
        lens: '✎ nested: 1 replace · 2 modify',
        hover: '**✎ Update (no interruption)**: nested: 1 replace · 2 modify',
        cli: '✎  update (no interruption)  Network  AWS::CloudFormation::Stack  nested: 1 replace · 2 modify',
        markdown: '| ✎ update (no interruption) | `Network` | AWS::CloudFormation::Stack | nested: 1 replace · 2 modify |',
        json: 'nested: 1 replace · 2 modify',
      },
    });
    // The hover on the stack resource lists what happens inside, each change worded as its own row.
    const nested = { templatePath: 'template.yaml', readOld: () => ({ text: children.old['network.yaml'] }), readNew: () => ({ text: children.new['network.yaml'] }) };
    const { report, after: evaluated } = analyzeUpdate({ text: parent }, { text: parent }, { spec, nested });
    const document = TextDocument.create('file:///app.yaml', 'yaml', 1, parent);
    const hover = buildHover(document, readOutline(encodeOutline(evaluated)), report, spec, document.offsetAt({ line: 1, character: 3 }));
    const value = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    const inside = value.split('\n');
    assert.deepEqual(inside.slice(inside.indexOf('Inside `network.yaml`:')), [
      'Inside `network.yaml`:',
      '- `Vpc` · AWS::EC2::VPC — **⟳ Replace**: CidrBlock changed',
      '- `Alerts` · AWS::SNS::Topic — **✎ Update (no interruption)**: DisplayName changed',
      '- `Audit` · AWS::SNS::Topic — **✎ Update (no interruption)**: DisplayName changed',
    ]);
  });

  test('each risk as a problem: what is lost, and what keeps it', () => {
    const table = (key: string) => `Resources:
  Orders:
    Type: AWS::DynamoDB::Table
    Properties:
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: ${key}, AttributeType: S }]
      KeySchema: [{ AttributeName: ${key}, KeyType: HASH }]
  Uploads:
    Type: AWS::S3::Bucket
`;
    const removedBoth = 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n';
    const problems = (before: string, after: string) => {
      const { report, after: evaluated } = analyzeUpdate({ text: before }, { text: after }, { spec });
      const document = TextDocument.create('file:///app.yaml', 'yaml', 1, after);
      return buildDiagnostics(document, evaluated, report)
        .filter((d) => d.code === 'data-loss' || d.code === 'cleanup-may-fail')
        .map((d) => [d.severity, d.range.start.line, d.message]);
    };
    assert.deepEqual(problems(table('id'), table('orderId')), [
      [
        2,
        1,
        'Data loss: Replacing Orders deletes the old table and its items (UpdateReplacePolicy: Delete). To keep them, set UpdateReplacePolicy: Retain (or Snapshot where the type supports it).',
      ],
    ]);
    const db = (key: string) => `Resources:\n  Db:\n    Type: AWS::RDS::DBInstance\n    Properties:\n      Engine: mysql\n      PerformanceInsightsKMSKeyId: ${key}\n`;
    const possible = analyzeUpdate({ text: db('alias/a') }, { text: db('alias/b') }, { spec });
    const dbLenses = buildCodeLenses(TextDocument.create('file:///db.yaml', 'yaml', 1, db('alias/b')), readOutline(encodeOutline(possible.after)), possible.report, 'HEAD');
    assert.equal(
      dbLenses.find((lens) => lens.range.start.line === 1)?.command?.title,
      '⟳? May replace — PerformanceInsightsKMSKeyId changed · data lost if replaced',
    );
    assert.deepEqual(problems(db('alias/a'), db('alias/b')), [
      [
        2,
        1,
        'Possible data loss: If Db is replaced, that deletes the old database instance and its data (UpdateReplacePolicy: Delete). To keep them, set UpdateReplacePolicy: Retain (or Snapshot where the type supports it).',
      ],
    ]);
    assert.deepEqual(problems(table('id'), removedBoth), [
      [
        2,
        0,
        'Data loss: Removing Orders deletes the table and its items (DeletionPolicy: Delete). To keep them, deploy DeletionPolicy: Retain (or Snapshot where the type supports it) before removing the resource: the deployed policy is the one applied.',
      ],
      [
        2,
        0,
        'Cleanup may fail: Removing Uploads deletes the bucket, which CloudFormation cannot do while it holds objects. The update still completes ("Update successful. One or more resources could not be deleted.") and leaves the bucket behind, outside the stack. Empty it first, or set DeletionPolicy: Retain to keep it on purpose.',
      ],
    ]);
  });
  test('an export that changes: without an account a warning, with its importers read a failure, in every face', async () => {
    const network = (cidr: string) => `Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: ${cidr}
Outputs:
  VpcId:
    Value: !Ref Vpc
    Export: { Name: shared-vpc-id }
`;
    const before = network('10.0.0.0/16');
    const after = network('10.1.0.0/16');
    const exportLine = after.split('\n').findIndex((line) => line.includes('Export:'));
    const outputLine = after.split('\n').findIndex((line) => line === '  VpcId:');
    const words = (crossStack?: { importsByExport: Map<string, string[]> }) => {
      const { report, after: evaluated } = analyzeUpdate({ text: before }, { text: after }, { spec, ...(crossStack ? { crossStack } : {}) });
      const document = TextDocument.create('file:///app.yaml', 'yaml', 1, after);
      const outline = readOutline(encodeOutline(evaluated));
      const lenses = buildCodeLenses(document, outline, report, 'stack app');
      const problem = buildDiagnostics(document, evaluated, report).find((d) => d.range.start.line === exportLine);
      const hover = buildHover(document, outline, report, spec, document.offsetAt({ line: outputLine, character: 3 }));
      return {
        verdict: lenses.find((lens) => lens.range.start.line === 0)?.command?.title,
        lens: lenses.find((lens) => lens.range.start.line === exportLine)?.command?.title,
        problem: problem && [problem.severity, problem.message],
        hover: hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : undefined,
      };
    };
    const changes = 'Export shared-vpc-id (output VpcId) changes value: if another stack imports it, CloudFormation fails the update. Link the deployed stack (or use --stack in the CLI) to check its imports.';
    assert.deepEqual(words(), {
      verdict: '1 modify (1 replace) — against stack app',
      lens: '⚠ Export shared-vpc-id changes value — the update fails if another stack imports it',
      problem: [2, changes],
      hover: `**⚠ Export shared-vpc-id**: ${changes}`,
    });
    const inUse = 'Export shared-vpc-id cannot be updated as it is in use by app-stack: the update will fail and roll back (output VpcId).';
    assert.deepEqual(words({ importsByExport: new Map([['shared-vpc-id', ['app-stack']]]) }), {
      verdict: '1 modify (1 replace) · will fail: export shared-vpc-id is in use — against stack app',
      lens: '⚠ Will fail — export shared-vpc-id is in use by app-stack',
      problem: [1, inUse],
      hover: `**⚠ Export shared-vpc-id**: ${inUse}`,
    });
    const text = await cli(before, after);
    assert.match(text, new RegExp(`^  warning .*new\\.yaml:${exportLine + 1}:5 ${changes.replace(/[.()]/g, '\\$&')}$`, 'm'));
    const markdown = await cli(before, after, '--markdown');
    assert.ok(markdown.includes(`- **warning** `) && markdown.includes(changes), markdown);
  });

  test('an alias under CodeDeployLambdaAliasUpdate at a new version: how CodeDeploy shifts its traffic, and what can stop it', async () => {
    const before = `Resources:
  Live:
    Type: AWS::Lambda::Alias
    UpdatePolicy:
      CodeDeployLambdaAliasUpdate:
        ApplicationName: orders
        DeploymentGroupName: !Ref Group
        BeforeAllowTrafficHook: CodeDeployHook_checks
    Properties:
      FunctionName: orders
      FunctionVersion: '3'
      Name: live
  Group:
    Type: AWS::CodeDeploy::DeploymentGroup
    Properties:
      ApplicationName: orders
      ServiceRoleArn: arn:aws:iam::123456789012:role/codedeploy
      DeploymentConfigName: CodeDeployDefault.LambdaLinear10PercentEvery1Minute
      AlarmConfiguration:
        Enabled: true
        Alarms: [{ Name: errors }, { Name: latency }]
`;
    const after = before.replace("FunctionVersion: '3'", "FunctionVersion: '4'");
    const { verdict, rows } = await faces(before, after);
    assert.equal(verdict, '1 modify — against HEAD');
    const reason =
      'FunctionVersion changed; CodeDeploy shifts its traffic to the new version: 10 % more every minute (CodeDeployDefault.LambdaLinear10PercentEvery1Minute); ' +
      'the stack update waits for it and rolls back if CodeDeployHook_checks or one of 2 alarms stops it';
    assert.deepEqual(rows, {
      Live: {
        lens: '✎ Update (no interruption) · ⇄ traffic shift: 10 % more every 1 min',
        hover: `**✎ Update (no interruption)**: ${reason}`,
        cli: `✎  update (no interruption)  Live  AWS::Lambda::Alias  ${reason}`,
        markdown: `| ✎ update (no interruption) | \`Live\` | AWS::Lambda::Alias | ${reason} |`,
        json: reason,
      },
    });
  });

  test('a search domain replaced for a new engine version: every face says the update policy that would upgrade it in place', async () => {
    const search = (version: string) => `Resources:
  Search:
    Type: AWS::OpenSearchService::Domain
    UpdateReplacePolicy: Retain
    Properties:
      EngineVersion: ${version}
`;
    const { rows } = await faces(search('OpenSearch_2.11'), search('OpenSearch_2.13'));
    const avoidable = 'UpdatePolicy EnableVersionUpgrade: true would update it in place';
    // The property's own hover gives both answers, whatever the template holds.
    const after = search('OpenSearch_2.13');
    const { report, after: evaluated } = analyzeUpdate({ text: after }, { text: after }, { spec });
    const document = TextDocument.create('file:///app.yaml', 'yaml', 1, after);
    const hover = buildHover(document, readOutline(encodeOutline(evaluated)), report, spec, after.indexOf('EngineVersion') + 1);
    const lines = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value.split('\n') : [];
    assert.deepEqual(lines.slice(0, 3), ['**EngineVersion** · `AWS::OpenSearchService::Domain`', '', 'Update requires: No interruption with UpdatePolicy EnableVersionUpgrade: true; Replacement without it']);
    const kept = 'data kept: the old search domain and its indices stay in the account, outside the stack (UpdateReplacePolicy: Retain); the new search domain starts empty';
    const reason = `EngineVersion changed · ${avoidable} · ${kept}`;
    // On the lens, within 90 characters, the data's fate comes before the policy that would avoid it.
    assert.deepEqual(rows.Search, {
      lens: '⟳ Replace — EngineVersion changed · old search domain kept · new one empty',
      problem: `Replacement: EngineVersion changed → new Search · ${avoidable}`,
      hover: `**⟳ Replace**: ${reason}`,
      cli: `⟳  replace  Search  AWS::OpenSearchService::Domain  ${reason}`,
      markdown: `| ⟳ replace | \`Search\` | AWS::OpenSearchService::Domain | ${reason} |`,
      json: reason,
    });
  });

  test('a REST API method changed with no new deployment: the problem says the stages keep serving the API as it was', async () => {
    const before = `Resources:
  Api:
    Type: AWS::ApiGateway::RestApi
    Properties: { Name: items }
  GetItems:
    Type: AWS::ApiGateway::Method
    Properties:
      RestApiId: !Ref Api
      ResourceId: !GetAtt Api.RootResourceId
      HttpMethod: GET
      AuthorizationType: NONE
      Integration: { Type: MOCK }
  Release:
    Type: AWS::ApiGateway::Deployment
    DependsOn: GetItems
    Properties: { RestApiId: !Ref Api, StageName: prod }
`;
    const { rows } = await faces(before, before.replace('AuthorizationType: NONE', 'AuthorizationType: AWS_IAM'));
    assert.deepEqual(rows.GetItems, {
      lens: '✎ Update (no interruption) — AuthorizationType changed',
      problem:
        'Not deployed: this update changes REST API Api (GetItems), but its deployment Release is not created anew, and a deployment is a snapshot of the API: ' +
        'its stages keep serving the API as it was. A new AWS::ApiGateway::Deployment (a new logical id) deploys the change.',
      hover: '**✎ Update (no interruption)**: AuthorizationType changed',
      cli: '✎  update (no interruption)  GetItems  AWS::ApiGateway::Method  AuthorizationType changed',
      markdown: '| ✎ update (no interruption) | `GetItems` | AWS::ApiGateway::Method | AuthorizationType changed |',
      json: 'AuthorizationType changed',
    });
  });

  test('two Auto Scaling groups on a new launch template version: one keeps its running instances, the other replaces them in batches', async () => {
    const group = (id: string, policy: string) => `  ${id}:
    Type: AWS::AutoScaling::AutoScalingGroup
${policy}    Properties:
      MinSize: '2'
      MaxSize: '4'
      VPCZoneIdentifier: [subnet-1]
      LaunchTemplate: { LaunchTemplateId: !Ref Launch, Version: !GetAtt Launch.LatestVersionNumber }
`;
    const before = `Resources:
  Launch:
    Type: AWS::EC2::LaunchTemplate
    Properties:
      LaunchTemplateData: { ImageId: ami-11111111 }
${group('Plain', '')}${group('Rolled', '    UpdatePolicy:\n      AutoScalingRollingUpdate: { MaxBatchSize: 2, MinInstancesInService: 2 }\n')}`;
    const after = before.replace('ami-11111111', 'ami-22222222');
    const { rows } = await faces(before, after);
    const cause = 'LaunchTemplate ← Launch.LatestVersionNumber';
    const kept = `${cause}; the running instances keep the configuration they were launched with: only instances launched from now on use the new one (no UpdatePolicy replaces them)`;
    const rolled = `${cause}; CloudFormation replaces its instances in batches of up to 2, keeping at least 2 in service (AutoScalingRollingUpdate)`;
    assert.deepEqual(rows.Plain, {
      // Within 90 characters, the rollout comes before the cause's source.
      lens: '✎ Update (no interruption) — LaunchTemplate changed · running instances unchanged',
      hover: `**✎ Update (no interruption)**: ${kept}`,
      cli: `✎  update (no interruption)  Plain  AWS::AutoScaling::AutoScalingGroup  ${kept}`,
      markdown: `| ✎ update (no interruption) | \`Plain\` | AWS::AutoScaling::AutoScalingGroup | ${kept} |`,
      json: kept,
    });
    assert.deepEqual(rows.Rolled, {
      // With the cause named, 93 characters: the rollout alone fits.
      lens: '✎ Update (no interruption) · ⇄ rolling update: 2 instances at a time',
      hover: `**✎ Update (no interruption)**: ${rolled}`,
      cli: `✎  update (no interruption)  Rolled  AWS::AutoScaling::AutoScalingGroup  ${rolled}`,
      markdown: `| ✎ update (no interruption) | \`Rolled\` | AWS::AutoScaling::AutoScalingGroup | ${rolled} |`,
      json: rolled,
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
      [lineOf(after, '    Timeout: 10'), '✎ updates HelloWorldFunction'],
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

  test('new code under a DeploymentPreference: the lens says how CodeDeploy shifts the alias to the new version, the hover says what can stop it', () => {
    const gradual = samApp.replace('      AutoPublishAlias: live\n', '      AutoPublishAlias: live\n      DeploymentPreference:\n        Type: Canary10Percent30Minutes\n');
    const after = gradual.replace('hello-v1.zip', 'hello-v2.zip');
    const { lenses, problems, hovers } = samFaces(gradual, after, ['HelloWorldFunction:']);
    assert.deepEqual(lenses, [
      [0, '1 add · 2 modify · 1 remove — against HEAD'],
      [lineOf(after, '  HelloWorldFunction:'), '✎ Update (no interruption) · + new version · ⇄ traffic shift: 10 % for 30 min, then all'],
    ]);
    assert.deepEqual(problems, []);
    assert.ok(
      hovers['HelloWorldFunction:']!.includes(
        '- `HelloWorldFunctionAliaslive` · AWS::Lambda::Alias — **✎ Update (no interruption)**: FunctionVersion changed; CodeDeploy shifts its traffic to the new version: ' +
          '10 % for 30 minutes, then all (CodeDeployDefault.LambdaCanary10Percent30Minutes); the stack update waits for it and rolls back if it fails',
      ),
      hovers['HelloWorldFunction:']!.join('\n'),
    );
  });

  test('AutoPublishAlias removed: the lens on the function names the version and alias going, the API calling the function itself', () => {
    const after = samApp.replace('      AutoPublishAlias: live\n', '');
    const { lenses, problems } = samFaces(samApp, after, []);
    // The API's integration and the permission named the alias; now they name the function. A
    // permission cannot be updated in place, and the new API definition is a new deployment.
    assert.deepEqual(lenses, [
      [0, '1 add · 3 modify (1 replace) · 3 remove — against HEAD'],
      [lineOf(after, '  HelloWorldFunction:'), 'Events.HelloWorld → ⟳ API deployment · ⟳ permission · ✎ API · − version · − alias'],
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
      [lineOf(after, '  Worker:'), 'Layers, BatchSize → ✎ Update (no interruption) · ✎ event source mapping'],
    ]);
    assert.deepEqual(problems, []);
  });

  test('a role path set in Globals: the role replacement is a problem on that Globals line, and its hover names the role', () => {
    const after = samApp.replace('    Timeout: 3\n', '    Timeout: 3\n    RolePath: /app/\n');
    const { lenses, problems, hovers } = samFaces(samApp, after, ['RolePath']);
    assert.deepEqual(lenses, [
      [0, '2 modify (1 replace) — against HEAD'],
      [lineOf(after, '  HelloWorldFunction:'), 'RolePath → ✎ Update (no interruption) · ⟳ role'],
      [lineOf(after, '    RolePath: /app/'), '⟳ replaces HelloWorldFunction role'],
    ]);
    // The function takes the new role, and the version the alias serves keeps the old one, which the cleanup deletes.
    const version = /HelloWorldFunctionVersion[0-9a-f]{10}/.exec(problems[1]?.[1] ?? '')?.[0];
    assert.deepEqual(problems, [
      [lineOf(after, '    RolePath: /app/'), 'Replacement: Path changed → new HelloWorldFunctionRole'],
      [
        lineOf(after, '  HelloWorldFunction:'),
        `Not published: this update changes HelloWorldFunction's Role, but its version ${version} is not created anew, and a version is a snapshot of the function: ` +
          'HelloWorldFunctionAliaslive still points at the function as it was. SAM publishes a new version only when the code, the environment variables, the memory size or SnapStart change as written in the template, unless AutoPublishAliasAllProperties is true.',
      ],
    ]);
    assert.deepEqual(hovers.RolePath, [
      '**Globals.Function.RolePath** · `AWS::Serverless::Function`',
      '',
      'The Serverless transform generates from it:',
      '- `HelloWorldFunctionRole` · AWS::IAM::Role — **⟳ Replace**: Path changed',
    ]);
  });
});
