/**
 * The Region is known or unknown, never assumed (docs/update-rules.md#region): no Region is
 * written into the server's or the client's source as a default. The few places that name one
 * do it for another reason, listed here with that reason; a new one fails this test.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repository = join(__dirname, '..', '..', '..');

/** Files that may name a Region, and why. */
const NAMING_A_REGION: Record<string, string> = {
  'server/src/stacks/awsProfiles.ts': "the Regions the region picker offers, when the profile has none",
  'server/src/stacks/awsErrors.ts': 'an example in the message for a Region that does not exist',
  'client/src/awsPickers.ts': 'an example in the prompt for a Region code typed by hand',
};

/** A Region's name as AWS writes it: `us-east-1`, `eu-west-1`, `us-gov-west-1`, `cn-north-1`. */
const REGION = /\b(?:us|eu|ap|sa|ca|me|af|il|mx|cn)(?:-gov|-iso[a-z]?)?-(?:east|west|north|south|central|northeast|northwest|southeast|southwest)-\d\b/;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(repository, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(folder, path));
}

describe('no assumed Region', () => {
  test('no source file of the server or the client names a Region, except for the reasons listed', () => {
    const naming = [...sourceFiles('server/src'), ...sourceFiles('client/src')]
      .filter((path) => REGION.test(readFileSync(join(repository, path), 'utf8')))
      .map((path) => relative(repository, join(repository, path)).split('\\').join('/'));
    assert.deepEqual(naming.sort(), Object.keys(NAMING_A_REGION).sort());
  });

  test('the files listed still name one: the list holds no stale entry', () => {
    for (const path of Object.keys(NAMING_A_REGION)) assert.match(readFileSync(join(repository, path), 'utf8'), REGION, path);
  });
});
