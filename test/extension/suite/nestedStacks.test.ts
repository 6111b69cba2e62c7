// A nested stack, in the extension host (docs/update-rules.md#nested-stacks): the parent passes a
// new CIDR to its child, whose VPC takes it as its CidrBlock (create-only, so replaced) and whose
// subnet is replaced with it (its VpcId names the new VPC, its CidrBlock comes from the CIDR). The
// lens on the parent's stack resource summarises that and, run as a person clicks it, opens the
// child, which is then analysed with the values that parent passes.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { describe, it } from 'mocha';
import { workspaceFiles } from '../workspace';
import { codeLenses, lineOf, openInEditor, waitFor, waitForLenses } from './support';

describe('nested stacks', () => {
  it("the stack resource's lens summarises the child and opens it with the parent's values", async () => {
    const parent = await openInEditor(workspaceFiles.nestingParent);
    const lenses = await waitForLenses(parent.uri, 'lenses on the nesting parent');
    const stackLens = lenses.find((lens) => lens.range.start.line === lineOf(parent, '  Network:'));
    assert.match(stackLens?.command?.title ?? '', /^✎ Update \(no interruption\) — Parameters ← parameter Cidr · nested: 2 replace$/);
    assert.equal(stackLens?.command?.command, 'cfnImpact.openNestedChild');

    await vscode.commands.executeCommand(stackLens!.command!.command, ...(stackLens!.command!.arguments ?? []));
    const child = await waitFor(
      () => {
        const document = vscode.window.activeTextEditor?.document;
        return document?.uri.path.endsWith(`/${workspaceFiles.nestedNetwork}`) ? document : undefined;
      },
      { timeoutMs: 15_000, what: 'the child template in the active editor' },
    );
    // The child did not change since HEAD: only the values its parent passes make it change.
    const childLenses = await waitFor(
      async () => {
        const found = await codeLenses(child.uri);
        return found.some((lens) => /parameters from parent/.test(lens.command?.title ?? '')) ? found : undefined;
      },
      { timeoutMs: 45_000, intervalMs: 250, what: "the child's lenses with its parent's values" },
    );
    const above = (text: string) => childLenses.filter((lens) => lens.range.start.line === lineOf(child, text)).map((lens) => lens.command?.title ?? '');
    assert.match(above("AWSTemplateFormatVersion: '2010-09-09'")[0] ?? '', /^2 modify \(2 replace\) — against HEAD · parameters from parent stacks\/network-parent\.yaml$/);
    assert.match(above('  Vpc:')[0] ?? '', /^⟳ Replace — CidrBlock ← parameter VpcCidr/);
    assert.match(above('  Subnet:')[0] ?? '', /^⟳ Replace/);
  });
});
