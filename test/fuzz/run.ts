/**
 * The long fuzz run: `npm run fuzz` (FUZZ_RUNS inputs, half generated and half mutated from the
 * corpus when present; FUZZ_SEED to replay). Prints inputs tried, failures, peak memory and the
 * slowest analysis; exits 1 when any input broke a property.
 */
import fc from 'fast-check';
import { loadResourceSpec } from '../../server/src/spec/load';
import { loadCorpus, mutatedTemplateArbitrary } from './mutations';
import { checkGeneratedTemplate, checkMutatedTemplate, measurements } from './properties';
import { renderJson, templateArbitrary } from './templateArbitrary';

const runs = Number(process.env.FUZZ_RUNS ?? 2000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const BATCH = 100;
const REPORTED_FAILURES = 5;

const spec = loadResourceSpec();
const corpus = loadCorpus();
if ('absent' in corpus) console.log(`Mutations skipped: ${corpus.absent}`);
const mutatedRuns = 'texts' in corpus ? Math.floor(runs / 2) : 0;
const generatedRuns = runs - mutatedRuns;

let tried = 0;
let failed = 0;
let peakHeap = 0;
let peakRss = 0;
const started = performance.now();

function record(violations: string[], input: () => string): void {
  tried++;
  const memory = process.memoryUsage();
  peakHeap = Math.max(peakHeap, memory.heapUsed);
  peakRss = Math.max(peakRss, memory.rss);
  if (violations.length === 0) return;
  failed++;
  if (failed <= REPORTED_FAILURES) console.log(`\nFailure ${failed}:\n${violations.join('\n')}\nInput:\n${input().slice(0, 4000)}\n`);
}

function progress(): void {
  process.stdout.write(`\r${tried}/${runs} inputs, ${failed} failures, ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

// Batches keep memory flat: fast-check materialises each sample array in full.
for (let done = 0, batch = 0; done < generatedRuns; done += BATCH, batch++) {
  for (const template of fc.sample(templateArbitrary, { seed: seed + batch, numRuns: Math.min(BATCH, generatedRuns - done) })) {
    record(checkGeneratedTemplate(spec, template), () => renderJson(template));
  }
  progress();
}
if ('texts' in corpus) {
  const mutated = mutatedTemplateArbitrary(corpus.texts);
  for (let done = 0, batch = 0; done < mutatedRuns; done += BATCH, batch++) {
    for (const m of fc.sample(mutated, { seed: seed + 7919 + batch, numRuns: Math.min(BATCH, mutatedRuns - done) })) {
      record(checkMutatedTemplate(spec, m.original, m.mutated), () => `(${m.steps.join(', ')})\n${m.mutated}`);
    }
    progress();
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
console.log(`\n\nSeed ${seed}: ${tried} inputs tried (${generatedRuns} generated, ${mutatedRuns} mutated), ${measurements.analyses} analyses, ${failed} failures`);
console.log(`Peak heap ${mb(peakHeap)}, peak RSS ${mb(peakRss)}; slowest analysis ${measurements.slowestMs.toFixed(0)} ms of CPU time (${measurements.slowestInput}); ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
process.exitCode = failed > 0 ? 1 : 0;
