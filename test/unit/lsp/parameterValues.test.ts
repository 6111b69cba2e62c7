// The values an edited template is analysed with when a parameters file is configured for it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readParameterFile } from '../../../server/src/evaluate/parameterFile';
import { fileParameterValues } from '../../../server/src/lsp/parameterValues';

const file = readParameterFile(`[
  { "ParameterKey": "Env", "ParameterValue": "prod" },
  { "ParameterKey": "Cidr", "UsePreviousValue": true }
]`);
const stack = { Env: 'staging', Cidr: '10.1.0.0/16', Size: '3' };

describe('parameters from a configured file', () => {
  test('against a linked stack, UsePreviousValue keys take the stack\'s current values; the rest are the file\'s', () => {
    assert.deepEqual(fileParameterValues(file, 'params.json', stack), { values: { Env: 'prod', Cidr: '10.1.0.0/16' }, source: 'params.json' });
  });

  test('without a stack, UsePreviousValue keys are passed on to take the baseline\'s resolved value', () => {
    assert.deepEqual(fileParameterValues(file, 'params.json', undefined), { values: { Env: 'prod' }, source: 'params.json', usePrevious: ['Cidr'] });
  });

  test('a file that cannot be read falls back to defaults and says why', () => {
    const broken = fileParameterValues(readParameterFile('[{ "ParameterValue": "x" }]'), 'params.json', stack);
    assert.deepEqual(broken.values, {});
    assert.match(broken.problem ?? '', /^Parameters file params\.json: each list entry must have a ParameterKey; using defaults\.$/);
  });
});
