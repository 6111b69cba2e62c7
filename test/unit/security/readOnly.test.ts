/**
 * Read-only by construction: the reader offers nothing but Describe/List/Get calls, only the
 * reader imports CloudFormation commands, and running every scenario, every CLI command (diff
 * --stack and verify included) and the watcher against the endpoint sends no action outside READ_ACTIONS.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CloudFormationReader } from '../../../server/src/stacks/cloudFormationReader';
import { StackWatcher } from '../../../server/src/stacks/stackWatcher';
import { READ_ACTIONS } from '../../../server/src/stacks/types';
import { runWatch } from '../../../server/src/cli/watch';
import { runStacks } from '../../../server/src/cli/stacks';
import { runDiff } from '../../../server/src/cli/diff';
import { runVerify } from '../../../server/src/cli/verify';
import type { CliIo } from '../../../server/src/cli/io';
import { SCENARIOS } from '../../endpoint/scenarios';
import { startEndpoint, type RecordedCall } from '../../endpoint/server';
import { FakeClock, driveUntilSettled, runUntil } from '../../endpoint/fakeClock';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

const root = join(__dirname, '..', '..', '..');
const READ = new Set<string>(READ_ACTIONS);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|js|mjs)$/.test(name) ? [path] : [];
  });
}

describe('read-only by construction', () => {
  test('every method of the reader sends exactly the read action it is named after', async () => {
    const endpoint = await startEndpoint({ scenarios: ['update-replacement', 'exporting-network', 'change-set-review'] });
    const created = await CloudFormationReader.create({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
    assert.ok(created.ok);
    const reader = created.value;
    const calls: Record<string, () => Promise<{ ok: boolean }>> = {
      listStacks: () => reader.listStacks(),
      describeStacks: () => reader.describeStacks(),
      listStackResources: () => reader.listStackResources('network'),
      describeStackEvents: () => reader.describeStackEvents('network'),
      describeEvents: () => reader.describeEvents('network', 'an-operation-id', { failedOnly: true }),
      getTemplate: () => reader.getTemplate('network'),
      listExports: () => reader.listExports(),
      listImports: () => reader.listImports('shared-vpc-id'),
      listChangeSets: () => reader.listChangeSets('network-review'),
      describeChangeSet: () => reader.describeChangeSet('network-review', 'with-nested-stack'),
      describeStackResourceDrifts: () => reader.describeStackResourceDrifts('network', { statuses: ['MODIFIED', 'DELETED'] }),
    };
    try {
      // The public calls are exactly these (plus dispose, which sends nothing).
      const methods = Object.getOwnPropertyNames(CloudFormationReader.prototype).filter(
        (name) => name !== 'constructor' && typeof (reader as unknown as Record<string, unknown>)[name] === 'function',
      );
      const privateHelpers = ['guard', 'credentialValues', 'readChangeSet'];
      // Following a detection needs one that was started: that method is read by test/lsp/drift.test.ts.
      assert.deepEqual(methods.filter((m) => !privateHelpers.includes(m)).sort(), [...Object.keys(calls), 'describeStackDriftDetectionStatus', 'dispose'].sort());
      for (const [method, call] of Object.entries(calls)) {
        const before = endpoint.calls.length;
        assert.ok((await call()).ok, method);
        const sent = new Set(endpoint.calls.slice(before).map((c) => c.action));
        const action = method[0].toUpperCase() + method.slice(1);
        assert.deepEqual([...sent], [action], `${method} sends ${action} only`);
        assert.ok(READ.has(action));
        assert.match(action, /^(Describe|List|Get)/);
      }
      reader.dispose();
    } finally {
      await endpoint.close();
    }
  });

  test('every scenario, watched, listed and followed by the watcher, sends only read actions', async () => {
    const recorded: RecordedCall[] = [];
    const io: CliIo = { stdout: () => undefined, stderr: () => undefined, isTTY: false, env: { AWS_REGION: 'us-east-1' } };
    for (const scenario of Object.values(SCENARIOS)) {
      const clock = new FakeClock();
      const endpoint = await startEndpoint({ scenarios: [scenario.name], settledStacks: 2, now: () => clock.now(), startAt: clock.now(), stepMs: 3000, pageSize: { events: 4 } });
      try {
        for (const args of [['--json'], [], ['--all'], ['--all', '--json']]) {
          assert.equal(await runStacks([...args, '--endpoint', endpoint.url], io), 0);
        }
        // Comparing with the deployed stack and with each of its change sets reads only.
        assert.ok([0, 1, 2].includes(await runDiff(['--stack', scenario.stackName, join(root, 'examples', 'network', 'update.yaml'), '--endpoint', endpoint.url, '--json'], io)));
        for (const changeSet of scenario.changeSets ?? []) {
          assert.ok([0, 3].includes(await runVerify(['--stack', scenario.stackName, '--change-set', changeSet.name, join(root, 'examples', 'network', 'update.yaml'), '--endpoint', endpoint.url], io)), changeSet.name);
        }
        for (const args of [['--json'], []]) {
          const code = await driveUntilSettled(clock, runWatch([scenario.stackName, '--endpoint', endpoint.url, ...args], io, { clock }));
          // Once deleted, a stack is no longer found by name: the second watch of the delete says so.
          const expected = scenario.name === 'delete-stack' && args.length === 0 ? [1] : [0, 2];
          assert.ok(expected.includes(code), `${scenario.name}: watch exit ${code}`);
        }
        const created = await CloudFormationReader.create({ endpoint: endpoint.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
        assert.ok(created.ok);
        const watcher = new StackWatcher({ reader: created.value, clock, scope: 'all' });
        watcher.start();
        watcher.follow(scenario.stackName);
        const until = clock.now() + 10 * 60_000;
        await runUntil(clock, watcher, () => clock.now() >= until);
        await watcher.refresh();
        watcher.dispose();
        created.value.dispose();
      } finally {
        recorded.push(...endpoint.calls);
        await endpoint.close();
      }
    }
    const actions = new Set(recorded.map((c) => c.action));
    for (const action of actions) assert.ok(READ.has(action), `${action} is not a read action`);
    // The run exercised the reads the product makes, not a trivial subset.
    for (const action of ['DescribeStacks', 'ListStacks', 'DescribeStackEvents', 'ListStackResources', 'GetTemplate', 'DescribeChangeSet', 'DescribeEvents']) assert.ok(actions.has(action), action);
  });

  test('only the reader imports CloudFormation commands, and only Describe/List/Get ones; DetectStackDrift lives alone in driftDetection.ts', () => {
    const importers: string[] = [];
    for (const file of [...sourceFiles(join(root, 'server', 'src')), ...sourceFiles(join(root, 'client', 'src'))]) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('@aws-sdk/client-cloudformation')) continue;
      const name = relative(root, file).split('\\').join('/');
      importers.push(name);
      assert.doesNotMatch(text, /import\s*\*\s*as\s+\w+\s+from\s+['"]@aws-sdk\/client-cloudformation['"]/, `${name}: a namespace import reaches every command`);
      assert.doesNotMatch(text, /(require|import)\(\s*['"]@aws-sdk\/client-cloudformation['"]\s*\)/, `${name}: a dynamic import reaches every command`);
      for (const match of text.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*['"]@aws-sdk\/client-cloudformation['"]/g)) {
        if (match[1]) continue;
        const names = match[2].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter(Boolean);
        for (const imported of names.filter((n) => /Command$/.test(n))) {
          if (name === 'server/src/stacks/driftDetection.ts') assert.equal(imported, 'DetectStackDriftCommand');
          else assert.match(imported, /^(Describe|List|Get)\w+Command$/, `${name} imports ${imported}`);
        }
      }
    }
    // Type-only imports elsewhere would be harmless, but there are none: the reader is the one door.
    assert.deepEqual(importers.sort(), ['server/src/stacks/cloudFormationReader.ts', 'server/src/stacks/driftDetection.ts']);
  });

  test("SECURITY.md's minimal IAM policy grants exactly the read actions the reader sends, and names DetectStackDrift as the one to add for Detect Drift", () => {
    const text = readFileSync(join(root, 'SECURITY.md'), 'utf8');
    const policy = /### Minimal IAM policy[\s\S]*?```json\n([\s\S]*?)```/.exec(text);
    assert.ok(policy, 'the policy block');
    const actions = (JSON.parse(policy[1]) as { Statement: { Action: string[] }[] }).Statement.flatMap((s) => s.Action);
    assert.deepEqual([...actions].sort(), READ_ACTIONS.map((a) => `cloudformation:${a}`).sort());
    assert.match(text, /add\n`cloudformation:DetectStackDrift` for it/);
  });
});
