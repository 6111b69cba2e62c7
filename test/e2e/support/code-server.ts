// Starts code-server (VS Code 1.100 for the browser) on 127.0.0.1 with a fresh profile, after
// installing the packaged extension into it the way a person would.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifactsDir, codeServerRoot, repoRoot } from './paths';
import { waitFor } from './wait';

/** Settings every test profile starts with: nothing may stand between the test and the editor. */
export const quietSettings: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'editor.minimap.enabled': false,
  'editor.hover.delay': 250,
  'git.enabled': false,
  'chat.commandCenter.enabled': false,
};

export interface CodeServerOptions {
  /** The folder the window opens. */
  workspace: string;
  /** User settings, on top of `quietSettings`. */
  settings?: Record<string, unknown>;
  /** A .vsix installed with --install-extension before the server starts. */
  vsix?: string;
  /** Extra environment for the server and so for the extension host. */
  env?: Record<string, string>;
  /** Names the log file in the artifacts folder. */
  name: string;
}

export interface CodeServer {
  /** The address of the workbench with the workspace open. */
  readonly url: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** Stops the server and every process it started, and removes the profile. */
  stop(): Promise<void>;
}

/** Runs the idempotent setup script; it returns at once when code-server is already prepared. */
export function ensureCodeServer(): void {
  const result = spawnSync('bash', [join(repoRoot, 'scripts/e2e/setup-code-server.sh')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('scripts/e2e/setup-code-server.sh failed');
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** The environment of code-server: a private HOME and AWS configuration, so nothing of the machine leaks in. */
function serverEnvironment(profileDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('AWS_') || name.startsWith('VSCODE_')) delete env[name];
  return {
    ...env,
    HOME: join(profileDir, 'home'),
    XDG_CONFIG_HOME: join(profileDir, 'home', '.config'),
    XDG_DATA_HOME: join(profileDir, 'home', '.local', 'share'),
    AWS_CONFIG_FILE: join(profileDir, 'aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(profileDir, 'aws-credentials'),
    ...extra,
  };
}

/** Installs the extension, starts code-server and waits until it answers its health check. */
export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const entry = join(codeServerRoot, 'out', 'node', 'entry.js');
  if (!existsSync(entry)) ensureCodeServer();

  const profileDir = mkdtempSync(join(tmpdir(), 'cfn-impact-e2e-'));
  const userDataDir = join(profileDir, 'user-data');
  const extensionsDir = join(profileDir, 'extensions');
  const configFile = join(profileDir, 'config.yaml');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(join(profileDir, 'home'), { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...quietSettings, ...options.settings }, null, 2));
  // The browser window is a remote window: machine-scoped settings count only in the remote
  // (Machine) settings of the server, so the test's own settings are written there too.
  mkdirSync(join(userDataDir, 'Machine'), { recursive: true });
  writeFileSync(join(userDataDir, 'Machine', 'settings.json'), JSON.stringify(options.settings ?? {}, null, 2));
  // Without --config code-server writes one into the real HOME on first start.
  writeFileSync(configFile, 'auth: none\ncert: false\n');
  const env = serverEnvironment(profileDir, options.env ?? {});
  const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

  mkdirSync(artifactsDir, { recursive: true });
  const logPath = join(artifactsDir, `${options.name}.code-server.log`);
  const log = createWriteStream(logPath);

  if (options.vsix) {
    const install = spawnSync(process.execPath, [entry, ...common, '--install-extension', options.vsix], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    log.write(`$ code-server --install-extension ${options.vsix}\n${install.stdout}${install.stderr}\n`);
    if (install.status !== 0 || /failed|error/i.test(install.stderr ?? '')) {
      log.end();
      rmSync(profileDir, { recursive: true, force: true });
      throw new Error(`installing ${options.vsix} failed: ${install.stdout}${install.stderr}`);
    }
  }

  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      entry,
      ...common,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      options.workspace,
    ],
    // Its own process group, so stopping it also stops the extension host and the watchers it forks.
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(`code-server exited; see ${logPath}`);
        const response = await fetch(`${base}/healthz`);
        return response.ok;
      },
      { timeoutMs: 60_000, intervalMs: 250, what: 'code-server to answer /healthz' },
    );
  } catch (error) {
    stopGroup(child);
    log.end();
    throw error;
  }

  return {
    url: `${base}/?folder=${encodeURIComponent(options.workspace)}`,
    userDataDir,
    extensionsDir,
    async stop() {
      stopGroup(child);
      await waitFor(() => exited, { timeoutMs: 10_000, what: 'code-server to exit' }).catch(() => {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      });
      log.end();
      // VS Code's own logs (extension host, output channels) are kept with the screenshots.
      const logs = join(userDataDir, 'logs');
      const keptLogs = join(artifactsDir, `${options.name}.logs`);
      rmSync(keptLogs, { recursive: true, force: true });
      if (existsSync(logs)) cpSync(logs, keptLogs, { recursive: true });
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

function stopGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // The group is already gone.
  }
}
