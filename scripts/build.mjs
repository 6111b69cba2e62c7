// Bundles the extension client, the language server (with its analysis worker) and the CLI with esbuild into dist/, and
// copies the compiled spec index next to them. Everything the extension needs at run time is
// inside these bundles, which is why the .vsix is packaged with --no-dependencies.
//
//   node scripts/build.mjs            release build: minified, no source maps
//   node scripts/build.mjs --dev      readable output with external source maps
//   node scripts/build.mjs --watch    dev build that rebuilds on change
import { existsSync, mkdirSync, copyFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const watch = args.has('--watch');
const dev = watch || args.has('--dev');
const dist = join(root, 'dist');

/**
 * The bundles; `external` names modules provided by the host at run time. The language server
 * starts its analysis worker from dist/analysisWorker.js, beside dist/server.js.
 */
const entryPoints = [
  { source: 'client/src/extension.ts', output: 'dist/client.js', external: ['vscode'] },
  { source: 'server/src/lsp/server.ts', output: 'dist/server.js', external: [] },
  { source: 'server/src/lsp/worker/analysisWorker.ts', output: 'dist/analysisWorker.js', external: [] },
  { source: 'server/src/cli/main.ts', output: 'dist/cli.js', external: [] },
];

const specSource = join(root, 'server/data/generated/spec-index.json');
const specTarget = join(dist, 'data/spec-index.json');

function ensureSpecIndex() {
  if (existsSync(specSource)) return;
  // The compiled spec is generated, not committed; produce it the way `prepare` does.
  console.log('spec index missing: running npm run build:spec');
  const result = spawnSync('npm', ['run', 'build:spec'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0 || !existsSync(specSource)) {
    console.error(`npm run build:spec did not produce ${relative(root, specSource)}`);
    process.exit(1);
  }
}

function copySpecIndex() {
  mkdirSync(dirname(specTarget), { recursive: true });
  copyFileSync(specSource, specTarget);
}

function optionsFor(entry) {
  return {
    absWorkingDir: root,
    entryPoints: [join(root, entry.source)],
    outfile: join(root, entry.output),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // ESM builds of the AWS SDK tree-shake far better than their CommonJS builds.
    mainFields: ['module', 'main'],
    external: entry.external,
    minify: !dev,
    sourcemap: dev ? 'linked' : false,
    legalComments: dev ? 'inline' : 'none',
    logLevel: 'warning',
    metafile: true,
  };
}

ensureSpecIndex();
if (!watch) rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
copySpecIndex();

const missing = entryPoints.filter((entry) => !existsSync(join(root, entry.source)));
if (missing.length > 0) {
  console.error(`cannot build, sources missing: ${missing.map((entry) => entry.source).join(', ')}`);
  process.exit(1);
}

if (watch) {
  for (const entry of entryPoints) {
    const context = await esbuild.context(optionsFor(entry));
    await context.watch();
  }
  console.log('watching for changes (Ctrl+C to stop)');
} else {
  // esbuild has already printed its errors; a stack trace of the build script would add nothing.
  const results = await Promise.all(entryPoints.map((entry) => esbuild.build(optionsFor(entry)))).catch(() => process.exit(1));
  results.forEach((result, index) => {
    const output = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('.js'));
    const kib = output ? (output[1].bytes / 1024).toFixed(0) : '?';
    console.log(`${entryPoints[index].output}  ${kib} KiB`);
  });
  console.log(`${relative(root, specTarget)}  copied`);
}
