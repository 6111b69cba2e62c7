/**
 * The two lengths of the suites. `npm test`, run before each commit, gives the property,
 * corpus-wide, mutation and soak-style suites a small fixed sample spread over their whole input;
 * `npm run test:long` (run by CI) gives them their full strength. The samples are fixed, so a
 * failure replays, and spread, so that every kind of input the full run meets is in them.
 */

/** Whether this is the long run (`npm run test:long`, which sets `CFN_IMPACT_TESTS=long`). */
export const LONG_RUN = process.env.CFN_IMPACT_TESTS === 'long';

/** `long` in the long run, `short` otherwise. */
export function runLength<T>(short: T, long: T): T {
  return LONG_RUN ? long : short;
}

/** All the items in the long run; otherwise `count` of them, evenly spaced from the first. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (LONG_RUN || items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]!);
}
