// A parameters file configured for a template, through the real server over stdio: its values
// feed the analysis, and `UsePreviousValue` keeps what the baseline resolved, as CloudFormation
// keeps the deployed value, even when the template's default changed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToUri, TestServer } from './support/languageServer';

const committed = `AWSTemplateFormatVersion: '2010-09-09'
Parameters:
  Size:
    Type: String
    Default: t3.small
Resources:
  Box:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-12345678
      InstanceType: !Ref Size
`;
const edited = committed.replace('Default: t3.small', 'Default: t3.large');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
}

describe('parameters files', () => {
  let repo: string;
  let server: TestServer;

  /** The title of the stack verdict lens on the first line. */
  async function verdict(uri: string): Promise<string> {
    const lenses = await server.codeLenses(uri);
    return lenses?.[0]?.command?.title ?? '';
  }

  before(async () => {
    repo = mkdtempSync(join(tmpdir(), 'cfn-impact-lsp-params-'));
    git(repo, 'init', '-q', '-b', 'main');
    for (const name of ['keep.yaml', 'set.yaml']) writeFileSync(join(repo, name), committed);
    git(repo, 'add', '--', 'keep.yaml', 'set.yaml');
    git(repo, 'commit', '-q', '-m', 'first');
    writeFileSync(join(repo, 'keep.json'), '[{"ParameterKey": "Size", "UsePreviousValue": true}]');
    writeFileSync(join(repo, 'set.json'), '{"Size": "t3.medium"}');
    server = await TestServer.start({
      workspace: repo,
      settings: { parameters: { files: { 'keep.yaml': 'keep.json', 'set.yaml': 'set.json' } } },
    });
  });

  after(async () => {
    await server?.stop();
    rmSync(repo, { recursive: true, force: true });
  });

  test('UsePreviousValue keeps the baseline\'s value although the default changed: no update', async () => {
    const uri = pathToUri(join(repo, 'keep.yaml'));
    await server.diagnostics(uri, await server.open(uri, edited));
    assert.match(await verdict(uri), /No updates are to be performed/);
  });

  test('a value set in the file applies to both sides, so a changed default does not matter', async () => {
    const uri = pathToUri(join(repo, 'set.yaml'));
    await server.diagnostics(uri, await server.open(uri, edited));
    assert.match(await verdict(uri), /No updates are to be performed/);
  });

  test('without a parameters file the changed default is an update', async () => {
    writeFileSync(join(repo, 'bare.yaml'), committed);
    git(repo, 'add', '--', 'bare.yaml');
    git(repo, 'commit', '-q', '-m', 'bare');
    const uri = pathToUri(join(repo, 'bare.yaml'));
    await server.diagnostics(uri, await server.open(uri, edited));
    assert.match(await verdict(uri), /1 modify/);
  });
});
