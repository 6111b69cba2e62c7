/**
 * The Serverless transform's share of an analysis, and how expansion grows with a template.
 *
 * - Cold: the SAM pair analysed with nothing kept (both sides expanded, evaluated and compared),
 *   beside the expansion of both sides alone.
 * - A keystroke, as the language server answers one: the baseline's evaluation is kept, and the
 *   edited side is expanded in full, evaluated and compared. One row per kind of edit.
 * - By events: the expansion of one side whose functions each have an `Api` event, for 100, 200,
 *   400 and 800 functions, which shows whether expansion stays linear in the API's paths.
 * - For scale, the analysis of the two processed templates written out as plain CloudFormation.
 */
import { analyzeUpdate } from '../server/src/impact';
import type { EvaluatedTemplate } from '../server/src/evaluate/types';
import { expandServerless } from '../server/src/sam';
import type { ResourceSpec } from '../server/src/spec/types';
import { parseTemplate, readTemplateModel, toPlain } from '../server/src/template';
import type { TemplatePair } from './generate';
import { median, timeMs } from './stats';
import { toYaml, type Plain } from './yamlText';

/** One kind of keystroke: the analysis of the edited side with the baseline's evaluation kept, and the part of it the expansion takes. */
export interface KeystrokeCase {
  edit: string;
  analysis_ms: number;
  expansion_ms: number;
  /** `expansion_ms / analysis_ms`. */
  share: number;
}

/** The expansion of one side with `functions` functions, each with an `Api` and an `SQS` event. */
export interface EventsCase {
  functions: number;
  expansion_ms: number;
}

export interface SamFigures {
  name: string;
  /** Resources in the processed template. */
  size: number;
  functions: number;
  /** The whole analysis of the SAM pair with nothing kept, expansion included. */
  analysis_ms: number;
  /** Expanding both sides (each from its parsed template), the part of `analysis_ms` the transform takes. */
  expansion_ms: number;
  /** `expansion_ms / analysis_ms`. */
  share: number;
  keystrokes: KeystrokeCase[];
  by_events: EventsCase[];
  /** A key typed into a function before its colon (YAML that does not parse): the analysis, which expands nothing. */
  unparsed_key_ms: number;
  /** The analysis of the two processed templates written out as plain CloudFormation YAML. */
  processed_analysis_ms: number;
  runs: number;
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

/** The keystrokes measured, each an edit of the pair's baseline: what it is, and the text it makes. */
export function samKeystrokes(pair: TemplatePair): { edit: string; text: string }[] {
  const base = pair.before;
  return [
    { edit: 'the pair\'s edit (a timeout, a new Api event, an SQS event removed)', text: pair.after },
    { edit: "Handler100's CodeUri", text: replacedOnce(base, '/handler100.zip', '/handler100-v2.zip') },
    { edit: "Handler100's Api event path", text: replacedOnce(base, "items100/{id}'", "items100x/{id}'") },
    { edit: "Handler100's Api event method, get → put", text: replacedOnce(base, "items100/{id}'\n            Method: get\n", "items100/{id}'\n            Method: put\n") },
    { edit: "Globals' function Timeout", text: replacedOnce(base, '    Timeout: 10\n', '    Timeout: 15\n') },
    { edit: "the Stage parameter's default", text: replacedOnce(base, '    Default: prod\n', '    Default: staging\n') },
    { edit: "Jobs0's VisibilityTimeout (a queue SAM passes through)", text: replacedOnce(base, 'VisibilityTimeout: 60\n', 'VisibilityTimeout: 61\n') },
    { edit: 'the Description', text: replacedOnce(base, "Description: 'generated SAM benchmark'\n", "Description: 'generated SAM benchmark 2'\n") },
  ];
}

/** Times the pair: runs interleaved (cold, keystrokes, processed) so that drift hits all alike. */
export function benchSamPair(pair: TemplatePair, stackOf: (functions: number) => string, functions: number, spec: ResourceSpec, { warmup, runs }: { warmup: number; runs: number }): SamFigures {
  const models = [pair.before, pair.after].map((text) => readTemplateModel(parseTemplate(text)));
  const keystrokes = samKeystrokes(pair).map((k) => ({ ...k, model: readTemplateModel(parseTemplate(k.text)), analysis: [] as number[], expansion: [] as number[] }));
  const byEvents = [100, 200, 400, 800].map((count) => ({ functions: count, model: readTemplateModel(parseTemplate(stackOf(count))), expansion: [] as number[] }));
  const unparsedKey = replacedOnce(pair.before, '/handler100.zip\n', '/handler100.zip\n      MemorySize\n');
  const processedBefore = processedText(pair.before);
  const processedAfter = processedText(pair.after);
  const expansion: number[] = [];
  const analysis: number[] = [];
  const processed: number[] = [];
  const unparsed: number[] = [];
  // The baseline's evaluation, kept as the language server keeps it.
  const baselines = new Map<string, EvaluatedTemplate>();
  const caching = { baselineCache: baselines, baselineKey: 'baseline' };
  for (let i = 0; i < warmup + runs; i++) {
    const keep = i >= warmup;
    const expand = models.reduce((sum, model) => sum + timeMs(() => expandServerless(model, EXPANSION_OPTIONS)), 0);
    const analyse = timeMs(() => analyzeUpdate({ text: pair.before }, { text: pair.after }, { spec }));
    const plain = timeMs(() => analyzeUpdate({ text: processedBefore.text }, { text: processedAfter.text }, { spec }));
    const unparsedMs = timeMs(() => analyzeUpdate({ text: pair.before }, { text: unparsedKey }, { spec }, caching));
    for (const keystroke of keystrokes) {
      const expandOne = timeMs(() => expandServerless(keystroke.model, EXPANSION_OPTIONS));
      const analyseOne = timeMs(() => analyzeUpdate({ text: pair.before }, { text: keystroke.text }, { spec }, caching));
      if (!keep) continue;
      keystroke.expansion.push(expandOne);
      keystroke.analysis.push(analyseOne);
    }
    for (const size of byEvents) {
      const ms = timeMs(() => expandServerless(size.model, EXPANSION_OPTIONS));
      if (keep) size.expansion.push(ms);
    }
    if (!keep) continue;
    expansion.push(expand);
    analysis.push(analyse);
    processed.push(plain);
    unparsed.push(unparsedMs);
  }
  const analysisMs = median(analysis);
  const expansionMs = median(expansion);
  return {
    name: pair.name,
    size: processedBefore.resources,
    functions,
    analysis_ms: analysisMs,
    expansion_ms: expansionMs,
    share: expansionMs / analysisMs,
    keystrokes: keystrokes.map((k) => {
      const analysisOf = median(k.analysis);
      const expansionOf = median(k.expansion);
      return { edit: k.edit, analysis_ms: analysisOf, expansion_ms: expansionOf, share: expansionOf / analysisOf };
    }),
    by_events: byEvents.map((size) => ({ functions: size.functions, expansion_ms: median(size.expansion) })),
    unparsed_key_ms: median(unparsed),
    processed_analysis_ms: median(processed),
    runs,
  };
}
