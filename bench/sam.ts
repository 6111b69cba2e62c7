/**
 * The Serverless transform's share of an analysis, in two cases. Cold: the SAM template pair
 * analysed in full with nothing kept (both sides expanded, then evaluated and compared) beside the
 * expansion of each side alone. Warm, the keystroke case in the editor: the baseline's evaluation
 * is kept, and so are the translations of the template before the edit (a translation cache warmed
 * with the baseline), so the analysis expands, evaluates and compares the edited side, and the
 * expansion translates the edited functions again. For scale, the analysis of the two processed
 * templates written out as plain CloudFormation.
 */
import { analyzeUpdate } from '../server/src/impact';
import type { EvaluatedTemplate } from '../server/src/evaluate/types';
import { expandServerless, SamTranslationCache } from '../server/src/sam';
import type { ResourceSpec } from '../server/src/spec/types';
import { parseTemplate, readTemplateModel, toPlain } from '../server/src/template';
import type { TemplatePair } from './generate';
import { median, timeMs } from './stats';
import { toYaml, type Plain } from './yamlText';

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
  /** The analysis of the edited side with the baseline's evaluation and translations kept (the keystroke case). */
  warm_analysis_ms: number;
  /** Expanding the edited side with the baseline's translations kept: the part of `warm_analysis_ms` the transform takes. */
  warm_expansion_ms: number;
  /** `warm_expansion_ms / warm_analysis_ms`. */
  warm_share: number;
  /** Translations taken from the cache, and translated again, in one warm expansion. */
  warm_hits: number;
  warm_misses: number;
  /** The analysis of the two processed templates written out as plain CloudFormation YAML. */
  processed_analysis_ms: number;
  runs: number;
}

const EXPANSION_OPTIONS = { parameters: new Map<string, unknown>(), region: 'us-east-1', partition: 'aws' };

/** The processed template of a SAM text, as YAML text. */
function processedText(text: string): { text: string; resources: number } {
  const expansion = expandServerless(readTemplateModel(parseTemplate(text)), EXPANSION_OPTIONS);
  const template = toPlain(expansion.parsed.root!) as { Resources: object };
  return { text: toYaml(template as unknown as { [key: string]: Plain }), resources: Object.keys(template.Resources).length };
}

/** Times the pair: runs interleaved (expansion, analysis, processed analysis) so that drift hits all alike. */
export function benchSamPair(pair: TemplatePair, functions: number, spec: ResourceSpec, { warmup, runs }: { warmup: number; runs: number }): SamFigures {
  const models = [pair.before, pair.after].map((text) => readTemplateModel(parseTemplate(text)));
  const processedBefore = processedText(pair.before);
  const processedAfter = processedText(pair.after);
  const expansion: number[] = [];
  const analysis: number[] = [];
  const processed: number[] = [];
  const warmExpansion: number[] = [];
  const warmAnalysis: number[] = [];
  // The baseline's evaluation, kept as the language server keeps it.
  const baselines = new Map<string, EvaluatedTemplate>();
  const caching = { baselineCache: baselines, baselineKey: 'baseline' };
  /** A cache as an editor has it before the edit: every translation of the baseline kept. */
  const warmedCache = () => {
    const cache = new SamTranslationCache();
    expandServerless(models[0]!, { ...EXPANSION_OPTIONS, cache });
    return cache;
  };
  let warmCounts = { hits: 0, misses: 0 };
  for (let i = 0; i < warmup + runs; i++) {
    const expand = models.reduce((sum, model) => sum + timeMs(() => expandServerless(model, EXPANSION_OPTIONS)), 0);
    const analyse = timeMs(() => analyzeUpdate({ text: pair.before }, { text: pair.after }, { spec }));
    const plain = timeMs(() => analyzeUpdate({ text: processedBefore.text }, { text: processedAfter.text }, { spec }));
    const expansionCache = warmedCache();
    const before = { hits: expansionCache.hits, misses: expansionCache.misses };
    const warmExpand = timeMs(() => expandServerless(models[1]!, { ...EXPANSION_OPTIONS, cache: expansionCache }));
    warmCounts = { hits: expansionCache.hits - before.hits, misses: expansionCache.misses - before.misses };
    const analysisCache = warmedCache();
    const warmAnalyse = timeMs(() => analyzeUpdate({ text: pair.before }, { text: pair.after }, { spec, samCache: analysisCache }, caching));
    if (i < warmup) continue;
    expansion.push(expand);
    analysis.push(analyse);
    processed.push(plain);
    warmExpansion.push(warmExpand);
    warmAnalysis.push(warmAnalyse);
  }
  const analysisMs = median(analysis);
  const expansionMs = median(expansion);
  const warmAnalysisMs = median(warmAnalysis);
  const warmExpansionMs = median(warmExpansion);
  return {
    name: pair.name,
    size: processedBefore.resources,
    functions,
    analysis_ms: analysisMs,
    expansion_ms: expansionMs,
    share: expansionMs / analysisMs,
    warm_analysis_ms: warmAnalysisMs,
    warm_expansion_ms: warmExpansionMs,
    warm_share: warmExpansionMs / warmAnalysisMs,
    warm_hits: warmCounts.hits,
    warm_misses: warmCounts.misses,
    processed_analysis_ms: median(processed),
    runs,
  };
}
