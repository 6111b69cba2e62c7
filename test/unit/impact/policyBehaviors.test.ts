/**
 * Properties whose update behaviour the resource's UpdatePolicy decides
 * (docs/update-rules.md#policy-decides-behaviour). Expectations come from the AWS pages of the
 * types: "If you set the EnableVersionUpgrade update policy to true, you can update EngineVersion
 * without interruption. When EnableVersionUpgrade is set to false, or is not specified, updating
 * EngineVersion results in replacement" (OpenSearch), the same for ElasticsearchVersion, and for
 * NumNodeGroups and NodeGroupConfiguration under UseOnlineResharding (ElastiCache).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function changeOf(before: string, after: string, logicalId: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  assert.equal(report.status, 'update', report.message);
  const found = report.changes.find((c) => c.logicalId === logicalId);
  assert.ok(found, `expected a change for ${logicalId}`);
  return found;
}

const domain = (type: string, versionKey: string, version: string, attributes = '', more = '') => `Resources:
  Search:
    Type: ${type}
${attributes}    Properties:
      ${versionKey}: ${version}
${more}`;

const upgrade = (value: string) => `    UpdatePolicy:\n      EnableVersionUpgrade: ${value}\n`;

describe('a search domain\'s engine version: an upgrade in place only under EnableVersionUpgrade', () => {
  const openSearch = (version: string, attributes = '', more = '') => domain('AWS::OpenSearchService::Domain', 'EngineVersion', version, attributes, more);

  test('without the policy a new EngineVersion replaces the domain, and the old one is deleted with its indices', () => {
    const search = changeOf(openSearch('OpenSearch_2.11'), openSearch('OpenSearch_2.13'), 'Search');
    assert.equal(search.impact, 'replacement');
    assert.equal(search.replacement, 'True');
    assert.equal(search.details[0]?.target.requiresRecreation, 'Always');
    assert.deepEqual(search.risks, [{ kind: 'data-loss', holds: 'search-domain', policy: 'UpdateReplacePolicy' }]);
  });

  test('EnableVersionUpgrade: true upgrades it in place; false is the same as no policy', () => {
    const upgraded = changeOf(openSearch('OpenSearch_2.11', upgrade('true')), openSearch('OpenSearch_2.13', upgrade('true')), 'Search');
    assert.equal(upgraded.impact, 'no-interruption');
    assert.equal(upgraded.replacement, 'False');
    assert.equal(changeOf(openSearch('OpenSearch_2.11', upgrade('false')), openSearch('OpenSearch_2.13', upgrade('false')), 'Search').impact, 'replacement');
  });

  test('a policy a parameter without a value decides may replace the domain: a possible replacement', () => {
    const decided = (version: string) =>
      `Parameters:\n  Env: { Type: String }\nConditions:\n  Prod: !Equals [!Ref Env, prod]\n` + openSearch(version, '    UpdatePolicy:\n      EnableVersionUpgrade: !If [Prod, true, false]\n');
    assert.equal(changeOf(decided('OpenSearch_2.11'), decided('OpenSearch_2.13'), 'Search').impact, 'conditional-replacement');
  });

  test('the new template\'s policy applies: written in the same update as the new version, it upgrades in place', () => {
    assert.equal(changeOf(openSearch('OpenSearch_2.11'), openSearch('OpenSearch_2.13', upgrade('true')), 'Search').impact, 'no-interruption');
  });

  test('a domain with a DomainName cannot be replaced: without the policy the update fails', () => {
    const named = (version: string) => openSearch(version, '', '      DomainName: logs\n');
    const search = changeOf(named('OpenSearch_2.11'), named('OpenSearch_2.13'), 'Search');
    assert.equal(search.impact, 'will-fail');
    assert.deepEqual(search.failure, { kind: 'custom-name-replacement', property: 'DomainName', name: 'logs' });
  });

  test('the legacy Elasticsearch domain\'s ElasticsearchVersion follows the same policy', () => {
    const legacy = (version: string, attributes = '') => domain('AWS::Elasticsearch::Domain', 'ElasticsearchVersion', version, attributes);
    assert.equal(changeOf(legacy("'7.9'"), legacy("'7.10'"), 'Search').impact, 'replacement');
    assert.equal(changeOf(legacy("'7.9'", upgrade('true')), legacy("'7.10'", upgrade('true')), 'Search').impact, 'no-interruption');
  });

  test('other properties keep their own behaviour: new cluster settings update the domain in place, policy or not', () => {
    const sized = (count: number) => openSearch('OpenSearch_2.11', '', `      ClusterConfig: { InstanceCount: ${count} }\n`);
    assert.equal(changeOf(sized(2), sized(3), 'Search').impact, 'no-interruption');
  });
});

describe('a replication group\'s shards: resharding in place only under UseOnlineResharding', () => {
  const cache = (shards: number, attributes = '', replicas = 1) => `Resources:
  Cache:
    Type: AWS::ElastiCache::ReplicationGroup
${attributes}    Properties:
      ReplicationGroupDescription: sessions
      CacheNodeType: cache.t3.micro
      Engine: redis
      NumNodeGroups: ${shards}
      NodeGroupConfiguration:
        - ReplicaCount: ${replicas}
`;
  const online = '    UpdatePolicy:\n      UseOnlineResharding: true\n';

  test('without the policy a new NumNodeGroups replaces the group (its data deleted with it)', () => {
    const group = changeOf(cache(2), cache(3), 'Cache');
    assert.equal(group.impact, 'replacement');
    assert.deepEqual(group.risks, [{ kind: 'data-loss', holds: 'cache', policy: 'UpdateReplacePolicy' }]);
  });

  test('with UseOnlineResharding: true it is resharded in place, and so is a change inside NodeGroupConfiguration', () => {
    assert.equal(changeOf(cache(2, online), cache(3, online), 'Cache').impact, 'no-interruption');
    assert.equal(changeOf(cache(2, online), cache(2, online, 2), 'Cache').impact, 'no-interruption');
    assert.equal(changeOf(cache(2), cache(2, '', 2), 'Cache').impact, 'replacement');
  });
});
