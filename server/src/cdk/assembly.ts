/**
 * A CDK cloud assembly (`cdk.out/`) as data: its CloudFormation stacks, nested assemblies of CDK
 * stages followed, each stack with its name, environment, template file and the construct behind
 * each logical id. The caller reads the files (`readText`); nothing here does I/O. The shapes
 * read are those of `@aws-cdk/cloud-assembly-schema` (`AssemblyManifest`, `ArtifactManifest`).
 */
import { constructsOf, type ConstructIndex, type MetadataEntries } from './constructs';

/** A file of the assembly, read by the caller: its text, or why it could not be read. */
export type AssemblyFileRead = { ok: true; text: string } | { ok: false; message: string };

/** Reads a file by its path relative to the root assembly's folder (`assembly-Prod/manifest.json`). */
export type AssemblyFileReader = (relativePath: string) => AssemblyFileRead;

/** One CloudFormation stack of an assembly. */
export interface AssemblyStack {
  /** The artifact's id in its (nested) assembly: `Svc`, `ProdSvc4E3C2A1B`. */
  artifactId: string;
  /** How the CDK names the stack to people, unique in the app: `Svc`, `Prod/Svc`. */
  displayName: string;
  /** The CloudFormation stack's name: `stackName`, else the artifact id. */
  stackName: string;
  /** The account and Region the stack is for, when the app fixed them (`aws://ACCOUNT/REGION`). */
  account?: string;
  region?: string;
  /** The template's path relative to the root assembly's folder. */
  templateFile: string;
  /** The construct behind each logical id, from the manifest's metadata. */
  constructs: ConstructIndex;
}

export interface CloudAssembly {
  stacks: AssemblyStack[];
}

export type AssemblyRead = { ok: true; assembly: CloudAssembly } | { ok: false; message: string };

/** Stages nest stages; real apps stay within a few levels. */
const MAX_NESTED_ASSEMBLIES = 64;

const STACK_ARTIFACT = 'aws:cloudformation:stack';
const NESTED_ASSEMBLY_ARTIFACT = 'cdk:cloud-assembly';

interface ArtifactManifest {
  type?: unknown;
  environment?: unknown;
  metadata?: unknown;
  properties?: { templateFile?: unknown; stackName?: unknown; directoryName?: unknown };
  displayName?: unknown;
}

/** The assembly whose `manifest.json` `readText` reads at the root, with its nested assemblies. */
export function readCloudAssembly(readText: AssemblyFileReader): AssemblyRead {
  const stacks: AssemblyStack[] = [];
  const pending: string[] = [''];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const folder = pending.shift()!;
    if (seen.has(folder)) continue;
    seen.add(folder);
    if (seen.size > MAX_NESTED_ASSEMBLIES) return { ok: false, message: `more than ${MAX_NESTED_ASSEMBLIES} nested assemblies` };
    const manifestPath = joinPath(folder, 'manifest.json');
    const read = readText(manifestPath);
    if (!read.ok) return { ok: false, message: read.message };
    let manifest: { artifacts?: Record<string, ArtifactManifest> };
    try {
      manifest = JSON.parse(read.text) as typeof manifest;
    } catch (error) {
      return { ok: false, message: `${manifestPath} is not JSON: ${(error as Error).message}` };
    }
    if (manifest === null || typeof manifest !== 'object') return { ok: false, message: `${manifestPath} is not a cloud assembly manifest` };
    for (const [artifactId, artifact] of Object.entries(manifest.artifacts ?? {})) {
      if (artifact === null || typeof artifact !== 'object') continue;
      const properties = artifact.properties ?? {};
      if (artifact.type === NESTED_ASSEMBLY_ARTIFACT && isRelativeInside(properties.directoryName)) {
        pending.push(joinPath(folder, properties.directoryName));
      } else if (artifact.type === STACK_ARTIFACT && isRelativeInside(properties.templateFile)) {
        stacks.push({
          artifactId,
          displayName: typeof artifact.displayName === 'string' ? artifact.displayName : artifactId,
          stackName: typeof properties.stackName === 'string' ? properties.stackName : artifactId,
          ...environmentOf(artifact.environment),
          templateFile: joinPath(folder, properties.templateFile),
          constructs: constructsOf(isMetadata(artifact.metadata) ? artifact.metadata : {}),
        });
      }
    }
  }
  return { ok: true, assembly: { stacks } };
}

/** `aws://ACCOUNT/REGION` → its account and Region; `unknown-account`/`unknown-region` are left out. */
function environmentOf(environment: unknown): { account?: string; region?: string } {
  if (typeof environment !== 'string') return {};
  const match = /^aws:\/\/([^/]+)\/([^/]+)$/.exec(environment);
  if (!match) return {};
  const [, account, region] = match;
  return { ...(account !== 'unknown-account' ? { account } : {}), ...(region !== 'unknown-region' ? { region } : {}) };
}

function isMetadata(value: unknown): value is MetadataEntries {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A path the manifest gives that stays inside the assembly: relative, with no `..` segment. */
function isRelativeInside(path: unknown): path is string {
  return typeof path === 'string' && path !== '' && !/^(?:[/\\]|[A-Za-z]:)/.test(path) && !path.split(/[/\\]/).includes('..');
}

function joinPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}
