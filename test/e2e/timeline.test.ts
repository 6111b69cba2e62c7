// The deployment timeline of the packaged extension: opened from the progress notification of the
// scripted deployment of examples/network while it runs on the local CloudFormation endpoint, it
// grows live and ends with one bar per resource, the replaced ones marked, the cleanup set apart,
// a bar's events on selection and a table of the same rows; at rest, the stack's context menu in
// the stacks sidebar opens it too. A failed create alongside it, opened from its notification,
// shows its root cause, and its create alone once chosen among the stack's operations. The
// expectations are read off the `network-example` and `create-rollback` scripts
// (test/endpoint/scenarios.ts). Needs the .vsix from `npm run package`.
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
    // The scripted deployments start with the endpoint, so the update is still running when its timeline opens.
    // Steps of 4 s make the update last 80 s, time enough on a loaded machine to show the sidebar,
    // follow the stack and open its panel while it runs.
    endpoint = await startEndpoint(['network-example', 'create-rollback'], 'timeline', { port: endpointPort, stepMs: 4000 });
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    await endpoint?.stop();
    workspace?.remove();
  });

  /** Opens the timeline of a stack from its context menu in the sidebar, and returns the panel's page. */
  async function openTimeline(name: string): Promise<FrameLocator> {
    const page = workbench.page;
    const stackRow = page.locator('.part.sidebar .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) }).first();
    await stackRow.waitFor({ state: 'visible', timeout: 60_000 });
    const menuItem = page.locator('.context-view .monaco-menu .action-item', { hasText: showTimelineTitle() }).first();
    const started = Date.now();
    const attempts: string[] = [];
    // A redraw of the tree can swallow the click on the menu: open the menu again until the panel is there.
    await waitFor(
      async () => {
        if ((await page.locator('iframe.webview').count()) > 0) return true;
        // Close a menu left open by a redraw (only then: Escape also hides the notifications).
        if (await page.locator('.context-view .monaco-menu').isVisible()) await page.keyboard.press('Escape');
        const attemptAt = Date.now();
        await stackRow.click({ button: 'right' });
        const shown = await menuItem.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
        if (!shown) {
          attempts.push(`no menu after ${Date.now() - attemptAt} ms`);
          return undefined;
        }
        // Clicked the instant it showed, the item was seen not to run its command, several times in
        // a row with the stack at rest: the pointer rests on the item first, as a person's does.
        await menuItem.hover();
        await page.waitForTimeout(250);
        await menuItem.click();
        // A loaded machine can take seconds to open a webview: wait long enough not to reopen it meanwhile.
        const opened = await waitFor(async () => (await page.locator('iframe.webview').count()) > 0, { timeoutMs: 20_000, what: 'the panel' }).then(() => true, () => false);
        attempts.push(opened ? `opened ${Date.now() - attemptAt} ms after the right click` : 'menu clicked, no panel within 20 s');
        return opened || undefined;
      },
      { timeoutMs: 120_000, intervalMs: 500, what: `the timeline panel of ${name} to open` },
    ).catch(async (error: Error) => {
      await workbench.screenshot('timeline-never-opened').catch(() => undefined);
      throw new Error(`${error.message} (attempts: ${attempts.join('; ')})`);
    });
    console.log(`the timeline of ${name} opened after ${Date.now() - started} ms (menu attempts: ${attempts.join('; ')})`);
    // A webview is an iframe holding the page's own iframe.
    return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
  }

  test('opens from the progress notification, grows while the deployment runs, shows every resource once it is done, and opens from the stack menu at rest', async () => {
    const page = workbench.page;
    await workbench.openViewContainer(viewContainerTitle());
    // Expanding the stack follows it, and a followed deployment has a progress notification that
    // links to its timeline. A running stack is drawn expanded without being followed, so it is
    // collapsed first. (Its context menu is used once the stack is at rest: while the deployment
    // runs, the tree redraws every second and a redraw can swallow the menu's click.)
    const stackRow = page.locator('.part.sidebar .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${stackName}$`) }) }).first();
    await stackRow.waitFor({ state: 'visible', timeout: 60_000 });
    for (const expanded of ['false', 'true']) {
      await waitFor(
        async () => {
          if ((await stackRow.getAttribute('aria-expanded')) === expanded) return true;
          await stackRow.locator('.monaco-tl-twistie').click();
          return undefined;
        },
        { timeoutMs: 30_000, intervalMs: 500, what: `the ${stackName} row's aria-expanded to be ${expanded}` },
      );
    }
    const progressLink = page.locator('.notification-list-item', { hasText: stackName }).locator('a', { hasText: 'Show Timeline' }).first();
    await progressLink.waitFor({ state: 'visible', timeout: 60_000 }).catch(async (error: Error) => {
      await workbench.screenshot('timeline-no-progress-notification').catch(() => undefined);
      throw error;
    });
    await workbench.screenshot('timeline-progress-notification');
    // The notification cannot be cancelled (a Cancel there would read as cancelling the update);
    // it offers to stop following the stack, in those words.
    const progressItem = page.locator('.notification-list-item', { hasText: stackName }).first();
    assert.ok((await progressItem.locator('a', { hasText: 'Stop Following' }).count()) > 0, 'a Stop Following link in the progress notification');
    assert.equal(await progressItem.locator('.monaco-button', { hasText: 'Cancel' }).count(), 0);
    await progressLink.click();
    await waitFor(async () => (await page.locator('iframe.webview').count()) > 0, { timeoutMs: 30_000, what: "the timeline panel, from the progress notification's link" });
    // A webview is an iframe holding the page's own iframe.
    const timeline = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
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

    // At rest, the stack's context menu opens the same timeline: the finished update.
    await workbench.runCommand('View: Close All Editors');
    await waitFor(async () => (await page.locator('iframe.webview').count()) === 0, { timeoutMs: 20_000, what: 'the panel to close' });
    const fromMenu = (await openTimeline(stackName)).locator('.summary');
    await waitFor(async () => /UPDATE_IN_PROGRESS → UPDATE_COMPLETE in /.test((await fromMenu.textContent()) ?? ''), {
      timeoutMs: 30_000,
      intervalMs: 250,
      what: 'the timeline of the finished update, from the stack menu',
    });
  });

  test('opened from the notification of a failed create, it marks the first failure as the root cause and the rollback as a part of its own', async () => {
    const page = workbench.page;
    // One panel at a time, so that the page found below is this stack's.
    await workbench.runCommand('View: Close All Editors');
    await workbench.notificationAction('Deployment of web (us-east-1) failed', 'Show Timeline');
    const timeline = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    const summary = timeline.locator('.summary');
    await waitFor(async () => (await summary.count()) > 0 && /CREATE_IN_PROGRESS → ROLLBACK_COMPLETE in /.test((await summary.textContent()) ?? ''), {
      timeoutMs: 60_000,
      intervalMs: 500,
      what: 'the timeline of the failed create',
    }).catch(async (error: Error) => {
      await workbench.screenshot('timeline-failed-never-shown');
      throw error;
    });
    assert.deepEqual(await timeline.locator('.band-label').allTextContents(), ['Deployment', 'Rollback']);
    // Instance failed first; VPC and Bucket were cancelled because of it.
    const causes = await timeline.locator('.bar-row.root-cause').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row')));
    assert.deepEqual(causes, ['Instance']);
    await timeline.locator('.bar-row[data-row="Instance"]').click();
    const details = timeline.locator('.detail[data-row="Instance"] pre');
    await details.waitFor({ state: 'visible' });
    assert.match((await details.textContent()) ?? '', /Root cause: CREATE_FAILED — Invalid id: "bogus" \(expecting "ami-\.\.\."\)/);
    await workbench.page.mouse.move(1200, 850);
    await workbench.screenshot('timeline-failed');

    // The chooser: the rollback is an operation of its own (its own OperationId), so the create
    // alone shows only its deployment part, the instance's failure still its root cause.
    const choices = await timeline.locator('#operation option').allTextContents();
    assert.deepEqual(choices.map((choice) => choice.split(' · ').slice(0, 2).join(' · ')), ['Current or last, with its rollback', 'Rollback · succeeded', 'Create · failed']);
    await timeline.locator('#operation').selectOption({ index: 2 });
    await waitFor(async () => JSON.stringify(await timeline.locator('.band-label').allTextContents()) === '["Deployment"]', {
      timeoutMs: 30_000,
      intervalMs: 250,
      what: 'the timeline of the create alone',
    });
    assert.deepEqual(await timeline.locator('.bar-row.root-cause').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row'))), ['Instance']);
    await workbench.screenshot('timeline-chosen-operation');
  });
});
