/**
 * What `sam build` and `sam deploy` (`sam package`) do to a template before CloudFormation's
 * transform sees it (aws-sam-cli, samcli/lib/package/packageable_resources.py and
 * artifact_exporter.py): a zip function with neither `InlineCode` nor `CodeUri` (its own, or
 * `Globals.Function.CodeUri`, which `_apply_global_values` copies in) is packaged from the
 * template's folder, as if `CodeUri` were `.` (`PACKAGE_NULL_PROPERTY` is true for functions);
 * so is a layer with no `ContentUri`. `sam init` writes such starters, and without this step
 * they read as rejected by the transform, which they never are. An image function is packaged
 * from its build instead (resources/function/code.ts), and an API's or a state machine's
 * missing definition is not packaged (`PACKAGE_NULL_PROPERTY` is false for them).
 */
import type { Range } from '../../template/ast';
import type { TranslationContext } from '../model/context';
import { isMap, type PlainMap } from '../model/values';

/** The folder a missing artifact path is packaged from: the template's own. */
const TEMPLATE_FOLDER = '.';

/** The artifact property `sam package` fills with the template's folder when it is missing, by type. */
const PACKAGED_WHEN_MISSING: Readonly<Record<string, string>> = {
  'AWS::Serverless::Function': 'CodeUri',
  'AWS::Serverless::LayerVersion': 'ContentUri',
};

/** A property `sam package` reads as missing: absent, null or empty (jmespath gives nothing). */
function missing(properties: PlainMap, name: string): boolean {
  const value = properties[name];
  return value === undefined || value === null || value === '';
}

/**
 * Fills, in the template's resources, the artifact paths the SAM CLI fills, each with a note at
 * the resource. The resources' entries are edited in copies: the template as read stays as written.
 */
export function packageLikeSamCli(ctx: TranslationContext, globals: unknown, rangeOf: (logicalId: string) => Range | undefined): void {
  const globalCodeUri = isMap(globals) && isMap(globals.Function) ? globals.Function.CodeUri : undefined;
  for (const [logicalId, resource] of Object.entries(ctx.resources)) {
    if (!isMap(resource) || typeof resource.Type !== 'string') continue;
    const property = PACKAGED_WHEN_MISSING[resource.Type];
    const properties = resource.Properties;
    if (property === undefined || !isMap(properties) || !missing(properties, property)) continue;
    if (resource.Type === 'AWS::Serverless::Function') {
      // An image function, and one with inline code, is not packaged from a folder.
      if ((properties.PackageType ?? 'Zip') !== 'Zip' || (properties.InlineCode !== undefined && properties.InlineCode !== null)) continue;
      if (globalCodeUri !== undefined && globalCodeUri !== null && globalCodeUri !== '') continue;
    }
    ctx.resources[logicalId] = { ...resource, Properties: { ...properties, [property]: TEMPLATE_FOLDER } };
    (ctx.packagedFolders ??= new Set()).add(logicalId);
    ctx.note({ kind: 'sam-packaged-folder', logicalId, property }, rangeOf(logicalId));
  }
}
