/**
 * Bundles the extension-host suite (test/extension/suite/) with esbuild, one CommonJS file per
 * test beside the runner, the way scripts/build.mjs bundles the extension: `vscode` is given by the
 * extension host and `mocha` is loaded from the repository's node_modules at run time, so that the
 * runner and the tests share one mocha.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../e2e/support/paths';

/** Where the bundled suite is written (git-ignored). */
export const suiteOutDir = join(repoRoot, '.cache', 'extension-tests', 'suite');

const suiteSourceDir = join(repoRoot, 'test', 'extension', 'suite');

/** Bundles the runner and every `*.test.ts` of the suite; returns the folder to pass as `--extensionTestsPath`. */
export async function buildSuite(): Promise<string> {
  const entries = readdirSync(suiteSourceDir)
    .filter((name) => name === 'index.ts' || name.endsWith('.test.ts'))
    .map((name) => join(suiteSourceDir, name));
  rmSync(suiteOutDir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: entries,
    outdir: suiteOutDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode', 'mocha'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return join(suiteOutDir, 'index.js');
}

/** Why the extension cannot be loaded from this checkout, or undefined when its bundles are built. */
export function missingBundlesReason(): string | undefined {
  const missing = ['dist/client.js', 'dist/server.js', 'dist/analysisWorker.js'].filter((file) => !existsSync(join(repoRoot, file)));
  return missing.length ? `${missing.join(', ')} missing: run npm run build first` : undefined;
}
