/**
 * `cfn-impact expand TEMPLATE`: the processed template, as CloudFormation's GetTemplate returns it
 * for stage Processed (docs/update-rules.md#serverless-transform).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';

const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-expand-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: {} });
  return { code, stdout, stderr };
}

const sam = `Transform: AWS::Serverless-2016-10-31
Parameters:
  Alias: { Type: String, Default: live }
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: s3://bucket/code.zip
      Handler: index.handler
      Runtime: nodejs20.x
      AutoPublishAlias: !Ref Alias
`;

describe('cfn-impact expand', () => {
  test('prints the processed template: the function, its role, version and alias, and no Transform', async () => {
    const { code, stdout } = await run('expand', file('sam.yaml', sam));
    assert.equal(code, 0);
    const template = JSON.parse(stdout);
    assert.equal(template.Transform, undefined);
    const types = Object.fromEntries(Object.entries(template.Resources as Record<string, { Type: string }>).map(([id, r]) => [id, r.Type]));
    // SAM names the version by the SHA-1 of its code location as sorted, compact JSON.
    const version = `FnVersion${createHash('sha1').update('{"S3Bucket":"bucket","S3Key":"code.zip"}').digest('hex').slice(0, 10)}`;
    assert.deepEqual(types, { Fn: 'AWS::Lambda::Function', FnRole: 'AWS::IAM::Role', [version]: 'AWS::Lambda::Version', FnAliaslive: 'AWS::Lambda::Alias' });
  });

  test('without a Region, the ARNs SAM spells out name the aws partition and a note says so; with one, its partition', async () => {
    const path = file('sam-partition.yaml', sam);
    const unknown = await run('expand', path);
    assert.deepEqual(JSON.parse(unknown.stdout).Resources.FnRole.Properties.ManagedPolicyArns, ['arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole']);
    assert.match(unknown.stderr, /^info: The Region is not given, so the ARNs SAM spells out \(managed policies, integration URIs\) name the aws partition; give --region/m);
    const gov = await run('expand', path, '--region', 'us-gov-west-1');
    assert.deepEqual(JSON.parse(gov.stdout).Resources.FnRole.Properties.ManagedPolicyArns, ['arn:aws-us-gov:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole']);
    assert.equal(gov.stderr, '');
  });

  test('the alias is named after the parameter value the parameters file gives', async () => {
    const { code, stdout } = await run('expand', file('sam2.yaml', sam), '--parameters', file('p.json', '{"Alias": "prod"}'), '--json');
    assert.equal(code, 0);
    const result = JSON.parse(stdout);
    assert.equal(result.status, 'ok');
    assert.ok('FnAliasprod' in result.template.Resources);
  });

  test('--json prints {status, message, template, diagnostics}; invalid SAM is an error at the SAM property, worded like the transform', async () => {
    const invalid = sam.replace('CodeUri: s3://bucket/code.zip', 'CodeUri: s3://bucket/code.zip\n      DeadLetterQueue: { Type: SQS }');
    const { code, stdout } = await run('expand', file('invalid.yaml', invalid), '--json');
    assert.equal(code, 1);
    const result = JSON.parse(stdout);
    assert.equal(result.status, 'error');
    assert.equal(result.message, "Invalid Serverless Application Specification document: Resource with id [Fn] is invalid. 'DeadLetterQueue' requires Type and TargetArn properties to be specified.");
    const diagnostic = result.diagnostics.find((d: { code: string }) => d.code === 'sam-invalid');
    assert.deepEqual(diagnostic.location.start, { line: 9, column: 7 });
  });

  test('a text whose YAML does not parse is an error with the parser\'s message alone, and has no processed template', async () => {
    const typing = sam.replace('      Handler: index.handler\n', '      Handler: index.handler\n      Memo\n');
    const { code, stdout } = await run('expand', file('typing.yaml', typing), '--json');
    assert.equal(code, 1);
    const result = JSON.parse(stdout);
    assert.equal(result.status, 'error');
    assert.deepEqual(result.diagnostics.map((d: { code: string }) => d.code), ['yaml-syntax']);
    assert.equal(result.message, result.diagnostics[0].message);
    assert.equal(result.template, null);
  });

  test('a template without the transform is printed as it is', async () => {
    const plain = 'Resources:\n  Q:\n    Type: AWS::SQS::Queue\n';
    const { code, stdout } = await run('expand', file('plain.yaml', plain));
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), { Resources: { Q: { Type: 'AWS::SQS::Queue' } } });
  });

  test('a missing file is an error, and --json still prints one object', async () => {
    const { code, stdout, stderr } = await run('expand', join(dir, 'missing.yaml'), '--json');
    assert.equal(code, 1);
    assert.equal(JSON.parse(stdout).status, 'error');
    assert.match(stderr, /no such file/);
  });
  test('a CodeUri folder beside the template is a note; one that is not there is a warning at CodeUri, and diff still predicts the update', async () => {
    const local = sam.replace('CodeUri: s3://bucket/code.zip', 'CodeUri: handler/');
    mkdirSync(join(dir, 'handler'), { recursive: true });
    const there = await run('expand', file('local.yaml', local), '--json');
    assert.equal(there.code, 0);
    const aboutArtifacts = (d: { code: string }) => d.code.startsWith('sam-local');
    assert.deepEqual(JSON.parse(there.stdout).diagnostics.filter(aboutArtifacts).map((d: { severity: string; code: string }) => [d.severity, d.code]), [['info', 'sam-local-artifact']]);

    const typo = local.replace('CodeUri: handler/', 'CodeUri: handlr/');
    const missing = await run('expand', file('typo.yaml', typo), '--json');
    assert.equal(missing.code, 0);
    const result = JSON.parse(missing.stdout);
    assert.equal(result.status, 'ok');
    assert.deepEqual(result.diagnostics.filter(aboutArtifacts).map((d: { severity: string; code: string; location: unknown }) => [d.severity, d.code, d.location]), [
      ['warning', 'sam-local-artifact-missing', { start: { line: 8, column: 16 }, end: { line: 8, column: 23 } }],
    ]);
    assert.match(result.diagnostics[0].message, /^Fn: CodeUri handlr\/ is neither a file nor a folder beside the template/);

    const diff = await run('diff', file('before.yaml', local), file('after.yaml', typo), '--format', 'json');
    const report = JSON.parse(diff.stdout);
    assert.equal(report.status, 'update');
    assert.ok(report.notes.some((n: string) => n.startsWith('Fn: CodeUri handlr/ is neither a file nor a folder')), report.notes.join('\n'));
  });

  test('with AWS::LanguageExtensions listed first, prints the functions a Fn::ForEach generates, their code locations resolved', async () => {
    const looped = `Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]
Resources:
  Fn::ForEach::Functions:
    - Name
    - [alpha, beta]
    - '\${Name}Function':
        Type: AWS::Serverless::Function
        Properties:
          CodeUri: !Sub 's3://bucket/\${Name}.zip'
          Handler: index.handler
          Runtime: nodejs20.x
`;
    const { code, stdout } = await run('expand', file('looped.yaml', looped));
    assert.equal(code, 0);
    const resources = JSON.parse(stdout).Resources as Record<string, { Type: string; Properties: { Code?: unknown } }>;
    assert.deepEqual(resources.alphaFunction?.Properties.Code, { S3Bucket: 'bucket', S3Key: 'alpha.zip' });
    assert.deepEqual(resources.betaFunction?.Properties.Code, { S3Bucket: 'bucket', S3Key: 'beta.zip' });
  });
});
