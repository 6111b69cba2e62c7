/**
 * Artifact locations (`CodeUri`, `ContentUri`, `DefinitionUri`): an `s3://bucket/key?versionId=v`
 * URI or a `{Bucket, Key, Version}` map. A local path (`hello_world/`) is what `sam build` and
 * `sam deploy` replace with the S3 location they upload to; the template does not say what that
 * location will be, so it stands as a fixed placeholder and a note says that code changes there
 * are not visible. A local path the caller found missing is a warning, not an error: `sam deploy`
 * would have nothing to upload, unless a build step makes the folder first (`dist/`), and a
 * template that deploys is not to be called rejected.
 */
import type { SamResource, TranslationContext } from './context';
import { invalidResource, type SamError } from './errors';
import { isMap, type PlainMap } from './values';

/** The bucket that stands for the one `sam deploy` uploads local artifacts to. */
export const PACKAGED_BUCKET = 'sam-packaged-artifacts';

/** SAM's `parse_s3_uri`: bucket, key and version of an `s3://` URI, or undefined. */
export function parseS3Uri(uri: unknown): { Bucket: string; Key: string; Version?: string } | undefined {
  if (typeof uri !== 'string') return undefined;
  const match = /^s3:\/\/([^/?#]+)(\/[^?#]*)(?:\?([^#]*))?/.exec(uri);
  // Brackets in the host of a URI enclose an IPv6 address, never a bucket name.
  if (!match || match[2] === '' || /[[\]]/.test(match[1]!)) return undefined;
  const pointer: { Bucket: string; Key: string; Version?: string } = { Bucket: match[1]!, Key: match[2]!.replace(/^\/+/, '') };
  const versions = (match[3] ?? '')
    .split('&')
    .filter((pair) => pair.startsWith('versionId='))
    .map((pair) => decodeURIComponent(pair.slice('versionId='.length)));
  if (versions.length === 1 && versions[0] !== '') pointer.Version = versions[0];
  return pointer;
}

/** Whether a location is a local path that `sam build`/`sam deploy` will package. */
export function isLocalPath(location: unknown): location is string {
  return typeof location === 'string' && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(location);
}

/**
 * SAM's `construct_s3_location_object`: `{S3Bucket, S3Key, S3ObjectVersion?}` (`Bucket`/`Key`
 * names when `keys` says so). A local path gets the placeholder location and a note.
 */
export function s3LocationObject(
  ctx: TranslationContext,
  sam: SamResource,
  location: unknown,
  property: string,
  keys: { bucket: string; key: string; version: string } = { bucket: 'S3Bucket', key: 'S3Key', version: 'S3ObjectVersion' },
): PlainMap | SamError {
  let pointer: PlainMap;
  if (isMap(location)) {
    if (!location.Bucket || !location.Key) return invalidResource(sam.logicalId, `'${property}' requires Bucket and Key properties to be specified.`, ['Properties', property]);
    pointer = location;
  } else if (isLocalPath(location) && location !== '') {
    noteLocalPath(ctx, sam, property, location);
    pointer = { Bucket: PACKAGED_BUCKET, Key: location };
  } else {
    const parsed = parseS3Uri(location);
    if (!parsed) {
      return invalidResource(sam.logicalId, `'${property}' is not a valid S3 Uri of the form 's3://bucket/key' with optional versionId query parameter.`, ['Properties', property]);
    }
    pointer = parsed;
  }
  const out: PlainMap = { [keys.bucket]: pointer.Bucket, [keys.key]: pointer.Key };
  if ('Version' in pointer) out[keys.version] = pointer.Version;
  return out;
}

/** The note for a local artifact path: its contents are not in the template; or, when the caller found nothing there, that it is missing. */
export function noteLocalPath(ctx: TranslationContext, sam: SamResource, property: string, path: string): void {
  if (ctx.packagedFolders?.has(sam.logicalId)) return;
  const kind = ctx.artifacts?.get(path) === false ? 'sam-local-artifact-missing' : 'sam-local-artifact';
  ctx.note({ kind, logicalId: sam.logicalId, property, path }, sam.propertyRange(property) ?? sam.node?.range);
}
