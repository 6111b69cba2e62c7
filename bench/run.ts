/**
 * `npm run bench`: the whole benchmark, printed as tables with the targets beside the figures.
 *
 *   npm run bench                      everything
 *   npm run bench -- --json            one JSON object per line instead of tables
 *   npm run bench -- --only=analysis   one part: analysis, sam, lsp, watcher, cdk (comma-separated)
 *   npm run bench -- --sizes=50,500    fewer template sizes
 *   npm run bench -- --quick           fewer runs (for a smoke test, not for figures)
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadResourceSpec } from '../server/src/spec/load';
import { BENCH_SIZES, generatePair, generateSamPair, SAM_FUNCTIONS, type TemplatePair } from './generate';
import { benchImpactPair, type ImpactFigures } from './impact';
import { benchCdk } from './cdk';
import { benchLspEdits, benchLspStart, bundleServer, type LspEditFigures, type LspStartFigures, type RepeatedEdit } from './lsp';
import { benchFolder, bundle } from './bundle';
import type { SamFigures } from './sam';
import { round } from './stats';

const args = process.argv.slice(2);
const json = args.includes('--json');
const quick = args.includes('--quick');
const only = new Set((args.find((a) => a.startsWith('--only='))?.slice(7) ?? 'analysis,sam,lsp,watcher,cdk').split(','));
const sizes = (args.find((a) => a.startsWith('--sizes='))?.slice(8).split(',').map(Number) ?? [...BENCH_SIZES]).filter((n) => n > 0);

interface Target {
  what: string;
  figure: string;
  goal: string;
  met: boolean | undefined;
}

const targets: Target[] = [];
/** A debounce short enough to show the analysis's own latency. */
const SHORT_DEBOUNCE_MS = 25;
const lines: string[] = [];

function emit(record: object): void {
  if (json) console.log(JSON.stringify(roundAll(record)));
}

function roundAll(record: object): object {
  return JSON.parse(JSON.stringify(record, (_key, value: unknown) => (typeof value === 'number' ? round(value) : value)));
}

function say(text = ''): void {
  if (json) return;
  lines.push(text);
  console.log(text);
}

function target(what: string, figure: number | undefined, goal: number, unit: string, compare: 'max' = 'max'): void {
  const met = figure === undefined || !Number.isFinite(figure) ? undefined : compare === 'max' ? figure <= goal : false;
  targets.push({ what, figure: figure === undefined ? 'not measured' : `${round(figure)}${unit}`, goal: `≤ ${goal}${unit}`, met });
  emit({ name: 'target', target: what, value: figure === undefined ? null : figure, goal, met: met ?? null });
}

function table(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((row) => row.map((cell) => (typeof cell === 'number' ? String(round(cell)) : cell)))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  say(line(header));
  say(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of cells.slice(1)) say(line(row));
}

function countKinds(figures: ImpactFigures): string {
  const counts = new Map<string, number>();
  for (const d of figures.replacement.oursOnly) counts.set(d.why, (counts.get(d.why) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
}

function runsFor(size: number): { warmup: number; runs: number } {
  if (quick) return { warmup: 1, runs: 3 };
  if (size <= 50) return { warmup: 10, runs: 31 };
  if (size <= 200) return { warmup: 5, runs: 21 };
  if (size <= 500) return { warmup: 4, runs: 15 };
  return { warmup: 3, runs: 9 };
}

function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpus().length} CPU (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform} ${process.arch}`;
}

async function main(): Promise<void> {
  say(`Machine: ${machine()}`);
  emit({ name: 'machine', description: machine() });
  const pairs = new Map<number, TemplatePair>(sizes.map((size) => [size, generatePair(size)]));

  if (only.has('analysis')) analysis(pairs);
  if (only.has('sam')) await sam();
  if (only.has('lsp')) await lsp(pairs);
  if (only.has('watcher')) watcher();
  if (only.has('cdk')) cdk();

  say();
  say('Targets');
  table(
    ['target', 'figure', 'goal', ''],
    targets.map((t) => [t.what, t.figure, t.goal, t.met === undefined ? '–' : t.met ? '✓' : '✗']),
  );
}

function analysis(pairs: Map<number, TemplatePair>): void {
  const spec = loadResourceSpec();
  const results: ImpactFigures[] = [];
  for (const pair of pairs.values()) {
    const figures = benchImpactPair(pair, spec, runsFor(pair.size));
    results.push(figures);
    emit(figures);
  }
  say();
  say('Full analysis (parse both texts, evaluate, diff, cascade) vs @aws-cdk/cloudformation-diff fullDiff (yaml parse of both texts + fullDiff); median ms');
  table(
    ['resources', 'ours ms', 'fullDiff ms', 'ratio', 'fullDiff w/o parse ms', 'ours µs/resource', 'ours, a key typed (YAML that does not parse) ms', 'runs'],
    results.map((r) => [r.size, r.ours_ms, r.peer_ms, r.ratio, r.peer_diff_only_ms, (r.ours_ms * 1000) / r.size, r.key_typed_ms, r.runs]),
  );
  say();
  say('Replacement verdicts: resources we call replacement or conditional replacement vs those fullDiff calls WILL_REPLACE or MAY_REPLACE');
  table(
    ['resources', 'both', 'only ours', 'only fullDiff', 'only ours, by cause'],
    results.map((r) => [r.size, r.replacement.agreed, r.replacement.oursOnly.length, r.replacement.peerOnly.length, countKinds(r)]),
  );
  const sample = results[results.length - 1];
  if (sample) {
    say(`Examples (${sample.size} resources):`);
    const seen = new Set<string>();
    for (const d of sample.replacement.oursOnly) {
      if (seen.has(d.why)) continue;
      seen.add(d.why);
      say(`- ${d.logicalId}: ours ${d.ours} (${d.why}: ${d.cause}); fullDiff: ${d.peer}`);
    }
    for (const d of sample.replacement.peerOnly.slice(0, 3)) say(`- ${d.logicalId}: fullDiff ${d.peer}; ours: ${d.ours}`);
  }
  const at500 = results.find((r) => r.size === 500);
  target('analysis ratio at 500 resources', at500?.ratio, 0.5, '');
  const at2000 = results.find((r) => r.size === 2000);
  const growth = at500 && at2000 ? at2000.ours_ms / 2000 / (at500.ours_ms / 500) : undefined;
  if (growth !== undefined) emit({ name: 'growth', from: 500, to: 2000, per_resource_ratio: growth });
  target('growth 500 → 2,000 (per-resource time ratio)', growth, 1, '');

  // The figures above interleave our runs with fullDiff's in one long-lived process, so garbage
  // one leaves, and the heap both grew, are paid for in the other's time. Growth is also measured
  // with our analysis alone, each size in a fresh process.
  if (pairs.has(500) && pairs.has(2000)) {
    const alone = (size: number): { us_per_resource: number } => {
      const child = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'analysisAlone.ts'), String(size)], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`analysisAlone ${size} failed: ${child.stderr}`);
      return JSON.parse(child.stdout) as { us_per_resource: number };
    };
    const small = alone(500).us_per_resource;
    const large = alone(2000).us_per_resource;
    const ratio = large / small;
    say();
    say(`Our analysis alone, each size in a fresh process (21 runs): ${small.toFixed(1)} µs/resource at 500, ${large.toFixed(1)} at 2,000`);
    emit({ name: 'growth-alone', from: 500, to: 2000, per_resource_ratio: ratio, small_us_per_resource: small, large_us_per_resource: large });
    target('growth 500 → 2,000, our analysis alone', ratio, 1, '');
  }
}

/** The SAM pair's figures, measured by bench/samAlone.ts bundled as the language server is, in a process of its own. */
async function samFigures(): Promise<SamFigures> {
  const script = join(benchFolder(), 'samAlone.js');
  await bundle('bench/samAlone.ts', script);
  const child = spawnSync(process.execPath, [script, ...(quick ? ['--quick'] : [])], { encoding: 'utf8', timeout: 900_000 });
  if (child.status !== 0) throw new Error(`samAlone failed (exit ${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as SamFigures;
}

async function sam(): Promise<void> {
  const pair = generateSamPair();
  const figures = await samFigures();
  emit(figures);
  say();
  say(`SAM: ${SAM_FUNCTIONS} functions with an Api and an SQS event each (${figures.size} resources once expanded); median ms of ${figures.runs} runs, the engine bundled as it ships`);
  say(`- the pair's edit: ${pair.edits.join('; ')}`);
  say('- a keystroke: the baseline\'s evaluation kept, the edited side expanded in full, evaluated and compared');
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  table(
    ['case', 'analysis ms', 'expansion ms', 'expansion share'],
    [['cold: nothing kept, both sides expanded', figures.analysis_ms, figures.expansion_ms, percent(figures.share)], ...figures.keystrokes.map((k) => [`keystroke: ${k.edit}`, k.analysis_ms, k.expansion_ms, percent(k.share)])],
  );
  say(`A key typed into Handler100 before its colon (YAML that does not parse, nothing expanded): analysis ${round(figures.unparsed_key_ms)} ms`);
  say(`For scale, the processed templates as plain YAML: analysis ${round(figures.processed_analysis_ms)} ms`);
  say();
  say('Expansion of one side by the number of functions, each with an Api and an SQS event:');
  table(
    ['functions (Api events)', 'expansion ms', 'ratio to the row before'],
    figures.by_events.map((size, i) => [size.functions, size.expansion_ms, i === 0 ? '-' : `${round(size.expansion_ms / figures.by_events[i - 1]!.expansion_ms)}×`]),
  );
  const at400 = figures.by_events.find((size) => size.functions === 400)?.expansion_ms;
  const at800 = figures.by_events.find((size) => size.functions === 800)?.expansion_ms;
  target('SAM expansion growth from 400 to 800 Api events', at400 && at800 ? at800 / at400 : undefined, 2.2, '×');
}

function cdk(): void {
  const figures = benchCdk(loadResourceSpec(), { runs: quick ? 3 : 15 });
  emit(figures);
  say();
  say(`CDK: a stack synthesized by aws-cdk-lib in two versions (${figures.resources} resources: tables, buckets, queues, functions granted the tables), from the JSON text; median ms of ${figures.runs} runs`);
  table(['', 'ours ms', 'fullDiff ms (JSON.parse + fullDiff)'], [['analysis', figures.ours_ms, figures.peer_ms]]);
  const byCause = new Map<string, number>();
  for (const d of figures.replacement.oursOnly) byCause.set(d.why, (byCause.get(d.why) ?? 0) + 1);
  say(`Replacements: ${figures.replacement.agreed} both, ${figures.replacement.oursOnly.length} only ours (${[...byCause].map(([why, n]) => `${n} ${why}`).join(', ') || 'none'}), ${figures.replacement.peerOnly.length} only fullDiff`);
  for (const d of figures.replacement.oursOnly.slice(0, 3)) say(`- ${d.logicalId}: ours ${d.ours} (${d.cause}); fullDiff: ${d.peer}`);
  for (const d of figures.replacement.peerOnly.slice(0, 3)) say(`- ${d.logicalId}: fullDiff ${d.peer}; ours: ${d.ours}`);
  const reasons = new Map<string, number>();
  for (const d of figures.changedOnlyOurs) {
    const kind = d.reason.replace(/← .* replaced/, '← a replaced table or bucket');
    reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
  }
  say(`Changed resources only we report: ${figures.changedOnlyOurs.length} (${[...reasons].map(([reason, n]) => `${n}× "${reason}"`).join('; ') || 'none'}); only fullDiff: ${figures.changedOnlyPeer.length}`);
  const p = figures.parse;
  say(`Parsing a ${(p.bytes / 1e6).toFixed(2)} MB CDK template (${p.resources} resources): JSON fast path ${round(p.json_fast_ms)} ms, its YAML twin ${round(p.yaml_twin_ms)} ms, the JSON through the yaml package ${round(p.json_yaml_package_ms)} ms`);
  target('1 MB CDK template: JSON parse time / its YAML twin', p.ratio_to_yaml, 2, '×');
}

async function lsp(pairs: Map<number, TemplatePair>): Promise<void> {
  const serverFile = await bundleServer();
  const smallest = [...pairs.values()][0]!;
  const starts: LspStartFigures[] = [];
  for (let i = 0; i < (quick ? 1 : 5); i++) starts.push(await benchLspStart(serverFile, smallest));
  const start = starts.sort((a, b) => a.start_to_initialize_ms - b.start_to_initialize_ms)[Math.floor(starts.length / 2)]!;
  emit(start);
  const edits: LspEditFigures[] = [];
  let rss500: number | undefined;
  for (const pair of pairs.values()) {
    const result = await benchLspEdits(serverFile, pair, { edits: quick ? 5 : 20, settings: {}, debounceLabel: 'default' });
    edits.push(result.edit);
    emit(result.edit);
    if (pair.size === 500) {
      rss500 = result.rssMb;
      emit({ name: 'lsp-memory', size: 500, rss_mb: result.rssMb });
    }
  }
  // The same edits with a short debounce show what the analysis and the transport cost by themselves.
  const quickEdits: LspEditFigures[] = [];
  for (const pair of pairs.values()) {
    const result = await benchLspEdits(serverFile, pair, { edits: quick ? 5 : 20, settings: { analysis: { debounceMs: SHORT_DEBOUNCE_MS } }, debounceLabel: SHORT_DEBOUNCE_MS });
    quickEdits.push(result.edit);
    emit(result.edit);
  }
  say();
  say(`Language server over stdio (minified bundle): start → initialize answer ${round(start.start_to_initialize_ms)} ms; start → first code lens (${smallest.size} resources) ${round(start.start_to_first_lens_ms)} ms`);
  table(
    ['resources', 'edit → diagnostics median ms', 'p95 ms', `with ${SHORT_DEBOUNCE_MS} ms debounce: median ms`, 'p95 ms', 'edits'],
    edits.map((e, i) => [e.size, e.median_ms, e.p95_ms, quickEdits[i]?.median_ms ?? Number.NaN, quickEdits[i]?.p95_ms ?? Number.NaN, e.edits]),
  );
  say('(default debounce: the server\'s cfnImpact.analysis.debounceMs default, 150 ms)');
  // The SAM pair: each edit expands the edited side in full (the baseline's evaluation is kept).
  const samPair = generateSamPair();
  const samEdits: [string, string, RepeatedEdit | undefined][] = [
    ['sam', 'the Description', undefined],
    ['sam-api-path', "an Api event's path", { at: apiPathLine, value: (version) => `/items1/v${version}` }],
    ['sam-globals', "Globals' function Timeout", { at: globalsTimeoutLine, value: (version) => String(10 + (version % 50)) }],
    ['sam-parameter', "the Stage parameter's default", { at: stageDefaultLine, value: (version) => `stage${version}` }],
  ];
  const samRows: { what: string; edit: LspEditFigures; quick: LspEditFigures }[] = [];
  for (const [template, what, edit] of samEdits) {
    const withDefault = (await benchLspEdits(serverFile, samPair, { edits: quick ? 5 : 20, settings: {}, debounceLabel: 'default', ...(edit ? { edit } : {}) })).edit;
    const withShort = (await benchLspEdits(serverFile, samPair, { edits: quick ? 5 : 20, settings: { analysis: { debounceMs: SHORT_DEBOUNCE_MS } }, debounceLabel: SHORT_DEBOUNCE_MS, ...(edit ? { edit } : {}) })).edit;
    emit({ ...withDefault, template });
    emit({ ...withShort, template });
    samRows.push({ what, edit: withDefault, quick: withShort });
  }
  say(`SAM pair (${SAM_FUNCTIONS} functions, ${samPair.size} resources once expanded), edit → diagnostics:`);
  table(
    ['one-line edit', 'median ms', 'p95 ms', `with ${SHORT_DEBOUNCE_MS} ms debounce: median ms`, 'p95 ms', 'edits'],
    samRows.map((row) => [row.what, row.edit.median_ms, row.edit.p95_ms, row.quick.median_ms, row.quick.p95_ms, row.edit.edits]),
  );
  if (rss500 !== undefined) say(`Resident memory with the 500-resource template open: ${round(rss500)} MB`);
  const e500 = edits.find((e) => e.size === 500);
  const e50 = edits.find((e) => e.size === 50);
  target('edit → diagnostics median at 500', e500?.median_ms, 150, ' ms');
  target('edit → diagnostics p95 at 500', e500?.p95_ms, 300, ' ms');
  target('edit → diagnostics median at 50', e50?.median_ms, 60, ' ms');
  for (const row of samRows) {
    target(`edit → diagnostics median, SAM pair, ${row.what}`, row.edit.median_ms, 150, ' ms');
    target(`edit → diagnostics p95, SAM pair, ${row.what}`, row.edit.p95_ms, 300, ' ms');
  }
  target('server start → first answer', start.start_to_initialize_ms, 400, ' ms');
  target('RSS with 500-resource template', rss500, 150, ' MB');
}

/** The first line of a text that `matches`, the value after its colon; `what` names the line in the error when there is none. */
function valueOfLine(text: string, matches: (line: string) => boolean, what: string): { line: number; start: number; end: number } {
  const lines = text.split('\n');
  const line = lines.findIndex(matches);
  if (line < 0) throw new Error(`the SAM pair has no ${what} line`);
  const start = lines[line]!.indexOf(':') + 2;
  return { line, start, end: lines[line]!.length };
}

/** The SAM pair's Stage parameter default. */
const stageDefaultLine = (text: string) => valueOfLine(text, (line) => line === '    Default: prod', 'Parameters Default: prod');

/** The SAM pair's function timeout in Globals. */
const globalsTimeoutLine = (text: string) => valueOfLine(text, (line) => line === '    Timeout: 10', 'Globals Timeout: 10');

/** The SAM pair's new Api event path (`Path: /items1`). */
const apiPathLine = (text: string) => valueOfLine(text, (line) => /^\s+Path: \/items1$/.test(line), 'Path: /items1');

/** Runs the stacks helper's watcher benchmark (bench/watcher.ts) and reads its report: one block per scenario. */
function watcher(): void {
  const script = join(__dirname, 'watcher.ts');
  const missing = !existsSync(script);
  const result = missing ? undefined : spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 600_000 });
  const scenarios: { scenario: string; calls_per_min: number; calls: number; minutes: number; delay_mean_s?: number; delay_p95_s?: number }[] = [];
  let label = '';
  let minutes = Number.NaN;
  for (const line of (result?.stdout ?? '').split('\n')) {
    const simulated = /^\s+simulated ([\d.]+) min/.exec(line);
    const calls = /^\s+API calls: (\d+) → ([\d.]+) per minute/.exec(line);
    const delay = /^\s+event → seen delay over \d+ events: mean ([\d.]+) s, p50 [\d.]+ s, p95 ([\d.]+) s/.exec(line);
    if (simulated) minutes = Number(simulated[1]);
    else if (delay && scenarios.length > 0) Object.assign(scenarios[scenarios.length - 1], { delay_mean_s: Number(delay[1]), delay_p95_s: Number(delay[2]) });
    else if (calls) scenarios.push({ scenario: label, calls: Number(calls[1]), calls_per_min: Number(calls[2]), minutes });
    else if (line.trim() !== '' && !line.startsWith(' ')) label = line.trim();
  }
  say();
  say('Watcher API calls (bench/watcher.ts: simulated time, the local CloudFormation endpoint, the real SDK)');
  if (scenarios.length === 0) say(missing ? 'bench/watcher.ts is not there; not measured.' : `no figures (exit ${result?.status})`);
  else {
    table(
      ['scenario', 'simulated min', 'calls', 'calls/min', 'event → shown mean s', 'p95 s'],
      scenarios.map((s) => [s.scenario, s.minutes, s.calls, s.calls_per_min, s.delay_mean_s ?? '–', s.delay_p95_s ?? '–']),
    );
  }
  for (const scenario of scenarios) emit({ name: 'watcher', ...scenario });
  const find = (pattern: RegExp) => scenarios.find((s) => pattern.test(s.scenario))?.calls_per_min;
  target('watcher, 1 stack in progress (calls/min)', find(/^1 stack in progress/), 30, '');
  target('watcher, 1 busy stack in progress (calls/min)', find(/^1 busy stack/), 30, '');
  target('watcher, 200 settled stacks (calls/min)', find(/^200 stacks at rest/), 2, '');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
