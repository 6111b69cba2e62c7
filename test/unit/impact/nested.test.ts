/**
 * Nested stacks (docs/update-rules.md#nested-stacks): an `AWS::CloudFormation::Stack` whose
 * `TemplateURL` is a local path is analysed with its child, the parent's `Parameters` as the
 * child's values, and the child's plan rolls up into the stack resource's change. Expectations come
 * from the rules: the stack resource updates in place when its child changes, a VPC's `CidrBlock`
 * replaces it and a subnet's `VpcId` replaces the subnet, a missing file stops
 * `aws cloudformation package` with its own message.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, writtenChildPaths, type ChildTemplate, type NestedTemplates } from '../../../server/src/impact';
import type { ImpactReport, ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { changeLensTitle, diagnosticText } from '../../../server/src/present';

const spec = loadResourceSpec();

type Files = Record<string, string>;

/** Reads child templates from a set of files, each side its own: what the CLI and the server do with disk and git. */
function filesReader(files: Files): (path: string) => ChildTemplate {
  return (path) => (path in files ? { text: files[path] } : { problem: 'missing' });
}

/** The update from the old files to the new ones, with `parent.yaml` as the top template. */
function impact(oldFiles: Files, newFiles: Files, limits: Pick<NestedTemplates, 'maxDepth' | 'maxStacks'> = {}): ImpactReport {
  const nested: NestedTemplates = { templatePath: 'parent.yaml', readOld: filesReader(oldFiles), readNew: filesReader(newFiles), ...limits };
  return analyzeUpdate({ text: oldFiles['parent.yaml'] }, { text: newFiles['parent.yaml'] }, { spec, nested }).report;
}

function change(changes: readonly ResourceChange[], logicalId: string): ResourceChange {
  const found = changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `expected a change for ${logicalId}`);
  return found;
}

const parent = (cidr = '10.0.0.0/16', url = './network.yaml') => `Parameters:
  Cidr:
    Type: String
    Default: ${cidr}
Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ${url}
      Parameters:
        VpcCidr: !Ref Cidr
        SubnetCidr: !Select [0, !Cidr [!Ref Cidr, 2, 8]]
  Topic:
    Type: AWS::SNS::Topic
`;

const network = (tags = '') => `Parameters:
  VpcCidr:
    Type: String
  SubnetCidr:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref VpcCidr
${tags}  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: !Ref SubnetCidr
`;

const tagged = '      Tags:\n        - { Key: team, Value: network }\n';

/** The network child with a `VpcId` output, its VPC's CIDR as given. */
const networkWithOutput = (tags = '', vpcCidr = '!Ref VpcCidr') =>
  network(tags).replace('      CidrBlock: !Ref VpcCidr\n', `      CidrBlock: ${vpcCidr}\n`) + 'Outputs:\n  VpcId:\n    Value: !Ref Vpc\n';

describe('nested stacks with a local TemplateURL', () => {
  test('a child-only edit rolls up: the stack resource is a Modify whose nested plan holds the child change', () => {
    const report = impact({ 'parent.yaml': parent(), 'network.yaml': network() }, { 'parent.yaml': parent(), 'network.yaml': network(tagged) });
    assert.equal(report.status, 'update');
    const stack = change(report.changes, 'Network');
    assert.equal(stack.action, 'Modify');
    assert.equal(stack.impact, 'no-interruption');
    assert.equal(stack.nested?.path, 'network.yaml');
    assert.equal(stack.nested?.status, 'update');
    const vpc = change(stack.nested!.changes, 'Vpc');
    assert.equal(vpc.impact, 'no-interruption');
    assert.deepEqual(vpc.scope, ['Tags']);
    assert.equal(stack.nested!.changes.length, 1);
  });

  test("a parent parameter passed down replaces the child's VPC and, through VpcId, its subnet", () => {
    const report = impact({ 'parent.yaml': parent('10.0.0.0/16'), 'network.yaml': network() }, { 'parent.yaml': parent('10.1.0.0/16'), 'network.yaml': network() });
    const stack = change(report.changes, 'Network');
    assert.equal(stack.action, 'Modify');
    const inside = stack.nested!.changes;
    assert.equal(change(inside, 'Vpc').impact, 'replacement');
    const subnet = change(inside, 'Subnet');
    assert.equal(subnet.impact, 'replacement');
    // Values are rendered as a change set renders them: strings quoted.
    assert.equal(subnet.details.find((d) => d.target.name === 'CidrBlock')?.target.afterValue, '"10.1.0.0/24"');
  });

  test('unchanged parent and child are a no-op', () => {
    const files = { 'parent.yaml': parent(), 'network.yaml': network() };
    const report = impact(files, { ...files });
    assert.equal(report.status, 'noop');
    assert.equal(report.message, 'No updates are to be performed.');
    assert.deepEqual(report.changes, []);
  });

  test("a missing child file is a template error at TemplateURL, in aws cloudformation package's words", () => {
    const newParent = parent();
    const report = impact({ 'parent.yaml': parent(), 'network.yaml': network() }, { 'parent.yaml': newParent });
    const error = report.diagnostics.find((d) => d.code === 'nested-template-missing');
    assert.equal(error?.severity, 'error');
    assert.equal(error?.message, 'Parameter TemplateURL of resource Network refers to a file or folder that does not exist ./network.yaml');
    assert.equal(error?.rangeIn, 'new');
    assert.equal(newParent.slice(error!.range!.start, error!.range!.end), './network.yaml');
    // Packaging stops there: the update is never made.
    assert.equal(report.status, 'error');
    assert.equal(report.message, error?.message);
  });

  test('a child that nests its parent is a cycle: found once at its TemplateURL, not followed', () => {
    const loop = `Resources:
  Back:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ../parent.yaml
  Queue:
    Type: AWS::SQS::Queue
`;
    const top = 'Resources:\n  Network:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: child/loop.yaml\n';
    const oldFiles = { 'parent.yaml': top, 'child/loop.yaml': loop };
    const report = impact(oldFiles, { 'parent.yaml': top, 'child/loop.yaml': loop.replace('AWS::SQS::Queue', 'AWS::SQS::Queue\n    Properties: { DelaySeconds: 5 }') });
    const stack = change(report.changes, 'Network');
    const cycle = stack.nested!.diagnostics.find((d) => d.code === 'nested-cycle');
    assert.deepEqual(cycle?.finding, { kind: 'nested-cycle', logicalId: 'Back', path: 'parent.yaml' });
    assert.equal(change(stack.nested!.changes, 'Queue').action, 'Modify');
  });

  test('a chain deeper than the limit stops there with a finding', () => {
    const level = (next: string) => `Resources:\n  Next:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ${next}\n`;
    const files = { 'parent.yaml': level('a.yaml'), 'a.yaml': level('b.yaml'), 'b.yaml': level('c.yaml'), 'c.yaml': level('d.yaml') };
    const report = impact(files, { ...files, 'b.yaml': `${level('c.yaml')}  Topic:\n    Type: AWS::SNS::Topic\n` }, { maxDepth: 2 });
    const a = change(report.changes, 'Next').nested!;
    const b = change(a.changes, 'Next').nested!;
    assert.equal(change(b.changes, 'Topic').action, 'Add');
    const tooDeep = b.diagnostics.find((d) => d.code === 'nested-too-deep');
    assert.deepEqual(tooDeep?.finding, { kind: 'nested-too-deep', logicalId: 'Next', path: 'c.yaml', limit: 2 });
  });

  test('a template that nests one child many times is bounded by the number of nested stacks followed', () => {
    const fanOut = `Resources:\n${['A', 'B', 'C'].map((id) => `  ${id}:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: leaf.yaml\n`).join('')}`;
    const leaf = (delay: number) => `Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties: { DelaySeconds: ${delay} }\n`;
    const report = impact({ 'parent.yaml': fanOut, 'leaf.yaml': leaf(1) }, { 'parent.yaml': fanOut, 'leaf.yaml': leaf(2) }, { maxStacks: 2 });
    assert.deepEqual(
      report.changes.map((c) => c.logicalId),
      ['A', 'B'],
    );
    const tooMany = report.diagnostics.find((d) => d.code === 'nested-too-many');
    assert.deepEqual(tooMany?.finding, { kind: 'nested-too-many', logicalId: 'C', path: 'leaf.yaml', limit: 2 });
  });

  test("a SAM application with a local Location is its nested stack: a child-only edit rolls up, the stack placed at the application", () => {
    const sam = `Transform: AWS::Serverless-2016-10-31
Resources:
  Network:
    Type: AWS::Serverless::Application
    Properties:
      Location: ./network.yaml
      Parameters:
        VpcCidr: 10.0.0.0/16
        SubnetCidr: 10.0.0.0/24
`;
    const report = impact({ 'parent.yaml': sam, 'network.yaml': network() }, { 'parent.yaml': sam, 'network.yaml': network(tagged) });
    const stack = change(report.changes, 'Network');
    assert.equal(stack.resourceType, 'AWS::CloudFormation::Stack');
    assert.equal(stack.action, 'Modify');
    assert.deepEqual(change(stack.nested!.changes, 'Vpc').scope, ['Tags']);
    assert.deepEqual(writtenChildPaths(sam, 'app/parent.yaml'), ['app/network.yaml']);
  });

  test("a baseline whose children are not read (a deployed stack's) leaves the child out with a warning saying so", () => {
    const files = { 'parent.yaml': parent(), 'network.yaml': network() };
    const nested: NestedTemplates = { templatePath: 'parent.yaml', readOld: () => ({ problem: 'not-read' }), readNew: filesReader({ ...files, 'network.yaml': network(tagged) }) };
    const report = analyzeUpdate({ text: parent() }, { text: parent() }, { spec, nested }).report;
    assert.equal(report.status, 'noop');
    const warning = report.diagnostics.find((d) => d.code === 'nested-template-unreadable');
    assert.equal(warning?.severity, 'warning');
    assert.equal(
      diagnosticText(warning!),
      "Network: the deployed nested stack's template is not read yet; what changes inside the nested stack (network.yaml) is not analysed",
    );
  });

  test("a table replaced inside the child: the child's change carries the data-loss risk, and the stack resource's lens names it", () => {
    const table = (key: string) => `Resources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions: [{ AttributeName: ${key}, AttributeType: S }]\n      KeySchema: [{ AttributeName: ${key}, KeyType: HASH }]\n`;
    const top = 'Resources:\n  Data:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: data.yaml\n';
    const report = impact({ 'parent.yaml': top, 'data.yaml': table('id') }, { 'parent.yaml': top, 'data.yaml': table('orderId') });
    const stack = change(report.changes, 'Data');
    assert.deepEqual(change(stack.nested!.changes, 'Orders').risks, [{ kind: 'data-loss', holds: 'table-items', policy: 'UpdateReplacePolicy' }]);
    assert.equal(changeLensTitle(stack, new Set()), '✎ nested: 1 replace · data loss: Orders');
  });

  test("a baseline that names its child in S3 (a deployed, packaged stack) is not compared inside: a note says so at TemplateURL", () => {
    const url = 'https://s3.amazonaws.com/bucket/0123abcd.template';
    const report = impact({ 'parent.yaml': parent(undefined, url) }, { 'parent.yaml': parent(), 'network.yaml': network() });
    const stack = change(report.changes, 'Network');
    assert.equal(stack.nested, undefined);
    assert.equal(stack.details.find((d) => d.target.name === 'TemplateURL')?.target.afterValue, '"./network.yaml"');
    const note = report.diagnostics.find((d) => d.code === 'nested-template-remote');
    assert.deepEqual(note?.finding, { kind: 'nested-template-remote', logicalId: 'Network', url });
  });

  test('a template in S3 stays opaque, with a note at TemplateURL', () => {
    const url = 'https://s3.amazonaws.com/bucket/network.yaml';
    const report = impact({ 'parent.yaml': parent(undefined, url) }, { 'parent.yaml': parent(undefined, url) });
    assert.equal(report.status, 'noop');
    const note = report.diagnostics.find((d) => d.code === 'nested-template-remote');
    assert.equal(note?.severity, 'info');
    assert.deepEqual(note?.finding, { kind: 'nested-template-remote', logicalId: 'Network', url });
  });

  test('a value only AWS knows passes down unknown: an edit of the expression that computes it changes the child', () => {
    const withBucket = (suffix: string) => `Resources:
  Bucket:
    Type: AWS::S3::Bucket
  Store:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: store.yaml
      Parameters:
        BucketName: !Sub '\${Bucket}${suffix}'
`;
    const store = `Parameters:
  BucketName:
    Type: String
    Default: fixed
Resources:
  Reader:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Ref BucketName
`;
    const unchanged = impact({ 'parent.yaml': withBucket(''), 'store.yaml': store }, { 'parent.yaml': withBucket(''), 'store.yaml': store });
    assert.equal(unchanged.status, 'noop');
    const edited = impact({ 'parent.yaml': withBucket(''), 'store.yaml': store }, { 'parent.yaml': withBucket('-logs'), 'store.yaml': store });
    const reader = change(change(edited.changes, 'Store').nested!.changes, 'Reader');
    assert.equal(reader.action, 'Modify');
  });

  test("a Ref to a parent's resource that is replaced passes down a new physical id: the child's reader changes", () => {
    const withBucket = (name: string) => `Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: ${name}
  Store:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: store.yaml
      Parameters:
        BucketName: !Ref Bucket
`;
    const store = `Parameters:
  BucketName:
    Type: String
Resources:
  Reader:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Ref BucketName
`;
    const report = impact({ 'parent.yaml': withBucket('logs-a'), 'store.yaml': store }, { 'parent.yaml': withBucket('logs-b'), 'store.yaml': store });
    assert.equal(change(report.changes, 'Bucket').impact, 'replacement');
    const reader = change(change(report.changes, 'Store').nested!.changes, 'Reader');
    assert.equal(reader.action, 'Modify');
    assert.equal(reader.impact, 'no-interruption');
  });
});

describe('nested stacks against a deployed stack', () => {
  const S3_URL = 'https://s3.us-east-1.amazonaws.com/platform-artifacts/3f1c0e7a9b2d4c6e8f0a1b2c3d4e5f60.template';
  /** The parent as deployed: `aws cloudformation package` put the child in S3, its URL in the template. */
  const deployedParent = (cidr = '10.0.0.0/16') => parent(cidr, S3_URL) + `  AppSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId: !GetAtt Network.Outputs.VpcId
`;
  const editedParent = (cidr = '10.0.0.0/16') => parent(cidr) + `  AppSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId: !GetAtt Network.Outputs.VpcId
`;
  /** The child as `package` wrote it to S3 (and GetTemplate returns it): reformatted, long-form intrinsics. */
  const packagedNetwork = `Parameters:
  VpcCidr:
    Type: String
  SubnetCidr:
    Type: String
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock:
        Ref: VpcCidr
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId:
        Ref: Vpc
      CidrBlock:
        Ref: SubnetCidr
`;
  const withOutput = (template: string) => `${template}Outputs:\n  VpcId:\n    Value: !Ref Vpc\n`;
  const withLongOutput = (template: string) => `${template}Outputs:\n  VpcId:\n    Value:\n      Ref: Vpc\n`;

  /** The update of the deployed parent (its nested stacks as `deployed` holds them, by stack path) to the edited files. */
  function againstDeployed(parentText: string, deployed: Record<string, { text: string; status: string } | { problem: 'missing' }>, newFiles: Files): ImpactReport {
    const nested: NestedTemplates = {
      templatePath: 'parent.yaml',
      readOld: () => ({ problem: 'not-read' }),
      readNew: filesReader(newFiles),
      readDeployed: (stackPath) => deployed[stackPath],
    };
    return analyzeUpdate({ text: parentText }, { text: newFiles['parent.yaml'] }, { spec, nested }).report;
  }

  test('unchanged parent and child are a no-op: the local TemplateURL packages to the deployed one, the reformatted child is the same template', () => {
    const report = againstDeployed(deployedParent(), { Network: { text: withLongOutput(packagedNetwork), status: 'UPDATE_COMPLETE' } }, {
      'parent.yaml': editedParent(),
      'network.yaml': withOutput(network()),
    });
    assert.equal(report.status, 'noop', JSON.stringify(report.changes.map((c) => [c.logicalId, c.details.map((d) => d.target.path)])));
  });

  test("a child-only edit rolls up into the stack resource, and the reader of an output it keeps keeps its value", () => {
    const report = againstDeployed(deployedParent(), { Network: { text: withLongOutput(packagedNetwork), status: 'UPDATE_COMPLETE' } }, {
      'parent.yaml': editedParent(),
      'network.yaml': withOutput(network(tagged)),
    });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.impact]), [
      ['Network', 'Modify', 'no-interruption'],
      ['AppSecurityGroup', 'Modify', 'none'],
    ]);
    const stack = change(report.changes, 'Network');
    assert.deepEqual(stack.details, [], 'the TemplateURL is packaging, not a change of its own');
    assert.deepEqual(stack.nested?.changes.map((c) => [c.logicalId, c.action, c.impact]), [['Vpc', 'Modify', 'no-interruption']]);
  });

  test("a parent parameter passed down replaces the deployed child's VPC and its subnet", () => {
    const report = againstDeployed(deployedParent(), { Network: { text: withLongOutput(packagedNetwork), status: 'UPDATE_COMPLETE' } }, {
      'parent.yaml': editedParent('10.1.0.0/16'),
      'network.yaml': withOutput(network()),
    });
    const nested = change(report.changes, 'Network').nested!;
    assert.deepEqual(nested.changes.map((c) => [c.logicalId, c.impact]), [
      ['Vpc', 'replacement'],
      ['Subnet', 'replacement'],
    ]);
  });

  test("a nested stack in a state that refuses updates fails the parent's update where CloudFormation reaches it", () => {
    const report = againstDeployed(deployedParent(), { Network: { text: withLongOutput(packagedNetwork), status: 'UPDATE_ROLLBACK_FAILED' } }, {
      'parent.yaml': editedParent(),
      'network.yaml': withOutput(network(tagged)),
    });
    const nested = change(report.changes, 'Network').nested!;
    assert.equal(nested.status, 'error');
    assert.match(nested.message ?? '', /UPDATE_ROLLBACK_FAILED/);
  });

  test('a nested stack the deployed parent does not run is said so at TemplateURL; without a deployed reader the S3 child stays opaque', () => {
    const files = { 'parent.yaml': editedParent(), 'network.yaml': withOutput(network()) };
    const missing = againstDeployed(deployedParent(), { Network: { problem: 'missing' } }, files);
    assert.deepEqual(missing.diagnostics.filter((d) => d.code === 'nested-template-unreadable').map(diagnosticText), [
      'Network: the deployed stack runs no nested stack Network to compare with; what changes inside it (network.yaml) is not analysed',
    ]);
    const opaque = analyzeUpdate({ text: deployedParent() }, { text: files['parent.yaml'] }, { spec, nested: { templatePath: 'parent.yaml', readOld: filesReader({}), readNew: filesReader(files) } }).report;
    assert.ok(opaque.diagnostics.some((d) => d.code === 'nested-template-remote'));
    assert.ok(change(opaque.changes, 'Network').details.some((d) => d.target.path === '/Properties/TemplateURL'), 'without the deployed child, the URL is all there is to compare');
  });
});

describe("readers of a nested stack's outputs (docs/update-rules.md#attributes-of-updated)", () => {
  const parentWithReader = (cidr = '10.0.0.0/16') => `${parent(cidr)}  AppSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId: !GetAtt Network.Outputs.VpcId
`;

  test('a child-only edit that keeps the output: its reader is listed, as a change set lists the readers of an updated stack, and keeps its value', () => {
    const report = impact({ 'parent.yaml': parentWithReader(), 'network.yaml': networkWithOutput() }, { 'parent.yaml': parentWithReader(), 'network.yaml': networkWithOutput(tagged) });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.impact]), [
      ['Network', 'Modify', 'no-interruption'],
      ['AppSecurityGroup', 'Modify', 'none'],
    ]);
    assert.deepEqual(change(report.changes, 'AppSecurityGroup').details.map((d) => [d.target.path, d.evaluation, d.keepsValue]), [['/Properties/VpcId', 'Dynamic', true]]);
  });

  test("a child-only edit that replaces the VPC its output names: the reader's VpcId may change, so it may be replaced", () => {
    const report = impact({ 'parent.yaml': parentWithReader(), 'network.yaml': networkWithOutput() }, { 'parent.yaml': parentWithReader(), 'network.yaml': networkWithOutput('', '10.9.0.0/16') });
    assert.equal(change(change(report.changes, 'Network').nested!.changes, 'Vpc').impact, 'replacement');
    const reader = change(report.changes, 'AppSecurityGroup');
    assert.equal(reader.action, 'Modify');
    assert.equal(reader.replacement, 'Conditional');
    assert.equal(reader.impact, 'conditional-replacement');
    assert.deepEqual(reader.details.map((d) => [d.target.path, d.evaluation, d.keepsValue]), [['/Properties/VpcId', 'Dynamic', undefined]]);
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Network', 'AppSecurityGroup'], 'in template order, the nested stack first');
  });

  test('a value passed down that changes only a tag inside: the output keeps its value, and its reader only is listed', () => {
    const withTag = (value: string) => parentWithReader().replace('        SubnetCidr:', `        Team: ${value}\n        SubnetCidr:`);
    const child = networkWithOutput('      Tags:\n        - { Key: team, Value: !Ref Team }\n').replace('Parameters:\n', 'Parameters:\n  Team:\n    Type: String\n');
    const report = impact({ 'parent.yaml': withTag('a'), 'network.yaml': child }, { 'parent.yaml': withTag('b'), 'network.yaml': child });
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.impact]), [
      ['Network', 'Modify', 'no-interruption'],
      ['AppSecurityGroup', 'Modify', 'none'],
    ]);
    assert.deepEqual(change(report.changes, 'Network').nested?.changes.map((c) => [c.logicalId, c.impact]), [['Vpc', 'no-interruption']]);
  });
});

describe("a nested stack passed another nested stack's output (docs/update-rules.md#nested-stacks)", () => {
  // The network's VPC id goes to the app stack, whose security group's id goes to the web stack:
  // a security group's VpcId and an ingress rule's GroupId are replaced when they change.
  const chained = `Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ./network.yaml
      Parameters:
        VpcCidr: 10.0.0.0/16
        SubnetCidr: 10.0.0.0/24
  App:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ./app.yaml
      Parameters:
        VpcId: !GetAtt Network.Outputs.VpcId
  Web:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ./web.yaml
      Parameters:
        GroupId: !GetAtt App.Outputs.GroupId
`;
  const app = `Parameters:
  VpcId:
    Type: String
Resources:
  AppSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId: !Ref VpcId
  Jobs:
    Type: AWS::SQS::Queue
Outputs:
  GroupId:
    Value: !Ref AppSecurityGroup
`;
  const web = `Parameters:
  GroupId:
    Type: String
Resources:
  Https:
    Type: AWS::EC2::SecurityGroupIngress
    Properties:
      GroupId: !Ref GroupId
      IpProtocol: tcp
      FromPort: 443
      ToPort: 443
      CidrIp: 0.0.0.0/0
  Logs:
    Type: AWS::Logs::LogGroup
`;
  const files = (networkText: string) => ({ 'parent.yaml': chained, 'network.yaml': networkText, 'app.yaml': app, 'web.yaml': web });
  const nestedImpacts = (report: ImpactReport, logicalId: string) => change(report.changes, logicalId).nested?.changes.map((c) => [c.logicalId, c.impact]);

  test("a VPC replaced in the network stack reaches the app stack's security group, and through its id the web stack's ingress rule", () => {
    const report = impact(files(networkWithOutput()), files(networkWithOutput('', '10.9.0.0/16')));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action]), [
      ['Network', 'Modify'],
      ['App', 'Modify'],
      ['Web', 'Modify'],
    ]);
    assert.deepEqual(nestedImpacts(report, 'Network'), [
      ['Vpc', 'replacement'],
      ['Subnet', 'replacement'],
    ]);
    // A replaced VPC has a new id (4.1), which the app stack is passed: its group is replaced, and
    // the group's new id, passed on to the web stack, replaces the ingress rule there in turn.
    assert.deepEqual(nestedImpacts(report, 'App'), [['AppSecurityGroup', 'replacement']]);
    assert.deepEqual(nestedImpacts(report, 'Web'), [['Https', 'replacement']]);
  });

  test('a topic renamed at the head of a chain of twelve stacks, each naming its topic after the one before, renames every topic down to the last', () => {
    const links = 12;
    let chain = 'Resources:\n';
    for (let i = 0; i < links; i++) {
      chain += `  Link${i}:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./link${i}.yaml\n`;
      if (i > 0) chain += `      Parameters:\n        Before: !GetAtt Link${i - 1}.Outputs.TopicName\n`;
    }
    // A topic's name is replaced when it changes; its output is the topic's name (its `TopicName` attribute).
    const link = (i: number, head: string) =>
      (i > 0 ? 'Parameters:\n  Before:\n    Type: String\n' : '') +
      `Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      TopicName: ${i > 0 ? "!Sub '${Before}-next'" : head}\nOutputs:\n  TopicName:\n    Value: !GetAtt Topic.TopicName\n`;
    const files = (head: string) => Object.fromEntries([['parent.yaml', chain], ...Array.from({ length: links }, (_, i) => [`link${i}.yaml`, link(i, head)])]);
    const report = impact(files('orders'), files('orders-v2'));
    assert.deepEqual(
      report.changes.map((c) => [c.logicalId, c.nested?.changes.map((n) => [n.logicalId, n.impact])]),
      Array.from({ length: links }, (_, i) => [`Link${i}`, [['Topic', 'replacement']]]),
    );
  });

  test('a stack analysed again under the refined plan takes no more of the limit on nested stacks than the first time', () => {
    // Four nested stacks in all: the network, the app and the app's two queues.
    const twoStacks = chained.slice(0, chained.indexOf('  Web:'));
    const appWithQueues = app.replace(
      'Outputs:\n',
      '  Queues:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./queues.yaml\n  Topics:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./topics.yaml\nOutputs:\n',
    );
    const leaf = 'Resources:\n  Thing:\n    Type: AWS::SQS::Queue\n';
    const files4 = (networkText: string) => ({ 'parent.yaml': twoStacks, 'network.yaml': networkText, 'app.yaml': appWithQueues, 'queues.yaml': leaf, 'topics.yaml': leaf });
    const report = impact(files4(networkWithOutput()), files4(networkWithOutput('', '10.9.0.0/16')), { maxStacks: 4 });
    const appPlan = change(report.changes, 'App').nested!;
    assert.deepEqual(appPlan.changes.map((c) => [c.logicalId, c.impact]), [['AppSecurityGroup', 'replacement']]);
    assert.deepEqual(appPlan.diagnostics.filter((d) => d.code === 'nested-too-many'), []);
  });

  test('an edit in the network stack that keeps its VPC: the app and web stacks pass the same values, and nothing inside them changes', () => {
    const report = impact(files(networkWithOutput()), files(networkWithOutput(tagged)));
    assert.deepEqual(nestedImpacts(report, 'Network'), [['Vpc', 'no-interruption']]);
    for (const logicalId of ['App', 'Web']) {
      const reader = report.changes.find((c) => c.logicalId === logicalId);
      assert.deepEqual(reader?.nested?.changes ?? [], [], `${logicalId}'s child plan changes nothing`);
    }
  });
});
