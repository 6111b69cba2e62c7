// The profile and region pickers ask the server what to offer: profile names and regions from
// the person's shared AWS files, never a key.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awsProfilesRequest } from '../../server/src/lsp/protocol';
import { TestServer } from './support/languageServer';

describe('the AWS profiles request', () => {
  let dir: string;
  let server: TestServer;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-profiles-'));
    writeFileSync(join(dir, 'config'), '[default]\nregion = eu-west-1\n[profile prod]\nregion = us-west-2\n');
    writeFileSync(join(dir, 'credentials'), '[ci]\naws_access_key_id = AKIAMARKER1234\naws_secret_access_key = marker-secret\n');
    server = await TestServer.start({ env: { AWS_CONFIG_FILE: join(dir, 'config'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials') } });
  });

  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('answers the profiles with their regions and the regions to offer, and no key', async () => {
    const answer = await server.connection.sendRequest(awsProfilesRequest, {});
    assert.deepEqual(answer.profiles, [{ name: 'default', region: 'eu-west-1' }, { name: 'ci' }, { name: 'prod', region: 'us-west-2' }]);
    assert.ok(answer.regions.includes('us-east-1') && answer.regions.includes('eu-central-2'));
    assert.doesNotMatch(JSON.stringify(answer), /AKIA|marker-secret/);
  });
});
