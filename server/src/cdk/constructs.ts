/**
 * Which construct of a CDK app each logical id comes from, and the line of the app's code that
 * created it. The manifest's metadata records, per construct path, the logical id
 * (`aws:cdk:logicalId`) and, when the app was synthesized with `CDK_DEBUG=true`, the stack
 * trace of its creation; the template records the path again in each resource's
 * `aws:cdk:path` metadata, which is read when the manifest has no entry for a resource.
 */
import type { TemplateModel } from '../template';

/** One metadata entry of an artifact (`MetadataEntry` in the cloud assembly schema). */
export interface MetadataEntry {
  type?: unknown;
  data?: unknown;
  trace?: unknown;
}

/** An artifact's metadata: construct path (`/Svc/Orders/Resource`) → entries. */
export type MetadataEntries = Record<string, unknown>;

/** A place in the app's source, as a stack trace writes it: 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export interface ConstructInfo {
  /** The construct path people know, without the leading `/` and CDK's `/Resource` or `/Default` child: `Svc/Orders`. */
  path: string;
  /** The creation trace's frames, innermost first, when the assembly has them. */
  trace?: string[];
}

/** Logical id → the construct it comes from. */
export type ConstructIndex = ReadonlyMap<string, ConstructInfo>;

const LOGICAL_ID = 'aws:cdk:logicalId';
const PATH_METADATA = 'aws:cdk:path';

/** The constructs an artifact's metadata names by logical id. */
export function constructsOf(metadata: MetadataEntries): Map<string, ConstructInfo> {
  const index = new Map<string, ConstructInfo>();
  for (const [path, entries] of Object.entries(metadata)) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries as MetadataEntry[]) {
      if (entry === null || typeof entry !== 'object' || entry.type !== LOGICAL_ID || typeof entry.data !== 'string') continue;
      const trace = Array.isArray(entry.trace) ? entry.trace.filter((frame): frame is string => typeof frame === 'string') : undefined;
      index.set(entry.data, { path: constructPath(path), ...(trace && trace.length > 0 ? { trace } : {}) });
    }
  }
  return index;
}

/** The index, completed from the template's `aws:cdk:path` metadata for the resources the manifest does not name. */
export function withTemplatePaths(index: ConstructIndex, model: TemplateModel): ConstructIndex {
  let completed: Map<string, ConstructInfo> | undefined;
  for (const resource of model.resources.values()) {
    if (index.has(resource.logicalId) || resource.metadata?.kind !== 'map') continue;
    const entry = resource.metadata.entries.find((e) => e.key === PATH_METADATA);
    if (entry?.value.kind !== 'scalar' || typeof entry.value.value !== 'string') continue;
    completed ??= new Map(index);
    completed.set(resource.logicalId, { path: constructPath(entry.value.value) });
  }
  return completed ?? index;
}

/** `/Svc/Orders/Resource` → `Svc/Orders`: the path without its leading slash and CDK's default child. */
export function constructPath(metadataPath: string): string {
  const path = metadataPath.replace(/^\//, '');
  return path.replace(/\/(?:Resource|Default)$/, '');
}

/** The frame of a creation trace that is the app's own code: the first outside packages and Node's internals. */
export function sourceOfTrace(trace: readonly string[] | undefined): SourceLocation | undefined {
  for (const frame of trace ?? []) {
    const location = frameLocation(frame);
    if (location === undefined) continue;
    if (/[\\/]node_modules[\\/]/.test(location.file) || location.file.startsWith('node:') || JSII_RUNTIME.test(location.file)) continue;
    return location;
  }
  return undefined;
}

/** jsii's runtime (how Python, Java, Go and .NET apps run the CDK) shows as JavaScript frames of its own. */
const JSII_RUNTIME = /jsii-(?:kernel|runtime)|[\\/]lib[\\/]program\.js$/;

/** `new Svc (/app/lib/svc.ts:10:5)` or `/app/bin/app.ts:16:1` → file, line, column. */
function frameLocation(frame: string): SourceLocation | undefined {
  const match = /(?:^|\()((?:[A-Za-z]:)?[^():]+):(\d+):(\d+)\)?$/.exec(frame.trim());
  if (!match) return undefined;
  return { file: match[1]!, line: Number(match[2]), column: Number(match[3]) };
}

/** The last segment of a construct path, the id the app's code wrote: `Svc/Handler/ServiceRole` → `ServiceRole`. */
export function constructId(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
