/**
 * Drift as CloudFormation records it: the last drift detection of a stack and of each resource
 * (`DriftInformation` of DescribeStacks and ListStackResources), and what it found on each
 * drifted resource (DescribeStackResourceDrifts: the property differences). Pure data, read by
 * the stacks module and handed to the engine.
 */

/** A resource's drift status, as CloudFormation names it. */
export type ResourceDriftStatus = 'IN_SYNC' | 'MODIFIED' | 'DELETED' | 'NOT_CHECKED';

/** One property that differs from the template (`PropertyDifference`). */
export interface PropertyDrift {
  /** The property's path inside `Properties`, as CloudFormation writes it: `/MemorySize`, `/Tags/1/Value`. */
  path: string;
  /** The value the stack's template gave it, and the live one, as JSON text (absent for ADD and REMOVE). */
  expected?: string;
  actual?: string;
  difference: 'ADD' | 'REMOVE' | 'NOT_EQUAL';
}

/** What the last detection found on one resource. */
export interface ResourceDrift {
  logicalId: string;
  status: ResourceDriftStatus;
  /** When the resource was last checked (epoch ms); absent when it never was. */
  checkedAt?: number;
  /** When CloudFormation last updated the resource (epoch ms). */
  lastUpdated?: number;
  differences: PropertyDrift[];
}

/** A stack's drift: its last detection and each resource's state. */
export interface StackDrift {
  status: 'DRIFTED' | 'IN_SYNC' | 'NOT_CHECKED' | 'UNKNOWN';
  checkedAt?: number;
  resources: ReadonlyMap<string, ResourceDrift>;
}

/** Whether a resource's detection is older than its last update, so it says nothing about the resource as it is. */
export function isStale(resource: ResourceDrift): boolean {
  return resource.checkedAt !== undefined && resource.lastUpdated !== undefined && resource.checkedAt < resource.lastUpdated;
}
