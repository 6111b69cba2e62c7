/**
 * Scripted deployments for the local CloudFormation endpoint, transcribed from the update
 * experiments of docs/update-rules.md#experiments (run numbers in each description); how to add
 * one is docs/adding-a-scenario.md. One step is one tick of the endpoint's clock; the events of a
 * step appear together, in the order written.
 *
 * `row` says what the event does to the stack's resource table (what DescribeStackResources
 * answers), because events and that table disagree during cleanup (runs 4, 6;
 * docs/stack-lifecycle.md#cleanup-keeps-status):
 * - 'set' (default for resources): the resource's row takes the event's status, reason and physical id;
 * - 'keep': the row does not change (delete events for an old physical id during cleanup);
 * - 'remove': the row disappears (a deleted resource, or one left behind after a failed cleanup delete).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StackStatus } from '../../server/src/cloudformation/stackLifecycle';

export interface ScenarioResource {
  logicalId: string;
  type: string;
  physicalId: string;
  status?: string;
  /** For an `AWS::CloudFormation::Stack`: the scenario whose stack it is; its physical id is then that stack's id. */
  nestedStack?: string;
  /** When CloudFormation last updated it, after the stack's history (epoch ms): an update that touched it alone. */
  updatedAt?: number;
}

export interface ScriptedEvent {
  /** Absent for events of the stack itself. */
  logicalId?: string;
  physicalId?: string;
  /** For a nested stack's resource: the scenario whose stack it is; the physical id is then that stack's id. */
  nestedStack?: string;
  status: string;
  reason?: string;
  row?: 'set' | 'keep' | 'remove';
  /** The event's DetailedStatus: CONFIGURATION_COMPLETE or VALIDATION_FAILED. */
  detailedStatus?: string;
  /**
   * A check of early (pre-deployment) validation: an event only DescribeEvents reports (as a
   * VALIDATION_ERROR), never DescribeStackEvents, and that changes no resource row.
   */
  validation?: { name: string; status: 'FAILED' | 'SKIPPED'; reason: string; path?: string; failureMode: 'FAIL' | 'WARN' };
}

export interface Scenario {
  name: string;
  description: string;
  stackName: string;
  /** Resource types by logical id, so that events need not repeat them. */
  types: Record<string, string>;
  /** The stack before the scripted operation; absent when the operation creates it. */
  existing?: { status: StackStatus; resources: ScenarioResource[] };
  /** The template GetTemplate returns. */
  templateBody: string;
  /**
   * The stack's outputs (DescribeStacks), those with an `exportName` also listed by ListExports;
   * `importedBy` names the stacks that import the export (ListImports).
   */
  outputs?: { key: string; value: string; exportName?: string; importedBy?: string[] }[];
  /** The stack's current parameter values, as DescribeStacks answers them (none when absent). */
  parameters?: Record<string, string>;
  /** Change sets created for the stack and not executed, as ListChangeSets and DescribeChangeSet answer them. */
  changeSets?: ScenarioChangeSet[];
  /** `EXPRESS`: DescribeStacks reports `DeploymentConfig.Mode` EXPRESS (absent: the standard mode, which it does not name). */
  deploymentMode?: 'EXPRESS';
  /** For a nested stack: the scenario of the stack whose resource it is (its `ParentId` and `RootId`, one level deep). */
  nestedIn?: string;
  /** One entry per tick; an empty entry is a tick in which nothing visible happens. */
  steps: ScriptedEvent[][];
  /** The stack's last drift detection (DriftInformation, DescribeStackResourceDrifts); absent: never checked. */
  drift?: ScenarioDrift;
  /** What a drift detection started by DetectStackDrift finds; absent: every resource in sync. */
  driftFound?: Omit<ScenarioDrift, 'checkedAt'>;
}

/** A drift detection's findings, in the API's terms: per resource, its status and property differences. */
export interface ScenarioDrift {
  /** When the detection ran (epoch ms). */
  checkedAt: number;
  resources: {
    logicalId: string;
    status: 'IN_SYNC' | 'MODIFIED' | 'DELETED' | 'NOT_CHECKED';
    differences?: { path: string; expected?: string; actual?: string; difference: 'ADD' | 'REMOVE' | 'NOT_EQUAL' }[];
  }[];
}

/** A change set as DescribeChangeSet describes it (status CREATE_COMPLETE, execution status AVAILABLE). */
export interface ScenarioChangeSet {
  name: string;
  description?: string;
  /** The parameter values the change set was created with. */
  parameters?: Record<string, string>;
  /** The template the change set was created from, as GetTemplate with ChangeSetName answers. */
  templateBody?: string;
  /** `REVERT_DRIFT` for a drift-aware change set (DescribeChangeSet's `DeploymentMode`). */
  deploymentMode?: 'REVERT_DRIFT';
  changes: ScenarioResourceChange[];
}

/** One `ResourceChange` of a change set, in the API's field names (`Change.Type` is always Resource). */
export interface ScenarioResourceChange {
  Action: 'Add' | 'Modify' | 'Remove' | 'Import' | 'Dynamic' | 'SyncWithActual';
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  Replacement?: 'True' | 'False' | 'Conditional';
  PolicyAction?: string;
  Scope?: string[];
  Details?: {
    Target: {
      Attribute: string;
      Name?: string;
      Path?: string;
      RequiresRecreation?: string;
      AttributeChangeType?: string;
      BeforeValue?: string;
      AfterValue?: string;
      /** Drift-aware change sets: where BeforeValue comes from, and the property's drift. */
      BeforeValueFrom?: 'ACTUAL_STATE' | 'PREVIOUS_DEPLOYMENT_STATE';
      AfterValueFrom?: 'TEMPLATE';
      Drift?: { PreviousValue?: string; ActualValue?: string };
    };
    Evaluation: 'Static' | 'Dynamic';
    ChangeSource: string;
    CausingEntity?: string;
  }[];
  BeforeContext?: string;
  AfterContext?: string;
  /** Drift-aware change sets: the resource's drift status (IN_SYNC, MODIFIED, DELETED, UNSUPPORTED...). */
  ResourceDriftStatus?: string;
  /** For an `AWS::CloudFormation::Stack` of a change set created with IncludeNestedStacks: the nested stack's own change set. */
  nestedChangeSet?: ScenarioChangeSet;
}

const REPLACING = 'Requested update requires the creation of a new physical resource; hence creating one.';
const INITIATED = 'Resource creation Initiated';

const vpcTemplate = `AWSTemplateFormatVersion: '2010-09-09'
Parameters:
  CidrBlock: { Type: String, Default: 10.1.0.0/16 }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties: { CidrBlock: !Ref CidrBlock }
  Subnet:
    Type: AWS::EC2::Subnet
    Properties: { VpcId: !Ref VPC, CidrBlock: !Select [0, !Cidr [!Ref CidrBlock, 4, 8]] }
  Instance1:
    Type: AWS::EC2::Instance
    Properties: { ImageId: ami-0abcdef1234567890, InstanceType: t3.micro, SubnetId: !Ref Subnet }
`;

/** Runs 4 and 7: a new CIDR replaces VPC → Subnet → Instance1, and Instance2 is removed. */
const updateReplacement: Scenario = {
  name: 'update-replacement',
  description:
    'Update with replacement and cleanup (runs 4, 7): VPC, Subnet and Instance1 are replaced in a cascade, Instance2 is removed; old physical resources are deleted during UPDATE_COMPLETE_CLEANUP_IN_PROGRESS while the current ones keep UPDATE_COMPLETE.',
  stackName: 'network',
  types: { VPC: 'AWS::EC2::VPC', Subnet: 'AWS::EC2::Subnet', Instance1: 'AWS::EC2::Instance', Instance2: 'AWS::EC2::Instance' },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'VPC', type: 'AWS::EC2::VPC', physicalId: 'vpc-0a11111111111111a' },
      { logicalId: 'Subnet', type: 'AWS::EC2::Subnet', physicalId: 'subnet-0a11111111111111a' },
      { logicalId: 'Instance1', type: 'AWS::EC2::Instance', physicalId: 'i-0a11111111111111a' },
      { logicalId: 'Instance2', type: 'AWS::EC2::Instance', physicalId: 'i-0a22222222222222a' },
    ],
  },
  templateBody: vpcTemplate,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [{ logicalId: 'VPC', physicalId: 'vpc-0a11111111111111a', status: 'UPDATE_IN_PROGRESS', reason: REPLACING }],
    [{ logicalId: 'VPC', physicalId: 'vpc-0b22222222222222b', status: 'UPDATE_IN_PROGRESS', reason: INITIATED }],
    [{ logicalId: 'VPC', physicalId: 'vpc-0b22222222222222b', status: 'UPDATE_COMPLETE' }],
    [{ logicalId: 'Subnet', physicalId: 'subnet-0a11111111111111a', status: 'UPDATE_IN_PROGRESS', reason: REPLACING }],
    [{ logicalId: 'Subnet', physicalId: 'subnet-0b22222222222222b', status: 'UPDATE_IN_PROGRESS', reason: INITIATED }],
    [{ logicalId: 'Subnet', physicalId: 'subnet-0b22222222222222b', status: 'UPDATE_COMPLETE' }],
    [{ logicalId: 'Instance1', physicalId: 'i-0a11111111111111a', status: 'UPDATE_IN_PROGRESS', reason: REPLACING }],
    [{ logicalId: 'Instance1', physicalId: 'i-0b33333333333333b', status: 'UPDATE_IN_PROGRESS', reason: INITIATED }],
    [{ logicalId: 'Instance1', physicalId: 'i-0b33333333333333b', status: 'UPDATE_COMPLETE' }],
    [{ status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' }],
    [
      { logicalId: 'Instance1', physicalId: 'i-0a11111111111111a', status: 'DELETE_IN_PROGRESS', row: 'keep' },
      { logicalId: 'Instance2', physicalId: 'i-0a22222222222222a', status: 'DELETE_IN_PROGRESS', row: 'keep' },
    ],
    [
      { logicalId: 'Instance1', physicalId: 'i-0a11111111111111a', status: 'DELETE_COMPLETE', row: 'keep' },
      { logicalId: 'Instance2', physicalId: 'i-0a22222222222222a', status: 'DELETE_COMPLETE', row: 'remove' },
    ],
    [{ logicalId: 'Subnet', physicalId: 'subnet-0a11111111111111a', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [{ logicalId: 'Subnet', physicalId: 'subnet-0a11111111111111a', status: 'DELETE_COMPLETE', row: 'keep' }],
    [{ logicalId: 'VPC', physicalId: 'vpc-0a11111111111111a', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [{ logicalId: 'VPC', physicalId: 'vpc-0a11111111111111a', status: 'DELETE_COMPLETE', row: 'keep' }],
    [{ status: 'UPDATE_COMPLETE' }],
  ],
};

/** Run 34 applied to a create: the first failure cancels its sibling, and the create rolls back. */
const createRollback: Scenario = {
  name: 'create-rollback',
  description:
    'Create failure with rollback (run 34): Instance fails with a bad image id, the Bucket being created alongside is cancelled ("Resource creation cancelled"), then ROLLBACK_IN_PROGRESS deletes what was created and the stack ends ROLLBACK_COMPLETE.',
  stackName: 'web',
  types: { VPC: 'AWS::EC2::VPC', Bucket: 'AWS::S3::Bucket', Instance: 'AWS::EC2::Instance' },
  templateBody: `Resources:
  VPC: { Type: AWS::EC2::VPC, Properties: { CidrBlock: 10.0.0.0/16 } }
  Bucket: { Type: AWS::S3::Bucket }
  Instance: { Type: AWS::EC2::Instance, Properties: { ImageId: bogus, InstanceType: t3.micro } }
`,
  steps: [
    [{ status: 'CREATE_IN_PROGRESS', reason: 'User Initiated' }],
    [
      { logicalId: 'VPC', status: 'CREATE_IN_PROGRESS' },
      { logicalId: 'Instance', status: 'CREATE_IN_PROGRESS' },
    ],
    [
      { logicalId: 'VPC', physicalId: 'vpc-0c33333333333333c', status: 'CREATE_IN_PROGRESS', reason: INITIATED },
      { logicalId: 'Bucket', status: 'CREATE_IN_PROGRESS' },
    ],
    [{ logicalId: 'Instance', status: 'CREATE_FAILED', reason: 'Invalid id: "bogus" (expecting "ami-...")' }],
    [
      { logicalId: 'VPC', physicalId: 'vpc-0c33333333333333c', status: 'CREATE_FAILED', reason: 'Resource creation cancelled' },
      { logicalId: 'Bucket', status: 'CREATE_FAILED', reason: 'Resource creation cancelled' },
    ],
    [
      {
        status: 'ROLLBACK_IN_PROGRESS',
        reason: 'The following resource(s) failed to create: [Bucket, VPC, Instance]. Rollback requested by user.',
      },
    ],
    [
      { logicalId: 'Instance', status: 'DELETE_COMPLETE' },
      { logicalId: 'Bucket', status: 'DELETE_COMPLETE' },
      { logicalId: 'VPC', physicalId: 'vpc-0c33333333333333c', status: 'DELETE_IN_PROGRESS' },
    ],
    [{ logicalId: 'VPC', physicalId: 'vpc-0c33333333333333c', status: 'DELETE_COMPLETE' }],
    [{ status: 'ROLLBACK_COMPLETE' }],
  ],
};

/** Run 36: the update fails, and so does its rollback. */
const updateRollbackFailed: Scenario = {
  name: 'update-rollback-failed',
  description:
    'Update failure whose rollback also fails (run 36): Instance4 fails to create, the rollback cannot stop Instance2 (terminated out of band), and the stack stops in UPDATE_ROLLBACK_FAILED.',
  stackName: 'fleet',
  types: {
    Instance1: 'AWS::EC2::Instance',
    Instance2: 'AWS::EC2::Instance',
    Instance3: 'AWS::EC2::Instance',
    Instance4: 'AWS::EC2::Instance',
  },
  existing: {
    status: 'UPDATE_COMPLETE',
    resources: [
      { logicalId: 'Instance1', type: 'AWS::EC2::Instance', physicalId: 'i-0d11111111111111d' },
      { logicalId: 'Instance2', type: 'AWS::EC2::Instance', physicalId: 'i-0da702864000000ad' },
    ],
  },
  templateBody: `Resources:
  Instance2: { Type: AWS::EC2::Instance, Properties: { ImageId: ami-0abcdef1234567890, InstanceType: t3.small } }
  Instance3: { Type: AWS::EC2::Instance, Properties: { ImageId: ami-0abcdef1234567890, InstanceType: t3.small } }
  Instance4: { Type: AWS::EC2::Instance, Properties: { ImageId: i-da702864, InstanceType: t3.small } }
`,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [{ logicalId: 'Instance2', physicalId: 'i-0da702864000000ad', status: 'UPDATE_IN_PROGRESS' }],
    [{ logicalId: 'Instance2', physicalId: 'i-0da702864000000ad', status: 'UPDATE_COMPLETE' }],
    [{ logicalId: 'Instance3', status: 'CREATE_IN_PROGRESS' }],
    [{ logicalId: 'Instance3', physicalId: 'i-0d33333333333333d', status: 'CREATE_IN_PROGRESS', reason: INITIATED }],
    [{ logicalId: 'Instance3', physicalId: 'i-0d33333333333333d', status: 'CREATE_COMPLETE' }],
    [{ logicalId: 'Instance4', status: 'CREATE_IN_PROGRESS' }],
    [{ logicalId: 'Instance4', status: 'CREATE_FAILED', reason: 'Invalid id: "i-da702864" (expecting "ami-...")' }],
    [{ status: 'UPDATE_ROLLBACK_IN_PROGRESS', reason: 'The following resource(s) failed to create: [Instance4].' }],
    [{ logicalId: 'Instance2', physicalId: 'i-0da702864000000ad', status: 'UPDATE_IN_PROGRESS' }],
    [
      {
        logicalId: 'Instance2',
        physicalId: 'i-0da702864000000ad',
        status: 'UPDATE_FAILED',
        reason: "This instance 'i-0da702864000000ad' is not in a state from which it can be stopped.",
      },
    ],
    [{ status: 'UPDATE_ROLLBACK_FAILED', reason: 'The following resource(s) failed to update: [Instance2].' }],
  ],
};

const DEPENDENT = 'resource sg-0da0f86b has a dependent object';

/** Run 37: cleanup cannot delete SG1, retries slowly, leaves it behind, and the update still succeeds. */
const cleanupDeleteFailed: Scenario = {
  name: 'cleanup-delete-failed',
  description:
    'Cleanup delete failure (run 37): SG1 is removed from the template but still used outside the stack; its delete fails, is retried minutes apart, and the stack ends UPDATE_COMPLETE with "Update successful. One or more resources could not be deleted."',
  stackName: 'security',
  types: { SG1: 'AWS::EC2::SecurityGroup', SG2: 'AWS::EC2::SecurityGroup', SG3: 'AWS::EC2::SecurityGroup' },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'SG1', type: 'AWS::EC2::SecurityGroup', physicalId: 'sg-0da0f86b' },
      { logicalId: 'SG2', type: 'AWS::EC2::SecurityGroup', physicalId: 'sg-0e2222222' },
    ],
  },
  templateBody: `Resources:
  SG2: { Type: AWS::EC2::SecurityGroup, Properties: { GroupDescription: ssh, SecurityGroupIngress: [{ IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0 }] } }
  SG3: { Type: AWS::EC2::SecurityGroup, Properties: { GroupDescription: ssh, SecurityGroupIngress: [{ IpProtocol: tcp, FromPort: 22, ToPort: 22, CidrIp: 0.0.0.0/0 }] } }
`,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [{ logicalId: 'SG3', status: 'CREATE_IN_PROGRESS' }],
    [{ logicalId: 'SG3', physicalId: 'sg-0e3333333', status: 'CREATE_IN_PROGRESS', reason: INITIATED }],
    [{ logicalId: 'SG3', physicalId: 'sg-0e3333333', status: 'CREATE_COMPLETE' }],
    [{ status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' }],
    [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [],
    [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', status: 'DELETE_FAILED', reason: DEPENDENT, row: 'keep' }],
    [],
    [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [],
    [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', status: 'DELETE_FAILED', reason: DEPENDENT, row: 'keep' }],
    [],
    [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [],
    [{ logicalId: 'SG1', physicalId: 'sg-0da0f86b', status: 'DELETE_FAILED', reason: DEPENDENT, row: 'remove' }],
    [{ status: 'UPDATE_COMPLETE', reason: 'Update successful. One or more resources could not be deleted.' }],
  ],
};

/** Run 38: the update fails, and the rollback's cleanup cannot delete the security group it created. */
const rollbackCleanupDeleteFailed: Scenario = {
  name: 'rollback-cleanup-delete-failed',
  description:
    'Rollback cleanup delete failure (run 38): Instance3 fails, the update rolls back, and UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS cannot delete the new SG3; the stack ends UPDATE_ROLLBACK_COMPLETE with SG3 left behind.',
  stackName: 'bastion',
  types: {
    SG2: 'AWS::EC2::SecurityGroup',
    SG3: 'AWS::EC2::SecurityGroup',
    Instance1: 'AWS::EC2::Instance',
    Instance3: 'AWS::EC2::Instance',
  },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [{ logicalId: 'SG2', type: 'AWS::EC2::SecurityGroup', physicalId: 'sg-0f2222222' }],
  },
  templateBody: `Resources:
  SG2: { Type: AWS::EC2::SecurityGroup, Properties: { GroupDescription: ssh } }
  SG3: { Type: AWS::EC2::SecurityGroup, Properties: { GroupDescription: ssh } }
  Instance1: { Type: AWS::EC2::Instance, Properties: { ImageId: ami-0abcdef1234567890, SecurityGroupIds: [!Ref SG3] } }
  Instance3: { Type: AWS::EC2::Instance, Properties: { ImageId: bogus, InstanceType: bogus } }
`,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [{ logicalId: 'SG3', status: 'CREATE_IN_PROGRESS' }],
    [{ logicalId: 'SG3', physicalId: 'sg-0ab104bcd', status: 'CREATE_COMPLETE' }],
    [{ logicalId: 'Instance1', status: 'CREATE_IN_PROGRESS' }],
    [{ logicalId: 'Instance1', physicalId: 'i-0f11111111111111f', status: 'CREATE_COMPLETE' }],
    [{ logicalId: 'Instance3', status: 'CREATE_IN_PROGRESS' }],
    [{ logicalId: 'Instance3', status: 'CREATE_FAILED', reason: 'Invalid id: "bogus" (expecting "ami-...")' }],
    [{ status: 'UPDATE_ROLLBACK_IN_PROGRESS', reason: 'The following resource(s) failed to create: [Instance3].' }],
    [{ status: 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS' }],
    [{ logicalId: 'Instance3', status: 'DELETE_COMPLETE', row: 'remove' }],
    [{ logicalId: 'Instance1', physicalId: 'i-0f11111111111111f', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [{ logicalId: 'Instance1', physicalId: 'i-0f11111111111111f', status: 'DELETE_COMPLETE', row: 'remove' }],
    [{ logicalId: 'SG3', physicalId: 'sg-0ab104bcd', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [],
    [{ logicalId: 'SG3', physicalId: 'sg-0ab104bcd', status: 'DELETE_FAILED', reason: 'resource sg-ab104bcd has a dependent object', row: 'keep' }],
    [],
    [{ logicalId: 'SG3', physicalId: 'sg-0ab104bcd', status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [],
    [{ logicalId: 'SG3', physicalId: 'sg-0ab104bcd', status: 'DELETE_FAILED', reason: 'resource sg-ab104bcd has a dependent object', row: 'remove' }],
    [{ status: 'UPDATE_ROLLBACK_COMPLETE', reason: 'Update successful. One or more resources could not be deleted.' }],
  ],
};

/**
 * Early (pre-deployment) validation rejects an update before any resource is touched: the
 * stack's own events say only that validation failed (DetailedStatus VALIDATION_FAILED, API
 * reference: StackEvent); which check failed, why and where in the template is reported only by
 * DescribeEvents, as VALIDATION_ERROR events of the operation (API reference: OperationEvent).
 * The check's name, reason and path and the stack's reason are illustrative, not transcribed from an account.
 */
const updateValidationFailed: Scenario = {
  name: 'update-validation-failed',
  description:
    'An update rejected by early validation: UPDATE_IN_PROGRESS, then UPDATE_FAILED with DetailedStatus VALIDATION_FAILED and no resource event; DescribeEvents names the failed check (a bucket name already taken) and its template path.',
  stackName: 'storage',
  types: { Logs: 'AWS::S3::Bucket', Archive: 'AWS::S3::Bucket' },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [{ logicalId: 'Logs', type: 'AWS::S3::Bucket', physicalId: 'storage-logs-1a2b3c' }],
  },
  templateBody: `Resources:
  Logs: { Type: AWS::S3::Bucket }
  Archive:
    Type: AWS::S3::Bucket
    Properties: { BucketName: shared-archive }
`,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [
      {
        logicalId: 'Archive',
        status: 'UPDATE_IN_PROGRESS',
        validation: {
          name: 'ResourceNameConflict',
          status: 'FAILED',
          reason: 'A bucket named shared-archive already exists in this account.',
          path: '/Resources/Archive/Properties/BucketName',
          failureMode: 'FAIL',
        },
      },
    ],
    [{ status: 'UPDATE_FAILED', reason: 'The template failed early validation; see the operation\'s validation events.', detailedStatus: 'VALIDATION_FAILED' }],
  ],
};

/** A plain successful create, for the README demo. */
const createSuccess: Scenario = {
  name: 'create-success',
  description: 'A successful create: a queue and a topic, then CREATE_COMPLETE.',
  stackName: 'messaging',
  types: { Queue: 'AWS::SQS::Queue', Topic: 'AWS::SNS::Topic' },
  templateBody: `Resources:
  Queue: { Type: AWS::SQS::Queue }
  Topic: { Type: AWS::SNS::Topic }
`,
  steps: [
    [{ status: 'CREATE_IN_PROGRESS', reason: 'User Initiated' }],
    [
      { logicalId: 'Queue', status: 'CREATE_IN_PROGRESS' },
      { logicalId: 'Topic', status: 'CREATE_IN_PROGRESS' },
    ],
    [
      { logicalId: 'Queue', physicalId: 'https://sqs.us-east-1.amazonaws.com/123456789012/messaging-Queue-1ABC', status: 'CREATE_IN_PROGRESS', reason: INITIATED },
      { logicalId: 'Topic', physicalId: 'arn:aws:sns:us-east-1:123456789012:messaging-Topic-1ABC', status: 'CREATE_IN_PROGRESS', reason: INITIATED },
    ],
    [{ logicalId: 'Topic', physicalId: 'arn:aws:sns:us-east-1:123456789012:messaging-Topic-1ABC', status: 'CREATE_COMPLETE' }],
    [{ logicalId: 'Queue', physicalId: 'https://sqs.us-east-1.amazonaws.com/123456789012/messaging-Queue-1ABC', status: 'CREATE_COMPLETE' }],
    [{ status: 'CREATE_COMPLETE' }],
  ],
};

/** A delete: afterwards the stack is only reachable by its id. */
const deleteStack: Scenario = {
  name: 'delete-stack',
  description: 'A delete: resources go DELETE_IN_PROGRESS → DELETE_COMPLETE, then the stack is DELETE_COMPLETE and no longer found by name.',
  stackName: 'scratch',
  types: { Bucket: 'AWS::S3::Bucket', Queue: 'AWS::SQS::Queue' },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'Bucket', type: 'AWS::S3::Bucket', physicalId: 'scratch-bucket-1xyz' },
      { logicalId: 'Queue', type: 'AWS::SQS::Queue', physicalId: 'https://sqs.us-east-1.amazonaws.com/123456789012/scratch-Queue-1XYZ' },
    ],
  },
  templateBody: `Resources:
  Bucket: { Type: AWS::S3::Bucket }
  Queue: { Type: AWS::SQS::Queue }
`,
  steps: [
    [{ status: 'DELETE_IN_PROGRESS', reason: 'User Initiated' }],
    [
      { logicalId: 'Bucket', physicalId: 'scratch-bucket-1xyz', status: 'DELETE_IN_PROGRESS' },
      { logicalId: 'Queue', physicalId: 'https://sqs.us-east-1.amazonaws.com/123456789012/scratch-Queue-1XYZ', status: 'DELETE_IN_PROGRESS' },
    ],
    [
      { logicalId: 'Bucket', physicalId: 'scratch-bucket-1xyz', status: 'DELETE_COMPLETE' },
      { logicalId: 'Queue', physicalId: 'https://sqs.us-east-1.amazonaws.com/123456789012/scratch-Queue-1XYZ', status: 'DELETE_COMPLETE' },
    ],
    [{ status: 'DELETE_COMPLETE' }],
  ],
};

const VPC_OLD = 'vpc-0a7c3e91d5b24f608';
const VPC_NEW = 'vpc-0e52d8b1c9a4736f1';
const SUBNET_OLD = 'subnet-0c1f4a8e72d39b560';
const SUBNET_NEW = 'subnet-08b3d6e19f4c2a7d5';
const WEB_SG_OLD = 'sg-0d94b27e1a6c53f80';
const WEB_SG_NEW = 'sg-03f7a2c8e61d9b4e2';
const WEB_SERVER_OLD = 'i-0b8e2d4f61a9c7350';
const WEB_SERVER_NEW = 'i-06c1a9e3d7b52f84e';
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/network-Queue-Kx7Rq2VbN4Tm';

/**
 * The deployment `cfn-impact diff examples/network/deployed.yaml examples/network/update.yaml`
 * predicts, as CloudFormation runs it (runs 4-7): the VpcCidr parameter replaces VPC, whose new id
 * replaces Subnet and WebSecurityGroup, whose new ids replace WebServer; Queue is created alongside
 * the VPC work it does not depend on; AccessLogs, removed with DeletionPolicy Retain, is skipped in
 * cleanup. Cleanup deletes the old physical resources in reverse dependency order. GetTemplate
 * answers update.yaml itself, the template being rolled out.
 */
const networkExample: Scenario = {
  name: 'network-example',
  description:
    'The deployment of examples/network/update.yaml over a stack running deployed.yaml: VPC, Subnet, WebSecurityGroup and WebServer replaced in dependency order, Queue created in parallel, then cleanup deletes the old physical resources in reverse order and skips the retained AccessLogs bucket.',
  stackName: 'network',
  types: {
    VPC: 'AWS::EC2::VPC',
    Subnet: 'AWS::EC2::Subnet',
    WebSecurityGroup: 'AWS::EC2::SecurityGroup',
    InstanceRole: 'AWS::IAM::Role',
    InstanceProfile: 'AWS::IAM::InstanceProfile',
    WebServer: 'AWS::EC2::Instance',
    AccessLogs: 'AWS::S3::Bucket',
    Queue: 'AWS::SQS::Queue',
  },
  existing: {
    // deployed.yaml with its defaults: AlarmTopic's condition (IsProduction) is false, so it was never created.
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'VPC', type: 'AWS::EC2::VPC', physicalId: VPC_OLD },
      { logicalId: 'Subnet', type: 'AWS::EC2::Subnet', physicalId: SUBNET_OLD },
      { logicalId: 'WebSecurityGroup', type: 'AWS::EC2::SecurityGroup', physicalId: WEB_SG_OLD },
      { logicalId: 'InstanceRole', type: 'AWS::IAM::Role', physicalId: 'network-InstanceRole-Q8ZC1LM4T2XE' },
      { logicalId: 'InstanceProfile', type: 'AWS::IAM::InstanceProfile', physicalId: 'network-InstanceProfile-7HWJ3NB5DKPA' },
      { logicalId: 'WebServer', type: 'AWS::EC2::Instance', physicalId: WEB_SERVER_OLD },
      { logicalId: 'AccessLogs', type: 'AWS::S3::Bucket', physicalId: 'network-accesslogs-1r5x9kqd2vw0e' },
    ],
  },
  templateBody: readFileSync(join(__dirname, '../../examples/network/update.yaml'), 'utf8'),
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [
      { logicalId: 'VPC', physicalId: VPC_OLD, status: 'UPDATE_IN_PROGRESS', reason: REPLACING },
      { logicalId: 'Queue', status: 'CREATE_IN_PROGRESS' },
    ],
    [
      { logicalId: 'VPC', physicalId: VPC_NEW, status: 'UPDATE_IN_PROGRESS', reason: INITIATED },
      { logicalId: 'Queue', physicalId: QUEUE_URL, status: 'CREATE_IN_PROGRESS', reason: INITIATED },
    ],
    [{ logicalId: 'VPC', physicalId: VPC_NEW, status: 'UPDATE_COMPLETE' }],
    [
      { logicalId: 'Subnet', physicalId: SUBNET_OLD, status: 'UPDATE_IN_PROGRESS', reason: REPLACING },
      { logicalId: 'WebSecurityGroup', physicalId: WEB_SG_OLD, status: 'UPDATE_IN_PROGRESS', reason: REPLACING },
    ],
    [
      { logicalId: 'WebSecurityGroup', physicalId: WEB_SG_NEW, status: 'UPDATE_IN_PROGRESS', reason: INITIATED },
      { logicalId: 'Subnet', physicalId: SUBNET_NEW, status: 'UPDATE_IN_PROGRESS', reason: INITIATED },
      { logicalId: 'Queue', physicalId: QUEUE_URL, status: 'CREATE_COMPLETE' },
    ],
    [
      { logicalId: 'WebSecurityGroup', physicalId: WEB_SG_NEW, status: 'UPDATE_COMPLETE' },
      { logicalId: 'Subnet', physicalId: SUBNET_NEW, status: 'UPDATE_COMPLETE' },
    ],
    [{ logicalId: 'WebServer', physicalId: WEB_SERVER_OLD, status: 'UPDATE_IN_PROGRESS', reason: REPLACING }],
    [{ logicalId: 'WebServer', physicalId: WEB_SERVER_NEW, status: 'UPDATE_IN_PROGRESS', reason: INITIATED }],
    [],
    [{ logicalId: 'WebServer', physicalId: WEB_SERVER_NEW, status: 'UPDATE_COMPLETE' }],
    [{ status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' }],
    [
      { logicalId: 'WebServer', physicalId: WEB_SERVER_OLD, status: 'DELETE_IN_PROGRESS', row: 'keep' },
      // A retained resource leaves the stack without a delete: one DELETE_SKIPPED event, and its row goes.
      { logicalId: 'AccessLogs', physicalId: 'network-accesslogs-1r5x9kqd2vw0e', status: 'DELETE_SKIPPED', row: 'remove' },
    ],
    [],
    [{ logicalId: 'WebServer', physicalId: WEB_SERVER_OLD, status: 'DELETE_COMPLETE', row: 'keep' }],
    [
      { logicalId: 'Subnet', physicalId: SUBNET_OLD, status: 'DELETE_IN_PROGRESS', row: 'keep' },
      { logicalId: 'WebSecurityGroup', physicalId: WEB_SG_OLD, status: 'DELETE_IN_PROGRESS', row: 'keep' },
    ],
    [
      { logicalId: 'WebSecurityGroup', physicalId: WEB_SG_OLD, status: 'DELETE_COMPLETE', row: 'keep' },
      { logicalId: 'Subnet', physicalId: SUBNET_OLD, status: 'DELETE_COMPLETE', row: 'keep' },
    ],
    [{ logicalId: 'VPC', physicalId: VPC_OLD, status: 'DELETE_IN_PROGRESS', row: 'keep' }],
    [{ logicalId: 'VPC', physicalId: VPC_OLD, status: 'DELETE_COMPLETE', row: 'keep' }],
    [{ status: 'UPDATE_COMPLETE' }],
  ],
};

/**
 * A network stack at rest that exports its VPC id, which another stack imports, and its CIDR
 * block, which nobody imports: what "Exporting stack output values" in the User Guide describes
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-stack-exports.html).
 */
const exportingNetwork: Scenario = {
  name: 'exporting-network',
  description: 'A stack at rest whose VPC id is exported and imported by the stack app, and whose CIDR block is exported and imported by none (User Guide, exporting stack output values).',
  stackName: 'shared-network',
  types: {},
  existing: { status: 'CREATE_COMPLETE', resources: [{ logicalId: 'VPC', type: 'AWS::EC2::VPC', physicalId: 'vpc-0e5e5e5e5e5e5e5e5' }] },
  templateBody: `Parameters:
  CidrBlock: { Type: String, Default: 10.0.0.0/16 }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties: { CidrBlock: !Ref CidrBlock }
Outputs:
  VpcId:
    Value: !Ref VPC
    Export: { Name: shared-vpc-id }
  VpcCidr:
    Value: !GetAtt VPC.CidrBlock
    Export: { Name: shared-vpc-cidr }
`,
  outputs: [
    { key: 'VpcId', value: 'vpc-0e5e5e5e5e5e5e5e5', exportName: 'shared-vpc-id', importedBy: ['app'] },
    { key: 'VpcCidr', value: '10.0.0.0/16', exportName: 'shared-vpc-cidr' },
  ],
  steps: [],
};

/**
 * A parent stack at rest that runs a nested stack, deployed from a parent whose `TemplateURL` named
 * a local file: `aws cloudformation package` uploaded the child and wrote its S3 URL into the
 * parent, and wrote the child itself as YAML of its own (long-form intrinsics, no comments). The
 * nested stack's physical id is its stack id (`nested-platform-network`), named as CloudFormation
 * names nested stacks: parent name, logical id, a random suffix.
 */
const nestedPlatform: Scenario = {
  name: 'nested-platform',
  description: 'A parent stack at rest running the nested stack nested-platform-network (its child template packaged to S3), with a security group in the nested VPC.',
  stackName: 'platform',
  types: {},
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'Network', type: 'AWS::CloudFormation::Stack', physicalId: '', nestedStack: 'nested-platform-network' },
      { logicalId: 'AppSecurityGroup', type: 'AWS::EC2::SecurityGroup', physicalId: 'sg-0a1b2c3d4e5f60718' },
    ],
  },
  parameters: { Cidr: '10.0.0.0/16' },
  templateBody: `Parameters:
  Cidr:
    Type: String
    Default: 10.0.0.0/16
Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: https://s3.us-east-1.amazonaws.com/platform-artifacts/3f1c0e7a9b2d4c6e8f0a1b2c3d4e5f60.template
      Parameters:
        VpcCidr:
          Ref: Cidr
  AppSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId:
        Fn::GetAtt:
        - Network
        - Outputs.VpcId
`,
  steps: [],
};

/** The nested stack `nested-platform` runs: a VPC and a subnet in it, its VPC id an output. */
const nestedPlatformNetwork: Scenario = {
  name: 'nested-platform-network',
  description: 'The nested stack of nested-platform, at rest: a VPC and a subnet, its template as aws cloudformation package wrote it.',
  stackName: 'platform-Network-1T9ZQX4K2M7BV',
  nestedIn: 'nested-platform',
  types: {},
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'Vpc', type: 'AWS::EC2::VPC', physicalId: 'vpc-0c1d2e3f405162738' },
      { logicalId: 'Subnet', type: 'AWS::EC2::Subnet', physicalId: 'subnet-0d2e3f40516273849' },
    ],
  },
  parameters: { VpcCidr: '10.0.0.0/16' },
  templateBody: `Parameters:
  VpcCidr:
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
        Fn::Select:
        - 0
        - Fn::Cidr:
          - Ref: VpcCidr
          - 4
          - 8
Outputs:
  VpcId:
    Value:
      Ref: Vpc
`,
  steps: [],
};

/**
 * A parent update that updates its nested stack: the parent's `Network` resource is
 * UPDATE_IN_PROGRESS while the nested stack runs an update of its own (its VPC's tags, then its
 * subnet's), as CloudFormation nests operations; the nested stack completes first, then its
 * resource in the parent, then the parent. The reasons are the ones CloudFormation writes.
 */
const nestedUpdate: Scenario = {
  name: 'nested-update',
  description: 'A parent stack updating its nested stack (nested-update-network), whose own update runs inside the parent\'s.',
  stackName: 'shop',
  types: { Network: 'AWS::CloudFormation::Stack', Api: 'AWS::SNS::Topic' },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'Network', type: 'AWS::CloudFormation::Stack', physicalId: '', nestedStack: 'nested-update-network' },
      { logicalId: 'Api', type: 'AWS::SNS::Topic', physicalId: 'arn:aws:sns:us-east-1:123456789012:shop-Api-1QW2E3R4T5Y6' },
    ],
  },
  templateBody: `Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: https://s3.us-east-1.amazonaws.com/shop-artifacts/9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a.template
  Api:
    Type: AWS::SNS::Topic
`,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [{ logicalId: 'Network', status: 'UPDATE_IN_PROGRESS', nestedStack: 'nested-update-network' }],
    [],
    [],
    [],
    [],
    [],
    [{ logicalId: 'Network', status: 'UPDATE_COMPLETE', nestedStack: 'nested-update-network' }],
    [{ status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' }],
    [{ status: 'UPDATE_COMPLETE' }],
  ],
};

/**
 * The nested stack of `nested-update`: its update runs while its resource in the parent is
 * UPDATE_IN_PROGRESS, when placed two steps after its parent's (its own script starts with it).
 */
const nestedUpdateNetwork: Scenario = {
  name: 'nested-update-network',
  description: 'The nested stack of nested-update, updated by its parent: its VPC, then its subnet.',
  stackName: 'shop-Network-8H7G6F5D4S3A',
  nestedIn: 'nested-update',
  types: { Vpc: 'AWS::EC2::VPC', Subnet: 'AWS::EC2::Subnet' },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'Vpc', type: 'AWS::EC2::VPC', physicalId: 'vpc-0f1e2d3c4b5a69788' },
      { logicalId: 'Subnet', type: 'AWS::EC2::Subnet', physicalId: 'subnet-0e1d2c3b4a5968778' },
    ],
  },
  templateBody: `Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties: { CidrBlock: 10.0.0.0/16, Tags: [{ Key: team, Value: shop }] }
  Subnet:
    Type: AWS::EC2::Subnet
    Properties: { VpcId: !Ref Vpc, CidrBlock: 10.0.0.0/24, Tags: [{ Key: team, Value: shop }] }
`,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS' }],
    [{ logicalId: 'Vpc', physicalId: 'vpc-0f1e2d3c4b5a69788', status: 'UPDATE_IN_PROGRESS' }],
    [{ logicalId: 'Vpc', physicalId: 'vpc-0f1e2d3c4b5a69788', status: 'UPDATE_COMPLETE' }, { logicalId: 'Subnet', physicalId: 'subnet-0e1d2c3b4a5968778', status: 'UPDATE_IN_PROGRESS' }],
    [{ logicalId: 'Subnet', physicalId: 'subnet-0e1d2c3b4a5968778', status: 'UPDATE_COMPLETE' }],
    [{ status: 'UPDATE_COMPLETE' }],
  ],
};

const REVIEW_SG = 'sg-0f3a9c1e7b2d48a65';
const REVIEW_CHANGE_SET_STACK = 'network-review';

/**
 * A stack at rest for review in CI: examples/network/deployed.yaml deployed with parameter values
 * that differ from its defaults, and change sets created for examples/network/update.yaml with
 * `UsePreviousValue` for every parameter. `add-queue` is the change set CloudFormation writes for
 * that update, shaped as the user guide's example change sets show (using-cfn-updating-stacks-
 * changesets-samples: a direct tag edit is one Static DirectModification detail on the Tags
 * attribute, RequiresRecreation Never, Replacement False; an added resource has no details; a
 * removed resource with DeletionPolicy Retain has PolicyAction Retain). `edited-by-hand` is a
 * change set for another template than the one reviewed: one disagreement of each kind.
 * `with-nested-stack` adds a nested stack whose own change set (IncludeNestedStacks) CloudFormation
 * describes separately.
 */
const changeSetReview: Scenario = {
  name: 'change-set-review',
  description:
    'A settled stack running examples/network/deployed.yaml with non-default parameter values, and change sets for update.yaml (one as CloudFormation writes it, one that disagrees in every way, one with a nested stack), as the user guide example change sets show.',
  stackName: REVIEW_CHANGE_SET_STACK,
  types: {},
  existing: {
    status: 'UPDATE_COMPLETE',
    resources: [
      { logicalId: 'VPC', type: 'AWS::EC2::VPC', physicalId: 'vpc-0b4e8d2a61c9f7e35' },
      { logicalId: 'Subnet', type: 'AWS::EC2::Subnet', physicalId: 'subnet-0e7a1c5d93b2f8a46' },
      { logicalId: 'WebSecurityGroup', type: 'AWS::EC2::SecurityGroup', physicalId: REVIEW_SG },
      { logicalId: 'InstanceRole', type: 'AWS::IAM::Role', physicalId: 'network-review-InstanceRole-M3K8Q1ZP7WXA' },
      { logicalId: 'InstanceProfile', type: 'AWS::IAM::InstanceProfile', physicalId: 'network-review-InstanceProfile-4TRB9HC2NJLE' },
      { logicalId: 'WebServer', type: 'AWS::EC2::Instance', physicalId: 'i-0d2f6b8a14e3c9705' },
      { logicalId: 'AccessLogs', type: 'AWS::S3::Bucket', physicalId: 'network-review-accesslogs-7q2m4x8k1pzd' },
    ],
  },
  templateBody: readFileSync(join(__dirname, '../../examples/network/deployed.yaml'), 'utf8'),
  parameters: { VpcCidr: '10.1.0.0/16', InstanceType: 't3.small', Environment: 'staging' },
  changeSets: [
    {
      name: 'add-queue',
      description: 'update.yaml with the current parameter values',
      templateBody: readFileSync(join(__dirname, '../../examples/network/update.yaml'), 'utf8'),
      parameters: { VpcCidr: '10.1.0.0/16', InstanceType: 't3.small', Environment: 'staging' },
      changes: [
        {
          Action: 'Modify',
          LogicalResourceId: 'WebSecurityGroup',
          PhysicalResourceId: REVIEW_SG,
          ResourceType: 'AWS::EC2::SecurityGroup',
          Replacement: 'False',
          Scope: ['Tags'],
          Details: [{ Target: { Attribute: 'Tags', RequiresRecreation: 'Never', AttributeChangeType: 'Add', AfterValue: '[{"Key":"team","Value":"web"}]' }, Evaluation: 'Static', ChangeSource: 'DirectModification' }],
        },
        { Action: 'Add', LogicalResourceId: 'Queue', ResourceType: 'AWS::SQS::Queue', AfterContext: '{"Properties":{"VisibilityTimeout":"60"}}' },
        {
          Action: 'Remove',
          LogicalResourceId: 'AccessLogs',
          PhysicalResourceId: 'network-review-accesslogs-7q2m4x8k1pzd',
          ResourceType: 'AWS::S3::Bucket',
          PolicyAction: 'Retain',
          BeforeContext: '{}',
        },
      ],
    },
    {
      name: 'edited-by-hand',
      description: 'a different template: every kind of disagreement',
      changes: [
        // Replacement disagrees: this one says the tag change replaces the group.
        {
          Action: 'Modify',
          LogicalResourceId: 'WebSecurityGroup',
          PhysicalResourceId: REVIEW_SG,
          ResourceType: 'AWS::EC2::SecurityGroup',
          Replacement: 'True',
          Scope: ['Tags', 'Properties'],
          Details: [
            { Target: { Attribute: 'Tags', RequiresRecreation: 'Never' }, Evaluation: 'Static', ChangeSource: 'DirectModification' },
            // Details disagree: a property the prediction does not change.
            { Target: { Attribute: 'Properties', Name: 'GroupDescription', Path: '/Properties/GroupDescription', RequiresRecreation: 'Always', AttributeChangeType: 'Modify', BeforeValue: 'Web traffic', AfterValue: 'Web' }, Evaluation: 'Static', ChangeSource: 'DirectModification' },
          ],
        },
        // Action disagrees: the prediction adds Queue.
        {
          Action: 'Modify',
          LogicalResourceId: 'Queue',
          ResourceType: 'AWS::SQS::Queue',
          Replacement: 'False',
          Scope: ['Properties'],
          Details: [{ Target: { Attribute: 'Properties', Name: 'VisibilityTimeout', Path: '/Properties/VisibilityTimeout', RequiresRecreation: 'Never', AttributeChangeType: 'Modify' }, Evaluation: 'Static', ChangeSource: 'DirectModification' }],
        },
        // Only in the change set.
        {
          Action: 'Modify',
          LogicalResourceId: 'InstanceRole',
          PhysicalResourceId: 'network-review-InstanceRole-M3K8Q1ZP7WXA',
          ResourceType: 'AWS::IAM::Role',
          Replacement: 'False',
          Scope: ['Properties'],
          Details: [{ Target: { Attribute: 'Properties', Name: 'AssumeRolePolicyDocument', Path: '/Properties/AssumeRolePolicyDocument', RequiresRecreation: 'Never', AttributeChangeType: 'Modify' }, Evaluation: 'Static', ChangeSource: 'DirectModification' }],
        },
        // AccessLogs is missing: only in the prediction.
      ],
    },
    {
      name: 'with-nested-stack',
      description: 'update.yaml plus a nested stack, created with IncludeNestedStacks',
      changes: [
        {
          Action: 'Add',
          LogicalResourceId: 'Alarms',
          ResourceType: 'AWS::CloudFormation::Stack',
          nestedChangeSet: {
            name: 'with-nested-stack-Alarms-1XG8Q2',
            changes: [{ Action: 'Add', LogicalResourceId: 'AlarmTopic', ResourceType: 'AWS::SNS::Topic' }],
          },
        },
      ],
    },
  ],
  steps: [],
};

/** The stack that imports shared-network's VPC id (exporting-network), at rest. */
const importingApp: Scenario = {
  name: 'importing-app',
  description: 'A stack at rest whose subnet imports the VPC id that exporting-network exports (User Guide, exporting stack output values).',
  stackName: 'app',
  types: {},
  existing: { status: 'UPDATE_COMPLETE', resources: [{ logicalId: 'Subnet', type: 'AWS::EC2::Subnet', physicalId: 'subnet-0a9a9a9a9a9a9a9a9' }] },
  templateBody: `Resources:
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !ImportValue shared-vpc-id
      CidrBlock: 10.0.1.0/24
`,
  steps: [],
};

/**
 * An update in express mode (the user guide's "Deploy stacks faster with express mode"): each
 * resource is reported `UPDATE_COMPLETE` as soon as its configuration is applied, the
 * CloudFront distribution within seconds rather than the minutes a standard update waits for it.
 */
const updateExpress: Scenario = {
  name: 'update-express',
  description:
    'Express update: DescribeStacks reports DeploymentConfig Mode EXPRESS; the function and the distribution report UPDATE_COMPLETE once configured, and the stack ends UPDATE_COMPLETE while they may still be becoming ready.',
  stackName: 'api',
  types: { Handler: 'AWS::Lambda::Function', Distribution: 'AWS::CloudFront::Distribution' },
  existing: {
    status: 'CREATE_COMPLETE',
    resources: [
      { logicalId: 'Handler', type: 'AWS::Lambda::Function', physicalId: 'api-Handler-1A2B3C' },
      { logicalId: 'Distribution', type: 'AWS::CloudFront::Distribution', physicalId: 'E2QWRUHEXAMPLE' },
    ],
  },
  deploymentMode: 'EXPRESS',
  templateBody: `Resources:
  Handler:
    Type: AWS::Lambda::Function
    Properties: { Runtime: nodejs20.x, Handler: index.handler, Role: arn:aws:iam::123456789012:role/api, Code: { ZipFile: 'exports.handler = async () => 200' }, MemorySize: 512 }
  Distribution:
    Type: AWS::CloudFront::Distribution
    Properties: { DistributionConfig: { Enabled: true, Comment: api v2, DefaultCacheBehavior: { TargetOriginId: api, ViewerProtocolPolicy: https-only, CachePolicyId: 658327ea-f89d-4fab-a63d-7e88639e58f6 }, Origins: [{ Id: api, DomainName: api.example.com, CustomOriginConfig: { OriginProtocolPolicy: https-only } }] } }
`,
  steps: [
    [{ status: 'UPDATE_IN_PROGRESS', reason: 'User Initiated' }],
    [{ logicalId: 'Handler', physicalId: 'api-Handler-1A2B3C', status: 'UPDATE_IN_PROGRESS' }],
    [{ logicalId: 'Handler', physicalId: 'api-Handler-1A2B3C', status: 'UPDATE_COMPLETE' }],
    [{ logicalId: 'Distribution', physicalId: 'E2QWRUHEXAMPLE', status: 'UPDATE_IN_PROGRESS' }],
    [{ logicalId: 'Distribution', physicalId: 'E2QWRUHEXAMPLE', status: 'UPDATE_COMPLETE' }],
    [{ status: 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS' }],
    [{ status: 'UPDATE_COMPLETE' }],
  ],
};

/** Every scenario by name. */
export const SCENARIOS: Readonly<Record<string, Scenario>> = Object.fromEntries(
  [
    updateReplacement,
    createRollback,
    updateRollbackFailed,
    cleanupDeleteFailed,
    rollbackCleanupDeleteFailed,
    createSuccess,
    deleteStack,
    networkExample,
    updateValidationFailed,
    exportingNetwork,
    importingApp,
    changeSetReview,
    updateExpress,
    nestedPlatform,
    nestedPlatformNetwork,
    nestedUpdate,
    nestedUpdateNetwork,
  ].map(
    (s) => [s.name, s],
  ),
);
