/**
 * `npm run bench`: the whole benchmark, printed as tables with the targets beside the figures.
 *
 *   npm run bench                      everything
 *   npm run bench -- --json            one JSON object per line instead of tables
 *   npm run bench -- --only=analysis   one part: analysis, lsp, watcher (comma-separated)
 *   npm run bench -- --sizes=50,500    fewer template sizes
 *   npm run bench -- --quick           fewer runs (for a smoke test, not for figures)
 */
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { loadResourceSpec } from '../server/src/spec/load';
import { BENCH_SIZES, generatePair, type TemplatePair } from './generate';
import { benchImpactPair, type ImpactFigures } from './impact';
import { benchLspEdits, benchLspStart, bundleServer, type LspEditFigures, type LspStartFigures } from './lsp';
import { round } from './stats';

const args = process.argv.slice(2);
const json = args.includes('--json');
const quick = args.includes('--quick');
const only = new Set((args.find((a) => a.startsWith('--only='))?.slice(7) ?? 'analysis,lsp,watcher').split(','));
const sizes = (args.find((a) => a.startsWith('--sizes='))?.slice(8).split(',').map(Number) ?? [...BENCH_SIZES]).filter((n) => n > 0);

interface Target {
  what: string;
  figure: string;
  goal: string;
  met: boolean | undefined;
}

const targets: Target[] = [];
const lines: string[] = [];

function emit(record: object): void {
  if (json) console.log(JSON.stringify(roundAll(record)));
}

function roundAll(record: object): object {
  return JSON.parse(JSON.stringify(record, (_key, value: unknown) => (typeof value === 'number' ? round(value) : value)));
}

function say(text = ''): void {
  if (!json) lines.push(text), console.log(text);
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
  if (only.has('lsp')) await lsp(pairs);
  if (only.has('watcher')) watcher();

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
    ['resources', 'ours ms', 'fullDiff ms', 'ratio', 'fullDiff w/o parse ms', 'ours µs/resource', 'runs'],
    results.map((r) => [r.size, r.ours_ms, r.peer_ms, r.ratio, r.peer_diff_only_ms, (r.ours_ms * 1000) / r.size, r.runs]),
  );
  say();
  say('Replacement verdicts (replacement or conditional replacement vs WILL_REPLACE or MAY_REPLACE)');
  table(
    ['resources', 'both', 'only ours', 'only fullDiff', 'examples (only ours: our cause chain)'],
    results.map((r) => [
      r.size,
      r.replacement.agreed,
      r.replacement.oursOnly.length,
      r.replacement.peerOnly.length,
      [
        ...r.replacement.oursOnly.slice(0, 3).map((d) => `${d.logicalId} (${d.cause}; fullDiff: ${d.peer})`),
        ...r.replacement.peerOnly.slice(0, 2).map((d) => `${d.logicalId} (ours: ${d.ours}; fullDiff: ${d.peer})`),
      ].join('; '),
    ]),
  );
  const at500 = results.find((r) => r.size === 500);
  target('analysis ratio at 500 resources', at500?.ratio, 0.5, '');
  const at2000 = results.find((r) => r.size === 2000);
  const growth = at500 && at2000 ? at2000.ours_ms / 2000 / (at500.ours_ms / 500) : undefined;
  if (growth !== undefined) emit({ name: 'growth', from: 500, to: 2000, per_resource_ratio: growth });
  target('growth 500 → 2,000 (per-resource time ratio)', growth, 1, '');
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
  say();
  say(`Language server over stdio (minified bundle): start → initialize answer ${round(start.start_to_initialize_ms)} ms; start → first code lens (${smallest.size} resources) ${round(start.start_to_first_lens_ms)} ms`);
  table(
    ['resources', 'edit → diagnostics median ms', 'p95 ms', 'edits'],
    edits.map((e) => [e.size, e.median_ms, e.p95_ms, e.edits]),
  );
  if (rss500 !== undefined) say(`Resident memory with the 500-resource template open: ${round(rss500)} MB`);
  const e500 = edits.find((e) => e.size === 500);
  const e50 = edits.find((e) => e.size === 50);
  target('edit → diagnostics median at 500', e500?.median_ms, 150, ' ms');
  target('edit → diagnostics p95 at 500', e500?.p95_ms, 300, ' ms');
  target('edit → diagnostics median at 50', e50?.median_ms, 60, ' ms');
  target('server start → first answer', start.start_to_initialize_ms, 400, ' ms');
  target('RSS with 500-resource template', rss500, 150, ' MB');
}

/** Runs the stacks helper's watcher benchmark (bench/watcher.ts) and takes its JSON lines. */
function watcher(): void {
  const script = join(__dirname, 'watcher.ts');
  if (!existsSync(script)) {
    say();
    say('Watcher: bench/watcher.ts is not there yet; not measured.');
    target('watcher, 1 stack in progress (calls/min)', undefined, 30, '');
    target('watcher, 200 settled stacks (calls/min)', undefined, 2, '');
    return;
  }
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, '--json'], { encoding: 'utf8', timeout: 600_000 });
  const records = result.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  say();
  say('Watcher (bench/watcher.ts against the local CloudFormation endpoint)');
  if (records.length === 0) {
    say(`no figures (exit ${result.status}): ${result.stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
  for (const record of records) emit({ ...record, name: `watcher-${String(record.name ?? record.scenario ?? 'figure')}` });
  const keys = [...new Set(records.flatMap((record) => Object.keys(record)))];
  if (records.length > 0) table(keys, records.map((record) => keys.map((key) => (typeof record[key] === 'number' ? (record[key] as number) : String(record[key] ?? '')))));
  const callsPerMinute = (pattern: RegExp) => {
    const record = records.find((r) => pattern.test(String(r.name ?? r.scenario ?? '')));
    const value = record?.calls_per_min ?? record?.callsPerMinute;
    return typeof value === 'number' ? value : undefined;
  };
  target('watcher, 1 stack in progress (calls/min)', callsPerMinute(/progress/i), 30, '');
  target('watcher, 200 settled stacks (calls/min)', callsPerMinute(/settled/i), 2, '');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
