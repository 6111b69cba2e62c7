// Runs node's built-in test runner over the given test folders or files (Node 20 has no glob support in --test).
//
//   node scripts/run-tests.mjs test/unit test/lsp          the suites, short (npm test)
//   node scripts/run-tests.mjs --long test/unit test/lsp   only the suites that have a long run, at full strength (npm run test:long)
//
// A suite has a long run when it reads test/support/runLength.ts; the long run sets CFN_IMPACT_TESTS=long.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const long = args.includes('--long');
const roots = args.filter((a) => !a.startsWith('--'));
const passThrough = args.filter((a) => a.startsWith('--') && a !== '--long');
let files = [];
function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(path);
  }
}
for (const root of roots.length ? roots : ['test/unit']) {
  if (statSync(root).isDirectory()) walk(root);
  else files.push(root);
}
if (long) files = files.filter((file) => readFileSync(file, 'utf8').includes('support/runLength'));
if (files.length === 0) {
  console.error(`No test files found under ${roots.join(', ')}`);
  process.exit(1);
}
if (long) console.log(`# the long run: ${files.length} suites at full strength (CFN_IMPACT_TESTS=long)`);
const started = Date.now();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...passThrough, ...files], {
  stdio: 'inherit',
  env: long ? { ...process.env, CFN_IMPACT_TESTS: 'long' } : process.env,
});
console.log(`# ${files.length} test files in ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(result.status ?? 1);
