/**
 * `cfn-impact diff --stack` with drift: the deployed stack's last drift detection, read through
 * the real SDK from the local endpoint, and what the update does to each drifted property
 * (docs/update-rules.md#drift). The stack: a function whose memory was raised from 256 to 512 MB
 * in the console, a queue whose visibility timeout went from 30 to 45 and which got a tag, an
 * Auto Scaling group a scaling policy moved, a topic deleted outside CloudFormation, a queue
 * whose detection is older than its last update, and a parameter no detection checked.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../../server/src/cli/main';
import { READ_ACTIONS } from '../../../server/src/stacks/types';
import { deployed, driftedWeb as web, startAt } from '../../fixtures/driftedStack';
import type { Scenario, ScenarioChangeSet } from '../../endpoint/scenarios';
import { startEndpoint, type LocalEndpoint } from '../../endpoint/server';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
process.env.AWS_SECRET_ACCESS_KEY = 'secret';

const dir = mkdtempSync(join(tmpdir(), 'cfn-impact-drift-'));
let endpoint: LocalEndpoint;
const DAY = 86_400_000;

before(async () => {
  endpoint = await startEndpoint({ accountId: '111122223333', scenarios: [{ name: 'drifted-web', scenario: web, startAt }], now: () => startAt + 4 * DAY });
});
after(async () => {
  await endpoint.close();
});

interface DiffJson {
  status: string;
  changes: { logicalId: string; action: string; impact: string; reason: string; drift?: { kind: string; path: string; live?: string; next?: string; why?: string }[]; syncWithActual?: true; details: { target: { path: string; beforeValue?: string; afterValue?: string; attributeChangeType: string; beforeValueFrom?: string } }[] }[];
  diagnostics: { severity: string; code: string; logicalId?: string; message: string }[];
  notes: string[];
}

async function diff(template: string, ...extra: string[]): Promise<DiffJson> {
  const path = join(dir, `web-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(path, template);
  let stdout = '';
  let stderr = '';
  const code = await main(['diff', '--stack', 'web', path, '--endpoint', endpoint.url, '--json', ...extra], { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, env: { AWS_REGION: 'us-east-1' } });
  assert.ok(code === 0 || code === 1, stderr);
  return JSON.parse(stdout) as DiffJson;
}

const driftMessages = (result: DiffJson, logicalId: string) => result.diagnostics.filter((d) => d.logicalId === logicalId && d.code.startsWith('drift')).map((d) => `${d.severity}: ${d.message}`);

describe('the normal mode: what an update does to drift', () => {
  test('the template changes the drifted property: the live value is overwritten, a warning', async () => {
    const result = await diff(deployed.replace('MemorySize: 256', 'MemorySize: 384'));
    const fn = result.changes.find((c) => c.logicalId === 'Fn')!;
    assert.deepEqual(fn.drift?.map((d) => [d.kind, d.path, d.live, d.next]), [['overwritten', '/MemorySize', '512', '384']]);
    assert.deepEqual(driftMessages(result, 'Fn'), ['warning: Fn MemorySize: live 512 → 384; the template said 256. The value changed outside CloudFormation is overwritten (drift detected 2026-12-03)']);
    assert.match(fn.reason, /MemorySize changed · overwrites drift: MemorySize live 512$/);
  });

  test('the template changes another property of the drifted resource: the drifted value may be written back', async () => {
    const result = await diff(deployed.replace('Timeout: 3', 'Timeout: 10'));
    assert.deepEqual(driftMessages(result, 'Fn'), ["warning: Fn MemorySize: live 512, the template says 256. This update of Fn may write the template's value back, as its type's update handler decides (drift detected 2026-12-03)"]);
  });

  test('a drifted resource the update leaves alone keeps its drift: information, not a change', async () => {
    const result = await diff(deployed.replace('Timeout: 3', 'Timeout: 10'));
    assert.deepEqual(result.changes.map((c) => c.logicalId), ['Fn']);
    assert.deepEqual(driftMessages(result, 'Jobs'), [
      'info: Jobs VisibilityTimeout: live 45, the template says 30. This update leaves Jobs alone, and the drift stays (drift detected 2026-12-03)',
      'info: Jobs Tags/0: live {"Key":"oncall","Value":"alice"}, the template says (absent). This update leaves Jobs alone, and the drift stays (drift detected 2026-12-03)',
    ]);
  });

  test('a drifted resource that is replaced comes back as the template says', async () => {
    const result = await diff(deployed.replace('      VisibilityTimeout: 30\n', '      VisibilityTimeout: 30\n      FifoQueue: true\n'));
    const jobs = result.changes.find((c) => c.logicalId === 'Jobs')!;
    assert.equal(jobs.impact, 'replacement');
    assert.deepEqual(jobs.drift?.map((d) => d.kind), ['discarded', 'discarded']);
  });

  test('a resource deleted outside CloudFormation fails the update that modifies it, and is said to be gone when left alone', async () => {
    const modified = await diff(deployed.replace('DisplayName: alerts', 'DisplayName: pager'));
    const alerts = modified.changes.find((c) => c.logicalId === 'Alerts')!;
    assert.equal(alerts.impact, 'will-fail');
    assert.match(alerts.reason, /^The resource was deleted outside CloudFormation \(drift detected 2026-12-03\): the update finds nothing to update and fails/);
    assert.equal(modified.status, 'update');
    const left = await diff(deployed.replace('Timeout: 3', 'Timeout: 10'));
    assert.deepEqual(driftMessages(left, 'Alerts'), ['info: Alerts was deleted outside CloudFormation (drift detected 2026-12-03); the stack still lists it, and an update that modifies it fails']);
  });

  test('a detection older than the resource\'s last update is stale, and said so instead of used', async () => {
    const result = await diff(deployed.replace('DelaySeconds: 5', 'DelaySeconds: 10'));
    assert.deepEqual(driftMessages(result, 'Old'), [
      'info: Old: the last drift detection (2026-12-03) is older than its last update (2026-12-04), so it says nothing about Old as it is now; detect drift again to see what was changed outside CloudFormation',
    ]);
    assert.equal(result.changes.find((c) => c.logicalId === 'Old')!.drift, undefined);
  });

  test('a resource no detection checked is not called in sync: nothing is said of its drift', async () => {
    const result = await diff(deployed.replace("Value: 'on'", "Value: 'off'"));
    assert.deepEqual(driftMessages(result, 'Setting'), []);
    assert.equal(result.changes.find((c) => c.logicalId === 'Setting')!.drift, undefined);
  });

  test('read-only: the drift costs DescribeStackResourceDrifts and ListStackResources, once per baseline read', async () => {
    const first = endpoint.calls.length;
    await diff(deployed);
    const calls = endpoint.calls.slice(first).map((c) => c.action);
    for (const action of calls) assert.ok((READ_ACTIONS as readonly string[]).includes(action), action);
    assert.deepEqual([...calls].sort(), ['DescribeStackResourceDrifts', 'DescribeStacks', 'GetTemplate', 'ListExports', 'ListStackResources']);
    assert.equal(calls.includes('DetectStackDrift'), false);
  });
});

describe('--revert-drift: the REVERT_DRIFT preview', () => {
  test('every drifted property of an untouched resource is set back, from the live value, except those the mode leaves', async () => {
    const result = await diff(deployed, '--revert-drift');
    assert.equal(result.status, 'update');
    const jobs = result.changes.find((c) => c.logicalId === 'Jobs')!;
    assert.equal(jobs.action, 'Modify');
    assert.deepEqual(jobs.details.map((d) => [d.target.path, d.target.beforeValue, d.target.afterValue, d.target.attributeChangeType, d.target.beforeValueFrom]), [['/Properties/VisibilityTimeout', '45', '30', 'Modify', 'ACTUAL_STATE']]);
    // A tag key the template does not name is left.
    assert.deepEqual(jobs.drift?.map((d) => [d.kind, d.path, d.why]), [['reverted', '/VisibilityTimeout', undefined], ['kept', '/Tags/0', 'external-tag']]);
    // A count a scaling policy drives is AWS's to manage.
    const group = result.changes.find((c) => c.logicalId === 'Group');
    assert.equal(group, undefined);
    assert.deepEqual(driftMessages(result, 'Group'), ['info: Group DesiredCapacity: live "3", the template says "1". REVERT_DRIFT leaves it: AWS manages it (a scaling policy or automatic upgrades move it) (drift detected 2026-12-03)']);
    assert.deepEqual(result.changes.find((c) => c.logicalId === 'Fn')!.details.map((d) => [d.target.beforeValue, d.target.afterValue]), [['512', '256']]);
  });

  test('a property no update can change (TopicName requires replacement) is left as it is', async () => {
    const result = await diff(deployed, '--revert-drift');
    assert.equal(result.changes.find((c) => c.logicalId === 'Feed'), undefined);
    assert.deepEqual(driftMessages(result, 'Feed'), ['info: Feed TopicName: live "web-feed-2", the template says "web-feed". REVERT_DRIFT leaves it: no update can change it (it requires replacement) (drift detected 2026-12-03)']);
    // A stale detection is not used in this mode either.
    assert.equal(result.changes.find((c) => c.logicalId === 'Old'), undefined);
  });

  test('a template that now says the live value only has its drift reset (SyncWithActual)', async () => {
    const result = await diff(deployed.replace('MemorySize: 256', 'MemorySize: 512'), '--revert-drift');
    const fn = result.changes.find((c) => c.logicalId === 'Fn')!;
    assert.equal(fn.impact, 'none');
    assert.equal(fn.syncWithActual, true);
    assert.deepEqual(fn.details.map((d) => [d.target.path, d.target.attributeChangeType, d.target.beforeValueFrom]), [['/Properties/MemorySize', 'SyncWithActual', 'ACTUAL_STATE']]);
  });

  test('a changed resource no detection checked keeps the two-way comparison, said per resource', async () => {
    const result = await diff(deployed.replace("Value: 'on'", "Value: 'off'"), '--revert-drift');
    assert.ok(result.notes.includes('No drift detection checked Setting (drift detection may not support its type): compared template to template, as a change set that cannot compare live state does'), JSON.stringify(result.notes));
  });

  test('needs --stack', async () => {
    let stderr = '';
    const path = join(dir, 'alone.yaml');
    writeFileSync(path, deployed);
    const code = await main(['diff', path, path, '--revert-drift'], { stdout: () => undefined, stderr: (s) => (stderr += s), isTTY: false, env: {} });
    assert.equal(code, 1);
    assert.match(stderr, /--revert-drift previews a drift-aware change set against the deployed stack: it needs --stack/);
  });
});

describe('cfn-impact verify with a drift-aware change set', () => {
  /** What CloudFormation lists for a REVERT_DRIFT change set of the unchanged template: the two drifted properties set back, from their live values. */
  const revertChange = (jobsLive: string): ScenarioChangeSet => ({
    name: `revert-${jobsLive}`,
    deploymentMode: 'REVERT_DRIFT',
    templateBody: deployed,
    changes: [
      {
        Action: 'Modify',
        LogicalResourceId: 'Fn',
        ResourceType: 'AWS::Lambda::Function',
        Replacement: 'False',
        Scope: ['Properties'],
        ResourceDriftStatus: 'MODIFIED',
        Details: [
          {
            Target: { Attribute: 'Properties', Name: 'MemorySize', Path: '/Properties/MemorySize', RequiresRecreation: 'Never', AttributeChangeType: 'Modify', BeforeValue: '512', AfterValue: '256', BeforeValueFrom: 'ACTUAL_STATE', AfterValueFrom: 'TEMPLATE', Drift: { PreviousValue: '256', ActualValue: '512' } },
            Evaluation: 'Static',
            ChangeSource: 'DirectModification',
          },
        ],
      },
      {
        Action: 'Modify',
        LogicalResourceId: 'Jobs',
        ResourceType: 'AWS::SQS::Queue',
        Replacement: 'False',
        Scope: ['Properties'],
        ResourceDriftStatus: 'MODIFIED',
        Details: [
          {
            Target: { Attribute: 'Properties', Name: 'VisibilityTimeout', Path: '/Properties/VisibilityTimeout', RequiresRecreation: 'Never', AttributeChangeType: 'Modify', BeforeValue: jobsLive, AfterValue: '30', BeforeValueFrom: 'ACTUAL_STATE', AfterValueFrom: 'TEMPLATE', Drift: { PreviousValue: '30', ActualValue: jobsLive } },
            Evaluation: 'Static',
            ChangeSource: 'DirectModification',
          },
        ],
      },
    ],
  });
  let verifyEndpoint: LocalEndpoint;

  before(async () => {
    const scenario: Scenario = { ...web, name: 'drifted-web-review', changeSets: [revertChange('45'), revertChange('60')] };
    verifyEndpoint = await startEndpoint({ accountId: '111122223333', scenarios: [{ name: 'drifted-web-review', scenario, startAt }], now: () => startAt + 4 * DAY });
  });
  after(async () => {
    await verifyEndpoint.close();
  });

  async function verify(changeSet: string): Promise<{ code: number; result: { status: string; resources: { logicalId: string; agrees: boolean; disagreements: { kind: string; message: string }[] }[] } }> {
    let stdout = '';
    const code = await main(['verify', '--stack', 'web', '--change-set', changeSet, '--endpoint', verifyEndpoint.url, '--json'], { stdout: (s) => (stdout += s), stderr: () => undefined, isTTY: false, env: { AWS_REGION: 'us-east-1' } });
    return { code, result: JSON.parse(stdout) as { status: string; resources: { logicalId: string; agrees: boolean; disagreements: { kind: string; message: string }[] }[] } };
  }

  test('a REVERT_DRIFT change set is compared with the REVERT_DRIFT preview, live values and drift statuses included: they agree', async () => {
    const { code, result } = await verify('revert-45');
    assert.equal(result.status, 'agree', JSON.stringify(result.resources));
    assert.equal(code, 0);
    assert.deepEqual(result.resources.map((r) => [r.logicalId, r.agrees]), [['Fn', true], ['Jobs', true]]);
  });

  test('a live value that moved since the last detection is a disagreement that says so', async () => {
    const { code, result } = await verify('revert-60');
    assert.equal(code, 3);
    const jobs = result.resources.find((r) => r.logicalId === 'Jobs')!;
    assert.deepEqual(jobs.disagreements.map((d) => [d.kind, d.message]), [['live-value', 'VisibilityTimeout is live 60 in the change set, 45 when drift was last detected']]);
  });
});
