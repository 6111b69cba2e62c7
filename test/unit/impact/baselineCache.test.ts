/**
 * One pipeline, with the baseline's evaluation kept between calls: an editor analyses the same
 * baseline against every version of the edited template, so `analyzeUpdate` takes a cache for
 * the baseline side. The report must not depend on whether the baseline came from the cache.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EvaluatedTemplate } from '../../../server/src/evaluate/types';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactReport } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();
const options = { spec, stackName: 'network' };

const network = `
Parameters:
  Cidr: { Type: String, Default: 10.0.0.0/16 }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref Cidr
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: 10.0.0.0/24
  Instance:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-11111111
      SubnetId: !Ref Subnet
`;

/** Each change as (logical id, action, replacement). */
function plan(report: Pick<ImpactReport, 'changes'>): [string, string, string | undefined][] {
  return report.changes.map((c) => [c.logicalId, c.action, c.replacement]);
}

describe('analyzeUpdate with a baseline cache', () => {
  test('the baseline is evaluated once for a series of edits, and each edit gets the report the rules give', () => {
    const baselineCache = new Map<string, EvaluatedTemplate>();
    const caching = { baselineCache, baselineKey: 'network@1' };

    // A new VPC CIDR replaces the VPC, which replaces the Subnet (VpcId), which replaces the Instance (SubnetId) (run 7).
    const cidr = analyzeUpdate({ text: network }, { text: network, parameters: { Cidr: '10.1.0.0/16' } }, options, caching);
    assert.deepEqual(plan(cidr.report), [
      ['VPC', 'Modify', 'True'],
      ['Subnet', 'Modify', 'True'],
      ['Instance', 'Modify', 'True'],
    ]);
    assert.deepEqual([...baselineCache.keys()], ['network@1']);

    // A Description on its own is a no-op (run 12).
    const described = analyzeUpdate({ text: network }, { text: `Description: the network\n${network}` }, options, caching);
    assert.equal(described.report.status, 'noop');
    assert.equal(described.before, cidr.before, 'the second edit reused the evaluated baseline');
  });

  test('a report from a cached baseline is the report of the same pair evaluated afresh', () => {
    const caching = { baselineCache: new Map<string, EvaluatedTemplate>(), baselineKey: 'network@1' };
    const edited = { text: network.replace('ami-11111111', 'ami-22222222') };
    analyzeUpdate({ text: network }, { text: network }, options, caching);
    const cached = analyzeUpdate({ text: network }, edited, options, caching);
    const fresh = analyzeUpdate({ text: network }, edited, options);
    assert.deepEqual(cached.report, fresh.report);
    // ImageId requires replacement; nothing refers to the instance.
    assert.deepEqual(plan(cached.report), [['Instance', 'Modify', 'True']]);
  });

  test('the key, not the text, identifies a cached baseline: a new baseline needs a new key', () => {
    const baselineCache = new Map<string, EvaluatedTemplate>();
    const withInstance = network;
    const withoutInstance = network.slice(0, network.indexOf('  Instance:'));
    analyzeUpdate({ text: withInstance }, { text: withInstance }, options, { baselineCache, baselineKey: 'network@1' });

    // Under the old key the cache answers for the baseline, whatever text is passed with it.
    const underOldKey = analyzeUpdate({ text: withoutInstance }, { text: withoutInstance }, options, { baselineCache, baselineKey: 'network@1' });
    assert.deepEqual(plan(underOldKey.report), [['Instance', 'Remove', undefined]]);

    // Under a new key the new baseline is evaluated: the same template on both sides is a no-op (run 1).
    const underNewKey = analyzeUpdate({ text: withoutInstance }, { text: withoutInstance }, options, { baselineCache, baselineKey: 'network@2' });
    assert.equal(underNewKey.report.status, 'noop');
  });
});

describe("a nested stack's child template, evaluated once per version of its text", () => {
  const child = (cidr: string) => `Parameters:
  Cidr: { Type: String }
  Name: { Type: String }
Resources:
  VPC:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: !Ref Cidr
      Tags:
        - { Key: Name, Value: !Ref Name }
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref VPC
      CidrBlock: ${cidr}
`;
  const parent = (description: string, name = 'net') => `Description: ${description}
Resources:
  Network:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ./network.yaml
      Parameters:
        Cidr: 10.0.0.0/16
        Name: ${name}
`;
  const files = (text: string) => (path: string) => (path === 'network.yaml' ? { text } : { problem: 'missing' as const });
  const nested = (oldChild: string, newChild: string) => ({ templatePath: 'parent.yaml', readOld: files(oldChild), readNew: files(newChild) });
  const nestedOptions = (oldChild: string, newChild: string) => ({ ...options, nested: nested(oldChild, newChild) });

  test('a keystroke in the parent that passes the child the same values evaluates neither side of the child again, and gives the plan an analysis without the cache gives', () => {
    const baselineCache = new Map<string, EvaluatedTemplate>();
    const caching = { baselineCache, baselineKey: 'parent@1' };
    const oldChild = child('10.0.0.0/24');
    const newChild = child('10.0.1.0/24');
    const first = analyzeUpdate({ text: parent('v1') }, { text: parent('v2') }, nestedOptions(oldChild, newChild), caching);
    // The baseline, and the child's two sides.
    assert.equal(baselineCache.size, 3);
    const kept = new Map(baselineCache);
    const again = analyzeUpdate({ text: parent('v1') }, { text: parent('v3') }, nestedOptions(oldChild, newChild), caching);
    assert.equal(baselineCache.size, 3);
    for (const [key, evaluated] of baselineCache) assert.equal(evaluated, kept.get(key), 'the same evaluation, not a new one');
    const fresh = analyzeUpdate({ text: parent('v1') }, { text: parent('v3') }, nestedOptions(oldChild, newChild));
    assert.deepEqual(again.report, fresh.report);
    // The subnet's new CidrBlock replaces it (run 7): the nested stack is updated, with that in its plan.
    assert.equal(first.report.changes[0]?.logicalId, 'Network');
    assert.deepEqual(plan(again.report.changes[0]!.nested!), [['Subnet', 'Modify', 'True']]);
  });

  test('a new value passed to the child, or a new text of the child, is evaluated anew', () => {
    const baselineCache = new Map<string, EvaluatedTemplate>();
    const caching = { baselineCache, baselineKey: 'parent@1' };
    const same = child('10.0.0.0/24');
    analyzeUpdate({ text: parent('v1') }, { text: parent('v1') }, nestedOptions(same, same), caching);
    assert.equal(baselineCache.size, 3);
    // A new Name for the child: its edited side is evaluated anew, its baseline is kept.
    const renamed = analyzeUpdate({ text: parent('v1') }, { text: parent('v1', 'network') }, nestedOptions(same, same), caching);
    assert.equal(baselineCache.size, 4);
    assert.deepEqual(renamed.report, analyzeUpdate({ text: parent('v1') }, { text: parent('v1', 'network') }, nestedOptions(same, same)).report);
    // A new text of the child: its edited side again.
    analyzeUpdate({ text: parent('v1') }, { text: parent('v1') }, nestedOptions(same, child('10.0.2.0/24')), caching);
    assert.equal(baselineCache.size, 5);
  });
});
