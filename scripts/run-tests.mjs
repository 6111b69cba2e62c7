// Runs node's built-in test runner over the given test folders or files (Node 20 has no glob support in --test).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const passThrough = process.argv.slice(2).filter((a) => a.startsWith('--'));
const files = [];
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
if (files.length === 0) {
  console.error(`No test files found under ${roots.join(', ')}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...passThrough, ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
