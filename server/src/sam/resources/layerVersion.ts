/**
 * `AWS::Serverless::LayerVersion` (sam_resources.py, `SamLayerVersion`): an `AWS::Lambda::LayerVersion`
 * whose logical id is the SAM id followed by a hash of the SAM resource (its type, properties and
 * attributes other than DeletionPolicy, UpdateReplacePolicy and Metadata). A layer version
 * cannot change in place, so any change is a new resource: with `DeletionPolicy: Retain` (SAM's
 * default, or `RetentionPolicy`) the old version stays. `LayerName` defaults to the SAM id, so the
 * layer's ARN keeps its name across versions; references to the SAM id are renamed to the new id.
 */
import { noteParameterWithoutValue, type SamResource, type TranslationContext } from '../model/context';
import { invalidResource, SamError } from '../model/errors';
import type { GeneratedResource } from '../model/generated';
import { parameterWithoutValue, resolveParameterRefs } from '../model/intrinsics';
import { generateLogicalId } from '../model/logicalIds';
import { checkProperties, IS_BOOL, IS_DICT, IS_STR, listOf, oneOf, typed, type PropertySpec } from '../model/properties';
import { s3LocationObject } from '../model/s3Location';
import { isIntrinsic, isMap, type PlainMap } from '../model/values';

const LAYER_PROPERTIES: Record<string, PropertySpec> = {
  LayerName: typed(oneOf(IS_STR, IS_DICT)),
  Description: typed(IS_STR),
  ContentUri: typed(oneOf(IS_STR, IS_DICT), true),
  CompatibleArchitectures: typed(listOf(oneOf(IS_STR, IS_DICT))),
  CompatibleRuntimes: typed(listOf(oneOf(IS_STR, IS_DICT))),
  LicenseInfo: typed(IS_STR),
  RetentionPolicy: typed(IS_STR),
  PublishLambdaVersion: typed(IS_BOOL),
};

const RETENTION_OPTIONS = ['Retain', 'Delete'];
const ARCHITECTURES = ['x86_64', 'arm64'];
/** The attributes that do not take part in the layer's hash. */
const UNHASHED_ATTRIBUTES = ['DeletionPolicy', 'UpdateReplacePolicy', 'Metadata'];

/** Translates an `AWS::Serverless::LayerVersion`; its new logical id is recorded in `ctx.changedIds`. */
export function translateLayerVersion(ctx: TranslationContext, sam: SamResource): GeneratedResource[] | SamError {
  const p = { ...sam.properties };
  const invalid = checkProperties(sam.logicalId, sam.type, p, LAYER_PROPERTIES);
  if (invalid) return invalid;
  // SAM resolves parameters in these four before hashing, so a parameter's value is part of the hash.
  for (const name of ['LayerName', 'LicenseInfo', 'Description', 'RetentionPolicy']) {
    if (p[name] === undefined || p[name] === null) continue;
    const resolved = resolveParameterRefs(p[name], ctx.parameters);
    if (typeof resolved !== 'string' && !isMap(resolved)) {
      return invalidResource(sam.logicalId, `Could not resolve parameter for '${name}' or parameter is not a String.`, ['Properties', name]);
    }
    p[name] = resolved;
  }
  // A parameter with no value at hand: SAM's default (the version retained) stands in for the value CloudFormation will give.
  const retentionParameter = parameterWithoutValue(p.RetentionPolicy, ctx.parameters);
  if (retentionParameter !== undefined) noteParameterWithoutValue(ctx, sam, 'RetentionPolicy', retentionParameter);
  const retention = retentionParameter === undefined ? retentionPolicy(sam, p.RetentionPolicy) : undefined;
  if (retention instanceof SamError) return retention;
  const attributes = sam.passThroughAttributes();
  if (!('DeletionPolicy' in attributes)) attributes.DeletionPolicy = 'Retain';
  if (retention !== undefined) attributes.DeletionPolicy = retention;

  const hashed: PlainMap = { Type: sam.type };
  if (sam.dependsOn !== undefined) hashed.DependsOn = sam.dependsOn;
  for (const [name, value] of Object.entries(sam.attributes())) if (!UNHASHED_ATTRIBUTES.includes(name)) hashed[name] = value;
  hashed.Properties = Object.fromEntries(Object.entries(p).filter(([, value]) => value !== undefined && value !== null));
  const logicalId = generateLogicalId(sam.logicalId, { [sam.logicalId]: hashed });
  ctx.changedIds.set(sam.logicalId, logicalId);

  const layer = sam.generate(logicalId, 'AWS::Lambda::LayerVersion', undefined, attributes);
  if (sam.dependsOn !== undefined) layer.setAttribute('DependsOn', sam.dependsOn);
  layer.set('LayerName', p.LayerName || sam.logicalId, 'LayerName');
  layer.set('Description', p.Description, 'Description');
  const content = s3LocationObject(ctx, sam, p.ContentUri, 'ContentUri');
  if (content instanceof SamError) return invalidResource(logicalId, content.detail, content.path);
  layer.set('Content', content, 'ContentUri');
  layer.set('CompatibleArchitectures', p.CompatibleArchitectures, 'CompatibleArchitectures');
  const architectures = Array.isArray(p.CompatibleArchitectures) ? p.CompatibleArchitectures : ['x86_64'];
  if (!isIntrinsic(p.CompatibleArchitectures) && architectures.some((a) => !isIntrinsic(a) && !ARCHITECTURES.includes(a as string))) {
    return invalidResource(logicalId, "CompatibleArchitectures needs to be a list of 'x86_64' or 'arm64'", ['Properties', 'CompatibleArchitectures']);
  }
  layer.set('CompatibleRuntimes', p.CompatibleRuntimes, 'CompatibleRuntimes');
  layer.set('LicenseInfo', p.LicenseInfo, 'LicenseInfo');
  return [layer];
}

/** `_get_retention_policy_value`: the DeletionPolicy `RetentionPolicy` asks for, if any. */
function retentionPolicy(sam: SamResource, value: unknown): string | undefined | SamError {
  const options = "['Retain', 'Delete']";
  const path = ['Properties', 'RetentionPolicy'];
  if (isIntrinsic(value)) return invalidResource(sam.logicalId, `'RetentionPolicy' does not accept intrinsic functions, please use one of the following options: ${options}`, path);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return invalidResource(sam.logicalId, `Invalid 'RetentionPolicy' type, please use one of the following options: ${options}`, path);
  const option = RETENTION_OPTIONS.find((o) => o.toLowerCase() === value.toLowerCase());
  return option ?? invalidResource(sam.logicalId, `'RetentionPolicy' must be one of the following options: ${options}.`, path);
}
