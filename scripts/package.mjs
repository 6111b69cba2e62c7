// Packages the extension with vsce into cloudformation-impact-<version>.vsix and fails when the
// package reaches the 5 MB budget. vsce runs `vscode:prepublish` (the release build) first;
// --no-dependencies because the bundles in dist/ already hold every runtime dependency.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const budgetBytes = 5 * 1024 * 1024;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const vsix = join(root, `${manifest.name}-${manifest.version}.vsix`);

const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

const size = statSync(vsix).size;
const megabytes = (size / 1024 / 1024).toFixed(2);
if (size >= budgetBytes) {
  console.error(`${vsix} is ${megabytes} MB: over the 5 MB budget`);
  process.exit(1);
}
console.log(`${vsix}: ${megabytes} MB (budget 5 MB)`);
