// A linked stack over the real language server: the account a template's AWS::AccountId names is
// the deployed stack's, read from its id through the real SDK from the local CloudFormation
// endpoint (docs/update-rules.md#account-and-stack-name); against HEAD it is a deploy-time value.
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

useTestAwsEnvironment('AKIALINKEDACCOUNTTEST', 'linked-account-test-not-a-secret');

const network = SCENARIOS['exporting-network'].templateBody;
/** The deployed template with a topic that only the given account has. */
const withAudit = (account: string) => network.replace('Resources:\n', `Conditions:\n  InThisAccount: !Equals [!Ref AWS::AccountId, '${account}']\nResources:\n  Audit:\n    Type: AWS::SNS::Topic\n    Condition: InThisAccount\n`);

describe("a linked stack's account", () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  let uri: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-account-'));
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

  const verdict = async () => ((await server.codeLenses(uri)) ?? []).find((lens) => lens.range.start.line === 0)?.command?.title;

  test('decides a condition over AWS::AccountId: a resource for this account is added, one for another is not', async () => {
    await server.diagnostics(uri, await server.change(uri, withAudit('111122223333')));
    assert.equal(await verdict(), '1 add — against stack shared-network');
    await server.diagnostics(uri, await server.change(uri, withAudit('123456789012')));
    assert.equal(await verdict(), 'No updates are to be performed — against stack shared-network');
  });
});
