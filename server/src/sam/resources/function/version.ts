/**
 * `AutoPublishAlias`: a `AWS::Lambda::Version` whose logical id ends in a hash of what must publish
 * a new version (the code location with parameters resolved, environment, memory size, SnapStart;
 * or, with `AutoPublishAliasAllProperties`, every property of the function and of the layers it
 * uses that set `PublishLambdaVersion`; or the given
 * `AutoPublishCodeSha256`), and an `AWS::Lambda::Alias` `<Function>Alias<Name>` pointing at it.
 * A changed hash is a new version resource: CloudFormation creates the new version and, with
 * `DeletionPolicy: Retain` (SAM's default), keeps the old one.
 */
import type { SamResource } from '../../model/context';
import { invalidResource, type SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { parameterWithoutValue, resolveParameterRefs, standInText } from '../../model/intrinsics';
import { generateLogicalId } from '../../model/logicalIds';
import { logicalIdOf } from '../../model/connectable';
import { isMap, type PlainMap } from '../../model/values';

/** `_construct_version`: the version resource of a function, named by the hash of what publishes a new one. */
export function constructVersion(
  sam: SamResource,
  fn: GeneratedResource,
  parameters: ReadonlyMap<string, unknown>,
  codeSha256: string | undefined,
  resources: PlainMap,
): GeneratedResource | SamError {
  const properties = sam.properties;
  // SAM resolves parameters in the function's Code in place, so the function's Code shows the resolved values too.
  const code = resolveParameterRefs(fn.get('Code'), parameters);
  fn.set('Code', code);
  let hashed: PlainMap;
  if (properties.AutoPublishAliasAllProperties === true) {
    hashed = { ...fn.properties };
    // A layer that asks for it (`PublishLambdaVersion`) publishes a new version of the functions using it when it changes.
    const layers = fn.get('Layers');
    for (const layer of Array.isArray(layers) ? layers : []) {
      const layerId = logicalIdOf(layer);
      const entry = layerId === undefined ? undefined : resources[layerId];
      const layerProperties = isMap(entry) && isMap(entry.Properties) ? entry.Properties : {};
      if (truthyValue(layerProperties.PublishLambdaVersion)) hashed[layerId!] = layerProperties;
    }
  } else {
    hashed = isMap(code) ? { ...code } : {};
    const environment = fn.get('Environment');
    if (isMap(environment)) Object.assign(hashed, environment);
    if (truthyValue(fn.get('MemorySize'))) hashed.MemorySize = fn.get('MemorySize');
    const snapStart = fn.get('SnapStart');
    if (isMap(snapStart) && (snapStart.ApplyOn ?? 'None') !== 'None') hashed.SnapStart = snapStart;
  }
  const logicalId = generateLogicalId(`${sam.logicalId}Version`, hashed, codeSha256);
  const attributes = sam.passThroughAttributes();
  const deletionPolicy = properties.VersionDeletionPolicy;
  if (deletionPolicy !== undefined && deletionPolicy !== null) {
    if (deletionPolicy !== 'Delete' && deletionPolicy !== 'Retain') {
      return invalidResource(sam.logicalId, "Property 'VersionDeletionPolicy' should be a one of the strings: 'Delete' or 'Retain'.", ['Properties', 'VersionDeletionPolicy']);
    }
    attributes.DeletionPolicy = deletionPolicy;
  } else if (!('DeletionPolicy' in attributes)) {
    attributes.DeletionPolicy = fn.get('CapacityProviderConfig') !== undefined ? 'Delete' : 'Retain';
  }
  const version = sam.generate(logicalId, 'AWS::Lambda::Version', 'AutoPublishAlias', attributes);
  version.set('FunctionName', fn.ref());
  version.set('Description', properties.VersionDescription, 'VersionDescription');
  if (fn.get('CapacityProviderConfig') !== undefined) version.set('FunctionScalingConfig', fn.get('FunctionScalingConfig'), 'FunctionScalingConfig');
  return version;
}

/**
 * An alias name: SAM's string, or a value that waits for a parameter with no value at hand, which
 * names the alias with the parameter's name in the value's place (`standIn`) and leaves its
 * `Name` to the value CloudFormation will resolve.
 */
export type AliasName = string | { parameter: string; standIn: string; value: unknown };

/** `_construct_alias`: `<Function>Alias<Name>` pointing at the version. */
export function constructAlias(sam: SamResource, name: AliasName, fn: GeneratedResource, version: GeneratedResource): GeneratedResource | SamError {
  if (!name) return invalidResource(sam.logicalId, 'Alias name is required to create an alias', ['Properties', 'AutoPublishAlias']);
  // A logical id is alphanumeric: SAM writes `_` as `U` and `-` as `D`.
  const suffix = (typeof name === 'string' ? name : name.standIn).replace(/_/g, 'U').replace(/-/g, 'D');
  const alias = sam.generate(`${fn.logicalId}Alias${suffix}`, 'AWS::Lambda::Alias', 'AutoPublishAlias');
  alias.set('Name', typeof name === 'string' ? name : name.value, 'AutoPublishAlias');
  alias.set('FunctionName', fn.ref());
  alias.set('FunctionVersion', version.getAtt('Version'));
  alias.set('ProvisionedConcurrencyConfig', sam.properties.ProvisionedConcurrencyConfig || undefined, 'ProvisionedConcurrencyConfig');
  return alias;
}

/**
 * `_get_resolved_alias_name`: the alias name with parameter references resolved; anything else is
 * an error. A value that reads a parameter with no value at hand is one CloudFormation resolves:
 * it stays as written.
 */
export function resolvedAliasName(sam: SamResource, property: string, value: unknown, parameters: ReadonlyMap<string, unknown>): AliasName | SamError {
  const resolved = resolveParameterRefs(value, parameters);
  const withoutValue = parameterWithoutValue(resolved, parameters);
  if (withoutValue !== undefined) return { parameter: withoutValue, standIn: standInText(resolved), value: resolved };
  if (typeof resolved !== 'string') return invalidResource(sam.logicalId, `'${property}' must be a string or a Ref to a template parameter`, ['Properties', property]);
  // Lambda alias names: letters, digits, hyphens and underscores, and not only digits (those name
  // versions). An empty name is reported where the alias is made.
  if (property === 'AutoPublishAlias' && resolved !== '' && !/^(?![0-9]+$)[a-zA-Z0-9_-]+$/.test(resolved)) {
    return invalidResource(
      sam.logicalId,
      `AutoPublishAlias name ('${resolved}') must contain only alphanumeric characters, hyphens, or underscores matching (?!^[0-9]+$)([a-zA-Z0-9-_]+) pattern.`,
      ['Properties', property],
    );
  }
  return resolved;
}

function truthyValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== 0 && value !== '' && value !== false;
}
