/**
 * A function's changes that no new version publishes (docs/update-rules.md#version-not-republished):
 * an `AWS::Lambda::Version` is a snapshot of its function's code and configuration taken when it is
 * created, and an update that does not recreate it publishes nothing. An update that changes what
 * a version holds while none of the function's versions is created anew leaves every alias and
 * every other reader of those versions on the function as it was.
 */
import type { EvaluatedResource, EvaluatedTemplate } from '../evaluate/types';
import { Concatenation, isValueObject, ResourceAttribute, ResourceRef, UnknownValue, type Value } from '../evaluate/value';
import type { ImpactDiagnostic, ResourceChange } from './types';

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
  const fateOf = new Map(changes.map((change) => [change.logicalId, change]));
  const diagnostics: ImpactDiagnostic[] = [];
  const versionsOf = functionVersions(after);
  if (versionsOf.size === 0) return diagnostics;
  for (const change of changes) {
    if (change.resourceType !== FUNCTION || change.action !== 'Modify' || change.impact === 'none') continue;
    // A replaced function is a new one: its versions, which name it, are replaced with it.
    if (change.impact === 'replacement' || change.impact === 'conditional-replacement' || change.impact === 'will-fail') continue;
    const versions = versionsOf.get(change.logicalId);
    if (!versions) continue;
    const changed = [...new Set(change.details.filter((d) => !d.keepsValue && d.target.name !== undefined && VERSIONED.has(d.target.name)).map((d) => d.target.name!))];
    if (changed.length === 0) continue;
    const published = versions.some((version) => {
      const fate = fateOf.get(version);
      return fate !== undefined && (fate.action === 'Add' || fate.impact === 'replacement' || fate.impact === 'conditional-replacement');
    });
    if (published) continue;
    const readers = readersOf(after, new Set(versions));
    // A version nothing reads is kept for its own sake (a rollback target): staying as it was is its purpose.
    if (readers.length === 0) continue;
    diagnostics.push({
      severity: 'warning',
      finding: { kind: 'version-not-republished', function: change.logicalId, changed, versions, readers },
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
    versionsOf.set(target, [...(versionsOf.get(target) ?? []), resource.logicalId]);
  }
  return versionsOf;
}

/** The function a version's `FunctionName` names: `Ref` to it, or its `Arn`. */
function functionOf(version: EvaluatedResource): string | undefined {
  const name: Value | undefined = isValueObject(version.properties) ? version.properties.FunctionName : undefined;
  if (name instanceof ResourceRef) return name.logicalId;
  if (name instanceof ResourceAttribute && name.attribute === 'Arn') return name.logicalId;
  return undefined;
}

/** The resources whose properties read one of the versions (a `DependsOn` alone is not a reading). */
function readersOf(template: EvaluatedTemplate, versions: ReadonlySet<string>): string[] {
  const readers: string[] = [];
  for (const resource of template.resources.values()) {
    if (resource.active && !versions.has(resource.logicalId) && reads(resource.properties, versions)) readers.push(resource.logicalId);
  }
  return readers;
}

/** Whether a value reads a resource of `ids`: a `Ref`, a `GetAtt`, or either inside a string built from them. */
function reads(value: Value, ids: ReadonlySet<string>): boolean {
  if (value instanceof ResourceRef || value instanceof ResourceAttribute) return ids.has(value.logicalId);
  if (value instanceof Concatenation) return value.parts.some((part) => typeof part !== 'string' && reads(part, ids));
  if (value instanceof UnknownValue) return value.resourceDeps.some((dep) => ids.has(dep.logicalId));
  if (Array.isArray(value)) return value.some((item) => reads(item, ids));
  if (isValueObject(value)) return Object.values(value).some((item) => reads(item, ids));
  return false;
}
