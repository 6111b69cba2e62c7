/**
 * A function's changes that no new version publishes (docs/update-rules.md#version-not-republished):
 * an `AWS::Lambda::Version` is a snapshot of its function's code and configuration taken when it is
 * created, and an update that does not recreate it publishes nothing. An update that changes what
 * a version holds while none of the function's versions is created anew leaves every alias and
 * every other reader of those versions on the function as it was.
 */
import type { EvaluatedResource, EvaluatedTemplate } from '../evaluate/types';
import { Concatenation, isValueObject, ResourceAttribute, ResourceRef, UnknownValue, type Value } from '../evaluate/value';
import { makesNewResource } from './claims';
import type { ImpactDiagnostic, ResourceChange } from './types';
import { propertyOf } from './writtenValues';

const FUNCTION = 'AWS::Lambda::Function';
const VERSION = 'AWS::Lambda::Version';
/** What a version holds of its function: the code, the runtime and the function's settings (Lambda Developer Guide, versions). */
const VERSIONED = new Set([
  'Code',
  'Handler',
  'Runtime',
  'RuntimeManagementConfig',
  'Environment',
  'MemorySize',
  'Timeout',
  'EphemeralStorage',
  'Layers',
  'Role',
  'VpcConfig',
  'Architectures',
  'ImageConfig',
  'TracingConfig',
  'DeadLetterConfig',
  'KmsKeyArn',
  'FileSystemConfigs',
  'SnapStart',
  'LoggingConfig',
]);

/**
 * One warning per function updated in what its versions hold while none of its versions is
 * created or replaced and something reads one of them (an alias, a permission, a mapping),
 * placed at the function's change.
 */
export function unpublishedFunctionChanges(changes: readonly ResourceChange[], after: EvaluatedTemplate): ImpactDiagnostic[] {
  const versionsOf = functionVersions(after);
  if (versionsOf.size === 0) return [];
  const fateOf = new Map(changes.map((change) => [change.logicalId, change]));
  const recreated = (id: string) => {
    const fate = fateOf.get(id);
    return fate !== undefined && makesNewResource(fate);
  };
  const unpublished: { change: ResourceChange; changed: string[]; versions: string[] }[] = [];
  for (const change of changes) {
    if (change.resourceType !== FUNCTION || change.action !== 'Modify' || change.impact === 'none') continue;
    // A replaced function is a new one: its versions, which name it, are replaced with it.
    if (makesNewResource(change) || change.impact === 'will-fail') continue;
    const versions = versionsOf.get(change.logicalId);
    if (!versions || versions.some(recreated)) continue;
    const changed = [...new Set(change.details.filter((d) => !d.keepsValue && d.target.name !== undefined && VERSIONED.has(d.target.name)).map((d) => d.target.name!))];
    if (changed.length > 0) unpublished.push({ change, changed, versions });
  }
  if (unpublished.length === 0) return [];
  // One walk over the template finds the readers of every version concerned (a Globals edit can concern them all).
  const readersOf = versionReaders(after, new Set(unpublished.flatMap(({ versions }) => versions)));
  const diagnostics: ImpactDiagnostic[] = [];
  for (const { change, changed, versions } of unpublished) {
    const readers = [...new Set(versions.flatMap((version) => readersOf.get(version) ?? []))];
    // A version nothing reads is kept for its own sake (a rollback target): staying as it was is its purpose.
    if (readers.length === 0) continue;
    diagnostics.push({
      severity: 'warning',
      finding: { kind: 'version-not-republished', functions: [{ function: change.logicalId, changed, versions, readers }] },
      code: 'version-not-republished',
      range: change.range,
      rangeIn: change.rangeIn,
      logicalId: change.logicalId,
    });
  }
  return diagnostics;
}

/** The versions of each function of the template, by the function's logical id. */
function functionVersions(template: EvaluatedTemplate): Map<string, string[]> {
  const versionsOf = new Map<string, string[]>();
  for (const resource of template.resources.values()) {
    if (!resource.active || resource.type !== VERSION) continue;
    const target = functionOf(resource);
    if (target === undefined || template.resources.get(target)?.type !== FUNCTION) continue;
    const versions = versionsOf.get(target);
    if (versions) versions.push(resource.logicalId);
    else versionsOf.set(target, [resource.logicalId]);
  }
  return versionsOf;
}

/** The function a version's `FunctionName` names: `Ref` to it, or its `Arn`. */
function functionOf(version: EvaluatedResource): string | undefined {
  const name = propertyOf(version.properties, 'FunctionName');
  if (name instanceof ResourceRef) return name.logicalId;
  if (name instanceof ResourceAttribute && name.attribute === 'Arn') return name.logicalId;
  return undefined;
}

/** For each of `versions`, the resources whose properties read it (a `DependsOn` alone is not a reading). */
function versionReaders(template: EvaluatedTemplate, versions: ReadonlySet<string>): Map<string, string[]> {
  const readersOf = new Map<string, string[]>();
  for (const resource of template.resources.values()) {
    if (!resource.active || versions.has(resource.logicalId)) continue;
    const read = new Set<string>();
    collectReads(resource.properties, versions, read);
    for (const version of read) {
      const readers = readersOf.get(version);
      if (readers) readers.push(resource.logicalId);
      else readersOf.set(version, [resource.logicalId]);
    }
  }
  return readersOf;
}

/** Adds to `read` the resources of `ids` a value reads: by `Ref`, `GetAtt`, or either inside a string built from them. */
function collectReads(value: Value, ids: ReadonlySet<string>, read: Set<string>): void {
  if (value instanceof ResourceRef || value instanceof ResourceAttribute) {
    if (ids.has(value.logicalId)) read.add(value.logicalId);
  } else if (value instanceof Concatenation) {
    for (const part of value.parts) if (typeof part !== 'string') collectReads(part, ids, read);
  } else if (value instanceof UnknownValue) {
    for (const dep of value.resourceDeps) if (ids.has(dep.logicalId)) read.add(dep.logicalId);
  } else if (Array.isArray(value)) {
    for (const item of value) collectReads(item, ids, read);
  } else if (isValueObject(value)) {
    for (const item of Object.values(value)) collectReads(item, ids, read);
  }
}
