/**
 * `cfn-impact diff --base REF [PATH...]` in temporary git repositories: every template that
 * differs between REF and the working tree (or --head), added, changed and deleted ones, in
 * subfolders, with their own parameters files; other files are counted and left alone.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, env: gitEnv, encoding: 'utf8' });
}

function write(repo: string, path: string, text: string): void {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

async function run(cwd: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: {}, cwd });
  return { code, stdout, stderr };
}

const queue = (timeout: number) => `Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: ${timeout}\n`;
const table = (name: string) =>
  `AWSTemplateFormatVersion: '2010-09-09'\nParameters:\n  Env: { Type: String, Default: dev }\nResources:\n  Table:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Sub '${name}-\${Env}'\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]\n      KeySchema: [{ AttributeName: id, KeyType: HASH }]\n`;
const topic = 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n';

interface FileResult {
  path: string;
  status: string;
  message: string;
  changes: { logicalId: string; action: string; replacement?: string; impact: string }[];
}

describe('cfn-impact diff --base', () => {
  let repo: string;
  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-branch-'));
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, 'stacks/queue.yaml', queue(30));
    write(repo, 'stacks/data/table.yaml', table('orders'));
    write(repo, 'stacks/old.yaml', topic);
    write(repo, 'stacks/same.yaml', topic);
    write(repo, 'package.json', '{"name": "app", "Resources": "not a template"}\n');
    write(repo, 'README.md', '# app\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'base');
    git(repo, 'checkout', '-q', '-b', 'feature');
    // Changed in place, in a subfolder (a new table name replaces the table), deleted, added (committed and untracked), and non-templates.
    write(repo, 'stacks/queue.yaml', queue(60));
    write(repo, 'stacks/data/table.yaml', table('purchases'));
    rmSync(join(repo, 'stacks/old.yaml'));
    write(repo, 'stacks/new/bucket.json', '{"Resources": {"Bucket": {"Type": "AWS::S3::Bucket"}}}\n');
    write(repo, 'package.json', '{"name": "app2", "Resources": "not a template"}\n');
    write(repo, 'README.md', '# app, changed\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'feature');
    write(repo, 'stacks/untracked.yaml', topic);
  });

  test('--json: one entry per changed template with its status, one summary; other files are not templates', async () => {
    const { code, stdout, stderr } = await run(repo, 'diff', '--base', 'main', '--json');
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const result = JSON.parse(stdout) as { status: string; message: string; files: FileResult[] };
    assert.equal(result.status, 'update');
    assert.deepEqual(
      result.files.map((f) => [f.path, f.status]),
      [
        ['stacks/data/table.yaml', 'update'],
        ['stacks/new/bucket.json', 'create'],
        ['stacks/old.yaml', 'deleted'],
        ['stacks/queue.yaml', 'update'],
        ['stacks/untracked.yaml', 'create'],
      ],
    );
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, f]));
    // TableName is replacement-only for a DynamoDB table.
    assert.deepEqual(byPath['stacks/data/table.yaml'].changes.map((c) => [c.logicalId, c.action, c.replacement]), [['Table', 'Modify', 'True']]);
    assert.deepEqual(byPath['stacks/queue.yaml'].changes.map((c) => [c.logicalId, c.action, c.replacement]), [['Queue', 'Modify', 'False']]);
    assert.deepEqual(byPath['stacks/new/bucket.json'].changes.map((c) => [c.logicalId, c.action]), [['Bucket', 'Add']]);
    assert.deepEqual(byPath['stacks/old.yaml'].changes, []);
    assert.match(byPath['stacks/old.yaml'].message, /deleted/);
    assert.match(result.message, /^5 templates changed: 2 update, 2 new, 1 deleted \(2 other changed files not templates\)$/);
  });

  test('--head compares two revisions: the untracked file is not part of them', async () => {
    const { stdout } = await run(repo, 'diff', '--base', 'main', '--head', 'feature', '--json');
    const result = JSON.parse(stdout) as { files: FileResult[] };
    assert.deepEqual(result.files.map((f) => f.path), ['stacks/data/table.yaml', 'stacks/new/bucket.json', 'stacks/old.yaml', 'stacks/queue.yaml']);
  });

  test('paths limit the review, relative to the folder it runs in', async () => {
    const { stdout } = await run(join(repo, 'stacks'), 'diff', '--base', 'main', 'data', '--json');
    const result = JSON.parse(stdout) as { files: FileResult[] };
    assert.deepEqual(result.files.map((f) => f.path), ['stacks/data/table.yaml']);
  });

  test('--fail-on applies across all files: the table replacement trips it', async () => {
    assert.equal((await run(repo, 'diff', '--base', 'main', '--fail-on', 'replacement')).code, 2);
    assert.equal((await run(repo, 'diff', '--base', 'main', 'stacks/queue.yaml', '--fail-on', 'replacement')).code, 0);
  });

  test('--parameters-map gives each template its own values: the same Env on both sides keeps the name', async () => {
    write(repo, 'ci/prod.json', '{"Env": "prod"}');
    write(repo, 'ci/map.json', '{"stacks/data/*.yaml": "prod.json"}');
    const { stdout } = await run(repo, 'diff', '--base', 'main', '--parameters-map', 'ci/map.json', 'stacks/data', '--json');
    const result = JSON.parse(stdout) as { files: FileResult[] };
    const table = result.files[0];
    assert.equal(table.changes[0].replacement, 'True');
    assert.ok(JSON.stringify(table.changes[0]).includes('purchases-prod'), 'the mapped value is used on the new side');
  });

  test('text output names each file and ends with the summary line', async () => {
    const { stdout } = await run(repo, 'diff', '--base', 'main', '--head', 'feature');
    const lines = stdout.trimEnd().split('\n');
    assert.ok(lines.includes('== stacks/old.yaml (deleted)'));
    assert.ok(lines.includes('== stacks/new/bucket.json (new)'));
    assert.ok(lines.includes('== stacks/queue.yaml'));
    assert.equal(lines[lines.length - 1], '4 templates changed: 2 update, 1 new, 1 deleted (2 other changed files not templates)');
  });

  test('--format github: one notice per template, annotations at repository paths and new-template lines', async () => {
    const { code, stdout } = await run(repo, 'diff', '--base', 'main', '--head', 'feature', '--format', 'github');
    assert.equal(code, 0);
    assert.deepEqual(stdout.trimEnd().split('\n'), [
      '::notice file=stacks/data/table.yaml,title=CloudFormation impact%3A stacks/data/table.yaml::1 modify (1 replace)',
      '::notice file=stacks/new/bucket.json,title=CloudFormation impact%3A stacks/new/bucket.json (new)::New template, a new stack: 1 add',
      '::notice file=stacks/old.yaml,title=CloudFormation impact%3A stacks/old.yaml (deleted)::Template deleted: nothing is deployed from it; a stack running it keeps running until it is deleted.',
      '::notice file=stacks/queue.yaml,title=CloudFormation impact%3A stacks/queue.yaml::1 modify',
      // The table name is line 8 of table.yaml, its value from column 18 (`!Sub 'purchases-${Env}'`).
      "::error file=stacks/data/table.yaml,line=8,endLine=8,col=18,endColumn=41,title=Replace Table (AWS%3A%3ADynamoDB%3A%3ATable)::Table: TableName changed · data loss: the old table and its items are deleted (UpdateReplacePolicy: Delete)",
      // The data-loss risk is a finding of its own, at the table, with what to do about it.
      '::warning file=stacks/data/table.yaml,line=5,endLine=5,col=3,endColumn=8,title=data-loss::Data loss: Replacing Table deletes the old table and its items (UpdateReplacePolicy: Delete). To keep them, set UpdateReplacePolicy: Retain (or Snapshot where the type supports it).',
      '::notice file=stacks/new/bucket.json,line=1,endLine=1,col=16,endColumn=24,title=Add Bucket (AWS%3A%3AS3%3A%3ABucket)::Bucket: created: new in the template',
      '::notice file=stacks/queue.yaml,line=5,endLine=5,col=26,endColumn=28,title=Update (no interruption) Queue (AWS%3A%3ASQS%3A%3AQueue)::Queue: VisibilityTimeout changed',
    ]);
  });

  test('an unknown revision and a revision that looks like an option are errors, not git runs', async () => {
    const unknown = await run(repo, 'diff', '--base', 'no-such-branch', '--json');
    assert.equal(unknown.code, 1);
    assert.deepEqual(JSON.parse(unknown.stdout), { status: 'error', message: 'unknown revision no-such-branch', files: [] });
    const option = await run(repo, 'diff', '--base=--output=x', '--json');
    assert.equal(option.code, 1);
    assert.match(JSON.parse(option.stdout).message, /not a revision name/);
  });

  test('outside a repository, the error says so', async () => {
    const { code, stderr } = await run(mkdtempSync(join(tmpdir(), 'cfn-impact-norepo-')), 'diff', '--base', 'main');
    assert.equal(code, 1);
    assert.match(stderr, /not a git repository/i);
  });
});

describe('cfn-impact diff --base with nested stacks', () => {
  const parent = (url: string, cidr = '10.0.0.0/16') => `Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ${url}
      Parameters:
        Cidr: ${cidr}
`;
  const network = (tag = '') => `Parameters:
  Cidr:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref Cidr
${tag}`;
  const tagged = '      Tags:\n        - { Key: team, Value: network }\n';

  interface NestedFile extends FileResult {
    changes: (FileResult['changes'][number] & { nested?: { path: string; changes: FileResult['changes'] } })[];
  }

  let repo: string;
  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-branch-nested-'));
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, 'stacks/platform.yaml', parent('network/vpc.yaml'));
    write(repo, 'stacks/edge.yaml', parent('network/vpc.yaml'));
    write(repo, 'stacks/network/vpc.yaml', network());
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'base');
    git(repo, 'checkout', '-q', '-b', 'feature');
  });

  test("a child changed alone on the branch: each unchanged parent running it is reviewed, the child's plan rolled up", async () => {
    write(repo, 'stacks/network/vpc.yaml', network(tagged));
    const { code, stdout, stderr } = await run(repo, 'diff', '--base', 'main', '--json');
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const files = (JSON.parse(stdout) as { files: NestedFile[] }).files;
    const platform = files.find((f) => f.path === 'stacks/platform.yaml');
    const edge = files.find((f) => f.path === 'stacks/edge.yaml');
    for (const file of [platform, edge]) {
      assert.equal(file?.status, 'update');
      const stack = file!.changes.find((c) => c.logicalId === 'Network');
      assert.equal(stack?.action, 'Modify');
      assert.equal(stack?.nested?.path, 'network/vpc.yaml');
      assert.deepEqual(stack?.nested?.changes.map((c) => [c.logicalId, c.action, c.impact]), [['Vpc', 'Modify', 'no-interruption']]);
    }
    // The child is reviewed as a template of its own too: it may be deployed alone.
    assert.ok(files.some((f) => f.path === 'stacks/network/vpc.yaml'));
  });

  test("a changed parent reads its child at each side's revision: a value passed down replaces the child's VPC", async () => {
    write(repo, 'stacks/network/vpc.yaml', network());
    write(repo, 'stacks/platform.yaml', parent('network/vpc.yaml', '10.1.0.0/16'));
    const { stdout } = await run(repo, 'diff', '--base', 'main', '--json');
    const files = (JSON.parse(stdout) as { files: NestedFile[] }).files;
    assert.deepEqual(files.map((f) => f.path), ['stacks/platform.yaml']);
    const stack = files[0]!.changes.find((c) => c.logicalId === 'Network');
    assert.deepEqual(stack?.nested?.changes.map((c) => [c.logicalId, c.impact]), [['Vpc', 'replacement']]);
  });
});

describe('cfn-impact diff --base with a SAM template whose CodeUri is a local folder', () => {
  const sam = (codeUri: string, timeout: number) =>
    `Transform: AWS::Serverless-2016-10-31\nResources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: ${codeUri}\n      Handler: app.handler\n      Runtime: python3.12\n      Timeout: ${timeout}\n`;
  let repo: string;
  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-branch-sam-'));
    git(repo, 'init', '-q', '-b', 'main');
    write(repo, 'app/template.yaml', sam('src/', 3));
    write(repo, 'app/src/app.py', 'def handler(event, context):\n    return None\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'base');
    git(repo, 'checkout', '-q', '-b', 'feature');
    // The head names a folder that is not in it; the working tree then has it.
    write(repo, 'app/template.yaml', sam('source/', 10));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'feature');
  });

  const missingNotes = (stdout: string) =>
    (JSON.parse(stdout) as { files: { notes: string[] }[] }).files.flatMap((f) => f.notes).filter((n) => /is neither a file nor a folder beside the template/.test(n));

  test('a CodeUri folder the head does not have is a warning note on the template, and the update is still predicted', async () => {
    const { code, stdout } = await run(repo, 'diff', '--base', 'main', '--head', 'feature', '--json');
    assert.equal(code, 0);
    const file = (JSON.parse(stdout) as { files: FileResult[] }).files[0]!;
    assert.equal(file.status, 'update');
    assert.deepEqual(missingNotes(stdout), ['Fn: CodeUri source/ is neither a file nor a folder beside the template: sam deploy will find nothing there to upload, unless a build step makes it first']);
  });

  test('against the working tree the folder is looked for on disk: once it is there, no warning', async () => {
    write(repo, 'app/source/app.py', 'def handler(event, context):\n    return None\n');
    const { code, stdout } = await run(repo, 'diff', '--base', 'main', '--json');
    assert.equal(code, 0);
    assert.deepEqual(missingNotes(stdout), []);
    const atHead = await run(repo, 'diff', '--base', 'main', '--head', 'feature', '--json');
    assert.equal(missingNotes(atHead.stdout).length, 1, 'the head commit still lacks it');
  });
});
