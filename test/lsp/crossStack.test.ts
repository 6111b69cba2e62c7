// A linked stack over the real language server: with the deployed stack as baseline, the server
// reads what crosses stacks once, through the real SDK from the local CloudFormation endpoint, so
// that an export another stack imports is an error where it is written and the verdict says the
// update will fail (docs/update-rules.md#exports-in-use); further edits make no call. The account a
// template's AWS::AccountId names is the stack's, read from its id (docs/update-rules.md#account-and-stack-name).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseBaselineRequest } from '../../server/src/lsp/protocol';
import { SCENARIOS } from '../endpoint/scenarios';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { pathToUri, TestServer } from './support/languageServer';
import { useTestAwsEnvironment } from './support/awsEnvironment';

// The spawned server inherits this environment: test credentials for signing, and no region,
// profile or AWS configuration file of the machine running the tests.
useTestAwsEnvironment('AKIACROSSSTACKTEST', 'cross-stack-test-not-a-secret');

const network = SCENARIOS['exporting-network'].templateBody;
const replacingVpc = network.replace('Default: 10.0.0.0/16', 'Default: 10.1.0.0/16');
/** The deployed template with a topic that only the given account has. */
const withAudit = (account: string) => network.replace('Resources:\n', `Conditions:\n  InThisAccount: !Equals [!Ref AWS::AccountId, '${account}']\nResources:\n  Audit:\n    Type: AWS::SNS::Topic\n    Condition: InThisAccount\n`);

describe('a linked stack whose export another stack imports', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  let uri: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-cross-'));
    writeFileSync(join(dir, 'network.yaml'), network);
    endpoint = await startEndpoint({ scenarios: ['exporting-network', 'importing-app'], accountId: '111122223333' });
    server = await TestServer.start({ workspace: dir, initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } } });
    uri = pathToUri(join(dir, 'network.yaml'));
    await server.open(uri, network);
    await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'stack', stackName: 'shared-network', region: 'us-east-1' } });
    await server.status(uri, (s) => s.kind === 'stack' && s.state === 'ok');
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('replacing the VPC changes the exported id: an error at its Export, worded as CloudFormation fails, and a verdict that says so', async () => {
    const diagnostics = await server.diagnostics(uri, await server.change(uri, replacingVpc));
    const inUse = diagnostics.find((d) => d.code === 'export-in-use');
    assert.ok(inUse, JSON.stringify(diagnostics.map((d) => d.code)));
    assert.equal(inUse.severity, 1);
    assert.equal(inUse.message, 'Export shared-vpc-id cannot be updated as it is in use by app: the update will fail and roll back (output VpcId).');
    const exportLine = replacingVpc.split('\n').findIndex((line) => line.includes('Name: shared-vpc-id'));
    assert.equal(inUse.range.start.line, exportLine);
    // shared-vpc-cidr changes as well, but no stack imports it.
    assert.equal(diagnostics.filter((d) => String(d.code).startsWith('export-')).length, 1);
    const verdict = ((await server.codeLenses(uri)) ?? []).find((lens) => lens.range.start.line === 0)?.command?.title;
    // Within 90 characters the verdict comes first; the status bar names the stack it is measured against.
    assert.equal(verdict, '1 modify (1 replace) · will fail: export shared-vpc-id is in use');
  });

  test('edits read nothing more from AWS: what crosses stacks is read once with the baseline', async () => {
    const before = endpoint.calls.length;
    for (const cidr of ['10.2.0.0/16', '10.3.0.0/16', '10.4.0.0/16']) {
      await server.diagnostics(uri, await server.change(uri, network.replace('Default: 10.0.0.0/16', `Default: ${cidr}`)));
    }
    assert.deepEqual(endpoint.calls.slice(before).map((c) => c.action), []);
    assert.deepEqual(
      [...new Set(endpoint.calls.map((c) => c.action))].sort(),
      ['DescribeStacks', 'GetTemplate', 'ListChangeSets', 'ListExports', 'ListImports'],
      'the baseline (its change sets included) and what crosses stacks, read once',
    );
  });

  test("the stack's account, read from its id, decides a condition over AWS::AccountId: a resource for it is added, one for another is not", async () => {
    const verdict = async () => ((await server.codeLenses(uri)) ?? []).find((lens) => lens.range.start.line === 0)?.command?.title;
    await server.diagnostics(uri, await server.change(uri, withAudit('111122223333')));
    assert.equal(await verdict(), '1 add — against stack shared-network');
    await server.diagnostics(uri, await server.change(uri, withAudit('123456789012')));
    assert.equal(await verdict(), 'No updates are to be performed — against stack shared-network');
  });
});
