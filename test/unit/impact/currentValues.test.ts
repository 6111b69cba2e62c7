/**
 * Parameters with no value at hand (docs/update-rules.md#parameter-current-value) and the
 * conditions over them (docs/update-rules.md#undecided-conditions). Production templates declare
 * parameters without a Default because the values live in the deployed stack: deployed with
 * `UsePreviousValue`, such a parameter keeps the stack's current value. The engine compares it
 * as that value, unknown and the same on both sides, so an unchanged template is a no-op and an
 * edit gives exactly its change. What CloudFormation really rejects stays an error
 * (docs/update-rules.md#new-parameter-value).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, replacedIds } from '../../../server/src/impact';
import { changeReason, diagnosticText } from '../../../server/src/present';
import type { ImpactReport } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function impact(oldText: string, newText: string, newParameters?: Record<string, string>): ImpactReport {
  return analyzeUpdate({ text: oldText }, { text: newText, parameters: newParameters }, { spec, stackName: 'prod-app' }).report;
}

function errors(report: ImpactReport): string[] {
  return report.diagnostics.filter((d) => d.severity === 'error').map(diagnosticText);
}

/** A production-style template: every parameter without a Default, read through every kind of expression. */
const app = `
AWSTemplateFormatVersion: '2010-09-09'
Parameters:
  EnvironmentName: { Type: String, AllowedPattern: '^[a-z]+$' }
  KeyName: { Type: 'AWS::EC2::KeyPair::KeyName' }
  Subnets: { Type: 'List<AWS::EC2::Subnet::Id>' }
  InstanceSize: { Type: String, AllowedValues: [small, large] }
  DBPassword: { Type: String, NoEcho: true, MinLength: 12 }
  Tags: { Type: CommaDelimitedList }
Mappings:
  Sizes:
    small: { Type: t3.small }
    large: { Type: m5.large }
Conditions:
  IsProd: !Equals [!Ref EnvironmentName, prod]
Resources:
  Instance:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-0123456789abcdef0
      KeyName: !Ref KeyName
      SubnetId: !Select [0, !Ref Subnets]
      InstanceType: !FindInMap [Sizes, !Ref InstanceSize, Type]
      Monitoring: !If [IsProd, true, false]
      Tags:
        - Key: Name
          Value: !Sub '\${EnvironmentName}-app'
        - Key: Team
          Value: !Join ['+', !Ref Tags]
  Database:
    Type: AWS::RDS::DBInstance
    Properties:
      Engine: postgres
      DBInstanceClass: db.t3.micro
      AllocatedStorage: '20'
      MasterUsername: admin
      MasterUserPassword: !Ref DBPassword
      DBName: !Join ['', [!Ref EnvironmentName, db]]
  Alarms:
    Type: AWS::SNS::Topic
    Condition: IsProd
    Properties:
      TopicName: !Sub '\${EnvironmentName}-alarms'
`;

describe('parameters with no value are the stack’s current value', () => {
  test('the template compared with itself is a no-op, with no error and one note naming the parameters', () => {
    const report = impact(app, app);
    assert.equal(report.status, 'noop', report.message);
    assert.deepEqual(errors(report), []);
    const notes = report.diagnostics.filter((d) => d.code === 'parameters-current-value');
    assert.equal(notes.length, 1);
    assert.equal(notes[0].severity, 'info');
    assert.deepEqual(notes[0].finding, { kind: 'parameters-current-value', parameters: ['EnvironmentName', 'KeyName', 'Subnets', 'InstanceSize', 'DBPassword', 'Tags'] });
    // In words, it says how to give real values in every face.
    const words = diagnosticText(notes[0]);
    for (const name of ['EnvironmentName', 'KeyName', 'Subnets', 'InstanceSize', 'DBPassword', 'Tags']) assert.match(words, new RegExp(`\\b${name}\\b`));
    assert.match(words, /parameters file/);
    assert.match(words, /--parameters/);
    assert.match(words, /link the deployed stack/);
    assert.equal(app.slice(notes[0].range!.start, notes[0].range!.end), 'Parameters');
  });

  test('a one-line edit of one resource gives exactly that resource’s change', () => {
    const report = impact(app, app.replace('AllocatedStorage: \'20\'', 'AllocatedStorage: \'40\''));
    assert.equal(report.status, 'update');
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.impact]), [['Database', 'Modify', 'no-interruption']]);
    assert.deepEqual(errors(report), []);
  });

  test('an edit of an expression over such a parameter is a change of the reading property, with its behaviour', () => {
    const report = impact(app, app.replace("!Sub '${EnvironmentName}-app'", "!Sub '${EnvironmentName}-web'"));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact, c.details.map((d) => d.target.path)]), [['Instance', 'no-interruption', ['/Properties/Tags/0/Value']]]);
    const replaced = impact(app, app.replace("!Join ['', [!Ref EnvironmentName, db]]", "!Join ['', [!Ref EnvironmentName, data]]"));
    assert.deepEqual(replaced.changes.map((c) => [c.logicalId, c.impact]), [['Database', 'replacement']]);
  });

  test('switching to another expression with no value at hand is a change (run 17 needs equal values, and these are unknown)', () => {
    const report = impact(app, app.replace('KeyName: !Ref KeyName', 'KeyName: !Ref EnvironmentName'));
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Instance']);
  });

  test('a lookup keyed by such a parameter changes when an entry it may select changes, and only then', () => {
    // The stack's InstanceSize may be large: m5.large → m5.xlarge then restarts the instance.
    const report = impact(app, app.replace('large: { Type: m5.large }', 'large: { Type: m5.xlarge }'));
    assert.equal(report.status, 'update');
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.impact, c.details.map((d) => d.target.path)]), [['Instance', 'some-interruption', ['/Properties/InstanceType']]]);
    // The entry that changed, and the value of the parameter that selects it (docs/update-rules.md#lookup-entries).
    const [detail] = report.changes[0].details;
    assert.deepEqual([detail.target.beforeValue, detail.target.afterValue, detail.when], ['"m5.large"', '"m5.xlarge"', { key: 'InstanceSize', values: ['large'] }]);
    // An entry under another name, which no lookup reads, changes nothing.
    const unread = impact(app, app.replace('large: { Type: m5.large }', 'large: { Type: m5.large, Family: m5 }'));
    assert.equal(unread.status, 'noop', unread.message);
  });

  test('a parameter that had a Default and loses it keeps the value the stack has: a no-op', () => {
    const before = 'Parameters:\n  Name: { Type: String, Default: orders }\nResources:\n  Queue:\n    Type: AWS::SQS::Queue\n    Properties: { QueueName: !Ref Name }\n';
    const report = impact(before, before.replace(', Default: orders', ''));
    assert.equal(report.status, 'noop', report.message);
    assert.deepEqual(errors(report), []);
  });

  test('a parameter the new template requires and the deployed one did not declare is rejected, worded like CloudFormation', () => {
    const after = app.replace('  Tags: { Type: CommaDelimitedList }', '  Tags: { Type: CommaDelimitedList }\n  Owner: { Type: String }\n  CostCentre: { Type: String }');
    const report = impact(app, after);
    assert.equal(report.status, 'error');
    assert.equal(report.message, 'Parameters: [Owner, CostCentre] must have values');
    const located = report.diagnostics.filter((d) => d.code === 'parameter-missing-value').map((d) => after.slice(d.range!.start, d.range!.end));
    assert.deepEqual(located, ['Owner', 'CostCentre']);
  });

  test('constraints are checked on supplied values only: a supplied value that breaks one is rejected', () => {
    const report = impact(app, app, { InstanceSize: 'huge' });
    assert.equal(report.status, 'error');
    assert.equal(report.message, "Parameter 'InstanceSize' must be one of AllowedValues");
    assert.equal(impact(app, app, { InstanceSize: 'small', EnvironmentName: 'prod' }).status, 'update', 'supplied values differ from the unknown current ones');
  });
});

describe('conditions over parameters with no value', () => {
  test('a change to a resource under such a condition is reported with the condition named, never dropped', () => {
    const report = impact(app, app.replace("TopicName: !Sub '${EnvironmentName}-alarms'", "TopicName: !Sub '${EnvironmentName}-alerts'"));
    assert.equal(report.status, 'update');
    const [alarms] = report.changes;
    assert.deepEqual([alarms.logicalId, alarms.impact, alarms.condition], ['Alarms', 'replacement', 'IsProd']);
    assert.match(changeReason(alarms, replacedIds(report.changes)), /· if IsProd holds$/);
  });

  test('a resource added under such a condition is an addition if the condition holds', () => {
    const after = app.replace('Resources:\n', 'Resources:\n  Dashboard:\n    Type: AWS::SNS::Topic\n    Condition: IsProd\n');
    const report = impact(app, after);
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.condition]), [['Dashboard', 'Add', 'IsProd']]);
    assert.match(changeReason(report.changes[0], new Set()), /created if condition IsProd holds/);
  });

  test('a resource removed from under such a condition is a removal if the condition held', () => {
    const after = app.replace(/  Alarms:[\s\S]*$/, '');
    const report = impact(app, after);
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.condition]), [['Alarms', 'Remove', 'IsProd']]);
  });

  test('a changed branch of Fn::If over such a condition changes the property', () => {
    const report = impact(app, app.replace('Monitoring: !If [IsProd, true, false]', 'Monitoring: !If [IsProd, false, false]'));
    assert.deepEqual(report.changes.map((c) => [c.logicalId, c.details.map((d) => d.target.path)]), [['Instance', ['/Properties/Monitoring']]]);
  });

  test('a changed condition that guards a resource warns that the resource may be created or deleted', () => {
    const report = impact(app, app.replace('IsProd: !Equals [!Ref EnvironmentName, prod]', 'IsProd: !Equals [!Ref EnvironmentName, production]'));
    const warning = report.diagnostics.find((d) => d.code === 'condition-may-change');
    assert.ok(warning, 'expected a warning about Alarms');
    assert.equal(warning.logicalId, 'Alarms');
    assert.deepEqual(report.changes.map((c) => c.logicalId), ['Instance'], 'Monitoring reads the condition through Fn::If');
  });
});
