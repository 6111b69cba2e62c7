/**
 * A deployed stack's drift as a baseline reads it, once per read: the stack's and each resource's
 * last detection (DriftInformation of DescribeStacks and ListStackResources) and the property
 * differences of the resources found MODIFIED or DELETED (DescribeStackResourceDrifts). A stack
 * never checked costs no call: all its resources are "not checked", never "in sync".
 */
import type { PropertyDrift, ResourceDrift, StackDrift } from '../cloudformation/drift';
import type { CloudFormationReader } from './cloudFormationReader';
import type { ReaderError, StackDescription } from './types';

const DRIFTED = ['MODIFIED', 'DELETED'];

/** The stack's drift, or the reader's error. */
export async function readStackDrift(reader: CloudFormationReader, stack: StackDescription): Promise<{ ok: true; value: StackDrift } | { ok: false; error: ReaderError }> {
  const status = stackStatus(stack.drift?.status);
  if (status === 'NOT_CHECKED') return { ok: true, value: { status, resources: new Map() } };
  const [listed, drifts] = await Promise.all([reader.listStackResources(stack.stackId), reader.describeStackResourceDrifts(stack.stackId, { statuses: DRIFTED })]);
  if (!listed.ok) return listed;
  if (!drifts.ok) return drifts;
  const differences = new Map(drifts.value.map((d) => [d.logicalId, d.differences.map(toPropertyDrift)]));
  const resources = new Map<string, ResourceDrift>();
  for (const resource of listed.value) {
    const drift: ResourceDrift = {
      logicalId: resource.logicalId,
      status: resourceStatus(resource.drift?.status),
      lastUpdated: resource.lastUpdated,
      differences: differences.get(resource.logicalId) ?? [],
    };
    if (resource.drift?.checkedAt !== undefined) drift.checkedAt = resource.drift.checkedAt;
    resources.set(resource.logicalId, drift);
  }
  return { ok: true, value: { status, ...(stack.drift?.checkedAt !== undefined ? { checkedAt: stack.drift.checkedAt } : {}), resources } };
}

function stackStatus(status: string | undefined): StackDrift['status'] {
  return status === 'DRIFTED' || status === 'IN_SYNC' || status === 'UNKNOWN' ? status : 'NOT_CHECKED';
}

function resourceStatus(status: string | undefined): ResourceDrift['status'] {
  return status === 'MODIFIED' || status === 'DELETED' || status === 'IN_SYNC' ? status : 'NOT_CHECKED';
}

function toPropertyDrift(difference: { path: string; expected?: string; actual?: string; difference: string }): PropertyDrift {
  const kind = difference.difference === 'ADD' || difference.difference === 'REMOVE' ? difference.difference : 'NOT_EQUAL';
  return {
    path: difference.path,
    difference: kind,
    ...(difference.expected !== undefined && difference.expected !== '' ? { expected: difference.expected } : {}),
    ...(difference.actual !== undefined && difference.actual !== '' ? { actual: difference.actual } : {}),
  };
}
