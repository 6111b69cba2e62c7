/**
 * The folder the extension-host suite opens, shared by the launchers that build it and the tests
 * that read it: a git repository whose committed files are the baseline and whose working tree
 * holds the edits made since, plus YAML and JSON files that are not CloudFormation templates.
 */
import { committedNetwork, editedNetwork } from '../fixtures/editedNetwork';

/** A table named explicitly, whose key changes: the replacement needs the name the old table holds. */
const committedTable = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      TableName: orders
      BillingMode: PAY_PER_REQUEST
      AttributeDefinitions: [{ AttributeName: id, AttributeType: S }]
      KeySchema: [{ AttributeName: id, KeyType: HASH }]
`;
const editedTable = committedTable.replace(/AttributeName: id/g, 'AttributeName: pk');

/** A bucket whose tag is then taken from a resource the template does not declare. */
const committedReference = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      Tags:
        - Key: owner
          Value: platform
`;
const editedReference = committedReference.replace('Value: platform', 'Value: !Ref Missing');

/** A parent stack passing its CIDR parameter to a nested network stack, from its local template. */
const nestingParent = (cidr: string) => `AWSTemplateFormatVersion: '2010-09-09'
Parameters:
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
`;

/** The nested network stack: its parameter has no default, its parent passes it. */
const nestedNetwork = `AWSTemplateFormatVersion: '2010-09-09'
Parameters:
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
      CidrBlock: !Select [0, !Cidr [!Ref VpcCidr, 2, 8]]
`;

/** Files of the suite's workspace, by path relative to its root. */
export const workspaceFiles = {
  /** Network replaced by a new CIDR, PublicSubnet with it, Logs retagged, Jobs removed, Alerts added. */
  network: 'network.yaml',
  /** The named table's key changes: the update will fail. */
  table: 'table.yaml',
  /** References an undeclared resource: a template error. */
  brokenReference: 'broken-reference.yaml',
  /** YAML that is not a template. */
  plainYaml: 'build.yaml',
  /** JSON that is not a template. */
  plainJson: 'lint-rules.json',
  /** Passes a new CIDR to its nested stack: the stack resource is updated, the child's VPC and subnet replaced. */
  nestingParent: 'stacks/network-parent.yaml',
  /** The nested stack's template, unchanged since HEAD. */
  nestedNetwork: 'stacks/network.yaml',
} as const;

/** What HEAD holds. */
export const committedFiles: Record<string, string> = {
  [workspaceFiles.network]: committedNetwork,
  [workspaceFiles.table]: committedTable,
  [workspaceFiles.brokenReference]: committedReference,
  [workspaceFiles.plainYaml]: 'steps:\n  - name: build\n    run: npm run build\n',
  [workspaceFiles.plainJson]: '{\n  "indent": 2,\n  "rules": ["no-tabs"]\n}\n',
  [workspaceFiles.nestingParent]: nestingParent('10.0.0.0/16'),
  [workspaceFiles.nestedNetwork]: nestedNetwork,
};

/** What the working tree holds on top of HEAD. */
export const editedFiles: Record<string, string> = {
  [workspaceFiles.network]: editedNetwork,
  [workspaceFiles.table]: editedTable,
  [workspaceFiles.brokenReference]: editedReference,
  [workspaceFiles.plainYaml]: 'steps:\n  - name: build\n    run: npm run build\n  - name: test\n    run: npm test\n',
  [workspaceFiles.plainJson]: '{\n  "indent": 4,\n  "rules": ["no-tabs"]\n}\n',
  [workspaceFiles.nestingParent]: nestingParent('10.1.0.0/16'),
};

/** The deployment the local CloudFormation endpoint plays (test/endpoint/scenarios.ts): stack `messaging`, a queue and a topic. */
export const endpointScenario = 'create-success';

/** Environment variable through which a launcher tells the suite where to copy its report. */
export const reportFileVariable = 'CFN_IMPACT_EXTENSION_TEST_REPORT';
