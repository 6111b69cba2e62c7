/**
 * The analysis worker (a worker thread of the language server): it owns the engine work. It loads
 * the specification once, keeps each document's evaluated baseline across edits, and answers
 * every `analyze` message with the diagnostics, the report and the template's outline. One
 * message is handled at a time; the main thread ends this thread when an analysis runs too long.
 */
import { parentPort } from 'node:worker_threads';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { compareSides, evaluateSide, type AnalyzeOptions, type EvaluatedSide, type TemplateSide } from '../../impact';
import type { ImpactReport } from '../../impact/types';
import { tryLoadResourceSpec } from '../../spec/load';
import { buildDiagnostics } from '../diagnostics';
import { describeError } from '../runSafe';
import type { AnalysisReply, AnalysisRequest, FromWorker, SideParameters, ToWorker } from './messages';
import { encodeOutline } from './outline';

interface BaselineEvaluation {
  key: string;
  evaluated: EvaluatedSide;
}

function serve(port: NonNullable<typeof parentPort>): void {
  const loaded = tryLoadResourceSpec();
  const baselines = new Map<string, BaselineEvaluation>();
  const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

  port.on('message', (message: ToWorker) => {
    if (message.kind === 'forget') {
      baselines.delete(message.uri);
      return;
    }
    if (!loaded.ok) {
      send({ kind: 'failed', id: message.id, message: loaded.error });
      return;
    }
    try {
      const reply = analyse(message.request, { spec: loaded.spec, stackName: message.request.stackName, stackStatus: message.request.stackStatus, region: message.request.region });
      send({ kind: 'result', id: message.id, reply }, reply.outline ? [reply.outline.cells.buffer as ArrayBuffer] : []);
    } catch (error) {
      send({ kind: 'failed', id: message.id, message: describeError(error) });
    }
  });

  function analyse(request: AnalysisRequest, options: AnalyzeOptions): AnalysisReply {
    let before: EvaluatedSide | undefined;
    if (request.baseline) {
      const { key, text, parameters } = request.baseline;
      let cached = baselines.get(request.uri);
      if (!cached || cached.key !== key) {
        cached = { key, evaluated: evaluateSide(side(text, parameters), options) };
        baselines.set(request.uri, cached);
      }
      before = cached.evaluated;
    } else {
      baselines.delete(request.uri);
    }
    const edited = side(request.text, request.parameters);
    const after = evaluateSide(edited, options, before);
    if (!after.model.isCloudFormation) return { isTemplate: false, diagnostics: [] };
    const report: ImpactReport | undefined = before ? compareSides(before, after, options) : undefined;
    const document = TextDocument.create(request.uri, request.languageId, request.version, request.text);
    return { isTemplate: true, diagnostics: buildDiagnostics(document, after, report), report, outline: encodeOutline(after.model) };
  }

  send({ kind: 'ready', ...(loaded.ok ? {} : { problem: loaded.error }) });
}

function side(text: string, parameters: SideParameters): TemplateSide {
  const values = parameters.onlyDeclared ? { fallbackParameters: parameters.values } : { parameters: parameters.values };
  return { text, ...values, usePreviousValues: parameters.usePrevious };
}

if (parentPort) serve(parentPort);
