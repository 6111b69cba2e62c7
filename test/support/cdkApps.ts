/**
 * Real CDK apps for tests: source files written to a folder of their own and synthesized offline
 * by `aws-cdk-lib` (a dev dependency) the way `cdk synth` runs an app: `CDK_OUTDIR` names the
 * assembly's folder, and the context turns on path metadata and version reporting as the CLI
 * does. `CDK_DEBUG=true` records where each construct was created, as `cdk synth` does when a
 * user asks for it. No account, no network.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const repository = join(__dirname, '..', '..');

/** A folder holding an app's sources, with `node_modules` pointing at the project's, so the app imports `aws-cdk-lib`. */
export function appFolder(files: Record<string, string>, folder = mkdtempSync(join(tmpdir(), 'cdk-app-'))): string {
  try {
    symlinkSync(join(repository, 'node_modules'), join(folder, 'node_modules'), 'dir');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

export interface SynthOptions {
  /** The app's entry file, relative to its folder (TypeScript runs through tsx). */
  entry: string;
  /** The assembly's folder, relative to the app's folder; `cdk.out` by default. */
  outdir?: string;
  /** Whether to record construct creation traces (`CDK_DEBUG=true`); on by default. */
  stackTraces?: boolean;
}

/** Synthesizes the app in `folder`; returns the assembly's folder. */
export function synthesize(folder: string, options: SynthOptions): string {
  const out = join(folder, options.outdir ?? 'cdk.out');
  rmSync(out, { recursive: true, force: true });
  execFileSync(process.execPath, ['--import', 'tsx', join(folder, options.entry)], {
    cwd: folder,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      CDK_OUTDIR: out,
      CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:enable-path-metadata': true, 'aws:cdk:version-reporting': true }),
      ...(options.stackTraces === false ? {} : { CDK_DEBUG: 'true' }),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return out;
}

/** Writes the sources and synthesizes them: the app's folder and its assembly. */
export function synthesizeApp(files: Record<string, string>, options: SynthOptions & { folder?: string }): { folder: string; assembly: string } {
  const folder = appFolder(files, options.folder);
  return { folder, assembly: synthesize(folder, options) };
}
