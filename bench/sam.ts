/**
 * The Serverless transform's share of an analysis. Cold: the SAM template pair analysed in full
 * with nothing kept (both sides expanded, then evaluated and compared) beside the expansion of
 * each side alone. Warm, the keystroke case in the editor: the baseline's evaluation is kept, and
 * the translation cache is as the language server's is when the edit's last keystroke comes (the
 * baseline expanded and kept, then the text one keystroke before, through a cache that moves in
 * place), so the analysis expands, evaluates and compares the edited side, and the expansion
 * translates the edited functions again; once for the pair's edit, which changes the implicit API,
 * once for an edit that leaves it alone (so the API is taken from the cache too). For scale, the
 * analysis of the two processed templates written out as plain CloudFormation.
 */
import { analyzeUpdate } from '../server/src/impact';
import type { EvaluatedTemplate } from '../server/src/evaluate/types';
import { expandServerless, SamTranslationCache } from '../server/src/sam';
import { swaggerSkeleton } from '../server/src/sam/api/swaggerEditor';
import { PyDict, PyUnicode } from '../server/src/sam/python/py27Dict';
import { pyStr } from '../server/src/sam/python/pyRepr';
import { sha1Hex } from '../server/src/sam/sha1';
import type { ResourceSpec } from '../server/src/spec/types';
import { parseTemplate, readTemplateModel, toPlain } from '../server/src/template';
import type { TemplateModel } from '../server/src/template/model';
import type { TemplatePair } from './generate';
import { median, timeMs } from './stats';
import { toYaml, type Plain } from './yamlText';

/** The analysis of an edited side with the baseline's evaluation and translations kept, and the part of it the transform takes. */
export interface WarmCase {
  analysis_ms: number;
  expansion_ms: number;
  /** `expansion_ms / analysis_ms`. */
  share: number;
  /** Translations taken from the cache, and translated again, in one expansion. */
  hits: number;
  misses: number;
  /** Whether the implicit API was taken from the cache. */
  api_kept: boolean;
  /** Whether the expansion started from the last one (the edited functions translated, the rest moved). */
  from_last: boolean;
  /** Whether it renamed an event's path or method in its API's definition without SAM's fold (sam/api/renamedRoute.ts). */
  route_renamed: boolean;
  /** Whether it put an added event's path in its API's definition, or took a removed one's out, without SAM's fold (sam/api/addedRoute.ts). */
  route_added: boolean;
  /** Whether it named a REST API's deployment anew for a FunctionName, the function's routes as they were, without SAM's fold (sam/api/sameRoutes.ts). */
  deployment_renamed: boolean;
  /** Whether it put the path items the function's part makes alone in their places without the fold. */
  items_changed: boolean;
  /** Whether it rebuilt an API from its parts, SAM's fold done again (sam/api/apiReplay.ts). */
  api_rebuilt: boolean;
}

export interface SamFigures {
  name: string;
  /** Resources in the processed template. */
  size: number;
  functions: number;
  /** The whole analysis of the SAM pair, expansion included. */
  analysis_ms: number;
  /** Expanding both sides (each from its parsed template), the part of `analysis_ms` the transform takes. */
  expansion_ms: number;
  /** `expansion_ms / analysis_ms`. */
  share: number;
  /** The keystroke case: the edit above analysed with the baseline's evaluation and translations kept. */
  warm: WarmCase;
  /** The same, for an edit that leaves the API alone (a timeout and a code location). */
  warm_api_kept: WarmCase;
  /** One function's code location edited, at the top, the middle and the bottom of the template. */
  warm_by_position: (WarmCase & { function: number })[];
  /** The first queue's visibility timeout edited: a resource the transform passes through as written, at the top. */
  warm_queue: WarmCase;
  /** Handler100's SQS event's batch size edited: an event the API does not read, in a function with an Api event. */
  warm_batch: WarmCase;
  /** The functions' timeout in Globals edited: each function's Lambda function is made again with it, the rest moves. */
  warm_globals: WarmCase;
  /** A parameter's default typed, which no translation looks up: the expansion starts from the last one. */
  warm_parameter: WarmCase;
  /** The first keystroke after the document opened (its baseline expanded in full, then its text, the same, from it), in Handler100's path: renamed from what the expansion in full kept. */
  warm_path_first: WarmCase;
  /** Handler100's method, `get` → `put` at once: renamed in its path's item. */
  warm_method: WarmCase;
  /** Handler101's method on Handler100's path (a CRUD API's `get` and `post` in two functions), `post` → `put` at once: the two functions' parts made together, their item put in place. */
  warm_shared_method: WarmCase;
  /** A second `Api` event pasted into Handler100 at once (a new path): its path put in the API's definition. */
  warm_event_added: WarmCase;
  /** Handler100's FunctionName typed (fn → fn1): its routes the same, the API's deployment named anew by the name it hashes. */
  warm_function_name: WarmCase;
  /** A bucket pasted between two queues at once. */
  warm_resource_added: WarmCase;
  /** The last keystroke of that bucket's type. */
  warm_resource_typed: WarmCase;
  /** A function pasted at the end, with an Api and an SQS event. */
  warm_function_added: WarmCase;
  /** The same stack with an explicit API that every function's `Api` event names: a keystroke in one event's path (renamed, the keystroke before rebuilt the API), a code location, a queue. */
  warm_explicit_path: WarmCase;
  warm_explicit_code: WarmCase;
  warm_explicit_queue: WarmCase;
  /** Handler1's method on the explicit API, beside CORS's preflight. */
  warm_explicit_method: WarmCase;
  /** The same stack with a connector in each function (the edited function's is translated again with it): a code location. */
  warm_connectors_code: WarmCase;
  /** A key typed into Handler100 before its colon (YAML that does not parse): the analysis, which rejects it with the parser's message and expands nothing. */
  unparsed_key_ms: number;
  /** The analysis of the two processed templates written out as plain CloudFormation YAML. */
  processed_analysis_ms: number;
  /**
   * What an edit to the API costs at the least, whatever is kept: the edited template's paths
   * added to a definition one by one, then their integrations, with the deep copies SAM makes
   * around each (Python 2.7 dict re-insertions), then `str()` of it and its SHA-1, the
   * deployment's id. The fastest run, as befits a least.
   */
  definition_floor_ms: number;
  runs: number;
}

/**
 * The least an edit to an API's definition costs, as SAM builds it: the implicit API's plugin
 * adds each `Api` event's path and method to the swagger document, deep-copying the document
 * before and after each (an editor takes it and gives it back); then each function's event adds
 * its `aws_proxy` integration the same way, with two more deep copies; then the document is
 * printed and hashed. The real translation does all of this and more.
 */
function definitionFloor(paths: readonly string[]): number {
  return timeMs(() => {
    const document = swaggerSkeleton();
    const table = document.get('paths') as PyDict;
    const methods: PyDict[] = [];
    for (const path of paths) {
      PyDict.deepCopyInPlace(document);
      const item = new PyDict();
      table.set(new PyUnicode(path), item);
      const method = new PyDict();
      item.set('get', method);
      methods.push(method);
      PyDict.deepCopyInPlace(document);
    }
    methods.forEach((method, i) => {
      PyDict.deepCopyInPlace(document);
      const integration = new PyDict();
      method.set('x-amazon-apigateway-integration', integration);
      integration.set('type', 'aws_proxy');
      integration.set('httpMethod', 'POST');
      integration.set('uri', PyDict.from({ 'Fn::Sub': new PyUnicode(`arn:aws:apigateway:\${AWS::Region}:lambda:path/2015-03-31/functions/\${Handler${i}.Arn}/invocations`) }));
      method.set('responses', new PyDict());
      PyDict.deepCopyInPlace(document);
    });
    sha1Hex(pyStr(document));
  });
}

/** The `Api` event paths of a SAM template, in order. */
function apiPaths(model: TemplateModel): string[] {
  type Events = { [id: string]: { Type?: string; Properties?: { Path?: string } } };
  const template = toPlain(model.root!) as { Resources: { [id: string]: { Properties?: { Events?: Events } } } };
  const events = Object.values(template.Resources).flatMap((resource) => Object.values(resource.Properties?.Events ?? {}));
  return events.filter((event) => event.Type === 'Api' && typeof event.Properties?.Path === 'string').map((event) => event.Properties!.Path!);
}

/** A text with `from`, which it holds once, replaced by `to`. */
function replacedOnce(text: string, from: string, to: string): string {
  if (text.split(from).length !== 2) throw new Error(`"${from}" is not in the template once`);
  return text.replace(from, to);
}

const EXPANSION_OPTIONS = { parameters: new Map<string, unknown>(), region: 'us-east-1', partition: 'aws' };

/** The processed template of a SAM text, as YAML text. */
function processedText(text: string): { text: string; resources: number } {
  const expansion = expandServerless(readTemplateModel(parseTemplate(text)), EXPANSION_OPTIONS);
  const template = toPlain(expansion.parsed.root!) as { Resources: object };
  return { text: toYaml(template as unknown as { [key: string]: Plain }), resources: Object.keys(template.Resources).length };
}

/** One warm case: the analysis of an edited side, and its expansion, with the baseline's evaluation and translations kept. */
interface WarmFigures {
  analysis: number[];
  expansion: number[];
  hits: number;
  misses: number;
  /** Whether the expansion took the implicit API from the cache. */
  apiKept: boolean;
  /** Whether it started from the last expansion. */
  fromLast: boolean;
  /** Whether it renamed an event's path or method without the fold. */
  routeRenamed: boolean;
  /** Whether it put an added event's path in the definition, or took a removed one's out, without the fold. */
  routeAdded: boolean;
  /** Whether it named a deployment anew for a FunctionName without the fold. */
  deploymentRenamed: boolean;
  /** Whether it put the path items the function's part makes alone in their places without the fold. */
  itemsChanged: boolean;
  /** Whether it rebuilt an API from its parts. */
  apiRebuilt: boolean;
}

function newWarmFigures(): WarmFigures {
  return { analysis: [], expansion: [], hits: 0, misses: 0, apiKept: false, fromLast: false, routeRenamed: false, routeAdded: false, deploymentRenamed: false, itemsChanged: false, apiRebuilt: false };
}

/** Times the pair: runs interleaved (expansion, analysis, processed analysis) so that drift hits all alike. */
export function benchSamPair(pair: TemplatePair, codeEdit: TemplatePair, variants: { explicitApi: string; connectors: string }, functions: number, spec: ResourceSpec, { warmup, runs }: { warmup: number; runs: number }): SamFigures {
  const models = [pair.before, pair.after].map((text) => readTemplateModel(parseTemplate(text)));
  const baseline = { model: models[0]!, text: pair.before };
  const baselineOf = (text: string) => ({ model: readTemplateModel(parseTemplate(text)), text });
  const explicitBaseline = baselineOf(variants.explicitApi);
  const connectorsBaseline = baselineOf(variants.connectors);
  /** A keystroke in a variant of the stack: the text one keystroke before `to`, and the text with `to`. */
  const keystroke = (variant: string, from: string, before: string, to: string) => {
    const text = replacedOnce(variant, from, to);
    return { text, model: readTemplateModel(parseTemplate(text)), keystrokeBefore: readTemplateModel(parseTemplate(replacedOnce(variant, from, before))), figures: newWarmFigures() };
  };
  // Handler1's path typed (…/items1/{id} → …/items1a/{id} → …/items1ab/{id}), its code location (handler100 → handler100-v → handler100-v2), the first queue's timeout.
  const explicitPath = keystroke(variants.explicitApi, "items1/{id}'", "items1a/{id}'", "items1ab/{id}'");
  const explicitCode = keystroke(variants.explicitApi, '/handler100.zip', '/handler100-v.zip', '/handler100-v2.zip');
  const explicitQueue = keystroke(variants.explicitApi, 'VisibilityTimeout: 60\n', 'VisibilityTimeout: 6\n', 'VisibilityTimeout: 61\n');
  // Handler1's method edited at once beside the preflight CORS adds (get → put), the keystroke before being the baseline itself.
  const read1 = "items1/{id}'\n            Method: get\n";
  const explicitMethod = keystroke(variants.explicitApi, read1, read1, "items1/{id}'\n            Method: put\n");
  const connectorsCode = keystroke(variants.connectors, '/handler100.zip', '/handler100-v.zip', '/handler100-v2.zip');
  // Handler100's path typed into for the first time (…/items100/{id} → …/items100x/{id}), the keystroke before being the baseline itself.
  const firstPathKeystroke = keystroke(pair.before, "items100/{id}'", "items100/{id}'", "items100x/{id}'");
  // Handler100's method edited at once (get → put, as completion or a paste makes it), the keystroke before being the baseline itself.
  const methodEdit = keystroke(pair.before, "items100/{id}'\n            Method: get\n", "items100/{id}'\n            Method: get\n", "items100/{id}'\n            Method: put\n");
  // The stack with Handler101's event on Handler100's path (get and post of one path in two functions); Handler101's method edited at once (post → put), the keystroke before being that stack itself.
  const post101 = "'/catalog/items100/{id}'\n            Method: post\n";
  const sharedPath = replacedOnce(pair.before, "'/search/items101/{id}'\n            Method: get\n", post101);
  const sharedBaseline = baselineOf(sharedPath);
  const sharedMethod = keystroke(sharedPath, post101, post101, "'/catalog/items100/{id}'\n            Method: put\n");
  // A second Api event pasted into Handler100 at once, the keystroke before being the baseline itself.
  const read100 = "items100/{id}'\n            Method: get\n";
  const eventAdded = keystroke(pair.before, read100, read100, `${read100}        Write:\n          Type: Api\n          Properties:\n            Path: /catalog/items100\n            Method: post\n`);
  // Handler100's FunctionName typed: fn → fn1.
  const code100 = '/handler100.zip\n';
  const functionName = keystroke(pair.before, code100, `${code100}      FunctionName: fn\n`, `${code100}      FunctionName: fn1\n`);
  // A bucket pasted at once between two queues (SAM passes it through as written), the keystroke before being the baseline itself; then its type's last keystroke.
  const uploads = (type: string) => `  Uploads:\n    Type: ${type}\n    Properties:\n      BucketName: uploads\n  Jobs101:\n`;
  const resourceAdded = keystroke(pair.before, '  Jobs101:\n', '  Jobs101:\n', uploads('AWS::S3::Bucket'));
  const resourceTyped = keystroke(pair.before, '  Jobs101:\n', uploads('AWS::S3::Bucke'), uploads('AWS::S3::Bucket'));
  // A function pasted at the end at once, with an Api and an SQS event as the others have, the keystroke before being the baseline itself.
  const last = `Jobs${functions - 1}.Arn\n            BatchSize: 10\n`;
  const pastedFunction = `  HandlerNew:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: s3://artifacts-catalog/handler-new.zip\n      Handler: app.handler\n      Events:\n        Read:\n          Type: Api\n          Properties:\n            Path: '/catalog/new/{id}'\n            Method: get\n        Work:\n          Type: SQS\n          Properties:\n            Queue: !GetAtt Jobs0.Arn\n            BatchSize: 10\n`;
  const functionAdded = keystroke(pair.before, last, last, `${last}${pastedFunction}`);
  // A key typed into Handler100, before its colon: the YAML does not parse.
  const unparsedKey = replacedOnce(pair.before, code100, `${code100}      MemorySize\n`);
  const unparsed: number[] = [];
  const codeEdited = readTemplateModel(parseTemplate(codeEdit.after));
  // The keystroke before each edit's last: the new path, and the new code location, one character short.
  const apiEditBefore = readTemplateModel(parseTemplate(replacedOnce(pair.after, 'Path: /items1\n', 'Path: /items\n')));
  const codeEditBefore = readTemplateModel(parseTemplate(replacedOnce(codeEdit.after, '-v2.zip', '-v.zip')));
  // The first queue's visibility timeout typed: 60 → 6 → 61.
  const queueText = replacedOnce(pair.before, 'VisibilityTimeout: 60\n', 'VisibilityTimeout: 61\n');
  const queueEdited = readTemplateModel(parseTemplate(queueText));
  const queueEditBefore = readTemplateModel(parseTemplate(replacedOnce(pair.before, 'VisibilityTimeout: 60\n', 'VisibilityTimeout: 6\n')));
  const queueEdit = newWarmFigures();
  // Handler100's SQS batch size typed: 10 → 1 → 15.
  const batchEdit = keystroke(pair.before, 'Jobs100.Arn\n            BatchSize: 10\n', 'Jobs100.Arn\n            BatchSize: 1\n', 'Jobs100.Arn\n            BatchSize: 15\n');
  // The functions' timeout in Globals typed: 10 → 1 → 15.
  const globalsText = replacedOnce(pair.before, '    Timeout: 10\n', '    Timeout: 15\n');
  const globalsEdited = readTemplateModel(parseTemplate(globalsText));
  const globalsEditBefore = readTemplateModel(parseTemplate(replacedOnce(pair.before, '    Timeout: 10\n', '    Timeout: 1\n')));
  const globalsEdit = newWarmFigures();
  // The stage parameter's default typed: prod → stagin → staging. Globals pass it to each function's environment, where SAM leaves the Ref as written.
  const parameterText = replacedOnce(pair.before, '    Default: prod\n', '    Default: staging\n');
  const parameterEdited = readTemplateModel(parseTemplate(parameterText));
  const parameterEditBefore = readTemplateModel(parseTemplate(replacedOnce(pair.before, '    Default: prod\n', '    Default: stagin\n')));
  const parameterEdit = newWarmFigures();
  const processedBefore = processedText(pair.before);
  const processedAfter = processedText(pair.after);
  const expansion: number[] = [];
  const analysis: number[] = [];
  const processed: number[] = [];
  const floor: number[] = [];
  const paths = apiPaths(models[1]!);
  // The baseline's evaluation, kept as the language server keeps it.
  const baselines = new Map<string, EvaluatedTemplate>();
  /**
   * A cache as the language server's worker has it at the edit's last keystroke: the baseline
   * expanded (and kept, as its evaluation is), then the text one keystroke before the edit.
   */
  const warmedCache = (keystrokeBefore: TemplateModel, from: TemplateModel) => {
    const cache = new SamTranslationCache({ movesInPlace: true });
    expandServerless(from, { ...EXPANSION_OPTIONS, cache, kept: true });
    expandServerless(keystrokeBefore, { ...EXPANSION_OPTIONS, cache });
    return cache;
  };
  const warm = (model: TemplateModel, keystrokeBefore: TemplateModel, text: string, into: WarmFigures, keep: boolean, from = baseline) => {
    const expansionCache = warmedCache(keystrokeBefore, from.model);
    const before = { hits: expansionCache.hits, misses: expansionCache.misses, routeRenames: expansionCache.routeRenames, routesAdded: expansionCache.routesAddedOrRemoved, deploymentsRenamed: expansionCache.deploymentsRenamed, itemsChanged: expansionCache.pathItemsChanged, apiRebuilds: expansionCache.apiRebuilds };
    const expand = timeMs(() => expandServerless(model, { ...EXPANSION_OPTIONS, cache: expansionCache }));
    into.hits = expansionCache.hits - before.hits;
    into.misses = expansionCache.misses - before.misses;
    into.apiKept = expansionCache.implicitApiHits > 0;
    into.fromLast = expansionCache.reexpansions > 0;
    into.routeRenamed = expansionCache.routeRenames > before.routeRenames;
    into.routeAdded = expansionCache.routesAddedOrRemoved > before.routesAdded;
    into.deploymentRenamed = expansionCache.deploymentsRenamed > before.deploymentsRenamed;
    into.itemsChanged = expansionCache.pathItemsChanged > before.itemsChanged;
    // A rename, an added path, a deployment named anew or items put in place counts among the rebuilds too (SamTranslationCache.apiRebuilds).
    const answered = expansionCache.routeRenames - before.routeRenames + (expansionCache.routesAddedOrRemoved - before.routesAdded) + (expansionCache.deploymentsRenamed - before.deploymentsRenamed) + (expansionCache.pathItemsChanged - before.itemsChanged);
    into.apiRebuilt = expansionCache.apiRebuilds - before.apiRebuilds > answered;
    const analysisCache = warmedCache(keystrokeBefore, from.model);
    const analyse = timeMs(() => analyzeUpdate({ text: from.text }, { text }, { spec, samCache: analysisCache }, { baselineCache: baselines, baselineKey: from === baseline ? 'baseline' : from === explicitBaseline ? 'explicit' : from === sharedBaseline ? 'shared' : 'connectors' }));
    if (!keep) return;
    into.expansion.push(expand);
    into.analysis.push(analyse);
  };
  const apiEdit = newWarmFigures();
  const apiKept = newWarmFigures();
  // Starting from the last expansion moves what follows the edit: where it is matters.
  const positions = [0, Math.floor(functions / 2), functions - 1].map((f) => {
    const text = pair.before.replace(`/handler${f}.zip`, `/handler${f}-v2.zip`);
    const keystrokeBefore = readTemplateModel(parseTemplate(pair.before.replace(`/handler${f}.zip`, `/handler${f}-v.zip`)));
    return { f, text, model: readTemplateModel(parseTemplate(text)), keystrokeBefore, figures: newWarmFigures() };
  });
  for (let i = 0; i < warmup + runs; i++) {
    const keep = i >= warmup;
    const expand = models.reduce((sum, model) => sum + timeMs(() => expandServerless(model, EXPANSION_OPTIONS)), 0);
    const analyse = timeMs(() => analyzeUpdate({ text: pair.before }, { text: pair.after }, { spec }));
    const plain = timeMs(() => analyzeUpdate({ text: processedBefore.text }, { text: processedAfter.text }, { spec }));
    warm(models[1]!, apiEditBefore, pair.after, apiEdit, keep);
    warm(codeEdited, codeEditBefore, codeEdit.after, apiKept, keep);
    for (const position of positions) warm(position.model, position.keystrokeBefore, position.text, position.figures, keep);
    warm(queueEdited, queueEditBefore, queueText, queueEdit, keep);
    warm(batchEdit.model, batchEdit.keystrokeBefore, batchEdit.text, batchEdit.figures, keep);
    warm(globalsEdited, globalsEditBefore, globalsText, globalsEdit, keep);
    warm(parameterEdited, parameterEditBefore, parameterText, parameterEdit, keep);
    for (const edit of [explicitPath, explicitCode, explicitQueue, explicitMethod]) warm(edit.model, edit.keystrokeBefore, edit.text, edit.figures, keep, explicitBaseline);
    warm(connectorsCode.model, connectorsCode.keystrokeBefore, connectorsCode.text, connectorsCode.figures, keep, connectorsBaseline);
    warm(firstPathKeystroke.model, firstPathKeystroke.keystrokeBefore, firstPathKeystroke.text, firstPathKeystroke.figures, keep);
    warm(methodEdit.model, methodEdit.keystrokeBefore, methodEdit.text, methodEdit.figures, keep);
    warm(sharedMethod.model, sharedMethod.keystrokeBefore, sharedMethod.text, sharedMethod.figures, keep, sharedBaseline);
    warm(eventAdded.model, eventAdded.keystrokeBefore, eventAdded.text, eventAdded.figures, keep);
    warm(functionName.model, functionName.keystrokeBefore, functionName.text, functionName.figures, keep);
    for (const edit of [resourceAdded, resourceTyped, functionAdded]) warm(edit.model, edit.keystrokeBefore, edit.text, edit.figures, keep);
    // Nothing is expanded for such a text: the cache is not read, so it needs no warming.
    const unparsedMs = timeMs(() => analyzeUpdate({ text: pair.before }, { text: unparsedKey }, { spec, samCache: new SamTranslationCache({ movesInPlace: true }) }, { baselineCache: baselines, baselineKey: 'baseline' }));
    const least = definitionFloor(paths);
    if (!keep) continue;
    floor.push(least);
    unparsed.push(unparsedMs);
    expansion.push(expand);
    analysis.push(analyse);
    processed.push(plain);
  }
  const analysisMs = median(analysis);
  const expansionMs = median(expansion);
  const figures = (warmCase: WarmFigures): WarmCase => {
    const analysisOf = median(warmCase.analysis);
    const expansionOf = median(warmCase.expansion);
    return { analysis_ms: analysisOf, expansion_ms: expansionOf, share: expansionOf / analysisOf, hits: warmCase.hits, misses: warmCase.misses, api_kept: warmCase.apiKept, from_last: warmCase.fromLast, route_renamed: warmCase.routeRenamed, route_added: warmCase.routeAdded, deployment_renamed: warmCase.deploymentRenamed, items_changed: warmCase.itemsChanged, api_rebuilt: warmCase.apiRebuilt };
  };
  return {
    name: pair.name,
    size: processedBefore.resources,
    functions,
    analysis_ms: analysisMs,
    expansion_ms: expansionMs,
    share: expansionMs / analysisMs,
    warm: figures(apiEdit),
    warm_api_kept: figures(apiKept),
    warm_by_position: positions.map((position) => ({ function: position.f, ...figures(position.figures) })),
    warm_queue: figures(queueEdit),
    warm_batch: figures(batchEdit.figures),
    warm_globals: figures(globalsEdit),
    warm_parameter: figures(parameterEdit),
    warm_path_first: figures(firstPathKeystroke.figures),
    warm_method: figures(methodEdit.figures),
    warm_shared_method: figures(sharedMethod.figures),
    warm_event_added: figures(eventAdded.figures),
    warm_function_name: figures(functionName.figures),
    warm_resource_added: figures(resourceAdded.figures),
    warm_resource_typed: figures(resourceTyped.figures),
    warm_function_added: figures(functionAdded.figures),
    warm_explicit_path: figures(explicitPath.figures),
    warm_explicit_code: figures(explicitCode.figures),
    warm_explicit_queue: figures(explicitQueue.figures),
    warm_explicit_method: figures(explicitMethod.figures),
    warm_connectors_code: figures(connectorsCode.figures),
    unparsed_key_ms: median(unparsed),
    processed_analysis_ms: median(processed),
    definition_floor_ms: Math.min(...floor),
    runs,
  };
}
