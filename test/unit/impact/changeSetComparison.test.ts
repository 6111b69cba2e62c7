/**
 * Comparing a change set with the prediction, on change sets as the user guide's example change
 * sets write them (using-cfn-updating-stacks-changesets-samples): a parameter change is a Static
 * ParameterReference detail and a Dynamic DirectModification detail on the same target, tags are
 * a target with Attribute Tags and no Name.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate, compareWithChangeSet, type ChangeSetChange } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

// The user guide's sample: an instance whose tag reads a parameter.
const template = `{
  "Parameters": {
    "Purpose": { "Type": "String", "Default": "testing", "AllowedValues": ["testing", "production"] },
    "KeyPairName": { "Type": "String" },
    "InstanceType": { "Type": "String", "Default": "t2.micro" }
  },
  "Resources": {
    "MyEC2Instance": {
      "Type": "AWS::EC2::Instance",
      "Properties": {
        "KeyName": { "Ref": "KeyPairName" },
        "InstanceType": { "Ref": "InstanceType" },
        "ImageId": "ami-8fcee4e5",
        "Tags": [{ "Key": "Purpose", "Value": { "Ref": "Purpose" } }]
      }
    }
  }
}`;

function predicted(newValues: Record<string, string>) {
  const old = { Purpose: 'testing', KeyPairName: 'MyKeyName', InstanceType: 't2.micro' };
  return analyzeUpdate({ text: template, parameters: old }, { text: template, parameters: { ...old, ...newValues } }, { spec }).report.changes;
}

const tagTarget = { attribute: 'Tags', requiresRecreation: 'Never' };

describe('compareWithChangeSet', () => {
  test("the guide's \"Modifying an Input Parameter Value\" change set agrees with the prediction for Purpose → production", () => {
    const changeSet: ChangeSetChange[] = [
      {
        logicalId: 'MyEC2Instance',
        resourceType: 'AWS::EC2::Instance',
        action: 'Modify',
        replacement: 'False',
        details: [{ target: tagTarget }, { target: tagTarget }],
        nestedIn: [],
      },
    ];
    const comparison = compareWithChangeSet(predicted({ Purpose: 'production' }), changeSet);
    assert.deepEqual(comparison.resources, [{ logicalId: 'MyEC2Instance', resourceType: 'AWS::EC2::Instance', disagreements: [] }]);
    assert.equal(comparison.agrees, true);
  });

  test('the guide\'s "Determining the Value of the Replacement Field" change set (every parameter changed) agrees: Replacement True', () => {
    const changeSet: ChangeSetChange[] = [
      {
        logicalId: 'MyEC2Instance',
        resourceType: 'AWS::EC2::Instance',
        action: 'Modify',
        replacement: 'True',
        details: [
          { target: { attribute: 'Properties', name: 'KeyName' } },
          { target: { attribute: 'Properties', name: 'InstanceType' } },
          { target: tagTarget },
          { target: { attribute: 'Properties', name: 'KeyName' } },
          { target: { attribute: 'Properties', name: 'InstanceType' } },
          { target: tagTarget },
        ],
        nestedIn: [],
      },
    ];
    const comparison = compareWithChangeSet(predicted({ Purpose: 'production', KeyPairName: 'MyNewKeyName', InstanceType: 't2.small' }), changeSet);
    assert.equal(comparison.agrees, true, JSON.stringify(comparison.resources));
  });

  test('a change set that says False where a new key pair replaces the instance disagrees on Replacement and details', () => {
    const changeSet: ChangeSetChange[] = [
      { logicalId: 'MyEC2Instance', resourceType: 'AWS::EC2::Instance', action: 'Modify', replacement: 'False', details: [{ target: tagTarget }], nestedIn: [] },
    ];
    const comparison = compareWithChangeSet(predicted({ KeyPairName: 'MyNewKeyName' }), changeSet);
    assert.deepEqual(comparison.resources[0].disagreements, [
      { kind: 'replacement', changeSet: 'False', predicted: 'True' },
      { kind: 'details', onlyInChangeSet: ['Tags'], onlyPredicted: ['KeyName'] },
    ]);
    assert.equal(comparison.agrees, false);
  });

  test('changes inside nested stacks are set apart, not counted as disagreements', () => {
    const nested: ChangeSetChange = { logicalId: 'Topic', resourceType: 'AWS::SNS::Topic', action: 'Add', details: [], nestedIn: ['Child'] };
    const comparison = compareWithChangeSet([], [nested]);
    assert.deepEqual(comparison, { resources: [], nested: [nested], agrees: true });
  });
});
