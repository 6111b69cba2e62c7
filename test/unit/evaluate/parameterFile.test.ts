// Parameter values files in the shapes people keep next to templates.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readParameterFile } from '../../../server/src/evaluate/parameterFile';

describe('readParameterFile', () => {
  test("the CLI's list of ParameterKey/ParameterValue; UsePreviousValue entries take the deployed value", () => {
    const text = '[{"ParameterKey":"Cidr","ParameterValue":"10.1.0.0/16"},{"ParameterKey":"Env","UsePreviousValue":true}]';
    assert.deepEqual(readParameterFile(text), { ok: true, parameters: { Cidr: '10.1.0.0/16' }, usePrevious: ['Env'] });
  });

  test("CodePipeline's template configuration", () => {
    assert.deepEqual(readParameterFile('{"Parameters":{"Cidr":"10.1.0.0/16","Count":3},"Tags":{"a":"b"}}'), {
      ok: true,
      parameters: { Cidr: '10.1.0.0/16', Count: '3' },
      usePrevious: [],
    });
  });

  test('a plain YAML map; lists become comma-delimited strings', () => {
    assert.deepEqual(readParameterFile('Cidr: 10.1.0.0/16\nSubnets: [a, b]\nDebug: true\n'), {
      ok: true,
      parameters: { Cidr: '10.1.0.0/16', Subnets: 'a,b', Debug: 'true' },
      usePrevious: [],
    });
  });

  test('broken or misshapen files are errors with a reason', () => {
    const broken = readParameterFile('{"Parameters": [');
    assert.equal(broken.ok, false);
    assert.deepEqual(readParameterFile('[{"Value":"x"}]'), { ok: false, message: 'each list entry must have a ParameterKey' });
    assert.equal(readParameterFile('"just a string"').ok, false);
  });
});
