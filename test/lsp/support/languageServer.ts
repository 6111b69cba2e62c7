// Starts the real language server over stdio and speaks JSON-RPC to it, the way an editor does.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeLens,
  type Diagnostic,
  type Hover,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { baselineStatusNotification, type BaselineStatus } from '../../../server/src/lsp/protocol';

const root = join(__dirname, '..', '..', '..');
const serverEntry = join(root, 'server', 'src', 'lsp', 'server.ts');

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

/** A running server and what it sent: diagnostics, baseline statuses, log lines. */
export class TestServer {
  readonly published: PublishedDiagnostics[] = [];
  readonly statuses: BaselineStatus[] = [];
  readonly logs: string[] = [];
  /** Set once the process ended: a server that dies on input fails every later wait at once. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly versions = new Map<string, number>();
  private listeners: (() => void)[] = [];

  private constructor(
    readonly connection: ProtocolConnection,
    readonly process: ChildProcess,
  ) {}

  /** Starts the server from its TypeScript source and initialises it for a workspace folder. */
  static async start(options: { workspace?: string; initializationOptions?: unknown; settings?: unknown; env?: NodeJS.ProcessEnv } = {}): Promise<TestServer> {
    // CFN_IMPACT_LSP_SERVER=dist/server.js runs the same suites against the bundle.
    const bundle = process.env.CFN_IMPACT_LSP_SERVER;
    const args = bundle ? [join(root, bundle), '--stdio'] : ['--import', 'tsx', serverEntry, '--stdio'];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const server = new TestServer(connection, child);
    child.stderr!.on('data', (chunk: Buffer) => server.logs.push(chunk.toString('utf8')));
    const exited = new Promise<never>((_, reject) =>
      child.on('exit', (code, signal) => {
        server.exit = { code, signal };
        server.notify();
        reject(new Error(`the server exited (code ${code}, signal ${signal}); its log:\n${server.logs.join('\n')}`));
      }),
    );
    exited.catch(() => undefined);
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishedDiagnostics) => {
      server.published.push(params);
      server.notify();
    });
    connection.onNotification(baselineStatusNotification, (status) => {
      server.statuses.push(status);
      server.notify();
    });
    connection.onNotification('window/logMessage', (params: { message: string }) => {
      server.logs.push(params.message);
    });
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => options.settings ?? {}));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.listen();
    const workspaceUri = options.workspace ? pathToUri(options.workspace) : null;
    await Promise.race([exited, connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: workspaceUri,
      workspaceFolders: workspaceUri ? [{ uri: workspaceUri, name: 'workspace' }] : null,
      capabilities: { workspace: { configuration: true, codeLens: { refreshSupport: true } }, textDocument: { publishDiagnostics: { versionSupport: true } } },
      initializationOptions: options.initializationOptions,
    })]);
    await connection.sendNotification('initialized', {});
    return server;
  }

  /** Opens a document; returns its version. */
  async open(uri: string, text: string, languageId = 'yaml'): Promise<number> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return 1;
  }

  /** Replaces a document's whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  /** The diagnostics published for a document version (waits for them). */
  diagnostics(uri: string, version: number, timeoutMs = 20_000): Promise<Diagnostic[]> {
    return this.waitFor(`diagnostics of ${uri} v${version}`, timeoutMs, () => this.published.find((p) => p.uri === uri && p.version === version)?.diagnostics);
  }

  /** The first baseline status of a document that satisfies a condition (waits for it). */
  status(uri: string, matches: (status: BaselineStatus) => boolean, timeoutMs = 20_000): Promise<BaselineStatus> {
    return this.waitFor(`baseline status of ${uri}`, timeoutMs, () => this.statuses.find((s) => s.uri === uri && matches(s)));
  }

  codeLenses(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } });
  }

  hover(uri: string, line: number, character: number): Promise<Hover | null> {
    return this.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line, character } });
  }

  /** Shuts the server down the polite way, then makes sure the process is gone. */
  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), delay(2000)]);
      await this.connection.sendNotification('exit');
    } catch {
      // The process may already be gone; killing it below is enough.
    }
    this.connection.dispose();
    if (this.process.exitCode === null) this.process.kill();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
    const found = probe();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const listener = () => {
        if (this.exit) {
          cleanup();
          reject(new Error(`the server exited while waiting for ${what}; its log:\n${this.logs.join('\n')}`));
          return;
        }
        const value = probe();
        if (value === undefined) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; server log:\n${this.logs.join('\n')}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
      };
      this.listeners.push(listener);
    });
  }
}

/** A `file:` URI for a path, encoded the way editors encode it. */
export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The Markdown of a hover, or '' for none. */
export function hoverText(hover: Hover | null): string {
  return hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
}
