/**
 * `cfn-impact diff`: files in, a verdict and an exit code out.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';
import { FUNCTION_REFERENCES, functionWithReferences } from '../../fixtures/dynamicReferences';
import { GOV_CLOUD_ONLY, imageByRegion } from '../../fixtures/regionalTemplates';
import { sizedInstance } from '../../fixtures/sizedInstance';

const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-diff-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs the CLI and captures what it printed and its exit code. */
async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runIn({}, ...argv);
}

/** Runs the CLI in a shell with the given environment. */
async function runIn(env: Record<string, string>, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env });
  return { code, stdout, stderr };
}

const network = `
Parameters:
  Cidr: { Type: String, Default: 10.0.0.0/16 }
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
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: alerts
`;

const oldPath = file('network.yaml', network);
const newPath = file('network-new.yaml', network.replace('DisplayName: alerts', 'DisplayName: alarms'));

describe('cfn-impact diff', () => {
  test('--json prints exactly one object with the change fields and 1-based locations', async () => {
    const { code, stdout } = await run('diff', oldPath, oldPath, '--json', '--new-parameters', file('p.json', '{"Cidr": "10.1.0.0/16"}'));
    assert.equal(code, 0);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const result = JSON.parse(lines[0]);
    assert.equal(result.status, 'update');
    assert.deepEqual(result.changes.map((c: { logicalId: string; resourceType: string; action: string; replacement: string }) => [c.logicalId, c.resourceType, c.action, c.replacement]), [
      ['VPC', 'AWS::EC2::VPC', 'Modify', 'True'],
      ['Subnet', 'AWS::EC2::Subnet', 'Modify', 'True'],
    ]);
    assert.deepEqual(result.changes[0].location.start, { line: 5, column: 3 });
    assert.equal(result.changes[0].details[0].changeSource, 'ParameterReference');
    assert.equal(result.changes[0].details[0].causingEntity, 'Cidr');
  });

  test('a no-op says so, in CloudFormation\'s words', async () => {
    const { code, stdout } = await run('diff', oldPath, file('same.json', JSON.stringify({ Parameters: { Cidr: { Type: 'String', Default: '10.0.0.0/16' } }, Resources: { VPC: { Type: 'AWS::EC2::VPC', Properties: { CidrBlock: { Ref: 'Cidr' } } }, Subnet: { Type: 'AWS::EC2::Subnet', Properties: { VpcId: { Ref: 'VPC' }, CidrBlock: '10.0.0.0/24' } }, Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: 'alerts' } } } })), '--json');
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), { status: 'noop', message: 'No updates are to be performed.', changes: [], diagnostics: [], notes: [] });
  });

  test('the readable summary names each resource and its effect', async () => {
    const { code, stdout } = await run('diff', oldPath, newPath);
    assert.equal(code, 0);
    assert.match(stdout, /Update: 1 modify/);
    assert.match(stdout, /update \(no interruption\)\s+Topic\s+AWS::SNS::Topic\s+DisplayName changed/);
    assert.doesNotMatch(stdout, /\u001b\[/, 'no colour codes when stdout is not a terminal');
  });

  test('--markdown prints a table a reviewer can paste', async () => {
    const { stdout } = await run('diff', oldPath, newPath, '--markdown');
    assert.match(stdout, /^### CloudFormation impact: `network-new`/);
    assert.match(stdout, /\| ✎ update \(no interruption\) \| `Topic` \| AWS::SNS::Topic \|/);
  });

  test('--fail-on gates CI with exit code 2', async () => {
    const params = file('cidr.json', '[{"ParameterKey": "Cidr", "ParameterValue": "10.2.0.0/16"}]');
    assert.equal((await run('diff', oldPath, newPath, '--fail-on', 'replacement')).code, 0);
    assert.equal((await run('diff', oldPath, newPath, '--fail-on', 'any')).code, 2);
    assert.equal((await run('diff', oldPath, oldPath, '--new-parameters', params, '--fail-on', 'replacement')).code, 2);
    assert.equal((await run('diff', oldPath, oldPath, '--new-parameters', params, '--fail-on', 'will-fail')).code, 0);
  });

  test('UsePreviousValue in the new parameters keeps the deployed value', async () => {
    const oldParams = file('old.json', '{"Cidr": "10.5.0.0/16"}');
    const newParams = file('new.json', '[{"ParameterKey": "Cidr", "UsePreviousValue": true}]');
    const { stdout } = await run('diff', oldPath, oldPath, '--old-parameters', oldParams, '--new-parameters', newParams, '--json');
    assert.equal(JSON.parse(stdout).status, 'noop');
  });

  test('--stack-status checks the precondition', async () => {
    const { code, stdout } = await run('diff', oldPath, newPath, '--json', '--stack-status', 'ROLLBACK_COMPLETE', '--stack-name', 'prod');
    assert.equal(code, 1);
    assert.equal(JSON.parse(stdout).message, 'Stack:prod is in ROLLBACK_COMPLETE state and can not be updated.');
  });

  test('an unreadable file is a clear message on stderr and exit 1, never a stack trace', async () => {
    const missing = await run('diff', oldPath, join(dir, 'nope.yaml'));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*nope\.yaml: no such file/);
    assert.doesNotMatch(missing.stderr, /\n\s+at /);
    const folder = await run('diff', dir, oldPath);
    assert.match(folder.stderr, /is a directory/);
    if (process.getuid?.() !== 0) {
      const locked = file('locked.yaml', network);
      chmodSync(locked, 0o000);
      assert.match((await run('diff', oldPath, locked)).stderr, /permission denied/);
    }
    const badParams = await run('diff', oldPath, newPath, '--parameters', file('bad.json', '{oops'));
    assert.equal(badParams.code, 1);
    assert.match(badParams.stderr, /bad\.json: not valid JSON or YAML/);
  });

  test('bad usage prints the usage and exits 1', async () => {
    const { code, stderr } = await run('diff', oldPath);
    assert.equal(code, 1);
    assert.match(stderr, /Usage: cfn-impact diff/);
    assert.equal((await run('diff', oldPath, newPath, '--fail-on', 'sometimes')).code, 1);
    assert.equal((await run('frobnicate')).code, 1);
  });

  test('--fail-on replacement also trips on a replacement that will fail', async () => {
    const named = file('named.yaml', 'Resources:\n  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      RoleName: fixed\n      Path: /a/\n      AssumeRolePolicyDocument: {}\n');
    const renamedPath = file('named-new.yaml', 'Resources:\n  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      RoleName: fixed\n      Path: /b/\n      AssumeRolePolicyDocument: {}\n');
    const { code, stdout } = await run('diff', named, renamedPath, '--json', '--fail-on', 'replacement');
    assert.equal(JSON.parse(stdout).changes[0].impact, 'will-fail');
    assert.equal(code, 2);
  });

  test('UsePreviousValue keeps the deployed value even when the default changed', async () => {
    const before = file('sized.yaml', 'Parameters:\n  Size: { Type: String, Default: t3.small }\nResources:\n  Box:\n    Type: AWS::EC2::Instance\n    Properties: { ImageId: ami-1, InstanceType: !Ref Size }\n');
    const after = file('sized-new.yaml', 'Parameters:\n  Size: { Type: String, Default: t3.large }\nResources:\n  Box:\n    Type: AWS::EC2::Instance\n    Properties: { ImageId: ami-1, InstanceType: !Ref Size }\n');
    const keep = file('keep.json', '[{"ParameterKey": "Size", "UsePreviousValue": true}]');
    assert.equal(JSON.parse((await run('diff', before, after, '--json', '--new-parameters', keep)).stdout).status, 'noop');
    assert.equal(JSON.parse((await run('diff', before, after, '--json')).stdout).status, 'update');
  });

  test('--stack-status must be a real status', async () => {
    const { code, stderr, stdout } = await run('diff', oldPath, newPath, '--json', '--stack-status', 'UPDATE_COMPLET');
    assert.equal(code, 1);
    assert.match(stderr, /UPDATE_COMPLET is not a CloudFormation stack status/);
    assert.equal(JSON.parse(stdout).status, 'error');
  });

  test('a cascaded replacement names its root cause in the readable summary', async () => {
    const params = file('cidr-text.json', '{"Cidr": "10.3.0.0/16"}');
    const { stdout } = await run('diff', oldPath, oldPath, '--new-parameters', params);
    assert.match(stdout, /replace\s+Subnet\s+AWS::EC2::Subnet\s+VpcId ← VPC replaced\n\s+cause: CidrBlock ← parameter Cidr → new VPC → new Subnet\n/);
  });

  test('resources that only re-read unchanged values are in --json as the change set lists them, and nowhere a claim', async () => {
    const vpc = 'Resources:\n  VPC:\n    Type: AWS::EC2::VPC\n    Properties:\n      CidrBlock: 10.0.0.0/16\n';
    const subnets = ['A', 'B'].map((id, i) => `  Subnet${id}:\n    Type: AWS::EC2::Subnet\n    Properties:\n      VpcId: !Ref VPC\n      CidrBlock: !Select [${i}, !Cidr [!GetAtt VPC.CidrBlock, 4, 8]]\n`).join('');
    const before = file('cidr-layout.yaml', vpc + subnets);
    const after = file('cidr-layout-tagged.yaml', vpc.replace('10.0.0.0/16\n', '10.0.0.0/16\n      Tags: [{ Key: team, Value: net }]\n') + subnets);

    const json = JSON.parse((await run('diff', before, after, '--json')).stdout);
    assert.equal(json.message, '1 modify');
    assert.deepEqual(json.changes.map((c: { logicalId: string; impact: string; replacement: string }) => [c.logicalId, c.impact, c.replacement]), [
      ['VPC', 'no-interruption', 'False'],
      ['SubnetA', 'none', 'Conditional'],
      ['SubnetB', 'none', 'Conditional'],
    ]);

    const text = (await run('diff', before, after)).stdout;
    assert.match(text, /Update: 1 modify\n/);
    assert.doesNotMatch(text, /replace/);
    assert.match(text, /No change: SubnetA, SubnetB\. A change set lists them as Dynamic; the values they re-read stay the same\./);
    const markdown = (await run('diff', before, after, '--markdown')).stdout;
    assert.doesNotMatch(markdown, /\| `Subnet/);
    assert.match(markdown, /_No change: SubnetA, SubnetB\./);

    assert.equal((await run('diff', before, after, '--fail-on', 'replacement')).code, 0);
    assert.equal((await run('diff', before, after, '--fail-on', 'any')).code, 2);
  });

  test('--fail-on replacement weighs what happens: an instance type change is Replacement Conditional in a change set but only interrupts', async () => {
    const box = 'Resources:\n  Box:\n    Type: AWS::EC2::Instance\n    Properties: { ImageId: ami-1, InstanceType: t3.micro }\n';
    const { code, stdout } = await run('diff', file('box.yaml', box), file('box-new.yaml', box.replace('t3.micro', 't3.small')), '--json', '--fail-on', 'replacement');
    const result = JSON.parse(stdout);
    assert.deepEqual([result.changes[0].replacement, result.changes[0].impact, result.message], ['Conditional', 'some-interruption', '1 modify']);
    assert.equal(code, 0);
  });

  test('the account is a deploy-time value unless --account-id gives it: a condition over it guards its resources as "if"', async () => {
    const byAccount = (name: string) => `Conditions:
  IsProd: !Equals [!Ref AWS::AccountId, '111122223333']
Resources:
  Logs:
    Type: AWS::S3::Bucket
    Condition: IsProd
    Properties:
      BucketName: ${name}
`;
    const before = file('by-account.yaml', byAccount('prod-logs'));
    const after = file('by-account-new.yaml', byAccount('prod-logs-2'));
    const offline = await run('diff', before, after);
    assert.equal(offline.code, 0);
    assert.match(offline.stdout, /^Update: 1 modify \(1 replace\)$/m);
    assert.match(offline.stdout, /replace +Logs +AWS::S3::Bucket +BucketName changed · if IsProd holds/);
    const inProd = await run('diff', '--account-id', '111122223333', before, after);
    assert.match(inProd.stdout, /replace +Logs +AWS::S3::Bucket +BucketName changed · cleanup may fail/);
    assert.doesNotMatch(inProd.stdout, /if IsProd/);
    const elsewhere = await run('diff', '--account-id', '444455556666', before, after);
    assert.match(elsewhere.stdout, /^No updates are to be performed\.$/m);
  });

  test("without a Region, an edit to one Region's entry is the update if the stack runs there; --region or AWS_REGION decides it", async () => {
    const before = file('by-region.yaml', imageByRegion('ami-22222222'));
    const after = file('by-region-new.yaml', imageByRegion('ami-33333333'));
    const unknown = await run('diff', before, after);
    assert.equal(unknown.code, 0);
    assert.match(unknown.stdout, /replace +Host +AWS::EC2::Instance +ImageId changed if the Region is eu-west-1$/m);
    assert.match(unknown.stdout, /\/Properties\/ImageId \[replacement\]: "ami-22222222" → "ami-33333333" if the Region is eu-west-1$/m);
    const json = JSON.parse((await run('diff', '--json', before, after)).stdout);
    assert.deepEqual(json.changes[0].details[0].when, { key: 'AWS::Region', values: ['eu-west-1'] });
    assert.equal(json.changes[0].reason, 'ImageId changed if the Region is eu-west-1');
    assert.match((await run('diff', '--region', 'us-east-1', before, after)).stdout, /^No updates are to be performed\.$/m);
    const inEurope = await runIn({ AWS_REGION: 'eu-west-1' }, 'diff', before, after);
    assert.match(inEurope.stdout, /replace +Host +AWS::EC2::Instance +ImageId changed$/m);
    // The option comes before the shell's Region.
    assert.match((await runIn({ AWS_REGION: 'eu-west-1' }, 'diff', '--region', 'us-east-1', before, after)).stdout, /^No updates are to be performed\.$/m);
  });

  test('a template written for GovCloud is a no-op with no Region and rejected in us-east-1', async () => {
    const gov = file('gov.yaml', GOV_CLOUD_ONLY);
    const unknown = await run('diff', gov, gov);
    assert.equal(unknown.code, 0);
    assert.match(unknown.stdout, /^No updates are to be performed\.$/m);
    const virginia = await run('diff', '--region', 'us-east-1', gov, gov);
    assert.equal(virginia.code, 1);
    assert.match(virginia.stdout, /^Rejected: Template error: Unable to get mapping for AWSAMIRegionMap::us-east-1::AWSNATHVM$/m);
    assert.equal((await runIn({ AWS_DEFAULT_REGION: 'us-gov-west-1' }, 'diff', gov, gov)).code, 0);
  });

  test('the rows of what a SAM resource generates follow one line that sums them up, in the words of its lens', async () => {
    const sam = `Transform: AWS::Serverless-2016-10-31
Resources:
  HelloWorldFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://artifacts/hello-v1.zip
      Handler: app.lambda_handler
      Runtime: python3.12
      AutoPublishAlias: live
  Logs:
    Type: AWS::S3::Bucket
`;
    const edited = sam.replace('hello-v1.zip', 'hello-v2.zip').replace('Runtime: python3.12', 'Runtime: python3.13').concat('    Properties:\n      Tags: [{ Key: team, Value: app }]\n');
    const { code, stdout } = await run('diff', file('sam.yaml', sam), file('sam-new.yaml', edited));
    assert.equal(code, 0);
    const rows = stdout.split('\n').filter((line) => /^ {2}\S/.test(line)).map((line) => line.trim().split(/\s{2,}/).slice(0, 3).join(' | ').replace(/Version[0-9a-f]{10}$/, 'Version<hash>'));
    // The function updated in place; its new code under AutoPublishAlias is a new version the alias
    // moves to, the old version kept (SAM retains versions); the bucket is not SAM's.
    assert.deepEqual(rows, [
      'HelloWorldFunction | (SAM) | Runtime, CodeUri → ✎ Update (no interruption) · + new version',
      '✎ | update (no interruption) | HelloWorldFunction',
      '+ | add | HelloWorldFunctionVersion<hash>',
      '✎ | update (no interruption) | HelloWorldFunctionAliaslive',
      '− | remove | HelloWorldFunctionVersion<hash>',
      '✎ | update (no interruption) | Logs',
    ]);
  });
});

describe('a SAM function with no CodeUri, as sam deploy packages it or as written', () => {
  const starter = `Transform: AWS::Serverless-2016-10-31
Resources:
  Logger:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: nodejs22.x
      Handler: src/handlers/logger.handler
      Timeout: 25
`;

  test("by default the template's folder is the code: a timeout edit is the function's update, and a note says where its code comes from (JSON)", async () => {
    const { code, stdout } = await run('diff', file('starter-before.yaml', starter), file('starter-after.yaml', starter.replace('Timeout: 25', 'Timeout: 30')), '--json');
    assert.equal(code, 0);
    const report = JSON.parse(stdout) as { status: string; changes: { logicalId: string }[]; notes: string[] };
    assert.equal(report.status, 'update');
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Logger']);
    assert.deepEqual(report.notes, ["Logger: no CodeUri: sam build and sam deploy package the template's folder (CodeUri defaults to .), so a change to the files there is not visible to this comparison"]);
  });

  test('--without-sam-cli: the template as written, which the transform rejects', async () => {
    const { code, stderr, stdout } = await run('diff', file('starter-as-written.yaml', starter), file('starter-as-written-2.yaml', starter), '--without-sam-cli');
    assert.equal(code, 1, stderr);
    assert.match(stdout, /Only one of 'InlineCode' or 'CodeUri' can be set\./);
  });
});

describe('dynamic references in --json', () => {
  test('an update lists the references it may resolve again, and its reason says so; the reference only', async () => {
    const { code, stdout } = await run('diff', file('dyn-before.yaml', functionWithReferences(128)), file('dyn-after.yaml', functionWithReferences(256)), '--json');
    assert.equal(code, 0);
    const report = JSON.parse(stdout) as { changes: { logicalId: string; reason: string; dynamicReferences?: string[] }[] };
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.dynamicReferences]), [['Fn', FUNCTION_REFERENCES]]);
    assert.match(report.changes[0]!.reason, /; updated, it resolves \{\{resolve:ssm:\/app\/version\}\}, \{\{resolve:secretsmanager:db-credentials:SecretString:password\}\} again: values stored there since the last deployment may go live with it$/);
  });
});

describe('a lookup keyed by a parameter with no value, in --json', () => {
  test("the detail carries the key that selects the edited entry, and the reason says it", async () => {
    const { code, stdout } = await run('diff', file('sized-before.yaml', sizedInstance('m5.large')), file('sized-after.yaml', sizedInstance('m5.xlarge')), '--json');
    assert.equal(code, 0);
    const report = JSON.parse(stdout) as { changes: { logicalId: string; reason: string; details: { when?: unknown; target: { beforeValue?: string; afterValue?: string } }[] }[] };
    const [detail] = report.changes[0]!.details;
    assert.deepEqual([detail!.target.beforeValue, detail!.target.afterValue, detail!.when], ['"m5.large"', '"m5.xlarge"', { key: 'Size', values: ['large'] }]);
    assert.match(report.changes[0]!.reason, /^InstanceType changed if Size is large/);
  });
});
