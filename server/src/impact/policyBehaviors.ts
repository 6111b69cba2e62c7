/**
 * Properties whose update behaviour the resource's `UpdatePolicy` decides
 * (docs/update-rules.md#policy-decides-behaviour): the AWS pages of these types say that with the
 * policy set to true the property updates without interruption, and that without it (false or
 * absent) the update replaces the resource. The policy read is the new template's, the one an
 * update applies (docs/update-rules.md#attributes-alone).
 */
import type { Value } from '../evaluate/value';
import { isValueObject } from '../evaluate/value';
import type { PropertyBehavior } from '../spec/types';
import { flag } from './writtenValues';
import type { PathSegment } from './valueDiff';

/** By type: the update policy that decides, and the top-level properties it decides for. */
const DECIDED_BY_POLICY: Readonly<Record<string, { policy: string; properties: ReadonlySet<string> }>> = {
  'AWS::ElastiCache::ReplicationGroup': { policy: 'UseOnlineResharding', properties: new Set(['NumNodeGroups', 'NodeGroupConfiguration']) },
  'AWS::OpenSearchService::Domain': { policy: 'EnableVersionUpgrade', properties: new Set(['EngineVersion']) },
  'AWS::Elasticsearch::Domain': { policy: 'EnableVersionUpgrade', properties: new Set(['ElasticsearchVersion']) },
};

/**
 * The behaviour of a change at `path` under the resource's `UpdatePolicy`, where the policy
 * decides it; `specified`, what the specification says, otherwise.
 */
export function behaviorUnderUpdatePolicy(type: string, path: readonly PathSegment[], updatePolicy: Value | undefined, specified: PropertyBehavior): PropertyBehavior {
  const decided = DECIDED_BY_POLICY[type];
  const property = path[0];
  if (!decided || typeof property !== 'string' || !decided.properties.has(property)) return specified;
  const enabled = flag(isValueObject(updatePolicy) ? updatePolicy[decided.policy] : undefined);
  // A policy only deploy-time values decide (`!If` over an undecided condition) may replace it.
  const [behavior, requiresRecreation] = enabled === true ? (['no-interruption', 'Never'] as const) : enabled === false ? (['replacement', 'Always'] as const) : (['conditional-replacement', 'Conditionally'] as const);
  return { ...specified, behavior, requiresRecreation, source: 'docs', decidedAt: [property] };
}

/** The update policy that decides how a property of this type updates, when one does: `EnableVersionUpgrade` for `EngineVersion`. */
export function decidingUpdatePolicy(type: string, property: string): string | undefined {
  const decided = DECIDED_BY_POLICY[type];
  return decided?.properties.has(property) ? decided.policy : undefined;
}
