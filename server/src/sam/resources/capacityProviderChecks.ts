/**
 * The checks SAM makes on an `AWS::Serverless::CapacityProvider` before it translates one
 * (capacityProvider.ts), so an invalid one is a template error at the offending property. SAM first reads its top-level properties like every resource's (unknown,
 * missing, wrong type: the first failure), then validates the nested settings against its
 * schema, reporting every nested failure at once, then rejects settings that exclude each other.
 */
import type { SamResource } from '../model/context';
import { invalidResource, type SamError, type SamPath } from '../model/errors';
import { IS_BOOL, IS_DICT, PASS_THROUGH, checkProperties, typed, type PropertySpec } from '../model/properties';
import { isList, isMap, type PlainMap } from '../model/values';

const CAPACITY_PROVIDER_PROPERTIES: Record<string, PropertySpec> = {
  CapacityProviderName: PASS_THROUGH,
  VpcConfig: typed(IS_DICT, true),
  OperatorRole: PASS_THROUGH,
  Tags: typed(IS_DICT),
  PropagateTags: typed(IS_BOOL),
  InstanceRequirements: typed(IS_DICT),
  ScalingConfig: typed(IS_DICT),
  KmsKeyArn: PASS_THROUGH,
};

/** A nested field's expected kind: an intrinsic (any map) is accepted for each. */
type FieldKind = 'list' | 'integer' | 'number';
interface NestedField {
  kind: FieldKind;
  required?: boolean;
}

/** The nested settings SAM's schema declares, in its order. */
const NESTED: Record<string, Record<string, NestedField>> = {
  VpcConfig: { SecurityGroupIds: { kind: 'list' }, SubnetIds: { kind: 'list', required: true } },
  InstanceRequirements: { Architectures: { kind: 'list' }, AllowedTypes: { kind: 'list' }, ExcludedTypes: { kind: 'list' } },
  ScalingConfig: { MaxVCpuCount: { kind: 'integer' }, AverageCPUUtilization: { kind: 'number' } },
};

/** The first reason SAM rejects a capacity provider (with every nested failure), or nothing when it is valid. */
export function validateCapacityProvider(sam: SamResource): SamError | undefined {
  const p = sam.properties;
  const invalid = checkProperties(sam.logicalId, sam.type, p, CAPACITY_PROVIDER_PROPERTIES);
  if (invalid) return invalid;
  const failures: { detail: string; path: SamPath }[] = [];
  for (const [name, fields] of Object.entries(NESTED)) {
    const settings = p[name];
    if (isMap(settings)) failures.push(...nestedFailures(name, settings, fields));
  }
  if (failures.length > 0) return invalidResource(sam.logicalId, failures.map((f) => f.detail).join(' '), failures[0]!.path);
  const requirements = p.InstanceRequirements;
  if (isMap(requirements) && requirements.AllowedTypes !== undefined && requirements.ExcludedTypes !== undefined) {
    return invalidResource(
      sam.logicalId,
      "Cannot specify 'InstanceRequirements.AllowedTypes' and 'InstanceRequirements.ExcludedTypes' together.",
      ['Properties', 'InstanceRequirements', 'ExcludedTypes'],
    );
  }
  return undefined;
}

function nestedFailures(name: string, settings: PlainMap, fields: Record<string, NestedField>): { detail: string; path: SamPath }[] {
  const failures: { detail: string; path: SamPath }[] = [];
  for (const [field, spec] of Object.entries(fields)) {
    const value = settings[field];
    if (value === undefined) {
      if (spec.required) failures.push({ detail: `Property '${name}.${field}' is required.`, path: ['Properties', name] });
      continue;
    }
    if (!isMap(value) && !hasKind(value, spec.kind)) {
      failures.push({ detail: `Property '${name}.${field}' value must be dictionary or ${spec.kind}.`, path: ['Properties', name, field] });
    }
  }
  for (const field of Object.keys(settings)) {
    if (!(field in fields)) failures.push({ detail: `Property '${name}.${field}' is an invalid property.`, path: ['Properties', name, field] });
  }
  return failures;
}

/** Whether a value is of a kind, as a lenient schema reads it (digits written as a string are a number). */
function hasKind(value: unknown, kind: FieldKind): boolean {
  if (kind === 'list') return isList(value);
  if (kind === 'integer') return (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value));
  return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)));
}
