/**
 * The template `sam init` gives (one function with an `Api` event, Outputs that read the implicit
 * `ServerlessRestApi` and `HelloWorldFunctionRole`), compared as CloudFormation deploys it: the
 * Serverless transform expanded on both sides (docs/update-rules.md#serverless-transform).
 * Expected logical ids follow SAM's documented naming and its hashing rule, computed here with
 * Node's own SHA-1: a version is `<Function>Version` + 10 hex digits of the SHA-1 of its code
 * location as sorted, compact JSON.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport, ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { samInitApp, samInitImageApp } from '../../fixtures/samHelloWorld';

const spec = loadResourceSpec();

const helloWorld = samInitApp;

function impact(before: string, after: string): ImpactReport {
  return analyzeUpdate({ text: before }, { text: after }, { spec, stackName: 'sam-app' }).report;
}

/** `action logicalId` of each change that changes something, in report order. */
function actions(report: ImpactReport): string[] {
  return report.changes.filter((c) => c.impact !== 'none').map((c) => `${c.action} ${c.logicalId}`);
}

function change(report: ImpactReport, logicalId: string): ResourceChange {
  const found = report.changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `a change for ${logicalId} among ${report.changes.map((c) => c.logicalId).join(', ')}`);
  return found;
}

/** SAM's version logical id: the SHA-1 of the code location, keys sorted, no spaces. */
function versionId(functionId: string, code: Record<string, string>): string {
  const json = JSON.stringify(Object.fromEntries(Object.keys(code).sort().map((k) => [k, code[k]])));
  return `${functionId}Version${createHash('sha1').update(json).digest('hex').slice(0, 10)}`;
}

describe('the sam init hello-world template', () => {
  test('compared with itself is a no-op: Outputs may read ServerlessRestApi and HelloWorldFunctionRole', () => {
    const report = impact(helloWorld, helloWorld);
    assert.equal(report.status, 'noop', report.message);
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), []);
    assert.ok(report.notes.some((n) => n.kind === 'sam-local-artifact' && n.path === 'hello_world/'), JSON.stringify(report.notes));
  });

  test('Timeout 3 → 10 in Globals is one update without interruption of the function, attributed to Timeout', () => {
    const report = impact(helloWorld, helloWorld.replace('Timeout: 3', 'Timeout: 10'));
    assert.equal(report.status, 'update');
    assert.deepEqual(actions(report), ['Modify HelloWorldFunction']);
    const fn = change(report, 'HelloWorldFunction');
    assert.equal(fn.resourceType, 'AWS::Lambda::Function');
    assert.equal(fn.impact, 'no-interruption');
    assert.deepEqual(fn.details.map((d) => d.target.path), ['/Properties/Timeout']);
    assert.deepEqual(fn.generatedBy, { logicalId: 'HelloWorldFunction', property: 'Timeout' });
    // Ranges point into the SAM template as written: the generated function at the SAM resource
    // that produced it, its changed value at the property that was edited, which the function
    // takes from Globals because it does not set Timeout itself.
    const edited = helloWorld.replace('Timeout: 3', 'Timeout: 10');
    assert.equal(fn.rangeIn, 'new');
    assert.equal(edited.slice(fn.range.start, fn.range.end), 'HelloWorldFunction');
    assert.equal(fn.details[0].rangeIn, 'new');
    assert.deepEqual(fn.details[0].range, { start: edited.indexOf('Timeout: 10'), end: edited.indexOf('Timeout: 10') + 'Timeout'.length });
  });

  test('a CodeUri change under AutoPublishAlias adds a new version, removes (and retains) the old one and points the alias at it', () => {
    const published = helloWorld.replace('CodeUri: hello_world/', 'CodeUri: s3://artifacts/hello-v1.zip\n      AutoPublishAlias: live');
    const report = impact(published, published.replace('hello-v1.zip', 'hello-v2.zip'));
    const oldVersion = versionId('HelloWorldFunction', { S3Bucket: 'artifacts', S3Key: 'hello-v1.zip' });
    const newVersion = versionId('HelloWorldFunction', { S3Bucket: 'artifacts', S3Key: 'hello-v2.zip' });
    assert.deepEqual(actions(report).sort(), [`Add ${newVersion}`, 'Modify HelloWorldFunction', 'Modify HelloWorldFunctionAliaslive', `Remove ${oldVersion}`].sort());
    assert.equal(change(report, newVersion).resourceType, 'AWS::Lambda::Version');
    assert.equal(change(report, oldVersion).policyAction, 'Retain');
    const alias = change(report, 'HelloWorldFunctionAliaslive');
    assert.deepEqual(alias.details.map((d) => d.target.path), ['/Properties/FunctionVersion']);
    assert.equal(change(report, 'HelloWorldFunction').impact, 'no-interruption');
    assert.deepEqual(change(report, newVersion).generatedBy, { logicalId: 'HelloWorldFunction', property: 'AutoPublishAlias' });
  });

  test('changed values point at the SAM property they were read from: the resource\'s own before Globals, CodeUri for the code', () => {
    const published = helloWorld.replace('CodeUri: hello_world/', 'CodeUri: s3://artifacts/hello-v1.zip\n      AutoPublishAlias: live\n      Timeout: 5');
    const edited = published.replace('hello-v1.zip', 'hello-v2.zip').replace('Timeout: 5', 'Timeout: 6').replace('Timeout: 3', 'Timeout: 4');
    const report = impact(published, edited);
    const fn = change(report, 'HelloWorldFunction');
    const at = (path: string) => {
      const detail = fn.details.find((d) => d.target.path === path);
      assert.ok(detail?.range && detail.rangeIn === 'new', `${path} has a range in the new template`);
      return edited.slice(0, detail.range.start).split('\n').length;
    };
    const lineNumber = (line: string) => edited.split('\n').indexOf(line) + 1;
    // The function sets Timeout itself, so Globals' value is not the one deployed (and its edit changes nothing).
    assert.equal(at('/Properties/Timeout'), lineNumber('      Timeout: 6'));
    assert.equal(at('/Properties/Code/S3Key'), lineNumber('      CodeUri: s3://artifacts/hello-v2.zip'));
  });

  test('a new Api event redeploys the API: a new deployment replaces the old one and the stage points at it', () => {
    const withEvent = helloWorld.replace(
      '            Method: get\n',
      '            Method: get\n        Goodbye:\n          Type: Api\n          Properties:\n            Path: /goodbye\n            Method: get\n',
    );
    const report = impact(helloWorld, withEvent);
    const added = report.changes.filter((c) => c.action === 'Add').map((c) => `${c.resourceType} ${c.logicalId}`);
    const removed = report.changes.filter((c) => c.action === 'Remove').map((c) => `${c.resourceType} ${c.logicalId}`);
    assert.equal(added.filter((a) => a.startsWith('AWS::ApiGateway::Deployment ServerlessRestApiDeployment')).length, 1, added.join('\n'));
    assert.equal(removed.filter((r) => r.startsWith('AWS::ApiGateway::Deployment ServerlessRestApiDeployment')).length, 1, removed.join('\n'));
    assert.ok(added.includes('AWS::Lambda::Permission HelloWorldFunctionGoodbyePermissionProd'), added.join('\n'));
    assert.deepEqual(change(report, 'ServerlessRestApi').details.map((d) => d.target.path), ['/Properties/Body/paths/~1goodbye']);
    assert.deepEqual(change(report, 'ServerlessRestApiProdStage').details.map((d) => d.target.path), ['/Properties/DeploymentId']);
    assert.equal(change(report, 'ServerlessRestApi').generatedBy?.logicalId, 'HelloWorldFunction');
  });
  test('a CodeUri folder that is not beside the template is a warning at CodeUri, not a rejection: a build step may make it before sam deploy', () => {
    const typo = helloWorld.replace('CodeUri: hello_world/', 'CodeUri: hello_wrld/');
    const report = analyzeUpdate({ text: helloWorld }, { text: typo, artifacts: new Map([['hello_wrld/', false]]) }, { spec, stackName: 'sam-app' }).report;
    assert.equal(report.status, 'update', report.message);
    assert.deepEqual(
      report.notes.filter((n) => n.kind.startsWith('sam-local-artifact')).map((n) => [n.kind, 'range' in n ? typo.slice(n.range?.start, n.range?.end) : undefined]),
      [['sam-local-artifact-missing', 'hello_wrld/']],
    );
    // Where the folder is, it is the note a local path always gets.
    const there = analyzeUpdate({ text: helloWorld }, { text: helloWorld, artifacts: new Map([['hello_world/', true]]) }, { spec, stackName: 'sam-app' }).report;
    assert.equal(there.status, 'noop', there.message);
    assert.deepEqual(there.notes.filter((n) => n.kind.startsWith('sam-local-artifact')).map((n) => n.kind), ['sam-local-artifact']);
  });

  test('a SAM function the transform rejects is rejected with the transform\'s message alone, not as a change of its type', () => {
    const invalid = helloWorld.replace('      Handler: app.lambda_handler\n', '      Handler: app.lambda_handler\n      AutoPublishAlias: live*1\n');
    assert.notEqual(invalid, helloWorld);
    const report = impact(helloWorld, invalid);
    assert.equal(report.status, 'error');
    assert.deepEqual(
      report.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['sam-invalid'],
    );
  });

  test('without its Transform line the template is rejected, as CloudFormation rejects SAM types nothing expands, not compared as written', () => {
    const untransformed = helloWorld.replace('Transform: AWS::Serverless-2016-10-31\n', '');
    assert.notEqual(untransformed, helloWorld);
    const report = impact(helloWorld, untransformed.replace('Timeout: 3', 'Timeout: 10'));
    assert.equal(report.status, 'error');
    assert.deepEqual(report.changes, []);
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    const unrecognized = errors.find((d) => d.code === 'serverless-without-transform');
    assert.match(unrecognized?.message ?? '', /^Template format error: Unrecognized resource types: \[AWS::Serverless::Function\]/);
    // Globals, which only the transform reads, is an unknown section too.
    assert.ok(errors.some((d) => d.code === 'unknown-section'));
  });

  test('a key being typed (YAML that does not parse) is rejected with the parser\'s message alone: CloudFormation reads nothing else of such a text, and the transform never runs', () => {
    const typing = helloWorld.replace('      Handler: app.lambda_handler\n', '      Handler: app.lambda_handler\n      Memo\n');
    const report = impact(helloWorld, typing);
    assert.equal(report.status, 'error');
    assert.deepEqual(report.diagnostics.map((d) => d.code), ['yaml-syntax']);
    assert.equal(report.message, report.diagnostics[0]!.message);
    assert.deepEqual(report.notes, []);
  });

  test('the keystroke that makes the YAML parse again gives the update it types, with the baseline kept as the language server keeps it', () => {
    const caching = { baselineCache: new Map(), baselineKey: 'head' };
    const analysed = (text: string) => analyzeUpdate({ text: helloWorld }, { text }, { spec, stackName: 'sam-app' }, caching).report;
    const typed = ['M', 'Memo', 'MemorySize', 'MemorySize:', 'MemorySize: 2', 'MemorySize: 256'].map((key) => helloWorld.replace('Timeout: 3', 'Timeout: 4').replace('      Handler: app.lambda_handler\n', `      Handler: app.lambda_handler\n      ${key}\n`));
    const reports = typed.map(analysed);
    assert.deepEqual(reports.map((r) => r.status), ['error', 'error', 'error', 'update', 'update', 'update']);
    assert.deepEqual(reports.at(-1), impact(helloWorld, typed.at(-1)!));
  });
});

describe('the sam init hello-world image template, whose image sam build builds and sam deploy pushes', () => {
  test('compared with itself is a no-op, not a rejection for want of an ImageUri (sam deploy fills it in): a note says the image is built from its folder', () => {
    const report = impact(samInitImageApp, samInitImageApp);
    assert.equal(report.status, 'noop', report.message);
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), []);
    assert.deepEqual(report.notes.filter((n) => n.kind === 'sam-local-image').map((n) => 'path' in n && n.path), ['./hello_world']);
  });

  test('Timeout 3 → 10 in Globals is one update without interruption of the function', () => {
    const report = impact(samInitImageApp, samInitImageApp.replace('Timeout: 3', 'Timeout: 10'));
    assert.deepEqual(actions(report), ['Modify HelloWorldFunction']);
    assert.equal(change(report, 'HelloWorldFunction').impact, 'no-interruption');
  });

  test('a new DockerTag is a new image for the function: its code changes (and the Metadata SAM copies to it)', () => {
    const report = impact(samInitImageApp, samInitImageApp.replace('DockerTag: python3.12-v1', 'DockerTag: python3.12-v2'));
    assert.deepEqual(actions(report), ['Modify HelloWorldFunction']);
    assert.deepEqual(change(report, 'HelloWorldFunction').details.map((d) => d.target.path).sort(), ['/Metadata/DockerTag', '/Properties/Code/ImageUri']);
  });

  test('an image function with no ImageUri and no build named in its Metadata is still rejected, as SAM rejects it', () => {
    const unbuilt = samInitImageApp.replace(/ {4}Metadata:\n(?: {6}.*\n)+/, '');
    assert.notEqual(unbuilt, samInitImageApp);
    assert.match(impact(unbuilt, unbuilt).diagnostics.map((d) => d.message).join('\n'), /'ImageUri' must be set/);
  });
});
