/**
 * Runs the engine on open documents: debounced after edits, one result per document version,
 * stale work dropped between stages, and the baseline's evaluation reused across edits.
 */
import type { CancellationToken, Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { EvaluatedTemplate } from '../evaluate/types';
import type { ImpactReport } from '../impact/types';
import { compareTemplates, evaluateSide, type AnalyzeOptions } from '../impact';
import type { ResourceSpec } from '../spec/types';
import type { Baseline } from './baseline/baselines';
import { buildDiagnostics, diagnosticSource } from './diagnostics';
import { describeError, type Logger } from './runSafe';
import type { DocumentSettings } from './settings';

/** The outcome of analysing one version of one document. */
export interface AnalysisResult {
  uri: string;
  version: number;
  document: TextDocument;
  /** Whether the content is a CloudFormation template; other YAML/JSON gets no findings at all. */
  isTemplate: boolean;
  after?: EvaluatedTemplate;
  /** Absent when the document has no baseline (only template problems are shown then). */
  report?: ImpactReport;
  baseline?: Baseline;
  diagnostics: Diagnostic[];
}

/** Parameter values for the new side, or a problem reading the configured file. */
export interface ParameterValues {
  values: Record<string, string>;
  /** Where they came from, for logs: a file path, `stack`, or `defaults`. */
  source: string;
  problem?: string;
}

export interface AnalyzerDependencies {
  getDocument(uri: string): TextDocument | undefined;
  spec(): ResourceSpec;
  settingsFor(uri: string): Promise<DocumentSettings>;
  baselineFor(uri: string, settings: DocumentSettings): Promise<Baseline>;
  parametersFor(uri: string, settings: DocumentSettings, baseline: Baseline): Promise<ParameterValues>;
  publish(uri: string, version: number, diagnostics: Diagnostic[]): void;
  /** Called after a finished analysis that was not caused by an edit (baseline or settings changed). */
  refreshed(uri: string): void;
  logger: Logger;
}

interface Waiter {
  version: number;
  resolve(result: AnalysisResult | undefined): void;
}

interface BaselineEvaluation {
  key: string;
  evaluated: EvaluatedTemplate;
}

/** The shortest wait after an edit, so that a burst of keystrokes still coalesces. */
const MIN_EDIT_DELAY_MS = 15;

/** Only texts that mention one of these keys can be templates; the rest is rejected without parsing. */
const templateMarkers = ['AWSTemplateFormatVersion', 'Resources'];

/** Schedules and runs analyses and keeps the latest result of each document. */
export class Analyzer {
  private readonly results = new Map<string, AnalysisResult>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly baselineEvaluations = new Map<string, BaselineEvaluation>();
  private readonly notEditTriggered = new Set<string>();
  /** How long the last completed analysis of each document took, in milliseconds. */
  private readonly durations = new Map<string, number>();

  constructor(private readonly deps: AnalyzerDependencies) {}

  /**
   * Analyses a document after its debounce delay (or at once), replacing any analysis still waiting.
   * After an edit the wait is about as long as the document's last analysis took, capped by
   * `delayMs`: a small template answers almost at once, while a large one is not re-analysed on
   * every keystroke (at most about half the time goes to analysis while someone types).
   */
  schedule(uri: string, delayMs: number, cause: 'edit' | 'refresh' = 'edit'): void {
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    if (cause === 'refresh') this.notEditTriggered.add(uri);
    const lastDuration = this.durations.get(uri);
    const wait = cause === 'edit' && lastDuration !== undefined ? Math.min(delayMs, Math.max(MIN_EDIT_DELAY_MS, Math.ceil(lastDuration))) : delayMs;
    const timer = setTimeout(() => {
      this.timers.delete(uri);
      void this.run(uri);
    }, wait);
    this.timers.set(uri, timer);
  }

  /** The latest result of a document, whatever its version. */
  latest(uri: string): AnalysisResult | undefined {
    return this.results.get(uri);
  }

  /**
   * The result for a document version, waiting for its analysis (started at once if it was
   * still in its debounce delay); undefined when the version is gone or the request is cancelled.
   */
  resultFor(uri: string, version: number, token?: CancellationToken): Promise<AnalysisResult | undefined> {
    const known = this.results.get(uri);
    if (known && known.version === version) return Promise.resolve(known);
    if (this.deps.getDocument(uri)?.version !== version) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = { version, resolve };
      const list = this.waiters.get(uri) ?? [];
      list.push(waiter);
      this.waiters.set(uri, list);
      token?.onCancellationRequested(() => this.settle(uri, (w) => w === waiter, undefined));
      const pending = this.timers.get(uri);
      if (pending) {
        clearTimeout(pending);
        this.timers.delete(uri);
        void this.run(uri);
      } else if (this.running.get(uri) !== version) {
        void this.run(uri);
      }
    });
  }

  /** Forgets a closed document. */
  forget(uri: string): void {
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.delete(uri);
    this.results.delete(uri);
    this.durations.delete(uri);
    this.baselineEvaluations.delete(uri);
    this.notEditTriggered.delete(uri);
    this.settle(uri, () => true, undefined);
  }

  /** Stops every pending analysis (shutdown). */
  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async run(uri: string): Promise<void> {
    const document = this.deps.getDocument(uri);
    if (!document) return;
    const version = document.version;
    this.running.set(uri, version);
    const current = () => this.deps.getDocument(uri)?.version === version;
    const started = performance.now();
    try {
      const result = await this.analyse(uri, document, current);
      if (result) this.durations.set(uri, performance.now() - started);
      if (!result) {
        // A newer version arrived while this one was analysed: its own analysis answers.
        this.settle(uri, (w) => w.version <= version && !current(), undefined);
        return;
      }
      const previous = this.results.get(uri);
      this.results.set(uri, result);
      if (result.isTemplate || previous?.isTemplate !== false) this.deps.publish(uri, version, result.diagnostics);
      this.settle(uri, (w) => w.version === version, result);
      if (this.notEditTriggered.delete(uri)) this.deps.refreshed(uri);
    } catch (error) {
      this.deps.logger.error(`analysis of ${uri} failed: ${describeError(error)}`);
      this.settle(uri, (w) => w.version === version, undefined);
    } finally {
      if (this.running.get(uri) === version) this.running.delete(uri);
    }
  }

  /** One analysis; undefined when the document changed before it finished. */
  private async analyse(uri: string, document: TextDocument, current: () => boolean): Promise<AnalysisResult | undefined> {
    const version = document.version;
    const text = document.getText();
    const base = { uri, version, document };
    if (!templateMarkers.some((marker) => text.includes(marker))) return { ...base, isTemplate: false, diagnostics: [] };

    const settings = await this.deps.settingsFor(uri);
    const baseline = await this.deps.baselineFor(uri, settings);
    const parameters = await this.deps.parametersFor(uri, settings, baseline);
    if (!current()) return undefined;
    // Let queued edits arrive before the expensive part, so it is skipped when already stale.
    await yieldToEventLoop();
    if (!current()) return undefined;

    const options: AnalyzeOptions = {
      spec: this.deps.spec(),
      stackName: baseline.stack?.name,
      stackStatus: baseline.stack?.status,
      region: baseline.stack?.region,
    };
    // A linked stack's values carry over only to parameters the edited template still declares
    // (UsePreviousValue); a parameters file configured for this template is taken as written.
    const after = evaluateSide(
      parameters.source === 'stack' ? { text, fallbackParameters: parameters.values } : { text, parameters: parameters.values },
      options,
    );
    if (!after.model.isCloudFormation) return { ...base, isTemplate: false, diagnostics: [] };

    let report: ImpactReport | undefined;
    if (baseline.text !== undefined) {
      const before = this.evaluateBaseline(uri, baseline, parameters, options);
      await yieldToEventLoop();
      if (!current()) return undefined;
      report = compareTemplates(before, after, options);
    }
    const diagnostics = buildDiagnostics(document, after, report);
    if (parameters.problem) {
      diagnostics.push({
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: DiagnosticSeverity.Warning,
        code: 'parameters-file',
        source: diagnosticSource,
        message: parameters.problem,
      });
    }
    return { ...base, isTemplate: true, after, report, baseline, diagnostics };
  }

  /** The baseline evaluated with its parameters: computed once per baseline text and parameter values. */
  private evaluateBaseline(uri: string, baseline: Baseline, parameters: ParameterValues, options: AnalyzeOptions): EvaluatedTemplate {
    // A stack baseline has its own deployed values; a git or file baseline is compared under the same values as the edit.
    const values = baseline.parameters ?? parameters.values;
    const key = `${baseline.generation}|${options.stackName ?? ''}|${options.region ?? ''}|${JSON.stringify(values)}`;
    const cached = this.baselineEvaluations.get(uri);
    if (cached && cached.key === key) return cached.evaluated;
    const evaluated = evaluateSide(
      baseline.parameters ? { text: baseline.text ?? '', parameters: values } : { text: baseline.text ?? '', fallbackParameters: values },
      options,
    );
    this.baselineEvaluations.set(uri, { key, evaluated });
    return evaluated;
  }

  private settle(uri: string, matches: (waiter: Waiter) => boolean, result: AnalysisResult | undefined): void {
    const list = this.waiters.get(uri);
    if (!list) return;
    const remaining = list.filter((waiter) => {
      if (!matches(waiter)) return true;
      waiter.resolve(result);
      return false;
    });
    if (remaining.length > 0) this.waiters.set(uri, remaining);
    else this.waiters.delete(uri);
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
