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
} as const;

/** What HEAD holds. */
export const committedFiles: Record<string, string> = {
  [workspaceFiles.network]: committedNetwork,
  [workspaceFiles.table]: committedTable,
  [workspaceFiles.brokenReference]: committedReference,
  [workspaceFiles.plainYaml]: 'steps:\n  - name: build\n    run: npm run build\n',
  [workspaceFiles.plainJson]: '{\n  "indent": 2,\n  "rules": ["no-tabs"]\n}\n',
};

/** What the working tree holds on top of HEAD. */
export const editedFiles: Record<string, string> = {
  [workspaceFiles.network]: editedNetwork,
  [workspaceFiles.table]: editedTable,
  [workspaceFiles.brokenReference]: editedReference,
  [workspaceFiles.plainYaml]: 'steps:\n  - name: build\n    run: npm run build\n  - name: test\n    run: npm test\n',
  [workspaceFiles.plainJson]: '{\n  "indent": 4,\n  "rules": ["no-tabs"]\n}\n',
};

/** The deployment the local CloudFormation endpoint plays (test/endpoint/scenarios.ts): stack `messaging`, a queue and a topic. */
export const endpointScenario = 'create-success';

/** Environment variable through which a launcher tells the suite where to copy its report. */
export const reportFileVariable = 'CFN_IMPACT_EXTENSION_TEST_REPORT';
