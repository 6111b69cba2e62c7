/**
 * The fast YAML reader's promise, on real templates in a fresh clone: whenever it accepts a text,
 * the `yaml` package reads that text without any error or warning and builds the same tree,
 * every range included. The texts are the AWS sample templates committed in
 * test/fixtures/corpus-slice/ and the project's own examples/network/, which between them hold
 * block and flow collections, literal block scalars, short forms, both quote styles, comments
 * and JSON: each cut after every line (as an editor holds it while someone types at the end)
 * and mutated as test/fuzz/mutations.ts does, with a fixed seed. A fault in the fast path (an
 * exception that is not a decline) escapes parseYamlFast and fails the test.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { parseYamlFast } from '../../../server/src/template/fastYaml';
import { parseWithYamlPackage } from '../../../server/src/template/parse';
import { mutatedTemplateArbitrary } from '../../fuzz/mutations';
import { runLength } from '../../support/runLength';

// 1,000 mutants in `npm test`, 4,000 in `npm run test:long`; a longer local search:
// FAST_YAML_SEED=<n> FAST_YAML_RUNS=<n> node scripts/run-tests.mjs <this file>.
const SEED = Number(process.env.FAST_YAML_SEED ?? 20_261_121);
const MUTANT_RUNS = Number(process.env.FAST_YAML_RUNS ?? runLength(1000, 4000));

const repository = join(__dirname, '..', '..', '..');
const sliceDir = join(repository, 'test', 'fixtures', 'corpus-slice');

/** Every template in the slice and the network example, by path relative to the repository. */
function templates(): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ya?ml|json)$/.test(name)) found.push({ path: relative(repository, path), text: readFileSync(path, 'utf8') });
    }
  };
  walk(sliceDir);
  walk(join(repository, 'examples', 'network'));
  return found;
}

const all = templates();

/** Whether the fast path accepted `text`; when it did, asserts that yaml reads the same. */
function fastPathAgrees(text: string, label: string): boolean {
  const fast = parseYamlFast(text);
  if (fast === undefined) return false;
  const general = parseWithYamlPackage(text);
  assert.deepEqual(general.errors, [], `${label}: yaml reports no problem with a text the fast path accepted`);
  assert.deepEqual(fast.root, general.root, `${label}: the same tree, values and ranges`);
  return true;
}

describe('parseYamlFast on real templates, cut and mutated', () => {
  test('reads every template as yaml does, declining only JSON and the one kept for its comments at the end of a block', () => {
    const declined = all.filter(({ path, text }) => !fastPathAgrees(text, path)).map(({ path }) => path);
    // The fast path leaves multi-line flow collections (all JSON) and a comment below a block's last line to yaml.
    assert.deepEqual(declined, ['test/fixtures/corpus-slice/AppRunner/AppRunnerServiceFromECR.yaml', 'test/fixtures/corpus-slice/EC2/InstanceWithCfnInit.json', 'test/fixtures/corpus-slice/SNS/SNSTopic.json']);
    assert.equal(all.length, 14);
  });

  test('whenever it accepts a template cut after any of its lines, with or without the line break, yaml reads it without error into the same tree and ranges', () => {
    // Every line, not a sample: what an editor holds while someone types the last line is the commonest text of all.
    let cuts = 0;
    let accepted = 0;
    for (const { path, text } of all) {
      let line = 1;
      for (let lineEnd = text.indexOf('\n'); lineEnd >= 0; lineEnd = text.indexOf('\n', lineEnd + 1), line++) {
        cuts += 2;
        if (fastPathAgrees(text.slice(0, lineEnd), `${path} up to the end of line ${line}`)) accepted++;
        if (fastPathAgrees(text.slice(0, lineEnd + 1), `${path} up to the line break of line ${line}`)) accepted++;
      }
    }
    // A property the fast path never reaches would prove nothing; most cuts of block YAML are read by it.
    assert.ok(accepted >= cuts / 2, `the fast path accepted only ${accepted} of ${cuts}`);
    console.log(`# the fast path accepted ${accepted} of ${cuts} cuts`);
  });

  test(`whenever it accepts a mutated template (${MUTANT_RUNS} mutants), yaml reads it without error into the same tree and ranges`, () => {
    let accepted = 0;
    fc.assert(
      fc.property(mutatedTemplateArbitrary(all.map(({ text }) => text)), ({ mutated, steps }) => {
        if (fastPathAgrees(mutated, steps.join(', '))) accepted++;
      }),
      { seed: SEED, numRuns: MUTANT_RUNS },
    );
    // Again not vacuous: about a quarter of the mutants are still read by the fast path.
    assert.ok(accepted >= MUTANT_RUNS / 10, `the fast path accepted only ${accepted} of ${MUTANT_RUNS}`);
    console.log(`# the fast path accepted ${accepted} of ${MUTANT_RUNS} mutants`);
  });
});
