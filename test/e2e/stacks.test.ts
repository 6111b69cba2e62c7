// The stacks sidebar of the packaged extension follows a deployment served by the local
// CloudFormation endpoint, from in progress to its final state, as a person watching it would see.
// Needs the .vsix from `npm run package`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { freePort, startCodeServer, type CodeServer } from './support/code-server';
import { startEndpoint, type LocalEndpoint } from './support/endpoint';
import { missingVsixReason, readManifest, vsixPath } from './support/paths';
import { waitFor } from './support/wait';
import { Workbench, type ShownRow } from './support/workbench';
import { createGitWorkspace, type GitWorkspace } from './support/workspace';

/** The user settings that point the extension at the local endpoint (machine-scoped in the manifest). */
function connectionSettings(endpointUrl: string): Record<string, unknown> {
  return { 'cfnImpact.aws.endpoint': endpointUrl, 'cfnImpact.aws.regions': ['us-east-1'] };
}

/** The title of the extension's activity-bar container. */
function viewContainerTitle(): string {
  const container = readManifest().contributes?.viewsContainers?.activitybar?.[0];
  if (!container) throw new Error('package.json declares no activity-bar view container');
  return container.title;
}

const stackName = 'network';
// A row says the status in a word (the icon gives the phase, the tooltip the full status).
const inProgress = /\b(updating|cleaning up)\b/;
const finalState = /\bupdated\b/;
/** The progress a running stack's row shows: `updating · 2/7 · ~1 min left`. */
const progressShown = /(\d+)\/(\d+) · (?:~\d+ (?:min|h)|<1 min) left/;

const skip = missingVsixReason();
if (skip) console.log(`skipping the stacks end-to-end suite: ${skip}`);

describe('the stacks sidebar follows a deployment', { skip, timeout: 300_000 }, () => {
  let endpointPort: number;
  let endpoint: LocalEndpoint;
  let workspace: GitWorkspace;
  let server: CodeServer;
  let workbench: Workbench;

  before(async () => {
    // The extension is told where the endpoint will be; the endpoint itself starts only once the
    // window is up, so that the scripted deployment is still running when the sidebar first looks.
    endpointPort = await freePort();
    workspace = createGitWorkspace({ 'README.md': 'Stacks demo\n' }, {});
    server = await startCodeServer({
      name: 'stacks',
      workspace: workspace.path,
      vsix: vsixPath(),
      settings: connectionSettings(`http://127.0.0.1:${endpointPort}`),
      // Signing needs some credentials; the local endpoint does not check them.
      env: { AWS_ACCESS_KEY_ID: 'AKIAE2ETESTEXAMPLE', AWS_SECRET_ACCESS_KEY: 'e2e-not-a-secret', AWS_REGION: 'us-east-1' },
    });
    workbench = await Workbench.open(server.url, 'stacks');
    // The deployment the README demo predicts for examples/network: four replacements, a new queue, a retained bucket.
    endpoint = await startEndpoint('network-example', 'stacks', { port: endpointPort, stepMs: 1500 });
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    await endpoint?.stop();
    workspace?.remove();
  });

  test('the stack appears in progress with its progress and time left, then settles in its final state with the replaced resources', async () => {
    await workbench.openViewContainer(viewContainerTitle());
    const stackRow = (rows: ShownRow[]) => rows.find((row) => row.text.includes(stackName) || row.label.includes(stackName));
    const statusOf = (row: ShownRow) => `${row.text} ${row.label}`;

    const first = await waitFor(async () => stackRow(await workbench.sideBarRows()), {
      timeoutMs: 60_000,
      what: `the ${stackName} stack in the sidebar`,
    });
    await workbench.screenshot('stack-listed');

    // Follow the row until it settles, keeping a screenshot of the deployment while it runs.
    const seen = new Set<string>();
    let shotInProgress = false;
    let progressRow: string | undefined;
    let cutOff: string[] = [];
    const settled = await waitFor(
      async () => {
        const row = stackRow(await workbench.sideBarRows());
        if (!row) return undefined;
        seen.add(statusOf(row));
        if (!shotInProgress && inProgress.test(statusOf(row))) {
          shotInProgress = true;
          await workbench.screenshot('stack-in-progress');
        }
        if (progressRow === undefined && inProgress.test(statusOf(row)) && progressShown.test(statusOf(row))) {
          progressRow = statusOf(row);
          await workbench.screenshot('stack-progress');
          cutOff = (await workbench.sideBarRows()).filter((shown) => shown.cutOff).map((shown) => shown.text);
        }
        return finalState.test(statusOf(row)) ? row : undefined;
      },
      { timeoutMs: 120_000, intervalMs: 250, what: `${stackName} to reach UPDATE_COMPLETE` },
    ).catch(async (error: Error) => {
      await workbench.screenshot('stack-never-settled');
      throw new Error(`${error.message}; the sidebar showed ${JSON.stringify([...seen])}`);
    });
    assert.ok(
      inProgress.test(statusOf(first)) || [...seen].some((status) => inProgress.test(status)),
      `the sidebar showed the deployment in progress before it settled; saw ${JSON.stringify([...seen])}`,
    );
    assert.match(statusOf(settled), finalState);
    // While it ran, the row said how many resources were done of how many, and the time left.
    assert.ok(progressRow, `the running stack's row showed its progress; saw ${JSON.stringify([...seen])}`);
    // At the default sidebar width no row is cut off: a status in a word, the rest in the tooltip.
    assert.deepEqual(cutOff, [], 'rows cut off while the deployment ran');
    const [, done, total] = progressShown.exec(progressRow)!;
    assert.ok(Number(done) <= Number(total) && Number(total) > 0, progressRow);
    // Once settled, the row no longer counts: the outcome says it all.
    assert.doesNotMatch(statusOf(settled), progressShown);

    await workbench.expandSideBarRow(stackName);
    await workbench.expandSideBarRow(/^Resources/);
    // The settled status can be drawn a moment before the resources are listed again (the status
    // comes with the events, the listing right after): the final rows are those the tree settles on.
    const settledAt = Date.now();
    const resources = await waitFor(
      async () => {
        const rows = await workbench.sideBarRows();
        return rows.some((row) => row.text.includes('Subnet')) && !rows.some((row) => row.text.includes('AccessLogs')) ? rows : undefined;
      },
      { timeoutMs: 30_000, what: `the resources of ${stackName}, the retained bucket gone from the stack` },
    ).catch(async (error: Error) => {
      await workbench.screenshot('stack-resources-never-settled');
      throw error;
    });
    console.log(`the final resources of ${stackName} were shown ${Date.now() - settledAt} ms after its settled status had been seen`);
    await workbench.screenshot('stack-final');
    const shown = resources.map(statusOf).join('\n');
    for (const logicalId of ['VPC', 'Subnet', 'WebSecurityGroup', 'WebServer', 'Queue']) assert.match(shown, new RegExp(`\\b${logicalId}\\b`));
    assert.doesNotMatch(shown, /\bAccessLogs\b/, 'the retained bucket has left the stack once the update completes');
  });
});
