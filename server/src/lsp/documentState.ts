/**
 * What the server keeps about the analyses of one open document. The Analyzer creates it when
 * the document opens and drops it when the document closes; no other per-document analysis state
 * exists, so a closed document leaves nothing behind once its state is disposed.
 */
import type { AnalysisResult } from './analysisResult';
import type { LastParsed } from './whileUnparsed';

/** A request waiting for the result of one version. */
export interface Waiter {
  version: number;
  resolve(result: AnalysisResult | undefined): void;
}

/** One open document's pending, running and finished analyses. */
export class DocumentState {
  /** The version whose analysis is running, if one is. */
  runningVersion: number | undefined;
  /** The latest result, whatever its version. */
  latest: AnalysisResult | undefined;
  /** The analysis of the last text that parsed, against the current baseline: its lenses stand in while the text does not parse. */
  lastParsed: LastParsed | undefined;
  /** The latest result predates a change of baseline or settings: requests wait for the next one. */
  outdated = false;
  /** The next result follows a refresh rather than an edit, so clients are told to ask again for lenses. */
  refreshPending = false;
  /** How long the last completed analysis took, in milliseconds. */
  lastDurationMs: number | undefined;
  /** The timer of the next analysis while it waits out its delay. */
  private timer: NodeJS.Timeout | undefined;
  private waiters: Waiter[] = [];

  constructor(readonly uri: string) {}

  /** Runs the next analysis after `delayMs`, replacing one still waiting. */
  runAfter(delayMs: number, run: () => void): void {
    this.cancelWaiting();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      run();
    }, delayMs);
  }

  /** Cancels the analysis that waits out its delay; true when there was one. */
  cancelWaiting(): boolean {
    if (!this.timer) return false;
    clearTimeout(this.timer);
    this.timer = undefined;
    return true;
  }

  /** The latest result when it answers for `version`: that version's, and not outdated. */
  resultFor(version: number): AnalysisResult | undefined {
    return this.latest?.version === version && !this.outdated ? this.latest : undefined;
  }

  /** Adds a request that waits for a version's result. */
  addWaiter(waiter: Waiter): void {
    this.waiters.push(waiter);
  }

  /** Answers the waiting requests that `matches` selects with `result`. */
  settle(matches: (waiter: Waiter) => boolean, result: AnalysisResult | undefined): void {
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => {
      if (!matches(waiter)) return true;
      waiter.resolve(result);
      return false;
    });
  }

  /** Ends the document's analyses: the waiting one is cancelled and every waiting request is answered with nothing. */
  dispose(): void {
    this.cancelWaiting();
    this.settle(() => true, undefined);
    this.latest = undefined;
    this.lastParsed = undefined;
  }
}
