/**
 * The rules that read update policies and service settings (docs/update-rules.md 3.13–3.23) over
 * values of every wrong shape: a policy that is a string or a list, a deployment group named by a
 * number, indexes that are not a list or share a name, storage and versions that are not numbers,
 * user data that is not base64. Each comparison completes, and none of them claims a failure or a
 * rollout from a value it cannot read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

/** A resource of `type` with `attributes` and `properties` (YAML lines at their indent), before and after `edit`. */
function compare(type: string, attributes: string, properties: string, edit: (text: string) => string) {
  const before = `Resources:\n  Thing:\n    Type: ${type}\n${attributes}    Properties:\n${properties}`;
  const after = edit(before);
  assert.notEqual(after, before, 'the edit must change the template');
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  return report.changes.find((c) => c.logicalId === 'Thing');
}

const SHAPES = ['x', '[1, 2]', '{ A: [] }', '42', 'null'];

describe('update policies of every shape', () => {
  for (const shape of SHAPES) {
    test(`an alias whose UpdatePolicy is ${shape}: an update, no traffic shift`, () => {
      const change = compare('AWS::Lambda::Alias', `    UpdatePolicy: ${shape}\n`, "      FunctionName: f\n      FunctionVersion: '1'\n      Name: live\n", (t) => t.replace("'1'", "'2'"));
      assert.equal(change?.rollout, undefined);
    });

    test(`an alias whose CodeDeployLambdaAliasUpdate is ${shape}: no traffic shift`, () => {
      const change = compare('AWS::Lambda::Alias', `    UpdatePolicy:\n      CodeDeployLambdaAliasUpdate: ${shape}\n`, "      FunctionName: f\n      FunctionVersion: '1'\n      Name: live\n", (t) => t.replace("'1'", "'2'"));
      assert.equal(change?.rollout, undefined);
    });

    // A map is a rolling update with its defaults (its unknown keys are CloudFormation's to judge); anything else is none.
    test(`an Auto Scaling group whose AutoScalingRollingUpdate is ${shape}: a rolling update only for a map`, () => {
      const change = compare(
        'AWS::AutoScaling::AutoScalingGroup',
        `    UpdatePolicy:\n      AutoScalingRollingUpdate: ${shape}\n`,
        "      MinSize: '1'\n      MaxSize: '2'\n      LaunchConfigurationName: one\n",
        (t) => t.replace('LaunchConfigurationName: one', 'LaunchConfigurationName: two'),
      );
      assert.equal(change?.rollout?.kind === 'rolling-update', shape.startsWith('{'));
    });

    test(`a table whose GlobalSecondaryIndexes is ${shape}: no failure claimed by index name`, () => {
      const change = compare('AWS::DynamoDB::Table', '', `      BillingMode: PAY_PER_REQUEST\n      GlobalSecondaryIndexes: ${shape}\n`, (t) => t.replace('BillingMode: PAY_PER_REQUEST', 'BillingMode: PROVISIONED'));
      assert.notEqual(change?.failure?.kind, 'index-operations');
    });
  }

  test('a deployment group named by a number, hooks that are lists: a traffic shift with no names made up', () => {
    const change = compare(
      'AWS::Lambda::Alias',
      '    UpdatePolicy:\n      CodeDeployLambdaAliasUpdate:\n        ApplicationName: app\n        DeploymentGroupName: 7\n        BeforeAllowTrafficHook: [a, b]\n',
      "      FunctionName: f\n      FunctionVersion: '1'\n      Name: live\n",
      (t) => t.replace("'1'", "'2'"),
    );
    assert.deepEqual(change?.rollout, { kind: 'traffic-shift', hooks: {} });
  });
});

describe('service settings of every shape', () => {
  test('storage and engine versions that are not numbers or text: no failure claimed', () => {
    const db = compare('AWS::RDS::DBInstance', '', "      Engine: postgres\n      EngineVersion: [15]\n      AllocatedStorage: big\n      DBInstanceClass: db.t3.micro\n", (t) =>
      t.replace('AllocatedStorage: big', 'AllocatedStorage: small').replace('EngineVersion: [15]', 'EngineVersion: { v: 16 }'),
    );
    assert.equal(db?.failure, undefined);
  });

  test('user data that is a list: no decoded line, no crash', () => {
    const box = compare('AWS::EC2::Instance', '', '      ImageId: ami-1\n      UserData: [a]\n', (t) => t.replace('[a]', '[b]'));
    assert.equal(box?.details[0]?.target.changedLine, undefined);
  });

  test('indexes that share a name are judged by place, not merged', () => {
    const index = (name: string, type: string) => `        - { IndexName: ${name}, KeySchema: [{ AttributeName: a, KeyType: HASH }], Projection: { ProjectionType: ${type} } }\n`;
    const table = compare('AWS::DynamoDB::Table', '', `      BillingMode: PAY_PER_REQUEST\n      GlobalSecondaryIndexes:\n${index('same', 'ALL')}${index('same', 'ALL')}`, (t) => t.replace(/ALL \} \}\n$/, 'KEYS_ONLY } }\n'));
    assert.equal(table?.failure?.kind, 'property-not-updatable');
  });
});
