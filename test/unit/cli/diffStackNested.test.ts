/**
 * `cfn-impact diff --stack NAME PARENT` where the parent runs a nested stack: the child template
 * next to the edited parent is compared with the template the nested stack runs (GetTemplate
 * through its physical id, as `aws cloudformation package` wrote it), with the values the parent
 * passes, and its plan rolls up into the stack resource (docs/update-rules.md#nested-stacks). Read
 * through the real SDK from the local CloudFormation endpoint (scenarios `nested-platform` and
 * `nested-platform-network`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';
import { READ_ACTIONS } from '../../../server/src/stacks/types';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

const env = { AWS_REGION: 'us-east-1' };

/** The parent as its author keeps it, before `package`: the child is a file next to it. */
const platform = (cidr = '10.0.0.0/16') => `Parameters:
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
  AppSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId: !GetAtt Network.Outputs.VpcId
`;

/** The child as its author keeps it: short-form intrinsics and comments, which `package` does not keep. */
const network = (vpcTags = '') => `# The platform's network.
Parameters:
  VpcCidr:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref VpcCidr
${vpcTags}  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: !Select [0, !Cidr [!Ref VpcCidr, 4, 8]]
Outputs:
  VpcId:
    Value: !Ref Vpc
`;

interface Change {
  logicalId: string;
  action: string;
  impact: string;
  details: { target: { path: string } }[];
  nested?: { status: string; changes: Change[] };
}

/** A folder holding the parent and its child, as a project keeps them. */
function project(parentText: string, childText: string, parameters?: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-nested-stack-'));
  writeFileSync(join(dir, 'platform.yaml'), parentText);
  writeFileSync(join(dir, 'network.yaml'), childText);
  if (parameters) writeFileSync(join(dir, 'parameters.json'), JSON.stringify(Object.entries(parameters).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }))));
  return dir;
}

let endpoint: LocalEndpoint;
before(async () => {
  endpoint = await startEndpoint({ scenarios: ['nested-platform', 'nested-platform-network'] });
});
after(async () => {
  await endpoint.close();
});

async function diff(dir: string, ...extra: string[]): Promise<{ code: number; report: { status: string; message?: string; changes: Change[] }; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['diff', '--stack', 'platform', join(dir, 'platform.yaml'), '--endpoint', endpoint.url, '--json', ...extra], {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    isTTY: false,
    env,
  });
  return { code, report: JSON.parse(stdout), stderr };
}

describe('cfn-impact diff --stack with a nested stack', () => {
  test('the unchanged parent and child are a no-op against the deployed stack and the nested stack it runs', async () => {
    const first = endpoint.calls.length;
    const { code, report, stderr } = await diff(project(platform(), network()));
    assert.equal(code, 0, stderr);
    assert.equal(report.status, 'noop', JSON.stringify(report.changes));
    assert.equal(report.message, 'No updates are to be performed.');
    // The nested stack is read once, through the physical id its parent lists; its own template nests nothing, so nothing below it is listed.
    const calls = endpoint.calls.slice(first);
    for (const call of calls) assert.ok((READ_ACTIONS as readonly string[]).includes(call.action), call.action);
    const nestedId = /^arn:aws:cloudformation:us-east-1:123456789012:stack\/platform-Network-1T9ZQX4K2M7BV\//;
    assert.deepEqual(calls.filter((c) => nestedId.test(c.params.StackName ?? '')).map((c) => c.action).sort(), ['DescribeStacks', 'GetTemplate']);
    const listings = calls.filter((c) => c.action === 'ListStackResources').map((c) => c.params.StackName ?? '');
    assert.equal(listings.length, 1);
    assert.match(listings[0]!, /^arn:aws:cloudformation:us-east-1:123456789012:stack\/platform\//);
  });

  test('a tag added in the child alone rolls up: the nested stack is updated in place, and the security group reading its output is listed but keeps its VPC', async () => {
    const { report } = await diff(project(platform(), network('      Tags:\n        - { Key: team, Value: platform }\n')));
    assert.equal(report.status, 'update');
    // A change set lists the readers of an updated nested stack's outputs (Dynamic); the output it reads keeps its value.
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.impact]), [
      ['Network', 'Modify', 'no-interruption'],
      ['AppSecurityGroup', 'Modify', 'none'],
    ]);
    const stack = report.changes[0]!;
    assert.deepEqual(stack.details, []);
    assert.deepEqual(stack.nested?.changes.map((c) => [c.logicalId, c.action, c.impact]), [['Vpc', 'Modify', 'no-interruption']]);
  });

  test("a new CIDR passed down replaces the nested stack's VPC and its subnet", async () => {
    const dir = project(platform(), network(), { Cidr: '10.1.0.0/16' });
    const { report } = await diff(dir, '--parameters', join(dir, 'parameters.json'));
    const stack = report.changes.find((c) => c.logicalId === 'Network');
    assert.equal(stack?.action, 'Modify');
    assert.deepEqual(stack?.nested?.changes.map((c) => [c.logicalId, c.impact]), [
      ['Vpc', 'replacement'],
      ['Subnet', 'replacement'],
    ]);
  });
});
