/**
 * Language server figures, measured over stdio the way an editor sees them, against the
 * minified bundle that ships (built here with the same esbuild options into a scratch folder,
 * so dist/ is left alone):
 *
 * - start: process spawn → the answer to `initialize`, and spawn → the first code lens answer
 *   on the smallest template (which waits for the spec index and a first analysis);
 * - edit → diagnostics: a one-line incremental `didChange` → the `publishDiagnostics` of that
 *   version, debounce included, for 20 edits spaced like separate keystrokes;
 * - resident memory (VmRSS) with the 500-resource template open and analysed.
 *
 * The baseline is the pair's "before" text in a file, chosen through `initializationOptions`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { benchFolder, bundle } from './bundle';
import type { TemplatePair } from './generate';
import { median, quantile } from './stats';

export interface LspEditFigures {
  name: 'lsp-edit';
  size: number;
  median_ms: number;
  p95_ms: number;
  edits: number;
  debounce_ms: number | 'default';
}

export interface LspStartFigures {
  name: 'lsp-start';
  start_to_initialize_ms: number;
  start_to_first_lens_ms: number;
}

export interface LspMemoryFigures {
  name: 'lsp-memory';
  size: number;
  rss_mb: number;
}

/** Bundles the server and its analysis worker like `npm run build` does, into the benchmarks' scratch folder with the spec index beside them. */
export async function bundleServer(): Promise<string> {
  const folder = benchFolder();
  await Promise.all([bundle('server/src/lsp/server.ts', join(folder, 'server.js')), bundle('server/src/lsp/worker/analysisWorker.ts', join(folder, 'analysisWorker.js'))]);
  return join(folder, 'server.js');
}

interface Published {
  uri: string;
  version?: number;
  at: number;
}

/** One running server with a minimal editor-like client. */
class BenchServer {
  readonly published: Published[] = [];
  private waiters: (() => void)[] = [];
  private constructor(
    readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
    readonly spawnedAt: number,
  ) {}

  static spawn(serverFile: string, settings: unknown): BenchServer {
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, [serverFile, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr!.resume();
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const server = new BenchServer(child, connection, spawnedAt);
    connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number }) => {
      server.published.push({ uri: params.uri, version: params.version, at: performance.now() });
      for (const waiter of server.waiters) waiter();
    });
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => settings));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onNotification('window/logMessage', () => undefined);
    connection.listen();
    return server;
  }

  async initialize(workspace: string, baselines: Record<string, unknown>): Promise<number> {
    const uri = pathToFileURL(workspace).href;
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uri,
      workspaceFolders: [{ uri, name: 'bench' }],
      capabilities: { workspace: { configuration: true, codeLens: { refreshSupport: true } }, textDocument: { publishDiagnostics: { versionSupport: true } } },
      initializationOptions: { baselines },
    });
    const answeredAt = performance.now();
    await this.connection.sendNotification('initialized', {});
    return answeredAt - this.spawnedAt;
  }

  /** Resolves when diagnostics for the version arrive, with their arrival time. */
  diagnosticsOf(uri: string, version: number, timeoutMs = 60_000): Promise<number> {
    const find = () => this.published.find((p) => p.uri === uri && p.version === version)?.at;
    const found = find();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} v${version} within ${timeoutMs} ms`)), timeoutMs);
      const waiter = () => {
        const at = find();
        if (at === undefined) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(at);
      };
      this.waiters.push(waiter);
    });
  }

  rssMb(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) / 1024 : Number.NaN;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), delay(2000)]);
      await this.connection.sendNotification('exit');
    } catch {
      // Already gone: the kill below is enough.
    }
    this.connection.dispose();
    if (this.child.exitCode === null) this.child.kill();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A one-line edit repeated keystroke after keystroke: where its value is, and the value each version writes. */
export interface RepeatedEdit {
  at(text: string): { line: number; start: number; end: number };
  value(version: number): string;
}

/** The line of the `CostCenter` tag value on Vpc1 (a SAM template's Description instead): the one-line edit repeated 20 times. */
function editLine(text: string): { line: number; start: number; end: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => /^\s+Value: cc-\d+$/.test(line) && lines[lines.indexOf(line) - 1]?.includes('CostCenter'));
  const line = index >= 0 ? index : lines.findIndex((line) => line.startsWith('Description:'));
  const valueStart = lines[line]!.indexOf(':') + 2;
  return { line, start: valueStart, end: lines[line]!.length };
}

/** Opens the pair's edited side in a fresh server and measures 20 one-line edits. */
export async function benchLspEdits(
  serverFile: string,
  pair: TemplatePair,
  options: { edits: number; settings: unknown; debounceLabel: number | 'default'; edit?: RepeatedEdit },
): Promise<{ edit: LspEditFigures; rssMb: number; initializeMs: number }> {
  const folder = join(tmpdir(), 'cfn-impact-bench', pair.name);
  mkdirSync(folder, { recursive: true });
  const beforePath = join(folder, 'before.yaml');
  const afterPath = join(folder, 'template.yaml');
  writeFileSync(beforePath, pair.before);
  writeFileSync(afterPath, pair.after);
  const uri = pathToFileURL(afterPath).href;
  const server = BenchServer.spawn(serverFile, options.settings);
  try {
    const initializeMs = await server.initialize(folder, { [uri]: { kind: 'file', path: beforePath } });
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: pair.after } });
    await server.diagnosticsOf(uri, 1);
    const edit = options.edit ?? { at: editLine, value: (version: number) => `cc-${3000 + version}` };
    const { line, start, end } = edit.at(pair.after);
    const latencies: number[] = [];
    let previous = pair.after.split('\n')[line]!.slice(start, end);
    for (let version = 2; version < options.edits + 2; version++) {
      const next = edit.value(version);
      const sentAt = performance.now();
      await server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character: start }, end: { line, character: start + previous.length } }, text: next }],
      });
      const arrivedAt = await server.diagnosticsOf(uri, version);
      latencies.push(arrivedAt - sentAt);
      previous = next;
      // Separate keystrokes, not a burst: the next edit comes after a short pause.
      await delay(30);
    }
    const rssMb = server.rssMb();
    return {
      edit: { name: 'lsp-edit', size: pair.size, median_ms: median(latencies), p95_ms: quantile(latencies, 0.95), edits: latencies.length, debounce_ms: options.debounceLabel },
      rssMb,
      initializeMs,
    };
  } finally {
    await server.stop();
  }
}

/** Spawn → initialize answer, and spawn → the first code lens answer on a small template. */
export async function benchLspStart(serverFile: string, pair: TemplatePair): Promise<LspStartFigures> {
  const folder = join(tmpdir(), 'cfn-impact-bench', `${pair.name}-start`);
  mkdirSync(folder, { recursive: true });
  const beforePath = join(folder, 'before.yaml');
  const afterPath = join(folder, 'template.yaml');
  writeFileSync(beforePath, pair.before);
  writeFileSync(afterPath, pair.after);
  const uri = pathToFileURL(afterPath).href;
  const server = BenchServer.spawn(serverFile, {});
  try {
    const initializeMs = await server.initialize(folder, { [uri]: { kind: 'file', path: beforePath } });
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text: pair.after } });
    await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    return { name: 'lsp-start', start_to_initialize_ms: initializeMs, start_to_first_lens_ms: performance.now() - server.spawnedAt };
  } finally {
    await server.stop();
  }
}
