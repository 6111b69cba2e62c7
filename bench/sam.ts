/**
 * The Serverless transform's share of an analysis: a SAM template pair analysed in full (both
 * sides expanded, then evaluated and compared), the expansion of each side alone, and, for
 * scale, the analysis of the two processed templates written out as plain CloudFormation.
 */
import { analyzeUpdate } from '../server/src/impact';
import { expandServerless } from '../server/src/sam';
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
  for (let i = 0; i < warmup + runs; i++) {
    const expand = models.reduce((sum, model) => sum + timeMs(() => expandServerless(model, EXPANSION_OPTIONS)), 0);
    const analyse = timeMs(() => analyzeUpdate({ text: pair.before }, { text: pair.after }, { spec }));
    const plain = timeMs(() => analyzeUpdate({ text: processedBefore.text }, { text: processedAfter.text }, { spec }));
    if (i < warmup) continue;
    expansion.push(expand);
    analysis.push(analyse);
    processed.push(plain);
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
    processed_analysis_ms: median(processed),
    runs,
  };
}
