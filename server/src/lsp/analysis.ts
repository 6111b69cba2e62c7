/**
 * Schedules analyses of open documents: debounced after edits, one result per document version,
 * stale work dropped. The engine runs in a worker thread (worker/analysisThread.ts), so a slow
 * analysis never holds up the server; what hovers and lenses need comes back as plain data.
 */
import type { CancellationToken, Diagnostic } from 'vscode-languageserver';
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parentNotUsedNote } from '../present';
import { CLOUDFORMATION_TEMPLATE_LIMIT_BYTES } from '../cloudformation/templateLimits';
import { mayBeTemplate } from '../template/markers';
import type { Baseline } from './baseline/baselines';
import type { AnalysisResult, ParameterValues } from './analysisResult';
import { diagnosticsWhileUnparsed, rejectsUnparsedText, type LastParsed } from './whileUnparsed';
import { diagnosticSource } from './diagnostics';
import { DocumentState, type Waiter } from './documentState';
import type { ParentSource } from './parentSource';
import { describeError, type Logger } from './runSafe';
import type { DocumentSettings } from './settings';
import { AnalysisThread, type AnalysisLimits, type AnalysisOutcome } from './worker/analysisThread';
import type { AnalysisReply, AnalysisRequest, NestedChildren } from './worker/messages';
import { readOutline } from './worker/outline';

export interface AnalyzerDependencies {
  getDocument(uri: string): TextDocument | undefined;
  settingsFor(uri: string): Promise<DocumentSettings>;
  baselineFor(uri: string, settings: DocumentSettings): Promise<Baseline>;
  parametersFor(uri: string, settings: DocumentSettings, baseline: Baseline): Promise<ParameterValues>;
  /** The Region the template deploys to, when the user said it; the linked stack's comes first. */
  regionFor?(uri: string, settings: DocumentSettings): string | undefined;
  /** The child templates of the nested stacks the text names, on both sides; undefined when it names none. */
  childTemplatesFor?(uri: string, text: string, baseline: Baseline): Promise<{ children: NestedChildren; uris: readonly string[] } | undefined>;
  /** For a SAM template on disk: whether each local artifact path it names is beside it; undefined when it names none. */
  artifactsFor?(uri: string, text: string): Promise<Record<string, boolean> | undefined>;
  /** For a nested stack's template opened on its own: the parent that passes it its parameter values, or a note why none does. */
  parentFor?(uri: string, settings: DocumentSettings): Promise<ParentSource | undefined>;
  publish(uri: string, version: number, diagnostics: Diagnostic[]): void;
  /** Called after a finished analysis that was not caused by an edit (baseline or settings changed). */
  refreshed(uri: string): void;
  logger: Logger;
  /** The analysis deadline and the worker's memory; by default the constants, or the environment's overrides. */
  limits?: AnalysisLimits;
}

/** The shortest wait after an edit, so that a burst of keystrokes still coalesces. */
const MIN_EDIT_DELAY_MS = 15;


/**
 * Schedules and runs analyses of the open documents and keeps each one's latest result, all of
 * it in one DocumentState per document, created on open and dropped on close.
 */
export class Analyzer {
  private readonly documents = new Map<string, DocumentState>();
  private readonly thread: AnalysisThread;
  /** For each document, the child templates its last analysis read from the edited side (nested stacks). */
  private readonly childrenOf = new Map<string, ReadonlySet<string>>();
  /** For each document, the parent template its last analysis took parameter values from. */
  private readonly parentOf = new Map<string, string>();

  constructor(private readonly deps: AnalyzerDependencies) {
    this.thread = new AnalysisThread(deps.logger, deps.limits);
  }

  /** Starts keeping a document's state and analyses it at once (a reopened document starts afresh). */
  open(uri: string): void {
    this.close(uri);
    this.documents.set(uri, new DocumentState(uri));
    this.schedule(uri, 0);
  }

  /** The analysis of the document's last text that parsed, against its current baseline, if any. */
  lastParsed(uri: string): LastParsed | undefined {
    return this.documents.get(uri)?.lastParsed;
  }

  /** Whether the document is open here, that is, whether its state is kept. */
  isOpen(uri: string): boolean {
    return this.documents.has(uri);
  }

  /**
   * Analyses an open document after its debounce delay (or at once), replacing any analysis still
   * waiting; a document that is not open is not analysed. After an edit the wait is about as long
   * as the document's last analysis took, capped by `delayMs`: a small template answers almost at
   * once, while a large one is not re-analysed on every keystroke (at most about half the time
   * goes to analysis while someone types). An analysis of an older version that is still running
   * is abandoned unless nearly done.
   */
  schedule(uri: string, delayMs: number, cause: 'edit' | 'refresh' = 'edit'): void {
    const state = this.documents.get(uri);
    if (!state) return;
    this.thread.supersede(uri);
    if (cause === 'refresh') {
      state.refreshPending = true;
      state.outdated = true;
      // Lenses measured against another baseline or settings do not stand in for the next result's.
      state.lastParsed = undefined;
    }
    const lastDuration = state.lastDurationMs;
    const wait = cause === 'edit' && lastDuration !== undefined ? Math.min(delayMs, Math.max(MIN_EDIT_DELAY_MS, Math.ceil(lastDuration))) : delayMs;
    state.runAfter(wait, () => void this.run(state));
  }

  /** Analyses every open document again at once (settings, trust or workspace folders changed). */
  refreshAll(): void {
    for (const uri of this.documents.keys()) this.schedule(uri, 0, 'refresh');
  }

  /**
   * The result for a document version, waiting for its analysis (started at once if it was
   * still in its debounce delay); undefined when the version is gone, the document is not open
   * or the request is cancelled.
   */
  resultFor(uri: string, version: number, token?: CancellationToken): Promise<AnalysisResult | undefined> {
    const state = this.documents.get(uri);
    if (!state) return Promise.resolve(undefined);
    const known = state.resultFor(version);
    if (known) return Promise.resolve(known);
    if (this.deps.getDocument(uri)?.version !== version) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = { version, resolve };
      state.addWaiter(waiter);
      token?.onCancellationRequested(() => state.settle((w) => w === waiter, undefined));
      if (state.cancelWaiting() || state.runningVersion !== version) void this.run(state);
    });
  }

  /** Analyses again, after `delayMs`, every open document that nests `uri` as a child template (it was edited). */
  refreshParentsOf(uri: string, delayMs: number): void {
    for (const [parent, children] of this.childrenOf) if (parent !== uri && children.has(uri)) this.schedule(parent, delayMs, 'refresh');
  }

  /** Analyses again, after `delayMs`, every open document that took its parameter values from `uri` (it was edited). */
  refreshChildrenOf(uri: string, delayMs: number): void {
    for (const [child, parent] of this.parentOf) if (child !== uri && parent === uri) this.schedule(child, delayMs, 'refresh');
  }

  /** Drops a closed document's state, its queued or running analysis and the worker's baseline for it. */
  close(uri: string): void {
    const state = this.documents.get(uri);
    this.childrenOf.delete(uri);
    this.parentOf.delete(uri);
    if (!state) return;
    this.documents.delete(uri);
    state.dispose();
    this.thread.forget(uri);
  }

  /** Stops every pending analysis and the worker (shutdown). */
  dispose(): void {
    for (const state of this.documents.values()) state.dispose();
    this.documents.clear();
    this.thread.dispose();
  }

  private async run(state: DocumentState): Promise<void> {
    const uri = state.uri;
    const document = this.deps.getDocument(uri);
    if (!document || this.documents.get(uri) !== state) return;
    const version = document.version;
    state.runningVersion = version;
    const current = () => this.documents.get(uri) === state && this.deps.getDocument(uri)?.version === version;
    const started = performance.now();
    try {
      const result = await this.analyse(uri, document, current);
      if (!result) {
        // A newer version arrived while this one was analysed: its own analysis answers.
        state.settle((w) => w.version <= version && !current(), undefined);
        return;
      }
      state.lastDurationMs = performance.now() - started;
      // A document closed meanwhile has had its diagnostics cleared: nothing more is published for it.
      if (this.documents.get(uri) !== state) return;
      const previous = state.latest;
      if (result.report && rejectsUnparsedText(result.report)) {
        if (state.lastParsed) result.diagnostics = diagnosticsWhileUnparsed(result.document, result.diagnostics, state.lastParsed);
      } else if (result.report && result.after) {
        state.lastParsed = { text: result.text, after: result.after, report: result.report, diagnostics: result.diagnostics };
      }
      state.latest = result;
      state.outdated = false;
      if (result.isTemplate || previous?.isTemplate !== false) this.deps.publish(uri, version, result.diagnostics);
      state.settle((w) => w.version === version, result);
      if (state.refreshPending) {
        state.refreshPending = false;
        this.deps.refreshed(uri);
      }
    } catch (error) {
      this.deps.logger.error(`analysis of ${uri} failed: ${describeError(error)}`);
      // No retry loop: requests take the previous result until the next edit or refresh.
      if (current()) state.outdated = false;
      state.settle((w) => w.version === version, undefined);
    } finally {
      if (state.runningVersion === version) state.runningVersion = undefined;
    }
  }

  /** One analysis; undefined when the document changed (or was analysed again) before it finished. */
  private async analyse(uri: string, document: TextDocument, current: () => boolean): Promise<AnalysisResult | undefined> {
    const version = document.version;
    const text = document.getText();
    const base = { uri, version, document, text };
    if (!mayBeTemplate(text)) return { ...base, isTemplate: false, diagnostics: [] };
    const size = byteLength(text);
    if (size > CLOUDFORMATION_TEMPLATE_LIMIT_BYTES) return { ...base, isTemplate: true, diagnostics: [tooLargeDiagnostic(size)] };

    const settings = await this.deps.settingsFor(uri);
    const baseline = await this.deps.baselineFor(uri, settings);
    const parameters = await this.deps.parametersFor(uri, settings, baseline);
    const nested = await this.deps.childTemplatesFor?.(uri, text, baseline);
    const parent = await this.deps.parentFor?.(uri, settings);
    const artifacts = await this.deps.artifactsFor?.(uri, text);
    if (!current()) return undefined;
    if (nested) this.childrenOf.set(uri, new Set(nested.uris));
    else this.childrenOf.delete(uri);
    if (parent?.uri) this.parentOf.set(uri, parent.uri);
    else this.parentOf.delete(uri);

    const request = analysisRequest(document, text, baseline, parameters, this.deps.regionFor?.(uri, settings));
    // A linked stack named in cfnImpact.baseline.revertDrift is previewed as a REVERT_DRIFT change set would update it.
    if (request.drift && baseline.stack && settings.revertDrift.includes(baseline.stack.name)) request.revertDrift = true;
    if (settings.withoutSamCli) {
      request.withoutSamCli = true;
      // The baseline is expanded the same way: that is part of what identifies its evaluation.
      if (request.baseline) request.baseline.key += '|without-sam-cli';
    }
    if (nested) request.nested = nested.children;
    if (artifacts) request.artifacts = artifacts;
    if (parent?.template) {
      request.parent = parent.template;
      // The baseline is evaluated with what the parent's baseline passes: that is part of what identifies it.
      if (request.baseline) request.baseline.key += `|parent:${parent.baselineKey ?? ''}`;
    }
    const outcome = await this.thread.analyse(request);
    const reply = replyOf(outcome);
    if (reply === 'stale') return undefined;
    if (!reply.isTemplate) return { ...base, isTemplate: false, diagnostics: [] };
    const diagnostics = reply.diagnostics;
    if (parameters.problem) diagnostics.push(firstLineDiagnostic(DiagnosticSeverity.Warning, 'parameters-file', parameters.problem));
    const parentNote = parent?.note ?? (parent?.name !== undefined && reply.parentNests === false ? parentNotUsedNote(parent.name, 'not-nesting') : undefined);
    if (parentNote) diagnostics.push(firstLineDiagnostic(DiagnosticSeverity.Information, 'nested-parent', parentNote));
    const parametersFrom = reply.parentNests ? parent?.name : undefined;
    return {
      ...base,
      isTemplate: true,
      after: reply.outline ? readOutline(reply.outline) : undefined,
      report: reply.report,
      baseline,
      ...(parametersFrom !== undefined ? { parametersFrom } : {}),
      diagnostics,
    };
  }
}

/** What the worker's outcome means for the document: a reply to publish, or nothing (`stale`); a failure is thrown to `run`, which logs it. */
function replyOf(outcome: AnalysisOutcome): AnalysisReply | 'stale' {
  switch (outcome.kind) {
    case 'done':
      return outcome.reply;
    case 'superseded':
      return 'stale';
    case 'stopped':
      return { isTemplate: true, diagnostics: [firstLineDiagnostic(DiagnosticSeverity.Warning, 'analysis-stopped', stoppedMessage(outcome.afterMs))] };
    case 'crashed':
      return { isTemplate: true, diagnostics: [firstLineDiagnostic(DiagnosticSeverity.Warning, 'analysis-failed', `Analysis failed: ${outcome.message}.`)] };
    case 'failed':
      throw new Error(outcome.message);
  }
}

/** The worker's request for one version: the text, its parameter values, the stack and the baseline. */
function analysisRequest(document: TextDocument, text: string, baseline: Baseline, parameters: ParameterValues, region: string | undefined): AnalysisRequest {
  // A linked stack's values carry over only to parameters the edited template still declares
  // (UsePreviousValue); a parameters file configured for this template is taken as written.
  const request: AnalysisRequest = {
    uri: document.uri,
    version: document.version,
    languageId: document.languageId,
    text,
    parameters: { values: parameters.values, onlyDeclared: parameters.source === 'stack', usePrevious: parameters.usePrevious },
    stackName: baseline.stack?.name,
    stackStatus: baseline.stack?.status,
    // The linked stack runs where it runs; otherwise the Region is the user's word, or unknown.
    region: baseline.stack?.region ?? region,
  };
  if (baseline.stack?.accountId !== undefined) request.accountId = baseline.stack.accountId;
  // Read with the baseline; its generation, in the key below, changes whenever they do.
  if (baseline.crossStack) request.crossStack = baseline.crossStack;
  if (baseline.lastOperationFailures) request.lastOperationFailures = baseline.lastOperationFailures;
  if (baseline.drift) request.drift = baseline.drift;
  if (baseline.text !== undefined) {
    // A stack baseline has its own deployed values; a git or file baseline is compared under the same values as the edit.
    const values = baseline.parameters ?? parameters.values;
    request.baseline = {
      key: `${baseline.generation}|${request.stackName ?? ''}|${request.region ?? ''}|${request.accountId ?? ''}|${JSON.stringify(values)}`,
      text: baseline.text,
      parameters: { values, onlyDeclared: baseline.parameters === undefined },
    };
  }
  return request;
}

/** The text's size in UTF-8 bytes, without encoding it when its length alone decides. */
function byteLength(text: string): number {
  // A UTF-16 code unit takes one to three bytes (a surrogate pair, two units, takes four).
  if (text.length > CLOUDFORMATION_TEMPLATE_LIMIT_BYTES || text.length * 3 <= CLOUDFORMATION_TEMPLATE_LIMIT_BYTES) return text.length;
  return Buffer.byteLength(text, 'utf8');
}

function tooLargeDiagnostic(size: number): Diagnostic {
  return firstLineDiagnostic(
    DiagnosticSeverity.Warning,
    'template-too-large',
    `This file is ${size.toLocaleString('en-US')} bytes, larger than CloudFormation's 1 MB template limit (1,000,000 bytes): it is not analysed.`,
  );
}

/** The message shown when an analysis ran out of time. */
export function stoppedMessage(afterMs: number): string {
  return `Analysis stopped after ${afterMs / 1000} s: the template is too expensive to analyse on every edit`;
}

function firstLineDiagnostic(severity: DiagnosticSeverity, code: string, message: string): Diagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity, code, source: diagnosticSource, message };
}
