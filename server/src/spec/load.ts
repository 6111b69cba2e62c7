/**
 * Reads the compiled specification index from disk. This is the one I/O adapter of the spec
 * module: the lookups themselves (index.ts) are pure and take the parsed index as data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createResourceSpec } from './index';
import { decodeSpecIndex } from './compiled-index';
import type { ResourceSpec } from './types';

/**
 * Where the index may be, relative to this module: next to the sources (server/src/spec), next
 * to an esbuild bundle in dist/ (dist/data/), or next to a bundle one folder deeper.
 */
const CANDIDATES = [
  join(__dirname, '..', '..', 'data', 'generated', 'spec-index.json'),
  join(__dirname, 'data', 'spec-index.json'),
  join(__dirname, '..', 'data', 'spec-index.json'),
];

const REBUILD_HINT = 'Run `npm run build:spec` to generate it.';

export type LoadedResourceSpec = { ok: true; spec: ResourceSpec; path: string } | { ok: false; error: string };

let cached: LoadedResourceSpec | undefined;

/** Reads and parses the index once per process; a missing or stale index is an error value. */
export function tryLoadResourceSpec(): LoadedResourceSpec {
  if (cached?.ok) return cached;
  cached = readIndex();
  return cached;
}

/** The process-wide ResourceSpec; throws when the index was not built, which is a build problem, not a user error. */
export function loadResourceSpec(): ResourceSpec {
  const loaded = tryLoadResourceSpec();
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.spec;
}

function readIndex(): LoadedResourceSpec {
  for (const path of CANDIDATES) {
    let data: Uint8Array;
    try {
      data = readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return { ok: false, error: `Cannot read the resource specification index ${path}: ${(error as Error).message}` };
    }
    const index = decodeSpecIndex(data);
    if (typeof index === 'string') {
      return { ok: false, error: `The resource specification index ${path} cannot be used: ${index}. ${REBUILD_HINT}` };
    }
    return { ok: true, spec: createResourceSpec(index), path };
  }
  return { ok: false, error: `The resource specification index was not found (looked in ${CANDIDATES.join(', ')}). ${REBUILD_HINT}` };
}
