/**
 * Times the SAM pair (bench/sam.ts) in a process of its own and prints its figures as one JSON
 * line. Run by bench/run.ts from a bundle built as the language server's is (bench/bundle.ts), so
 * that the figures are those of the code that ships: run through tsx, every function the engine
 * makes is wrapped to keep its name, which costs a keystroke that makes many closures about a
 * millisecond the shipped bundle does not pay. By hand:
 *
 *   node --import tsx bench/samAlone.ts [--quick]
 */
import { loadResourceSpec } from '../server/src/spec/load';
import { generateSamPair, generateSamStack, SAM_FUNCTIONS } from './generate';
import { benchSamPair } from './sam';

const quick = process.argv.includes('--quick');
const figures = benchSamPair(generateSamPair(), generateSamStack, SAM_FUNCTIONS, loadResourceSpec(), quick ? { warmup: 1, runs: 3 } : { warmup: 3, runs: 15 });
process.stdout.write(`${JSON.stringify(figures)}\n`);
