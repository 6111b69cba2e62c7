// The profiles offered in the profile picker, read from the shared AWS files.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseAwsProfiles, readAwsProfiles } from '../../../server/src/stacks/awsProfiles';

const config = `
[default]
region = us-east-1

[profile prod]
sso_session = corp
region = eu-west-1

[sso-session corp]
sso_region = us-east-1

# a comment
[profile  dev ]
output = json
`;
const credentials = `
[default]
aws_access_key_id = AKIAEXAMPLEKEY
aws_secret_access_key = secret
[ci]
aws_access_key_id = AKIAOTHER
`;

describe('AWS profiles', () => {
  test('config profiles with their regions, credentials-only profiles, default first, no sso-session', () => {
    assert.deepEqual(parseAwsProfiles(config, credentials), [
      { name: 'default', region: 'us-east-1' },
      { name: 'ci' },
      { name: 'dev' },
      { name: 'prod', region: 'eu-west-1' },
    ]);
  });

  test('no key ever reaches the result', () => {
    assert.doesNotMatch(JSON.stringify(parseAwsProfiles(config, credentials)), /AKIA|secret/);
  });

  test('the files named by AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE are read; missing files are empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-profiles-'));
    writeFileSync(join(dir, 'config'), config);
    assert.deepEqual(
      (await readAwsProfiles({ AWS_CONFIG_FILE: join(dir, 'config'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'missing') })).map((p) => p.name),
      ['default', 'dev', 'prod'],
    );
    assert.deepEqual(await readAwsProfiles({ HOME: join(dir, 'nowhere') }), []);
  });
});
