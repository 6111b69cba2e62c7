/**
 * No credential ever reaches output. The CLI (as a real process), the watcher and the language
 * server (over stdio, verbose trace asked for) run with a key id, secret and session token that
 * are unique markers, against an endpoint that echoes every request header it received in its
 * error messages. Everything they write is captured and searched for the markers and for
 * Authorization, X-Amz-Security-Token and Signature= values.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { StackWatcher } from '../../../server/src/stacks/stackWatcher';
import { buildStackTree } from '../../../server/src/stacks/treeModel';
import { FakeClock, runUntil } from '../../endpoint/fakeClock';
import { FaultInjector } from '../../endpoint/faults';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';
import { NotificationType } from 'vscode-languageserver-protocol/node';
import { pathToUri, TestServer } from '../../lsp/support/languageServer';

const root = join(__dirname, '..', '..', '..');
const marker = randomBytes(8).toString('hex').toUpperCase();
const KEY_ID = `AKIA${marker}`;
const SECRET = `sk${randomBytes(18).toString('base64url')}`;
const TOKEN = `IQoJb3JpZ2luX2VjE${randomBytes(24).toString('base64url')}`;

/** Fails when the text carries a credential or a signed header's value. */
function assertClean(what: string, text: string): void {
  for (const secret of [KEY_ID, marker, SECRET, TOKEN]) assert.ok(!text.includes(secret), `${what} leaks ${secret}:\n${text}`);
  assert.doesNotMatch(text, /Signature=[0-9a-f]{8,}/i, `${what} leaks a signature`);
  assert.doesNotMatch(text, /authorization["']?\s*[:=]\s*["']?AWS4/i, `${what} leaks an Authorization header`);
  assert.doesNotMatch(text, /x-amz-security-token["']?\s*[:=]\s*["']?(?!\[redacted)\S/i, `${what} leaks a security token header`);
}

/** An endpoint (real time) playing one deployment quickly, with a fault injector. */
async function hostileEndpoint(): Promise<{ endpoint: LocalEndpoint; faults: FaultInjector }> {
  const faults = new FaultInjector(() => Date.now());
  const endpoint = await startEndpoint({ scenarios: ['update-replacement'], settledStacks: 2, stepMs: 60, intercept: faults.intercept });
  return { endpoint, faults };
}

/** Runs the CLI as its own process with the marker credentials; resolves to everything it wrote. */
function cli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'src', 'cli', 'main.ts'), ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: tmpdir(),
        AWS_ACCESS_KEY_ID: KEY_ID,
        AWS_SECRET_ACCESS_KEY: SECRET,
        AWS_SESSION_TOKEN: TOKEN,
        AWS_REGION: 'us-east-1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('secrets never leak', () => {
  test('the CLI: stacks and watch, plain and --json, through errors that echo the request headers', async () => {
    const runs: { args: (url: string) => string[]; faults: (f: FaultInjector) => void; code: number; says: RegExp }[] = [
      { args: (url) => ['stacks', '--endpoint', url], faults: (f) => f.next(1, { kind: 'echo-headers', code: 'AccessDenied', status: 403 }), code: 1, says: /Access denied: .*headers/s },
      { args: (url) => ['stacks', '--json', '--endpoint', url], faults: (f) => f.next(3, { kind: 'echo-headers' }), code: 1, says: /internal error: .*headers/s },
      { args: (url) => ['stacks', '--json', '--endpoint', url], faults: (f) => f.next(1, { kind: 'echo-headers', code: 'Throttling', status: 400 }), code: 0, says: /"stackName"/ },
      { args: (url) => ['watch', 'network', '--endpoint', url], faults: (f) => f.next(1, { kind: 'echo-headers', code: 'InvalidClientTokenId', status: 403 }), code: 1, says: /Access denied: .*headers/s },
      { args: (url) => ['watch', 'network', '--json', '--interval-ms', '40', '--endpoint', url], faults: (f) => f.next(2, { kind: 'echo-headers', code: 'ServiceUnavailable', status: 503 }), code: 0, says: /"type":"done"/ },
      { args: (url) => ['watch', 'network', '--interval-ms', '40', '--endpoint', url], faults: (f) => f.next(1, { kind: 'echo-headers', code: 'ValidationError', status: 400 }), code: 0, says: /network: UPDATE_COMPLETE/ },
    ];
    await Promise.all(
      runs.map(async (run) => {
        const { endpoint, faults } = await hostileEndpoint();
        run.faults(faults);
        try {
          const { code, output } = await cli(run.args(endpoint.url));
          const name = run.args('URL').join(' ');
          assert.equal(code, run.code, `${name}:\n${output}`);
          assert.match(output, run.says, name);
          assert.ok(faults.total >= 1, `${name}: the hostile answer was sent`);
          assertClean(name, output);
        } finally {
          await endpoint.close();
        }
      }),
    );
  });

  test('the watcher: error changes, snapshots and the tree', async () => {
    const clock = new FakeClock();
    const faults = new FaultInjector(() => clock.now());
    const endpoint = await startEndpoint({ scenarios: ['update-replacement'], settledStacks: 2, now: () => clock.now(), startAt: clock.now() + 60_000, intercept: faults.intercept });
    const created = await CloudFormationReader.create({
      endpoint: endpoint.url,
      region: 'us-east-1',
      credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET, sessionToken: TOKEN },
    });
    assert.ok(created.ok);
    const watcher = new StackWatcher({ reader: created.value, clock, scope: 'all', settledIntervalMs: 20_000 });
    const seen: string[] = [];
    watcher.onDidChange((change) => {
      seen.push(JSON.stringify(change));
      if (change.kind === 'error') seen.push(JSON.stringify(buildStackTree({ regions: [{ region: 'us-east-1', snapshot: watcher.snapshot() }], now: clock.now() })));
    });
    for (const [code, status] of [['AccessDenied', 403], ['InternalFailure', 500], ['ValidationError', 400], ['Throttling', 400], ['ExpiredToken', 403]] as const) {
      faults.next(1, { kind: 'echo-headers', code, status });
    }
    try {
      watcher.start();
      watcher.follow('network');
      await runUntil(clock, watcher, () => clock.now() > endpoint.stacks[0].endsAt + 60_000);
      seen.push(JSON.stringify(watcher.snapshot()));
      assert.equal(faults.total, 5);
      assert.ok(seen.filter((s) => s.includes('headers')).length >= 5, 'the echoed messages were shown');
      assertClean('watcher output', seen.join('\n'));
    } finally {
      watcher.dispose();
      created.value.dispose();
      await endpoint.close();
    }
  });

  describe('the language server, with a linked stack and verbose trace', () => {
    let workspace: string;
    let hostile: { endpoint: LocalEndpoint; faults: FaultInjector };
    let server: TestServer;
    let raw = '';
    const saved = { ...process.env };

    before(async () => {
      workspace = mkdtempSync(join(tmpdir(), 'cfn-impact-secrets-'));
      writeFileSync(join(workspace, 'stack.yaml'), 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n');
      hostile = await hostileEndpoint();
      // The server process inherits the environment: the standard credential chain finds the markers.
      Object.assign(process.env, { AWS_ACCESS_KEY_ID: KEY_ID, AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: TOKEN, AWS_REGION: 'us-east-1' });
      delete process.env.AWS_PROFILE;
      server = await TestServer.start({
        workspace,
        initializationOptions: { environment: { trusted: true, aws: { endpoint: hostile.endpoint.url, regions: ['us-east-1'] } } },
        settings: { baseline: { links: { 'stack.yaml': 'network' } }, trace: { server: 'verbose' } },
      });
      server.process.stdout?.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      // Everything the server writes is in `raw`; these also keep what the client would show.
      for (const method of ['window/showMessage', '$/logTrace', 'telemetry/event']) {
        server.connection.onNotification(method, (...params: unknown[]) => {
          server.logs.push(`${method} ${JSON.stringify(params)}`);
        });
      }
      await server.connection.sendNotification(new NotificationType<{ value: string }>('$/setTrace'), { value: 'verbose' });
    });

    after(async () => {
      await server?.stop();
      await hostile?.endpoint.close();
      rmSync(workspace, { recursive: true, force: true });
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    });

    test('a stack baseline that fails with echoed headers: the status, logs and every message are clean', async () => {
      hostile.faults.next(2, { kind: 'echo-headers', code: 'AccessDenied', status: 403 });
      const uri = pathToUri(join(workspace, 'stack.yaml'));
      const version = await server.open(uri, 'Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties: { BucketName: data }\n');
      const failed = await server.status(uri, (s) => s.kind === 'stack' && s.state !== 'loading');
      assert.notEqual(failed.state, 'ok');
      assert.match(failed.detail ?? '', /headers/, 'the echoed message reached the status');
      await server.diagnostics(uri, version);
      assert.ok(hostile.faults.total >= 1);
      const everything = [raw, ...server.logs, JSON.stringify(server.statuses), JSON.stringify(server.published)].join('\n');
      assertClean('language server output', everything);
    });
  });
});
