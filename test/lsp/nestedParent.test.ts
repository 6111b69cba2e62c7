// A nested stack's template opened on its own, in the real server over stdio
// (docs/update-rules.md#nested-stacks): it is analysed with the parameter values its parent
// passes, the parent found in the workspace (or named by cfnImpact.nested.parentTemplate) and
// evaluated on both sides as its own analysis would: as edited against git HEAD.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { commands, nestedParentNotification, type OpenNestedChildArguments } from '../../server/src/lsp/protocol';
import { pathToUri, TestServer } from './support/languageServer';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

const parent = (cidr: string) => `Parameters:
  Cidr:
    Type: String
    Default: ${cidr}
Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ./network.yaml
      Parameters:
        VpcCidr: !Ref Cidr
        AlarmTopic: !Ref Alerts
  Alerts:
    Type: AWS::SNS::Topic
`;

// Both parameters are required: alone, with no parent, they are compared as the deployed stack's current values.
const network = `Parameters:
  VpcCidr:
    Type: String
  AlarmTopic:
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
      CidrBlock: !Select [0, !Cidr [!Ref VpcCidr, 2, 8]]
  Watch:
    Type: AWS::SNS::Subscription
    Properties:
      TopicArn: !Ref AlarmTopic
      Protocol: email
      Endpoint: ops@example.com
`;

/** A git repository with `files` committed, then `edits` written over them on disk. */
function repository(files: Record<string, string>, edits: Record<string, string>): string {
  const repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-parent-'));
  git(repo, 'init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(repo, name), text);
  git(repo, 'add', '--', ...Object.keys(files));
  git(repo, 'commit', '-q', '-m', 'first');
  for (const [name, text] of Object.entries(edits)) writeFileSync(join(repo, name), text);
  return repo;
}

/** The codes of the diagnostics on each resource line of the child, and the verdict lens. */
async function openChild(server: TestServer, repo: string) {
  const uri = pathToUri(join(repo, 'network.yaml'));
  const diagnostics = await server.diagnostics(uri, await server.open(uri, network));
  const verdict = ((await server.codeLenses(uri)) ?? []).find((lens) => lens.range.start.line === 0)?.command?.title;
  return { diagnostics, verdict, at: (line: number) => diagnostics.filter((d) => d.range.start.line === line).map((d) => d.code) };
}

const VPC_LINE = 6;
const SUBNET_LINE = 10;
const WATCH_LINE = 15;

describe('a child template opened on its own takes the values its parent passes', () => {
  let repo: string;
  let server: TestServer;

  before(async () => {
    // The parent's default CIDR was edited since the commit; the child was not.
    repo = repository({ 'network-parent.yaml': parent('10.0.0.0/16'), 'network.yaml': network }, { 'network-parent.yaml': parent('10.1.0.0/16') });
    server = await TestServer.start({ workspace: repo });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test("the parent's new CIDR replaces the child's VPC and, through VpcId, its subnet; the lens names the parent", async () => {
    const child = await openChild(server, repo);
    assert.deepEqual(child.at(VPC_LINE), ['replacement']);
    assert.deepEqual(child.at(SUBNET_LINE), ['replacement']);
    // The topic's ARN is known only at deploy time, the same expression on both sides: unchanged.
    assert.deepEqual(child.at(WATCH_LINE), []);
    // The values came from the parent: no parameter is compared as the stack's current value.
    assert.equal(child.diagnostics.find((d) => d.code === 'parameters-current-value'), undefined);
    assert.match(child.verdict ?? '', / — against .* · parameters from parent network-parent\.yaml$/);
  });

  test('an edit to the open parent analyses the child again: back to the committed CIDR, nothing changes', async () => {
    const parentUri = pathToUri(join(repo, 'network-parent.yaml'));
    await server.diagnostics(parentUri, await server.open(parentUri, parent('10.1.0.0/16')));
    await server.change(parentUri, parent('10.0.0.0/16'));
    const childUri = pathToUri(join(repo, 'network.yaml'));
    const deadline = Date.now() + 15_000;
    let verdict: string | undefined;
    while (Date.now() < deadline) {
      verdict = ((await server.codeLenses(childUri)) ?? []).find((lens) => lens.range.start.line === 0)?.command?.title;
      if (verdict?.startsWith('No updates are to be performed')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(verdict ?? '', /^No updates are to be performed — against .* · parameters from parent network-parent\.yaml$/);
  });
});

describe('a child nested by two parents', () => {
  let repo: string;
  const servers: TestServer[] = [];

  before(() => {
    // Only b.yaml's CIDR changed since the commit.
    repo = repository(
      { 'a.yaml': parent('10.0.0.0/16'), 'b.yaml': parent('10.5.0.0/16'), 'network.yaml': network },
      { 'b.yaml': parent('10.6.0.0/16') },
    );
  });

  after(async () => {
    for (const server of servers) await server.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test('without the setting, no parent is used and a note names both', async () => {
    const server = await TestServer.start({ workspace: repo });
    servers.push(server);
    const child = await openChild(server, repo);
    const note = child.diagnostics.find((d) => d.code === 'nested-parent');
    assert.equal(note?.severity, DiagnosticSeverity.Information);
    const message = typeof note?.message === 'string' ? note.message : '';
    assert.match(message, /a\.yaml, b\.yaml/);
    assert.match(message, /cfnImpact\.nested\.parentTemplate/);
    // Alone, the required parameters keep the stack's current values: nothing changes.
    assert.ok(child.diagnostics.some((d) => d.code === 'parameters-current-value'));
    assert.deepEqual(child.at(VPC_LINE), []);
    assert.doesNotMatch(child.verdict ?? '', /parameters from parent/);
  });

  test('cfnImpact.nested.parentTemplate picks one: its values are used', async () => {
    const server = await TestServer.start({ workspace: repo, settings: { nested: { parentTemplate: 'b.yaml' } } });
    servers.push(server);
    const child = await openChild(server, repo);
    assert.equal(child.diagnostics.find((d) => d.code === 'nested-parent'), undefined);
    assert.deepEqual(child.at(VPC_LINE), ['replacement']);
    assert.match(child.verdict ?? '', /· parameters from parent b\.yaml$/);
  });

  test("the lens on b.yaml's stack opens the child; opened from it, the child has b's values and the plan the lens summarises", async () => {
    const server = await TestServer.start({ workspace: repo });
    servers.push(server);
    const parentUri = pathToUri(join(repo, 'b.yaml'));
    await server.diagnostics(parentUri, await server.open(parentUri, parent('10.6.0.0/16')));
    const stackLens = ((await server.codeLenses(parentUri)) ?? []).find((lens) => lens.range.start.line === 5);
    // The stack's Parameters change with b's CIDR, which replaces the child's VPC and its subnet.
    assert.match(stackLens?.command?.title ?? '', /^✎ Update \(no interruption\) — Parameters ← parameter Cidr · nested: 2 replace$/);
    assert.equal(stackLens?.command?.command, commands.openNestedChild);
    const args = stackLens?.command?.arguments?.[0] as OpenNestedChildArguments;
    const childUri = pathToUri(join(repo, 'network.yaml'));
    assert.deepEqual(args, { uri: childUri, parentUri });

    // What the client's command does: name the parent, then open the child.
    await server.connection.sendNotification(nestedParentNotification, args);
    const child = await openChild(server, repo);
    assert.equal(child.diagnostics.find((d) => d.code === 'nested-parent'), undefined);
    assert.deepEqual(child.at(VPC_LINE), ['replacement']);
    assert.deepEqual(child.at(SUBNET_LINE), ['replacement']);
    assert.deepEqual(child.at(WATCH_LINE), []);
    assert.match(child.verdict ?? '', /· parameters from parent b\.yaml$/);
  });
});
