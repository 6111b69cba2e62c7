/**
 * A function's `Code` from `InlineCode`, `CodeUri` or `ImageUri` (SamFunction._construct_code_dict):
 * exactly one of them, chosen by `PackageType`.
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidResource, type SamError } from '../../model/errors';
import { PACKAGED_BUCKET, s3LocationObject } from '../../model/s3Location';
import { isMap, type PlainMap } from '../../model/values';

const ZIP = 'Zip';
const IMAGE = 'Image';

/** The Lambda `Code` of a SAM function. */
export function functionCode(ctx: TranslationContext, sam: SamResource, properties: PlainMap): PlainMap | SamError {
  const packageType = properties.PackageType ?? ZIP;
  if (packageType !== ZIP && packageType !== IMAGE) return invalidResource(sam.logicalId, `invalid 'PackageType' : ${String(packageType)}`, ['Properties', 'PackageType']);
  const present = (name: string) => properties[name] !== undefined && properties[name] !== null;
  if (packageType === ZIP) {
    // SAM reads ImageUri only for an image function; a forgotten PackageType is the likely cause.
    if (present('ImageUri')) ctx.note({ kind: 'sam-image-uri-ignored', logicalId: sam.logicalId }, sam.propertyRange('ImageUri') ?? sam.node?.range);
    if (!present('InlineCode') && !present('CodeUri')) return invalidResource(sam.logicalId, "Only one of 'InlineCode' or 'CodeUri' can be set.", ['Properties']);
    if (present('InlineCode')) return { ZipFile: properties.InlineCode };
    // A dynamic reference is resolved by CloudFormation after the transform has split the URI
    // into bucket and key; only the map form keeps each part whole.
    if (typeof properties.CodeUri !== 'string' && !isMap(properties.CodeUri)) return invalidResource(sam.logicalId, "'CodeUri' must be of type dict or string.", ['Properties', 'CodeUri']);
    if (typeof properties.CodeUri === 'string' && properties.CodeUri.includes('{{resolve:')) {
      return invalidResource(sam.logicalId, "Unsupported dynamic reference detected in 'CodeUri'. Please consider using alternative 'FunctionCode' object format.", ['Properties', 'CodeUri']);
    }
    return s3LocationObject(ctx, sam, properties.CodeUri, 'CodeUri');
  }
  if (!present('ImageUri')) return builtImage(ctx, sam) ?? invalidResource(sam.logicalId, "'ImageUri' must be set.", ['Properties']);
  return { ImageUri: properties.ImageUri };
}

/**
 * The image of a function `sam build` builds (its `Metadata` names the `DockerContext`, as `sam
 * init` writes it), which `sam deploy` pushes to ECR and names in `ImageUri`: a stand-in URI made
 * of the build's folder and tag, which a new tag changes, with a note that the folder's files are
 * not in the template. Undefined when the function names no build.
 */
function builtImage(ctx: TranslationContext, sam: SamResource): PlainMap | undefined {
  const metadata = sam.entry.Metadata;
  const context = isMap(metadata) ? metadata.DockerContext : undefined;
  if (typeof context !== 'string' || context === '') return undefined;
  const tag = isMap(metadata) && typeof metadata.DockerTag === 'string' && metadata.DockerTag !== '' ? metadata.DockerTag : 'latest';
  ctx.note({ kind: 'sam-local-image', logicalId: sam.logicalId, path: context }, sam.node?.range);
  return { ImageUri: `${PACKAGED_BUCKET}/${context}:${tag}` };
}

/** SamFunction._validate_package_type, over the generated function's properties. */
export function checkPackageType(logicalId: string, fn: PlainMap): SamError | undefined {
  const packageType = fn.PackageType ?? ZIP;
  if (packageType !== ZIP && packageType !== IMAGE) return invalidResource(logicalId, `PackageType needs to be \`${ZIP}\` or \`${IMAGE}\``, ['Properties', 'PackageType']);
  const code = (fn.Code ?? {}) as PlainMap;
  if (packageType === ZIP) {
    if (!fn.Runtime || !fn.Handler) return invalidResource(logicalId, `Runtime and Handler needs to be present when PackageType is of type \`${ZIP}\``, ['Properties']);
    if (code.ImageUri || fn.ImageConfig) return invalidResource(logicalId, `ImageUri or ImageConfig cannot be present when PackageType is of type \`${ZIP}\``, ['Properties']);
    return undefined;
  }
  if (fn.Handler || fn.Runtime || fn.Layers) return invalidResource(logicalId, `Runtime, Handler, Layers cannot be present when PackageType is of type \`${IMAGE}\``, ['Properties']);
  if (!code.ImageUri) return invalidResource(logicalId, `ImageUri needs to be present when PackageType is of type \`${IMAGE}\``, ['Properties']);
  return undefined;
}
