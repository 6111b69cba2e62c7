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
function plan(report: ImpactReport): [string, string, string | undefined][] {
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
