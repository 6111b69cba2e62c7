// The packaged extension in a real VS Code, seen the way a person sees it: a template edited since
// its last commit shows what the next deployment will do, through lenses, problems, a hover and the
// status bar. Needs the .vsix from `npm run package`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCodeServer, type CodeServer } from './support/code-server';
import { findInLogs } from './support/logs';
import { extensionId, missingVsixReason, vsixPath } from './support/paths';
import { waitFor } from './support/wait';
import { Workbench, type ShownLens } from './support/workbench';
import { createGitWorkspace, type GitWorkspace } from './support/workspace';
import { ordersTable } from '../fixtures/changedValues';
import { committedNetwork, editedNetwork } from '../fixtures/editedNetwork';

const committed = committedNetwork;
const edited = editedNetwork;
/** UpdateReplacePolicy: Retain, the CDK's default: a replaced table is kept. */
const retained = '    UpdateReplacePolicy: Retain\n';

const activationLine = /CloudFormation Impact activated in (\d+(?:\.\d+)?) ?ms/;
const skip = missingVsixReason();
if (skip) console.log(`skipping the impact end-to-end suite: ${skip}`);

describe('impact of an edited template in code-server', { skip, timeout: 300_000 }, () => {
  let workspace: GitWorkspace;
  let server: CodeServer;
  let workbench: Workbench;
  let lenses: ShownLens[] = [];

  before(async () => {
    workspace = createGitWorkspace(
      { 'stack.yaml': committed, 'table.yaml': ordersTable('id', retained) },
      { 'stack.yaml': edited, 'table.yaml': ordersTable('orderId', retained) },
    );
    server = await startCodeServer({ name: 'impact', workspace: workspace.path, vsix: vsixPath() });
    workbench = await Workbench.open(server.url, 'impact');
    await workbench.openFile('stack.yaml');
    // The lenses arrive once the server has analysed the file against HEAD.
    lenses = await workbench.settledCodeLenses((shown) => shown.some((lens) => lens.text.includes('Replace')), 'replacement code lenses');
  });

  after(async () => {
    await workbench?.close();
    await server?.stop();
    workspace?.remove();
  });

  test('a lens above each changed resource says what will happen to it', async () => {
    await workbench.screenshot('lenses');
    const above = (key: string) => lenses.filter((lens) => lens.line.trim() === `${key}:`).map((lens) => lens.text);
    assert.deepEqual(above('Network').length, 1, `one lens above Network, got ${JSON.stringify(lenses)}`);
    assert.match(above('Network')[0], /^⟳ Replace — CidrBlock ← parameter Cidr/);
    assert.match(above('PublicSubnet')[0] ?? '', /^⟳ Replace — .*(CidrBlock changed|VpcId ← Network replaced)/);
    assert.match(above('Logs')[0] ?? '', /^✎ Update \(no interruption\) — Tags changed/);
    assert.match(above('Alerts')[0] ?? '', /^\+ Add/);
    assert.ok(
      above('Resources').some((text) => /^− Remove Jobs/.test(text)),
      `the removed queue is named on the Resources key, got ${JSON.stringify(lenses)}`,
    );
  });

  test('the edited parameter says, on its own line, what it replaces; clicking it shows those resources beside it', async () => {
    const onCidr = lenses.filter((lens) => lens.line.trim() === 'Cidr:').map((lens) => lens.text);
    assert.deepEqual(onCidr, ['⟳ replaces Network, PublicSubnet'], JSON.stringify(lenses));
    await workbench.clickCodeLens(/replaces Network, PublicSubnet/);
    const rows = await workbench.peekRows();
    await workbench.screenshot('edit-site-peek');
    assert.ok(rows.some((row) => row.includes('Network:')), JSON.stringify(rows));
    assert.ok(rows.some((row) => row.includes('PublicSubnet:')), JSON.stringify(rows));
    await workbench.page.keyboard.press('Escape');
  });

  test('replaced resources stand out: their lines are marked in the margin, and only theirs', async () => {
    await workbench.page.keyboard.press('Control+Home');
    const marked = await waitFor(async () => {
      const lines = await workbench.marginMarkedLines();
      return lines.length > 0 ? lines : undefined;
    }, { timeoutMs: 30_000, what: 'lines marked in the margin' });
    assert.deepEqual(marked, ['Network:', 'PublicSubnet:']);
  });

  test('Go to Next Impact moves the cursor to the next changed resource, then the one after', async () => {
    const cursorLine = async () => {
      const position = (await workbench.statusBarItems()).map((item) => /Ln (\d+)/.exec(item.text)?.[1]).find((line) => line !== undefined);
      return Number(position);
    };
    const lineNumberOf = (key: string) => edited.split('\n').indexOf(`  ${key}:`) + 1;
    await workbench.editor().click();
    await workbench.page.keyboard.press('Control+Home');
    await workbench.runCommand('CloudFormation Impact: Go to Next Impact');
    await waitFor(async () => ((await cursorLine()) === lineNumberOf('Network') ? true : undefined), { timeoutMs: 20_000, what: 'the cursor on Network' });
    await workbench.runCommand('CloudFormation Impact: Go to Next Impact');
    await waitFor(async () => ((await cursorLine()) === lineNumberOf('PublicSubnet') ? true : undefined), { timeoutMs: 20_000, what: 'the cursor on PublicSubnet' });
  });

  test('the first lens gives the verdict for the whole stack against HEAD', () => {
    const verdict = lenses.find((lens) => lens.line.startsWith('AWSTemplateFormatVersion'));
    assert.ok(verdict, `a lens above the first line, got ${JSON.stringify(lenses)}`);
    assert.match(verdict.text, /1 add · 3 modify \(2 replace\) · 1 remove/);
  });

  test('the Problems panel lists a warning for each replaced resource', async () => {
    const problems = await waitFor(
      async () => {
        const rows = await workbench.problems();
        return rows.filter((row) => row.text.includes('Replacement')).length >= 2 ? rows : undefined;
      },
      { timeoutMs: 30_000, what: 'two replacement problems' },
    );
    await workbench.screenshot('problems');
    const replacements = problems.filter((row) => row.text.includes('Replacement'));
    assert.ok(replacements.some((row) => row.text.includes('new Network')), JSON.stringify(problems));
    assert.ok(replacements.some((row) => row.text.includes('new PublicSubnet')), JSON.stringify(problems));
    assert.ok(replacements.every((row) => /warning/i.test(row.label)), 'replacements are warnings');
  });

  test('hovering a property explains its update behaviour', async () => {
    const text = await workbench.hover('      CidrBlock: !Ref Cidr', 'CidrBlock');
    await workbench.screenshot('hover');
    assert.match(text, /Replacement/);
  });

  test('the status bar names the baseline', async () => {
    const item = await waitFor(
      async () => (await workbench.statusBarItems()).find((entry) => entry.id.toLowerCase().startsWith(extensionId().toLowerCase())),
      { timeoutMs: 30_000, what: `a status bar item of ${extensionId()}` },
    );
    await workbench.screenshot('status-bar');
    assert.match(`${item.text} ${item.label}`, /HEAD|git/i);
  });

  test('clicking a lens opens the side-by-side diff against the baseline', async () => {
    await workbench.clickCodeLens(/Replace — VpcId/);
    const tab = await waitFor(async () => (await workbench.tabTitles()).find((title) => title.includes('baseline ↔ edited')), {
      timeoutMs: 30_000,
      what: 'a diff editor of the baseline and the edited template',
    });
    await workbench.screenshot('diff');
    assert.match(tab, /stack\.yaml/);
  });

  test("a replaced table's lens says what becomes of its data: the old table kept, the new one empty", async () => {
    await workbench.openFile('table.yaml');
    const shown = await workbench.settledCodeLenses((all) => all.some((lens) => lens.text.includes('kept')), 'the lens of the replaced table');
    await workbench.screenshot('data-lens');
    const above = shown.filter((lens) => lens.line.trim() === 'Orders:').map((lens) => lens.text);
    assert.deepEqual(above, ['⟳ Replace — KeySchema changed · old table kept · new one empty'], JSON.stringify(shown));
  });

  test('the extension activates within its budget and says how long it took', async () => {
    const match = await waitFor(() => findInLogs(server.userDataDir, activationLine), {
      timeoutMs: 30_000,
      what: 'the activation line in the extension logs',
    });
    const activateMs = Number(match[1]);
    const measuredMs = await workbench.measuredActivationMs('CloudFormation Impact');
    await workbench.screenshot('running-extensions');
    console.log(`CloudFormation Impact activated in ${activateMs} ms (its activate function, packaged .vsix in code-server)`);
    console.log(`VS Code measured ${measuredMs} ms (code loading and the activate call, Developer: Show Running Extensions)`);
    // The budget is held on what the extension controls, its activate function. VS Code's own
    // figure adds loading the 450 KB client bundle (mostly vscode-languageclient) and varies with
    // the machine's load (125-223 ms in quiet runs here), so it is printed, not gated on.
    assert.ok(activateMs < 300, `activate took ${activateMs} ms, the budget is 300 ms`);
  });
});
