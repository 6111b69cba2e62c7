/**
 * `cfn-impact diff --stack NAME NEW`: the deployed stack as the baseline, read through the real
 * SDK from the local CloudFormation endpoint, with what crosses stacks: an export another stack
 * imports cannot change (docs/update-rules.md#exports-in-use), and imports resolve to the
 * exported values (docs/update-rules.md#cross-stack-values).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';
import { READ_ACTIONS } from '../../../server/src/stacks/types';
import { SCENARIOS } from '../../endpoint/scenarios';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

// The SDK's credential chain reads the process environment, as it does for the installed CLI.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-diff-stack-'));
const env = { AWS_REGION: 'us-east-1' };

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env });
  return { code, stdout, stderr };
}

let endpoint: LocalEndpoint;
before(async () => {
  endpoint = await startEndpoint({ scenarios: ['exporting-network', 'importing-app'], accountId: '111122223333' });
});
after(async () => {
  await endpoint.close();
});

const network = SCENARIOS['exporting-network'].templateBody;
const app = SCENARIOS['importing-app'].templateBody;

describe('cfn-impact diff --stack', () => {
  test('a new CIDR replaces the VPC, so its exported id changes while app imports it: export-in-use, and the update will fail', async () => {
    const newPath = file('network.yaml', network.replace('Default: 10.0.0.0/16', 'Default: 10.1.0.0/16'));
    const json = await run('diff', '--stack', 'shared-network', newPath, '--endpoint', endpoint.url, '--json');
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { status: string; message: string; risks?: unknown[] };
    assert.equal(report.status, 'update');
    // shared-vpc-cidr changes too, but no stack imports it.
    assert.deepEqual(report.risks, [
      {
        kind: 'export-in-use',
        export: 'shared-vpc-id',
        output: 'VpcId',
        change: 'modified',
        importedBy: ['app'],
        message: 'Export shared-vpc-id cannot be updated as it is in use by app: the update will fail and roll back (output VpcId).',
      },
    ]);
    assert.equal(report.message, '1 modify (1 replace) · will fail: export shared-vpc-id is in use');

    const text = await run('diff', '--stack', 'shared-network', newPath, '--endpoint', endpoint.url);
    assert.match(text.stdout, /^Update: 1 modify \(1 replace\) · will fail: export shared-vpc-id is in use$/m);
    assert.match(text.stdout, /error .*network\.yaml:\d+:\d+ Export shared-vpc-id cannot be updated as it is in use by app: the update will fail and roll back \(output VpcId\)\./);
    assert.equal((await run('diff', '--stack', 'shared-network', newPath, '--endpoint', endpoint.url, '--fail-on', 'will-fail')).code, 2);
  });

  test('removing the imported export is worded as CloudFormation refuses its deletion', async () => {
    const newPath = file('network-removed.yaml', network.replace('Default: 10.0.0.0/16', 'Default: 10.1.0.0/16').replace('    Export: { Name: shared-vpc-id }\n', ''));
    const { stdout } = await run('diff', '--stack', 'shared-network', newPath, '--endpoint', endpoint.url);
    assert.match(stdout, /Export shared-vpc-id cannot be deleted as it is in use by app/);
  });

  test('the reads are the read-only ones: the stack, its template, the exports and the importers of each of its exports', async () => {
    const first = endpoint.calls.length;
    await run('diff', '--stack', 'shared-network', file('same.yaml', network.replace('Default: 10.0.0.0/16', 'Default: 10.1.0.0/16')), '--endpoint', endpoint.url);
    const calls = endpoint.calls.slice(first);
    for (const call of calls) assert.ok((READ_ACTIONS as readonly string[]).includes(call.action), call.action);
    assert.deepEqual(calls.map((c) => c.action).sort(), ['DescribeStacks', 'GetTemplate', 'ListExports', 'ListImports', 'ListImports']);
    assert.deepEqual(calls.filter((c) => c.action === 'ListImports').map((c) => c.params.ExportName).sort(), ['shared-vpc-cidr', 'shared-vpc-id']);
  });

  test('with the account, an import and the stack output it mirrors are the same value: switching between them changes nothing', async () => {
    const newPath = file('app.yaml', app.replace('!ImportValue shared-vpc-id', '!GetStackOutput { StackName: shared-network, OutputName: VpcId }'));
    const { stdout, code } = await run('diff', '--stack', 'app', newPath, '--endpoint', endpoint.url, '--json');
    assert.equal(code, 0);
    assert.equal((JSON.parse(stdout) as { status: string }).status, 'noop');
    // Offline both stay deploy-time values that differ, which would replace the subnet.
    const offline = await run('diff', file('app-old.yaml', app), newPath, '--json');
    assert.equal((JSON.parse(offline.stdout) as { changes: { impact: string }[] }).changes[0].impact, 'replacement');
  });

  test('with the account, an import that names another export is a Static change between the two exported values', async () => {
    const newPath = file('app-cidr.yaml', app.replace('!ImportValue shared-vpc-id', '!ImportValue shared-vpc-cidr'));
    const { stdout } = await run('diff', '--stack', 'app', newPath, '--endpoint', endpoint.url, '--json');
    const details = (JSON.parse(stdout) as { changes: { details: { evaluation: string; target: { beforeValue: string; afterValue: string } }[] }[] }).changes[0].details;
    assert.deepEqual(
      details.map((d) => [d.evaluation, d.target.beforeValue, d.target.afterValue]),
      [['Static', '"vpc-0e5e5e5e5e5e5e5e5"', '"10.0.0.0/16"']],
    );
  });

  test('when the exports cannot be read (a policy without ListExports), the stack is still the baseline and the export only warns', async () => {
    const newPath = file('network-denied.yaml', network.replace('Default: 10.0.0.0/16', 'Default: 10.1.0.0/16'));
    endpoint.options.intercept = ({ call, res }) => {
      if (call.action !== 'ListExports') return false;
      call.outcome = 'AccessDenied';
      res.writeHead(403, { 'content-type': 'text/xml' });
      res.end('<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User is not authorized to perform: cloudformation:ListExports</Message></Error><RequestId>r</RequestId></ErrorResponse>');
      return true;
    };
    try {
      const { code, stdout, stderr } = await run('diff', '--stack', 'shared-network', newPath, '--endpoint', endpoint.url, '--json');
      assert.equal(code, 0);
      assert.match(stderr, /exports and imports could not be read, so they are compared offline: Access denied/);
      const risks = (JSON.parse(stdout) as { risks: { kind: string; export: string }[] }).risks;
      assert.deepEqual(risks.map((r) => [r.kind, r.export]), [['export-changes', 'shared-vpc-id'], ['export-changes', 'shared-vpc-cidr']]);
    } finally {
      delete endpoint.options.intercept;
    }
  });

  test("the account is the deployed stack's, read from its id: a condition over it is decided", async () => {
    // The local endpoint's stacks are in account 111122223333, as their ids say.
    const byAccount = (account: string) =>
      network.replace('Resources:\n', `Conditions:\n  InThisAccount: !Equals [!Ref AWS::AccountId, '${account}']\nResources:\n  Audit:\n    Type: AWS::SNS::Topic\n    Condition: InThisAccount\n`);
    const here = await run('diff', '--stack', 'shared-network', file('network-audit.yaml', byAccount('111122223333')), '--endpoint', endpoint.url, '--json');
    const added = JSON.parse(here.stdout) as { changes: { logicalId: string; action: string; condition?: string }[] };
    assert.deepEqual(added.changes.map((c) => [c.logicalId, c.action, c.condition]), [['Audit', 'Add', undefined]]);
    const elsewhere = await run('diff', '--stack', 'shared-network', file('network-audit-elsewhere.yaml', byAccount('123456789012')), '--endpoint', endpoint.url, '--json');
    assert.equal((JSON.parse(elsewhere.stdout) as { status: string }).status, 'noop');
  });

  test('a stack that does not exist is a clear error, and --stack takes exactly one template', async () => {
    const missing = await run('diff', '--stack', 'nope', file('x.yaml', app), '--endpoint', endpoint.url);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nope/);
    assert.equal((await run('diff', '--stack', 'app', 'a.yaml', 'b.yaml', '--endpoint', endpoint.url)).code, 1);
  });
});
