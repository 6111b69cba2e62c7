/**
 * The analysis worker (a worker thread of the language server): it owns the engine work. It loads
 * the specification once, keeps each document's evaluated baseline across edits, and answers
 * every `analyze` message with the diagnostics, the report and the template's outline. One
 * message is handled at a time; the main thread ends this thread when an analysis runs too long.
 */
import { parentPort } from 'node:worker_threads';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeUpdate, evaluateSide, parametersPassedToChild, type AnalyzeOptions, type ChildTemplate, type EvaluatedSide, type NestedTemplates, type TemplateSide } from '../../impact';
import type { Value } from '../../evaluate/value';
import type { ImpactReport } from '../../impact/types';
import { tryLoadResourceSpec } from '../../spec/load';
import { buildDiagnostics } from '../diagnostics';
import { describeError } from '../runSafe';
import { BaselineEvaluations } from './baselineEvaluations';
import { ChildTemplatesHeld } from './childTemplatesSent';
import type { AnalysisMessage, AnalysisReply, FromWorker, NestedChildren, ParentTemplate, SideParameters, ToWorker } from './messages';
import { encodeOutline } from './outline';

function serve(port: NonNullable<typeof parentPort>): void {
  const loaded = tryLoadResourceSpec();
  const baselines = new BaselineEvaluations();
  const children = new ChildTemplatesHeld();
  const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

  port.on('message', (message: ToWorker) => {
    if (message.kind === 'forget') {
      baselines.forget(message.uri);
      children.forget(message.uri);
      return;
    }
    if (!loaded.ok) {
      send({ kind: 'failed', id: message.id, message: loaded.error });
      return;
    }
    try {
      const { stackName, stackStatus, region, accountId, crossStack, nested, lastOperationFailures, withoutSamCli, drift, revertDrift } = message.request;
      const options: AnalyzeOptions = { spec: loaded.spec, stackName, stackStatus, region, accountId, ...(crossStack ? { crossStack } : {}), ...(lastOperationFailures ? { lastOperationFailures } : {}), ...(drift ? { drift } : {}), ...(revertDrift ? { revertDrift } : {}) };
      if (nested) options.nested = nestedTemplates(children.apply(message.request.uri, nested));
      if (withoutSamCli) options.withoutSamCli = true;
      const reply = analyse(message.request, options);
      send({ kind: 'result', id: message.id, reply }, reply.outline ? [reply.outline.cells.buffer as ArrayBuffer] : []);
    } catch (error) {
      send({ kind: 'failed', id: message.id, message: describeError(error) });
    }
  });

  /** The engine's one pipeline, with the document's baseline evaluation kept across edits. */
  function analyse(request: AnalysisMessage, options: AnalyzeOptions): AnalysisReply {
    const edited = side(request.text, request.parameters);
    if (request.artifacts) edited.artifacts = new Map(Object.entries(request.artifacts));
    const passed = request.parent ? parentPasses(request.parent, options) : undefined;
    if (passed?.after) edited.passedParameters = passed.after;
    const withParent = (answer: AnalysisReply): AnalysisReply => (passed ? { ...answer, parentNests: passed.after !== undefined } : answer);
    if (!request.baseline) {
      baselines.forget(request.uri);
      return withParent(reply(request, evaluateSide(edited, options), undefined));
    }
    const { key, text, parameters } = request.baseline;
    const before = side(text, parameters);
    if (passed?.before) before.passedParameters = passed.before;
    const { after, report } = analyzeUpdate(before, edited, options, { baselineCache: baselines.of(request.uri, key), baselineKey: key });
    return withParent(reply(request, after, report));
  }

  send({ kind: 'ready', ...(loaded.ok ? {} : { problem: loaded.error }) });
}

/** What the main thread needs of an analysis: nothing for a file that is not a template. */
function reply(request: AnalysisMessage, after: EvaluatedSide, report: ImpactReport | undefined): AnalysisReply {
  if (!after.model.isCloudFormation) return { isTemplate: false, diagnostics: [] };
  const document = TextDocument.create(request.uri, request.languageId, request.version, request.text);
  return { isTemplate: true, diagnostics: buildDiagnostics(document, after, report), report, outline: encodeOutline(after) };
}

/** The engine's reader of child templates over what the main thread read ahead. */
function nestedTemplates(nested: NestedChildren): NestedTemplates {
  const from = (children: Record<string, ChildTemplate>) => (path: string): ChildTemplate => (Object.hasOwn(children, path) ? children[path] : { problem: 'not-read' });
  const templates: NestedTemplates = { templatePath: nested.templatePath, readNew: from(nested.newChildren), readOld: from(nested.oldChildren) };
  const deployed = nested.deployedChildren;
  if (deployed) templates.readDeployed = (stackPath) => (Object.hasOwn(deployed, stackPath) ? deployed[stackPath] : undefined);
  return templates;
}

/**
 * The values the parent's stack resource passes to this template, on each side, as the parent's
 * analysis passes them. The parent is analysed alone (its own nested stacks are not followed).
 */
function parentPasses(parent: ParentTemplate, options: AnalyzeOptions): { before?: Map<string, Value>; after?: Map<string, Value> } {
  const parentOptions: AnalyzeOptions = { spec: options.spec, ...(options.region ? { region: options.region } : {}), ...(options.withoutSamCli ? { withoutSamCli: true } : {}) };
  const edited = side(parent.text, parent.parameters);
  const analysis = parent.baseline ? analyzeUpdate(side(parent.baseline.text, parent.baseline.parameters), edited, parentOptions) : { after: evaluateSide(edited, parentOptions) };
  return parametersPassedToChild(analysis, parent.parentPath, parent.childPath);
}

function side(text: string, parameters: SideParameters): TemplateSide {
  const values = parameters.onlyDeclared ? { fallbackParameters: parameters.values } : { parameters: parameters.values };
  return { text, ...values, usePreviousValues: parameters.usePrevious };
}

if (parentPort) serve(parentPort);
