/**
 * Times our full analysis of one generated pair in a process of its own, so that no other
 * work's garbage or heap growth is paid for in its time. Prints one JSON line:
 * `{"size", "median_ms", "us_per_resource", "runs"}`. Run by bench/run.ts; by hand:
 *
 *   node --import tsx bench/analysisAlone.ts 2000
 */
import { analyzeUpdate } from '../server/src/impact';
import { loadResourceSpec } from '../server/src/spec/load';
import { generatePair } from './generate';
import { median, timeMs } from './stats';

const size = Number(process.argv[2]);
if (!Number.isInteger(size) || size <= 0) {
  process.stderr.write('usage: analysisAlone.ts SIZE\n');
  process.exit(1);
}
const spec = loadResourceSpec();
const pair = generatePair(size);
const run = () => analyzeUpdate({ text: pair.before }, { text: pair.after }, { spec });
for (let i = 0; i < 5; i++) run();
const runs = 21;
const medianMs = median(Array.from({ length: runs }, () => timeMs(run)));
process.stdout.write(`${JSON.stringify({ size, median_ms: medianMs, us_per_resource: (medianMs * 1000) / size, runs })}\n`);
