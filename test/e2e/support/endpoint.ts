// Runs the local CloudFormation endpoint (test/endpoint/serve.ts) as its own process, the way the
// README demo does, so the extension host reaches it over HTTP like it would reach AWS.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './code-server';
import { artifactsDir, repoRoot } from './paths';
import { waitFor } from './wait';

export interface LocalEndpoint {
  readonly url: string;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccepts) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolveAccepts(true);
    });
    socket.once('error', () => resolveAccepts(false));
  });
}

export interface EndpointOptions {
  /** The port to listen on (default: a free one). */
  port?: number;
  /** Milliseconds between two scripted steps (the endpoint's default is 1000). */
  stepMs?: number;
}

/** Starts the endpoint playing `scenario` (one or several) in real time and waits until it accepts connections. */
export async function startEndpoint(scenario: string | readonly string[], name: string, options: EndpointOptions = {}): Promise<LocalEndpoint> {
  const port = options.port ?? (await freePort());
  const timing = options.stepMs === undefined ? [] : ['--step-ms', String(options.stepMs)];
  mkdirSync(artifactsDir, { recursive: true });
  const log = createWriteStream(join(artifactsDir, `${name}.endpoint.log`));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'test/endpoint/serve.ts'), '--port', String(port), ...[scenario].flat().flatMap((name) => ['--scenario', name]), '--realtime', ...timing],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (!exited) child.kill('SIGTERM');
    await waitFor(() => exited, { timeoutMs: 5_000, what: 'the endpoint to exit' }).catch(() => child.kill('SIGKILL'));
    log.end();
  };
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(`the endpoint exited; see ${name}.endpoint.log`);
        return accepts(port);
      },
      { timeoutMs: 30_000, what: 'the local CloudFormation endpoint to listen' },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}
