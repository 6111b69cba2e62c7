// The stacks view against the local CloudFormation endpoint (test/endpoint/), read through the
// extension's exported API: the rows the view's own tree data provider gives VS Code. The endpoint
// plays a create of stack `messaging` (a queue and a topic) that completes within two seconds;
// the extension reads it through the real AWS SDK, as it would read AWS.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { before, describe, it } from 'mocha';
import type { StacksViewRow } from '../../../client/src/api';
import { extensionUnderTest, manifest, waitFor } from './support';

const stackName = 'messaging';
const region = 'us-east-1';

/** The first row, depth first, that `matches`. */
function findRow(rows: StacksViewRow[], matches: (row: StacksViewRow) => boolean): StacksViewRow | undefined {
  for (const row of rows) {
    if (matches(row)) return row;
    const below = findRow(row.children, matches);
    if (below) return below;
  }
  return undefined;
}

describe('the stacks view', () => {
  let rows: () => Promise<StacksViewRow[]>;

  before(async () => {
    const extension = extensionUnderTest();
    // Opening the view's container activates the extension (onView) and makes the view visible,
    // which is when the extension starts reading stacks.
    const container = manifest.contributes.viewsContainers.activitybar[0].id;
    await vscode.commands.executeCommand(`workbench.view.extension.${container}`);
    const api = await waitFor(() => extension.isActive && extension.exports, { timeoutMs: 30_000, what: 'the extension to activate' });
    rows = () => api.stacksViewRows();
  });

  it('lists the region, and in it the stack with its final status', async () => {
    const stack = await waitFor(
      async () => {
        const row = findRow(await rows(), (candidate) => candidate.label === stackName);
        return row && /^created/.test(row.description ?? '') ? row : undefined;
      },
      { timeoutMs: 45_000, intervalMs: 250, what: `${stackName} created` },
    );
    const regionRow = (await rows()).find((row) => row.label === region);
    assert.ok(regionRow, `a row for ${region}`);
    assert.ok(findRow(regionRow.children, (row) => row.label === stackName), `${stackName} under ${region}`);
    assert.match(stack.contextValue ?? '', /^stack/, 'the stack row has the stack menus (view/item/context)');
  });

  it('shows the stack’s resources once the stack is expanded', async () => {
    // Expand the stack row the way the keyboard does: focus the view, move to the stack (the row
    // under the region), expand. Repeated until the resources show, since the view may still be
    // rendering when the first keystrokes arrive; expanding an expanded row changes nothing.
    const expandStack = async () => {
      await vscode.commands.executeCommand(`${manifest.contributes.views.cfnImpact[0].id}.focus`);
      await vscode.commands.executeCommand('list.focusFirst');
      await vscode.commands.executeCommand('list.focusDown');
      await vscode.commands.executeCommand('list.expand');
    };
    const resources = await waitFor(
      async () => {
        const stack = findRow(await rows(), (row) => row.label === stackName);
        const group = stack?.children.find((row) => row.label === 'Resources');
        if (group && group.children.length === 2) return group.children;
        await expandStack();
        return undefined;
      },
      { timeoutMs: 30_000, intervalMs: 1_000, what: `the resources of ${stackName}` },
    );
    assert.deepEqual(
      resources.map((row) => row.label),
      ['Queue', 'Topic'],
    );
    for (const row of resources) assert.match(row.description ?? '', /^created/);
  });
});
