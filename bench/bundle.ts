/**
 * Bundles for the benchmarks as `npm run build` bundles what ships (scripts/build.mjs): the
 * figures are then those of the minified code a user runs, into a scratch folder with the spec
 * index beside it, so that dist/ is left alone.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(__dirname, '..');

/** The scratch folder bundles go to, with `data/spec-index.json` in it. */
export function benchFolder(): string {
  const folder = join(tmpdir(), 'cfn-impact-bench');
  mkdirSync(join(folder, 'data'), { recursive: true });
  copyFileSync(join(root, 'server/data/generated/spec-index.json'), join(folder, 'data', 'spec-index.json'));
  return folder;
}

/** Bundles `source` (a path from the project's root) to `outfile`, minified, for Node 20. */
export async function bundle(source: string, outfile: string): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, source)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
}
