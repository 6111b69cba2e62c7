/**
 * Small statistics and timing helpers shared by the benchmarks.
 */

/** The value at quantile `q` (0..1) of the samples, nearest-rank. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** The median of the samples (nearest-rank, so always one of them). */
export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

/** Milliseconds spent in `run`. */
export function timeMs(run: () => unknown): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Rounds for display: two significant decimals below 10, one below 100, none above. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
