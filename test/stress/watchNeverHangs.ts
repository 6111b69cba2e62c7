/**
 * Stress for `cfn-impact watch`: hundreds of runs against the local CloudFormation endpoint through
 * the real SDK, each with its own scripted deployment, start offset (before, during or after the
 * operation), page size, poll interval, time passing inside each call (a busy machine, a slow
 * network) and throttled calls. Time is simulated, so a run that would poll for ever is caught by
 * a limit on simulated time instead of a wall clock.
 *
 *   tsx test/stress/watchNeverHangs.ts [--runs N] [--seed S] [--verbose]
 *
 * Prints one line per failing run and a summary; exits 1 when any run hung or ended wrongly.
 * `test/unit/stacks/watchNeverHangs.test.ts` runs a smaller share of it in `npm test`.
 */
import { runWatchStress } from './watchStress';

const args = process.argv.slice(2);
const value = (name: string, fallback: number) => {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};

void runWatchStress({ runs: value('--runs', 500), seed: value('--seed', 1), log: args.includes('--verbose') ? console.log : undefined }).then((result) => {
  for (const failure of result.failures) console.log(`FAIL run ${failure.run}: ${failure.what} (${failure.setup})`);
  console.log(`${result.runs} runs, ${result.failures.length} failed; simulated watch time median ${Math.round(result.medianSimulatedMs / 1000)} s, longest ${Math.round(result.maxSimulatedMs / 1000)} s; ${Math.round(result.wallMs / 1000)} s wall`);
  process.exitCode = result.failures.length === 0 ? 0 : 1;
});
