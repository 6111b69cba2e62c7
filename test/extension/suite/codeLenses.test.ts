// Code lenses, through VS Code's own lens command: the verdict for the whole stack on the first
// line and, above each changed resource, what the next deployment does to it. The edit (see
// ../workspace.ts and docs/update-rules.md): a new default CIDR replaces the VPC (CidrBlock is
// create-only) and, through VpcId and its own new CidrBlock, the subnet; new tags update the bucket
// in place; the queue is removed and a topic added.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { before, describe, it } from 'mocha';
import { workspaceFiles } from '../workspace';
import { lineOf, openInEditor, waitForLenses } from './support';

describe('code lenses', () => {
  let document: vscode.TextDocument;
  let lenses: vscode.CodeLens[];

  /** The titles of the lenses that sit above the line whose text is `text`. */
  const above = (text: string) => lenses.filter((lens) => lens.range.start.line === lineOf(document, text)).map((lens) => lens.command?.title ?? '');

  before(async () => {
    document = await openInEditor(workspaceFiles.network);
    lenses = await waitForLenses(document.uri, 'lenses on the edited network template');
  });

  it('gives the verdict for the whole stack on the first line', () => {
    const verdict = above("AWSTemplateFormatVersion: '2010-09-09'");
    assert.equal(verdict.length, 1, JSON.stringify(verdict));
    assert.match(verdict[0], /1 add · 3 modify \(2 replace\) · 1 remove/);
  });

  it('says the VPC is replaced because its CidrBlock comes from the changed parameter', () => {
    assert.deepEqual(above('  Network:').length, 1);
    assert.match(above('  Network:')[0], /^⟳ Replace — CidrBlock ← parameter Cidr/);
  });

  it('says the subnet is replaced, naming what replaces it', () => {
    assert.match(above('  PublicSubnet:')[0] ?? '', /^⟳ Replace — .*(CidrBlock changed|VpcId ← Network replaced)/);
  });

  it('says the retagged bucket is updated without interruption', () => {
    assert.match(above('  Logs:')[0] ?? '', /^✎ Update \(no interruption\) — Tags changed/);
  });

  it('marks the new topic as added and names the removed queue on the Resources key', () => {
    assert.match(above('  Alerts:')[0] ?? '', /^\+ Add/);
    assert.ok(above('Resources:').some((title) => /^− Remove Jobs/.test(title)), JSON.stringify(above('Resources:')));
  });

  it('opens the diff against the baseline from every resource lens', () => {
    const resourceLenses = lenses.filter((lens) => lens.range.start.line > lineOf(document, 'Resources:'));
    assert.ok(resourceLenses.length >= 4);
    for (const lens of resourceLenses) assert.equal(lens.command?.command, 'cfnImpact.openDiff', lens.command?.title);
  });
});
