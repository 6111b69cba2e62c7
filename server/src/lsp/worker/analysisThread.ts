/**
 * The main thread's side of the analysis worker: a queue of analyses (at most one per document),
 * one of them in the worker at a time, each with a deadline. A runaway analysis, or a stale one
 * that is still far from done, is ended by terminating the worker and starting a fresh one: the
 * main thread never waits for it, and the other documents' analyses go on in the new worker.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describeError, type Logger } from '../runSafe';
import { ChildTemplatesSent } from './childTemplatesSent';
import type { AnalysisReply, AnalysisRequest, FromWorker, ToWorker } from './messages';

/** How one requested analysis ended. */
export type AnalysisOutcome =
  | { kind: 'done'; reply: AnalysisReply }
  /** A newer request for the same document (or its closing) made this one pointless. */
  | { kind: 'superseded' }
  /** It ran past the deadline and was stopped. */
  | { kind: 'stopped'; afterMs: number }
  /** The engine failed on it (a bug) or the worker could not start; the message is for the log. */
  | { kind: 'failed'; message: string }
  /** The worker died while running it (out of memory, for instance). */
  | { kind: 'crashed'; message: string };

/**
 * How long one analysis may run. Analysing a 2,000-resource template takes about 0.3 s, so only
 * pathological input gets near 3 s (the yaml parser needs ~3.4 s for a 1 MB JSON list of
 * 500,000 numbers); such a template cannot be analysed on every edit anyway.
 */
export const ANALYSIS_DEADLINE_MS = 3000;

/**
 * How long a stale analysis (its document changed since) may still run before the worker is
 * ended. A fresh worker costs 0.1 to 0.2 s to start and loses the cached baselines, so a stale
 * analysis that is nearly done is cheaper to let finish (its result is dropped).
 */
export const STALE_GRACE_MS = 500;

/** The worker's heap ceiling: a template that needs more exhausts the worker, not the server. */
export const WORKER_HEAP_MB = 1024;

/**
 * The worker's young generation. V8's default lets it grow to 48 MB, which with the 500-resource
 * template open made the server (both threads) ~142 MB resident; at 24 MB it was ~126 MB, and
 * edits answered as fast at 500 and 2,000 resources. A SAM template is expanded in full at each
 * keystroke, which allocates more: on the 1,003-resource SAM pair, 30 edits to a parameter's
 * default answered in a median 119–126 ms at 24 MB, 103–114 ms at 32 MB and 103–104 ms at 48 MB
 * (2026-12-06), so 32 MB.
 */
const WORKER_YOUNG_GENERATION_MB = 32;

/** After unexpected worker deaths within this window, restarts wait longer and longer. */
const CRASH_WINDOW_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;

export interface AnalysisLimits {
  deadlineMs: number;
  heapMb: number;
}

/**
 * The limits, which operators (and the protocol tests) may override with the environment
 * variables `CFN_IMPACT_ANALYSIS_DEADLINE_MS` and `CFN_IMPACT_ANALYSIS_HEAP_MB`.
 */
export function analysisLimits(environment: NodeJS.ProcessEnv = process.env): AnalysisLimits {
  const positive = (text: string | undefined, fallback: number) => {
    const value = Number(text);
    return text && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    deadlineMs: positive(environment.CFN_IMPACT_ANALYSIS_DEADLINE_MS, ANALYSIS_DEADLINE_MS),
    heapMb: positive(environment.CFN_IMPACT_ANALYSIS_HEAP_MB, WORKER_HEAP_MB),
  };
}

interface Job {
  id: number;
  request: AnalysisRequest;
  resolve(outcome: AnalysisOutcome): void;
  superseded: boolean;
  startedAt: number;
}

/** Runs analyses in a worker thread that it restarts as needed. */
export class AnalysisThread {
  private worker: Worker | undefined;
  private ready = false;
  private spawnedAt = 0;
  private lastError: Error | undefined;
  private readonly queue: Job[] = [];
  private inFlight: Job | undefined;
  private deadlineTimer: NodeJS.Timeout | undefined;
  private graceTimer: NodeJS.Timeout | undefined;
  private spawnTimer: NodeJS.Timeout | undefined;
  private readonly crashes: number[] = [];
  private restartNotBefore = 0;
  private nextId = 1;
  private disposed = false;
  /** What the running worker holds of each document's child templates; a new worker holds nothing. */
  private childrenSent = new ChildTemplatesSent();

  constructor(
    private readonly logger: Logger,
    private readonly limits: AnalysisLimits = analysisLimits(),
  ) {
    // Started at once, so that the first analysis does not wait for the worker to boot.
    this.spawn();
  }

  /** Analyses one document version; an older request for the same document is superseded. */
  analyse(request: AnalysisRequest): Promise<AnalysisOutcome> {
    if (this.disposed) return Promise.resolve({ kind: 'superseded' });
    this.supersede(request.uri);
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, request, resolve, superseded: false, startedAt: 0 });
      this.pump();
    });
  }

  /**
   * Marks a document's queued or running analysis as stale: a queued one is dropped, a running
   * one may finish within the grace time (its result is dropped), else the worker is ended.
   */
  supersede(uri: string): void {
    const queued = this.queue.findIndex((job) => job.request.uri === uri);
    if (queued >= 0) this.queue.splice(queued, 1)[0]!.resolve({ kind: 'superseded' });
    const job = this.inFlight;
    if (!job || job.request.uri !== uri || job.superseded) return;
    job.superseded = true;
    const remaining = STALE_GRACE_MS - (performance.now() - job.startedAt);
    if (remaining <= 0) this.abandon(job, { kind: 'superseded' });
    else this.graceTimer = setTimeout(() => this.abandon(job, { kind: 'superseded' }), remaining);
  }

  /** Drops a closed document's work and the worker's cached baseline for it. */
  forget(uri: string): void {
    this.supersede(uri);
    this.childrenSent.forget(uri);
    if (this.ready) this.post({ kind: 'forget', uri });
  }

  /** Ends the worker and every pending analysis (shutdown). */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.spawnTimer);
    this.clearJobTimers();
    for (const job of this.queue.splice(0)) job.resolve({ kind: 'superseded' });
    const job = this.inFlight;
    this.inFlight = undefined;
    job?.resolve({ kind: 'superseded' });
    this.endWorker();
  }

  private pump(): void {
    if (this.disposed || this.inFlight || this.queue.length === 0) return;
    if (!this.worker) {
      this.spawnWhenAllowed();
      return;
    }
    if (!this.ready) return;
    const job = this.queue.shift()!;
    job.startedAt = performance.now();
    this.inFlight = job;
    const { nested, ...rest } = job.request;
    this.post({ kind: 'analyze', id: job.id, request: nested ? { ...rest, nested: this.childrenSent.update(rest.uri, nested) } : rest });
    this.deadlineTimer = setTimeout(() => this.abandon(job, { kind: 'stopped', afterMs: this.limits.deadlineMs }), this.limits.deadlineMs);
  }

  private receive(message: FromWorker): void {
    if (message.kind === 'ready') {
      this.ready = true;
      if (message.problem) this.logger.error(`analysis worker: ${message.problem}`);
      this.logger.info(`analysis worker ready in ${Math.round(performance.now() - this.spawnedAt)} ms`);
      this.pump();
      return;
    }
    const job = this.inFlight;
    if (!job || job.id !== message.id) return;
    this.clearJobTimers();
    this.inFlight = undefined;
    if (job.superseded) job.resolve({ kind: 'superseded' });
    else if (message.kind === 'result') job.resolve({ kind: 'done', reply: message.reply });
    else job.resolve({ kind: 'failed', message: message.message });
    this.pump();
  }

  /** Ends a job that must not be waited for, with the worker running it; the queue goes on in a fresh worker. */
  private abandon(job: Job, outcome: AnalysisOutcome): void {
    if (this.inFlight !== job) return;
    this.clearJobTimers();
    this.inFlight = undefined;
    this.endWorker();
    if (outcome.kind === 'stopped') this.logger.info(`analysis of ${job.request.uri} v${job.request.version} stopped after ${outcome.afterMs} ms`);
    job.resolve(outcome);
    this.pump();
  }

  private spawn(): void {
    const entry = workerEntry();
    this.spawnedAt = performance.now();
    this.ready = false;
    this.childrenSent = new ChildTemplatesSent();
    this.lastError = undefined;
    let worker: Worker;
    try {
      worker = new Worker(entry.file, {
        execArgv: entry.execArgv,
        resourceLimits: { maxOldGenerationSizeMb: this.limits.heapMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
        // Piped, not inherited: the server's stdout may be the LSP channel.
        stdout: true,
        stderr: true,
      });
    } catch (error) {
      this.workerDied(`the analysis worker could not start: ${describeError(error)}`);
      return;
    }
    this.worker = worker;
    // The worker never keeps the server alive on its own.
    worker.unref();
    worker.stdout.setEncoding('utf8').on('data', (text: string) => this.logger.info(`analysis worker: ${text.trimEnd()}`));
    worker.stderr.setEncoding('utf8').on('data', (text: string) => this.logger.error(`analysis worker: ${text.trimEnd()}`));
    worker.on('message', (message: FromWorker) => {
      if (this.worker === worker) this.receive(message);
    });
    worker.on('error', (error) => {
      if (this.worker !== worker) return;
      this.lastError = error;
      this.logger.error(`analysis worker: ${describeError(error)}`);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.workerDied(this.describeDeath(code));
    });
  }

  private describeDeath(code: number): string {
    const error = this.lastError;
    if ((error as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return `the analysis needed more than the ${this.limits.heapMb} MB of memory it may use`;
    }
    return error ? `the analysis worker stopped (${error.message})` : `the analysis worker exited with code ${code}`;
  }

  /** An unexpected end of the worker: the running analysis fails, the rest waits for a restart that backs off. */
  private workerDied(message: string): void {
    this.ready = false;
    this.clearJobTimers();
    const now = performance.now();
    this.crashes.push(now);
    while (this.crashes.length > 0 && this.crashes[0]! < now - CRASH_WINDOW_MS) this.crashes.shift();
    const delay = this.crashes.length <= 1 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (this.crashes.length - 2));
    this.restartNotBefore = now + delay;
    this.logger.error(`${message}${delay > 0 ? `; restarting in ${delay} ms` : ''}`);
    const job = this.inFlight;
    this.inFlight = undefined;
    if (job) {
      job.resolve(job.superseded ? { kind: 'superseded' } : { kind: 'crashed', message });
    } else {
      // It died before it could take any work (it cannot start): the waiting analyses fail
      // rather than wait; the next request tries again, no sooner than the back-off allows.
      for (const waiting of this.queue.splice(0)) waiting.resolve({ kind: 'failed', message });
    }
    this.pump();
  }

  private spawnWhenAllowed(): void {
    if (this.spawnTimer) return;
    const wait = this.restartNotBefore - performance.now();
    if (wait <= 0) {
      this.spawn();
      return;
    }
    this.spawnTimer = setTimeout(() => {
      this.spawnTimer = undefined;
      if (!this.worker && !this.disposed) this.spawn();
    }, wait);
  }

  private endWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.ready = false;
    // Not awaited: terminate() interrupts the running JavaScript, and nothing here depends on when.
    worker?.terminate().catch(() => undefined);
  }

  private post(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private clearJobTimers(): void {
    clearTimeout(this.deadlineTimer);
    clearTimeout(this.graceTimer);
    this.deadlineTimer = undefined;
    this.graceTimer = undefined;
  }
}

/**
 * Where the worker's code is. From the sources (under tsx) this module is a .ts file beside
 * analysisWorker.ts, which tsx's CommonJS hook compiles inside the worker thread; from the
 * bundle, dist/analysisWorker.js sits beside dist/server.js.
 */
function workerEntry(): { file: string; execArgv: string[] } {
  if (__filename.endsWith('.ts')) {
    return { file: join(__dirname, 'analysisWorker.ts'), execArgv: ['--require', createRequire(__filename).resolve('tsx/cjs')] };
  }
  return { file: join(__dirname, 'analysisWorker.js'), execArgv: [] };
}
