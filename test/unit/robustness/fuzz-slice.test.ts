/**
 * A short, deterministic slice of the fuzz run (test/fuzz/run.ts has the long one): generated
 * templates and mutated corpus templates never throw, stay within the time bound, are no update
 * when compared with themselves, and give the same verdict as JSON and as YAML.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { loadCorpus, mutatedTemplateArbitrary } from '../../fuzz/mutations';
import { checkGeneratedTemplate, checkMutatedTemplate } from '../../fuzz/properties';
import { templateArbitrary } from '../../fuzz/templateArbitrary';

const SEED = 20_261_121;
const spec = loadResourceSpec();
const corpus = loadCorpus();

describe('fuzz slice', () => {
  test('120 generated templates keep every property', () => {
    fc.assert(
      fc.property(templateArbitrary, (template) => {
        assert.deepEqual(checkGeneratedTemplate(spec, template), []);
      }),
      { seed: SEED, numRuns: 120 },
    );
  });

  test('80 mutated corpus templates keep every property', { skip: 'absent' in corpus ? corpus.absent : false }, () => {
    if (!('texts' in corpus)) return;
    fc.assert(
      fc.property(mutatedTemplateArbitrary(corpus.texts), ({ original, mutated }) => {
        assert.deepEqual(checkMutatedTemplate(spec, original, mutated), []);
      }),
      { seed: SEED, numRuns: 80 },
    );
  });
});
