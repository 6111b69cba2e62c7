/**
 * Runs the extension-host suite in desktop VS Code with `@vscode/test-electron`, which downloads
 * VS Code into .cache/vscode-test/ once and reuses it: first the oldest version the manifest
 * accepts (`engines.vscode`), then the current stable release. Each run gets a fresh profile
 * (settings, no other extension, no machine AWS configuration), the workspace and the local
 * CloudFormation endpoint. Needs a machine that can download VS Code and open a window (on Linux
 * without a display, under `xvfb-run`). Exits non-zero when a test fails in either version.
 *
 *   npm run test:vscode                     both versions
 *   npm run test:vscode -- stable           one version (any that @vscode/test-electron accepts)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { quietSettings } from '../../e2e/support/code-server';
import { readManifest, repoRoot } from '../../e2e/support/paths';
import { createFixture } from './fixture';
import { buildSuite, missingBundlesReason } from './suiteBuild';

/** The oldest VS Code the manifest accepts: `^1.100.0` and `>=1.100.0` give 1.100.0. */
function minimumVersion(): string {
  const range = readManifest().engines?.vscode ?? '';
  const version = range.match(/(\d+\.\d+\.\d+)/)?.[1];
  if (!version) throw new Error(`package.json engines.vscode (${JSON.stringify(range)}) names no version`);
  return version;
}

/** Runs the suite once in the given VS Code version; returns its exit code. */
async function runIn(version: string, testsPath: string): Promise<number> {
  const fixture = await createFixture(`vscode-${version}`);
  const profileDir = mkdtempSync(join(tmpdir(), 'cfn-impact-vscode-'));
  try {
    const userDataDir = join(profileDir, 'user-data');
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...quietSettings, ...fixture.settings }, null, 2));
    console.log(`\n==> VS Code ${version}`);
    return await runTests({
      version,
      cachePath: join(repoRoot, '.cache', 'vscode-test'),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: testsPath,
      launchArgs: [
        fixture.workspace.path,
        '--user-data-dir', userDataDir,
        '--extensions-dir', join(profileDir, 'extensions'),
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
      ],
      // The machine's AWS profile and files stay out: the suite reads only the local endpoint.
      extensionTestsEnv: {
        ...fixture.env,
        AWS_PROFILE: undefined,
        AWS_CONFIG_FILE: join(profileDir, 'aws-config'),
        AWS_SHARED_CREDENTIALS_FILE: join(profileDir, 'aws-credentials'),
      },
    }).catch((error: unknown) => {
      console.error(`VS Code ${version}: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    });
  } finally {
    await fixture.dispose();
    rmSync(profileDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const missing = missingBundlesReason();
  if (missing) {
    console.error(`cannot run the extension-host suite: ${missing}`);
    return 1;
  }
  const requested = process.argv.slice(2);
  const versions = requested.length > 0 ? requested : [minimumVersion(), 'stable'];
  const testsPath = await buildSuite();
  let failed = 0;
  for (const version of versions) if ((await runIn(version, testsPath)) !== 0) failed++;
  if (failed > 0) console.error(`the extension-host suite failed in ${failed} of ${versions.length} VS Code version(s)`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
