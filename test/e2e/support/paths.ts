// Where the end-to-end suite finds what it runs and where it leaves what it saw.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root. */
export const repoRoot = resolve(__dirname, '..', '..', '..');

/** The unpacked code-server prepared by scripts/e2e/setup-code-server.sh. */
export const codeServerRoot = join(repoRoot, '.cache', 'code-server', 'package');

/** Screenshots and logs of a run (git-ignored). */
export const artifactsDir = join(repoRoot, 'test-artifacts', 'e2e');

/** The Chromium that Playwright drives: Debian's, since Playwright's own cannot be downloaded here. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Manifest {
  name: string;
  version: string;
  publisher: string;
  engines?: { vscode?: string };
  contributes?: {
    configuration?: { properties?: Record<string, unknown> } | Array<{ properties?: Record<string, unknown> }>;
    viewsContainers?: { activitybar?: Array<{ id: string; title: string }> };
    views?: Record<string, Array<{ id: string; name: string }>>;
    commands?: Array<{ command: string; title: string; category?: string }>;
  };
}

/** The extension manifest as it is now (read fresh, since other work edits it). */
export function readManifest(): Manifest {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
}

/** The identifier VS Code gives the extension: publisher.name. */
export function extensionId(): string {
  const manifest = readManifest();
  return `${manifest.publisher}.${manifest.name}`;
}

/** The path `npm run package` writes the .vsix to. */
export function vsixPath(): string {
  const manifest = readManifest();
  return join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);
}

/** Why the suites that need the packaged extension cannot run, or undefined when they can. */
export function missingVsixReason(): string | undefined {
  const path = vsixPath();
  return existsSync(path) ? undefined : `${path} does not exist: run npm run package first`;
}
