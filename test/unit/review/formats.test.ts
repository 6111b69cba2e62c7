/**
 * The review formats for CI: `--format sarif` is a SARIF 2.1.0 log valid against the OASIS
 * schema (as shipped by @microsoft/jest-sarif), one rule per kind of finding and each result at
 * the resource or property in the new template; `--format github` is GitHub Actions workflow
 * commands, checked line by line, and writes the Markdown job summary when GITHUB_STEP_SUMMARY is set.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { main } from '../../../server/src/cli/main';

const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-formats-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function run(env: Record<string, string>, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env });
  return { code, stdout, stderr };
}

const before = `Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: orders
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
      KeySchema: [{ AttributeName: id, KeyType: HASH }]
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 30
  Logs:
    Type: AWS::S3::Bucket
`;
// TableName changes (replacement, line 5), the queue's timeout changes in place (line 12), the
// bucket goes (removal: its data is deleted) and a topic comes (line 13).
const after = `Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: purchases
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
      KeySchema: [{ AttributeName: id, KeyType: HASH }]
  Queue:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 60
  Alerts:
    Type: AWS::SNS::Topic
`;
const oldPath = file('app.yaml', before);
const newPath = file('app-new.yaml', after);

function sarifValidator() {
  const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
  // The schema's language-tag pattern is not valid with the `u` flag, which Ajv adds by default.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number } }; logicalLocations?: { name: string }[] }[];
}

describe('--format sarif', () => {
  test('is valid SARIF 2.1.0, with one rule per kind and results at the property or resource in the new template', async () => {
    const { code, stdout } = await run({}, 'diff', oldPath, newPath, '--format', 'sarif');
    assert.equal(code, 0);
    const log = JSON.parse(stdout);
    const validate = sarifValidator();
    assert.equal(validate(log), true, JSON.stringify(validate.errors, null, 2));
    // The validator does reject what the schema forbids.
    assert.ok(!validate({ ...log, version: '2.0.0' }));
    assert.ok(!validate({ ...log, runs: [{ ...log.runs[0], results: [{ ...log.runs[0].results[0], level: 'fatal' }] }] }));
    const rules = log.runs[0].tool.driver.rules as { id: string }[];
    assert.equal(new Set(rules.map((r) => r.id)).size, rules.length, 'one rule per kind');
    for (const kind of ['replacement', 'will-fail', 'deletion', 'rejected', 'conditional-replacement', 'addition', 'update']) assert.ok(rules.some((r) => r.id === kind), kind);
    const results = log.runs[0].results as SarifResult[];
    const at = (id: string) => results.find((r) => r.locations[0].logicalLocations?.[0].name === id)!;
    assert.deepEqual([at('Table').ruleId, at('Table').level, at('Table').locations[0].physicalLocation.region?.startLine], ['replacement', 'error', 5]);
    assert.deepEqual([at('Queue').ruleId, at('Queue').locations[0].physicalLocation.region?.startLine], ['update', 12]);
    assert.deepEqual([at('Alerts').ruleId, at('Alerts').locations[0].physicalLocation.region?.startLine], ['addition', 13]);
    // A removed resource has no place in the new template: the result names the file only.
    assert.deepEqual([at('Logs').ruleId, at('Logs').locations[0].physicalLocation.region], ['deletion', undefined]);
    for (const result of results) assert.equal(rules[result.ruleIndex].id, result.ruleId);
    assert.ok(results.every((r) => r.locations[0].physicalLocation.artifactLocation.uri.endsWith('app-new.yaml')));
  });

  test('a rejected update is a valid log too, its error under the rejected rule', async () => {
    const broken = file('broken.yaml', 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: !Ref Missing\n');
    const { code, stdout } = await run({}, 'diff', oldPath, broken, '--format', 'sarif');
    assert.equal(code, 1);
    const log = JSON.parse(stdout);
    assert.equal(sarifValidator()(log), true);
    const rejected = (log.runs[0].results as SarifResult[]).filter((r) => r.ruleId === 'rejected');
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0].level, 'error');
    assert.match(rejected[0].message.text, /Missing/);
    assert.equal(rejected[0].locations[0].physicalLocation.region?.startLine, 5);
  });
});

describe('a run that fails before any analysis', () => {
  test('--format sarif still prints a valid log, which says the run failed and why', async () => {
    const { code, stdout } = await run({}, 'diff', oldPath, join(dir, 'missing.yaml'), '--format', 'sarif');
    assert.equal(code, 1);
    const log = JSON.parse(stdout);
    assert.equal(sarifValidator()(log), true);
    assert.deepEqual(log.runs[0].results, []);
    assert.equal(log.runs[0].invocations[0].executionSuccessful, false);
    assert.match(log.runs[0].invocations[0].toolExecutionNotifications[0].message.text, /cannot read .*missing\.yaml: no such file/);
  });

  test('--format github prints one error annotation with the reason', async () => {
    const { code, stdout } = await run({}, 'diff', oldPath, join(dir, 'missing.yaml'), '--format=github');
    assert.equal(code, 1);
    assert.equal(stdout, `::error title=cfn-impact::cannot read ${join(dir, 'missing.yaml')}: no such file\n`);
  });
});

describe('--format github', () => {
  test('one notice with the verdict, then one workflow command per finding, on the lines of the new template', async () => {
    const { code, stdout } = await run({}, 'diff', oldPath, newPath, '--format', 'github', '--fail-on', 'replacement');
    assert.equal(code, 2);
    const lines = stdout.trimEnd().split('\n');
    const file = newPath.replace(/:/g, '%3A').replace(/,/g, '%2C');
    assert.equal(lines.length, 7);
    assert.equal(lines[0], `::notice file=${file},title=CloudFormation impact%3A ${file}::1 add · 2 modify (1 replace) · 1 remove`);
    // The replaced table and the queue point at the changed value, the added topic at its key.
    assert.equal(lines[1], `::error file=${file},line=5,endLine=5,col=18,endColumn=27,title=Replace Table (AWS%3A%3ADynamoDB%3A%3ATable)::Table: TableName changed · data loss: the old table and its items are deleted (UpdateReplacePolicy: Delete)`);
    assert.equal(lines[2], `::notice file=${file},line=12,endLine=12,col=26,endColumn=28,title=Update (no interruption) Queue (AWS%3A%3ASQS%3A%3AQueue)::Queue: VisibilityTimeout changed`);
    assert.equal(lines[3], `::notice file=${file},line=13,endLine=13,col=3,endColumn=9,title=Add Alerts (AWS%3A%3ASNS%3A%3ATopic)::Alerts: created: new in the template`);
    // The removed bucket is annotated on the file: it has no line in the new template.
    assert.equal(
      lines[4],
      `::warning file=${file},title=Remove Logs (AWS%3A%3AS3%3A%3ABucket)::Logs: removed from the template; deleted during cleanup · cleanup may fail: the bucket cannot be deleted while it holds objects and is then left behind`,
    );
    // The risks are findings of their own, with what to do about them: the table's at its key, the bucket's on the Resources key.
    assert.match(lines[5], new RegExp(`^::warning file=${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=2,endLine=2,col=3,endColumn=8,title=data-loss::Data loss: Replacing Table deletes the old table and its items`));
    assert.match(lines[6], /^::warning file=.*,line=1,endLine=1,col=1,endColumn=10,title=cleanup-may-fail::Cleanup may fail: Removing Logs deletes the bucket/);
  });

  test('messages and properties are escaped as the Actions toolkit escapes them', async () => {
    const odd = file('odd,name:1.yaml', after);
    const { stdout } = await run({}, 'diff', oldPath, odd, '--format', 'github');
    for (const line of stdout.trimEnd().split('\n')) {
      const [, properties] = /^::\w+ ([^:]*)::/.exec(line) ?? [];
      assert.ok(properties !== undefined, line);
      assert.ok(properties.includes('odd%2Cname%3A1.yaml'), line);
    }
  });

  test('with GITHUB_STEP_SUMMARY set, the Markdown summary is appended to that file', async () => {
    const summary = file('summary.md', '# earlier step\n');
    await run({ GITHUB_STEP_SUMMARY: summary }, 'diff', oldPath, newPath, '--format', 'github');
    const text = readFileSync(summary, 'utf8');
    assert.ok(text.startsWith('# earlier step\n### CloudFormation impact: `app-new`'));
    assert.match(text, /\| ⟳ replace \| `Table` \| AWS::DynamoDB::Table \|/);
  });
});
