// The deployment timeline of the packaged extension: opened from the stack's context menu in the
// stacks sidebar while the scripted deployment of examples/network runs on the local CloudFormation
// endpoint, it grows live and ends with one bar per resource, the replaced ones marked, the cleanup
// set apart, a bar's events on selection and a table of the same rows. The expectations are read
// off the `network-example` script (test/endpoint/scenarios.ts). Needs the .vsix from `npm run package`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator } from 'playwright-core';
import { freePort, startCodeServer, type CodeServer } from './support/code-server';
import { startEndpoint, type LocalEndpoint } from './support/endpoint';
import { missingVsixReason, readManifest, vsixPath } from './support/paths';
import { waitFor } from './support/wait';
import { Workbench } from './support/workbench';
import { createGitWorkspace, type GitWorkspace } from './support/workspace';

const stackName = 'network';

/** The title of the extension's activity-bar container. */
function viewContainerTitle(): string {
  const container = readManifest().contributes?.viewsContainers?.activitybar?.[0];
  if (!container) throw new Error('package.json declares no activity-bar view container');
  return container.title;
}

/** The title of the stack context-menu command that opens the timeline, as the manifest declares it. */
function showTimelineTitle(): string {
  const command = readManifest().contributes?.commands?.find((c) => c.command === 'cfnImpact.stacks.showTimeline');
  if (!command) throw new Error('package.json declares no cfnImpact.stacks.showTimeline command');
  return command.title;
}

const skip = missingVsixReason();
if (skip) console.log(`skipping the timeline end-to-end suite: ${skip}`);

describe('the deployment timeline', { skip, timeout: 300_000 }, () => {
  let endpointPort: number;
  let endpoint: LocalEndpoint;
  let workspace: GitWorkspace;
  let server: CodeServer;
  let workbench: Workbench;

  before(async () => {
    endpointPort = await freePort();
    workspace = createGitWorkspace({ 'README.md': 'Timeline demo\n' }, {});
    server = await startCodeServer({
      name: 'timeline',
      workspace: workspace.path,
      vsix: vsixPath(),
      settings: { 'cfnImpact.aws.endpoint': `http://127.0.0.1:${endpointPort}`, 'cfnImpact.aws.regions': ['us-east-1'] },
      // Signing needs some credentials; the local endpoint does not check them.
      env: { AWS_ACCESS_KEY_ID: 'AKIAE2ETESTEXAMPLE', AWS_SECRET_ACCESS_KEY: 'e2e-not-a-secret', AWS_REGION: 'us-east-1' },
    });
    workbench = await Workbench.open(server.url, 'timeline');
    // The scripted deployment starts with the endpoint, so it is still running when the timeline opens.
    endpoint = await startEndpoint('network-example', 'timeline', { port: endpointPort, stepMs: 2000 });
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    await endpoint?.stop();
    workspace?.remove();
  });

  test('opens from the stack menu, grows while the deployment runs, and shows every resource once it is done', async () => {
    const page = workbench.page;
    await workbench.openViewContainer(viewContainerTitle());
    const stackRow = page.locator('.part.sidebar .monaco-list-row', { hasText: stackName }).first();
    await stackRow.waitFor({ state: 'visible', timeout: 60_000 });
    await stackRow.click({ button: 'right' });
    const menuItem = page.locator('.context-view .monaco-menu .action-item', { hasText: showTimelineTitle() }).first();
    await menuItem.waitFor({ state: 'visible' });
    await menuItem.click();

    // A webview is an iframe holding the page's own iframe.
    const timeline: FrameLocator = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    const summary = timeline.locator('.summary');
    const barNames = () => timeline.locator('.bar-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row') ?? ''));

    // While it runs: a growing bar, and the summary counting the time so far.
    let runningShot = false;
    const sawRunning = await waitFor(
      async () => {
        if ((await summary.count()) === 0) return undefined;
        const text = (await summary.textContent()) ?? '';
        // Shot once a few bars show, with the pointer on the panel rather than on a sidebar tooltip.
        if (/so far/.test(text) && (await timeline.locator('.span.running').count()) > 0 && (await timeline.locator('.bar-row').count()) >= 3) {
          if (!runningShot) {
            await page.mouse.move(1200, 850);
            await workbench.screenshot('timeline-running');
          }
          runningShot = true;
          return true;
        }
        return /→ UPDATE_COMPLETE/.test(text) ? false : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 250, what: 'the timeline of the running deployment' },
    );
    assert.equal(sawRunning, true, 'the timeline was seen while the deployment ran, with a running bar');

    await waitFor(async () => /UPDATE_IN_PROGRESS → UPDATE_COMPLETE in /.test((await summary.textContent()) ?? ''), {
      timeoutMs: 120_000,
      intervalMs: 500,
      what: 'the timeline of the finished deployment',
    });
    // Ordered by each resource's first event in the script: VPC and Queue start together, Subnet and
    // WebSecurityGroup once the new VPC exists, WebServer after them, the retained bucket in cleanup.
    assert.deepEqual(await barNames(), ['VPC', 'Queue', 'Subnet', 'WebSecurityGroup', 'WebServer', 'AccessLogs']);
    const replaced = await timeline
      .locator('.bar-row', { has: timeline.locator('.marker', { hasText: 'Replaced' }) })
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row')));
    assert.deepEqual(replaced, ['VPC', 'Subnet', 'WebSecurityGroup', 'WebServer']);
    assert.deepEqual(await timeline.locator('.band-label').allTextContents(), ['Deployment', 'Cleanup']);
    assert.equal(await timeline.locator('.bar-row .span.part-cleanup').count(), 5, 'four old physical resources and the retained bucket leave in the cleanup');
    assert.equal(await timeline.locator('.marker-root-cause').count(), 0, 'a successful deployment has no root cause');

    // Selecting a bar shows its details and events.
    await timeline.locator('.bar-row[data-row="VPC"]').click();
    const details = timeline.locator('.detail[data-row="VPC"]');
    await details.waitFor({ state: 'visible' });
    assert.match((await details.locator('pre').textContent()) ?? '', /Replaced: vpc-0a7c3e91d5b24f608 → vpc-0e52d8b1c9a4736f1/);
    assert.deepEqual(
      (await details.locator('tbody tr td:nth-child(2)').allTextContents()),
      ['UPDATE_IN_PROGRESS', 'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE', 'DELETE_IN_PROGRESS', 'DELETE_COMPLETE'],
    );
    await workbench.screenshot('timeline-final');

    // The same rows as a table.
    await timeline.locator('#toggle').click();
    const table = timeline.locator('#table');
    await table.waitFor({ state: 'visible' });
    assert.deepEqual(await table.locator('tbody > tr > th').allTextContents(), ['VPC', 'Queue', 'Subnet', 'WebSecurityGroup', 'WebServer', 'AccessLogs']);
    await workbench.screenshot('timeline-table');
  });
});
