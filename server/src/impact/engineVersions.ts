/**
 * A managed engine's new version, as its service takes it (docs/update-rules.md#engine-versions):
 * RDS moves a DB instance or an Aurora cluster to another major version only when
 * `AllowMajorVersionUpgrade` is true, and never to an earlier version; EKS moves a cluster one
 * Kubernetes minor version up at a time. CloudFormation accepts such an update and then fails it
 * when the service refuses.
 */
import type { EvaluatedResource } from '../evaluate/types';
import type { Value } from '../evaluate/value';
import type { UpdateFailure } from './types';
import { flag, propertyOf } from './writtenValues';

/** How each engine family numbers its major versions: by the first number, or the first two. */
const MAJOR_PARTS: ReadonlyArray<[RegExp, (version: number[]) => number]> = [
  // PostgreSQL 10 and later count majors by the first number; 9.6 and earlier by two.
  [/^(aurora-)?postgres(ql)?$/, (v) => ((v[0] ?? 0) >= 10 ? 1 : 2)],
  [/^(aurora-mysql|mysql|mariadb)$/, () => 2],
  // Oracle 12.1 to 12.2 is a major upgrade; from 18 on, the first number is the major version.
  [/^oracle-/, (v) => ((v[0] ?? 0) <= 12 ? 2 : 1)],
  [/^sqlserver-/, () => 1],
];

/** The numbers a version starts with: `8.0.mysql_aurora.3.04.0` → [8, 0], `15.4` → [15, 4]. */
function leadingNumbers(version: string): number[] {
  const numbers: number[] = [];
  for (const part of version.split('.')) {
    if (!/^\d+$/.test(part)) break;
    numbers.push(Number(part));
  }
  return numbers;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Why RDS refuses a new `EngineVersion`, when it does: an earlier version, or another major
 * version without `AllowMajorVersionUpgrade: true` in the new template. Only a DB instance that
 * manages its own version (not an Aurora cluster's member, not a read replica) and an Aurora
 * cluster are judged, and only versions written out in full on both sides.
 */
export function engineVersionFailure(type: string, before: EvaluatedResource, after: EvaluatedResource): UpdateFailure | undefined {
  if (type === 'AWS::RDS::DBInstance') {
    if (propertyOf(after.properties, 'DBClusterIdentifier') !== undefined || propertyOf(after.properties, 'SourceDBInstanceIdentifier') !== undefined) return undefined;
  } else if (type !== 'AWS::RDS::DBCluster') return undefined;
  const from = propertyOf(before.properties, 'EngineVersion');
  const to = propertyOf(after.properties, 'EngineVersion');
  const engine = propertyOf(after.properties, 'Engine');
  if (typeof from !== 'string' || typeof to !== 'string' || typeof engine !== 'string' || from === to) return undefined;
  const family = engine.toLowerCase();
  if (type === 'AWS::RDS::DBCluster' && !family.startsWith('aurora-')) return undefined;
  const majorParts = MAJOR_PARTS.find(([pattern]) => pattern.test(family))?.[1];
  const old = leadingNumbers(from);
  const next = leadingNumbers(to);
  if (!majorParts || old.length === 0 || next.length === 0) return undefined;
  // A version written with fewer numbers (`15` for `15.4`) names whatever RDS picks in it: no judgement of order.
  if (old.length === next.length && compare(next, old) < 0) return { kind: 'engine-downgrade', from, to };
  const parts = majorParts(old);
  if (old.length < parts || next.length < parts) return undefined;
  const sameMajor = compare(old.slice(0, parts), next.slice(0, parts)) === 0;
  // Allowed, or allowed only if a deploy-time value says so: not a certain failure.
  if (!sameMajor && flag(propertyOf(after.properties, 'AllowMajorVersionUpgrade')) === false) return { kind: 'major-version-upgrade', from, to };
  return undefined;
}

/**
 * `'1.29'` → [1, 29]; undefined for anything else: a value known only at deploy time, and a
 * number, which YAML reads from `1.30` as 1.3 and so cannot be told from what was written.
 */
function kubernetesVersion(value: Value | undefined): [number, number] | undefined {
  const match = typeof value === 'string' ? /^(\d+)\.(\d+)$/.exec(value) : null;
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

/** Why EKS refuses a cluster's new `Version`, when it does: anything but the next minor version. */
export function kubernetesVersionFailure(type: string, before: EvaluatedResource, after: EvaluatedResource): UpdateFailure | undefined {
  if (type !== 'AWS::EKS::Cluster') return undefined;
  const from = kubernetesVersion(propertyOf(before.properties, 'Version'));
  const to = kubernetesVersion(propertyOf(after.properties, 'Version'));
  if (!from || !to || (from[0] === to[0] && from[1] === to[1])) return undefined;
  if (to[0] === from[0] && to[1] === from[1] + 1) return undefined;
  return { kind: 'kubernetes-version', from: from.join('.'), to: to.join('.') };
}

