// A parent template linked to its deployed stack, over the real language server: the nested
// stack's child template next to it is compared with the template the deployed nested stack runs,
// read once with the baseline through the nested stack's physical id (scenarios `nested-platform`
// and `nested-platform-network` of the local CloudFormation endpoint, through the real SDK). The
// deployed parent names its child by the S3 URL `package` gave it; the edited one by the file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseBaselineRequest } from '../../server/src/lsp/protocol';
import { startEndpoint, type LocalEndpoint } from '../endpoint/server';
import { pathToUri, TestServer } from './support/languageServer';
import { useTestAwsEnvironment } from './support/awsEnvironment';

useTestAwsEnvironment('AKIANESTEDLINKTEST', 'nested-link-test-not-a-secret');

const platform = `Parameters:
  Cidr:
    Type: String
    Default: 10.0.0.0/16
Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: network.yaml
      Parameters:
        VpcCidr: !Ref Cidr
  AppSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId: !GetAtt Network.Outputs.VpcId
`;

const network = (block = 0) => `Parameters:
  VpcCidr:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref VpcCidr
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: !Select [${block}, !Cidr [!Ref VpcCidr, 4, 8]]
Outputs:
  VpcId:
    Value: !Ref Vpc
`;

describe('a parent linked to its deployed stack, which runs a nested stack', () => {
  let dir: string;
  let endpoint: LocalEndpoint;
  let server: TestServer;
  let uri: string;
  const networkLine = platform.split('\n').indexOf('  Network:');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-nested-linked-'));
    writeFileSync(join(dir, 'platform.yaml'), platform);
    writeFileSync(join(dir, 'network.yaml'), network());
    endpoint = await startEndpoint({ scenarios: ['nested-platform', 'nested-platform-network'] });
    server = await TestServer.start({ workspace: dir, initializationOptions: { environment: { trusted: true, aws: { regions: ['us-east-1'], endpoint: endpoint.url } } } });
    uri = pathToUri(join(dir, 'platform.yaml'));
    await server.open(uri, platform);
    await server.connection.sendRequest(chooseBaselineRequest, { uri, choice: { kind: 'stack', stackName: 'platform', region: 'us-east-1' } });
    await server.status(uri, (s) => s.kind === 'stack' && s.state === 'ok');
  });

  after(async () => {
    await server?.stop();
    await endpoint?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the parent and child as deployed are a no-op: the file packages to the nested stack it runs', async () => {
    await server.diagnostics(uri, await server.change(uri, `${platform}\n`));
    const verdict = ((await server.codeLenses(uri)) ?? []).find((lens) => lens.range.start.line === 0)?.command?.title;
    assert.match(verdict ?? '', /^No updates are to be performed/);
  });

  test("an edit to the open child is the parent's nested stack updated, counted on its lens; the reader of an output it keeps gets no lens", async () => {
    const childUri = pathToUri(join(dir, 'network.yaml'));
    await server.diagnostics(childUri, await server.open(childUri, network()));
    // The next subnet block: CidrBlock replaces the subnet (its VPC stays). A block that overlaps the
    // old one would fail instead, the replacement being created beside it (docs/update-rules.md#coexistence).
    await server.change(childUri, network(1));
    const deadline = Date.now() + 15_000;
    let titles: (string | undefined)[] = [];
    while (Date.now() < deadline) {
      const lenses = (await server.codeLenses(uri)) ?? [];
      titles = lenses.filter((lens) => lens.range.start.line === networkLine).map((lens) => lens.command?.title);
      if (titles[0]?.includes('nested')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(titles, ['✎ nested: 1 replace']);
    const securityGroupLine = platform.split('\n').indexOf('  AppSecurityGroup:');
    const lenses = (await server.codeLenses(uri)) ?? [];
    assert.deepEqual(lenses.filter((lens) => lens.range.start.line === securityGroupLine).map((lens) => lens.command?.title), []);
  });

  test('edits read nothing more from AWS: the nested stack is read once, with the baseline', async () => {
    const before = endpoint.calls.length;
    for (const block of [2, 3]) {
      await server.change(pathToUri(join(dir, 'network.yaml')), network(block));
      await server.diagnostics(uri, await server.change(uri, `${platform}${'\n'.repeat(block)}`));
    }
    assert.deepEqual(endpoint.calls.slice(before).map((c) => c.action), []);
    const nestedReads = endpoint.calls.filter((c) => /stack\/platform-Network-/.test(c.params.StackName ?? '')).map((c) => c.action).sort();
    assert.deepEqual(nestedReads, ['DescribeStacks', 'GetTemplate']);
  });
});
