/**
 * Child templates cross to the analysis worker once per version of their text: each update holds
 * only what changed since the worker last had it, and the worker rebuilds from the updates exactly
 * what the main thread read. The updates go through structured cloning, as between threads.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChildTemplatesHeld, ChildTemplatesSent } from '../../../server/src/lsp/worker/childTemplatesSent';
import type { ChildTemplatesUpdate, NestedChildren } from '../../../server/src/lsp/worker/messages';

const network = 'Resources:\n  VPC:\n    Type: AWS::EC2::VPC\n';
const queue = 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n';

function read(newChildren: NestedChildren['newChildren'], oldChildren: NestedChildren['oldChildren'] = {}): NestedChildren {
  return { templatePath: 'parent.yaml', newChildren, oldChildren };
}

/** The texts an update carries, by side. */
function carried(update: ChildTemplatesUpdate): { newSide: string[]; oldSide: string[] } {
  return { newSide: Object.keys(update.newSide.changed), oldSide: Object.keys(update.oldSide.changed) };
}

describe('child templates sent to the worker', () => {
  test('the first update carries every child; the next, for a keystroke in the parent, carries none; the worker has them all each time', () => {
    const sent = new ChildTemplatesSent();
    const held = new ChildTemplatesHeld();
    const children = read({ 'network.yaml': { text: network }, 'queue.yaml': { text: queue } }, { 'network.yaml': { text: network } });
    const first = structuredClone(sent.update('file:///parent.yaml', children));
    assert.deepEqual(carried(first), { newSide: ['network.yaml', 'queue.yaml'], oldSide: ['network.yaml'] });
    assert.deepEqual(held.apply('file:///parent.yaml', first), children);
    // The same texts, read again (new string objects, as from disk).
    const again = read({ 'network.yaml': { text: `${network}` }, 'queue.yaml': { text: queue.slice() } }, { 'network.yaml': { text: network } });
    const second = structuredClone(sent.update('file:///parent.yaml', again));
    assert.deepEqual(carried(second), { newSide: [], oldSide: [] });
    assert.deepEqual(held.apply('file:///parent.yaml', second), children);
  });

  test('a child edited, one gone and one unreadable cross as such', () => {
    const sent = new ChildTemplatesSent();
    const held = new ChildTemplatesHeld();
    held.apply('file:///parent.yaml', structuredClone(sent.update('file:///parent.yaml', read({ 'network.yaml': { text: network }, 'queue.yaml': { text: queue } }))));
    const now = read({ 'network.yaml': { text: `${network}    Properties: { CidrBlock: 10.0.0.0/16 }\n` }, 'topic.yaml': { problem: 'missing' } });
    const update = structuredClone(sent.update('file:///parent.yaml', now));
    assert.deepEqual(carried(update), { newSide: ['network.yaml', 'topic.yaml'], oldSide: [] });
    assert.deepEqual(held.apply('file:///parent.yaml', update), now);
  });

  test('a new worker is sent everything again, and a closed document starts over', () => {
    const children = read({ 'network.yaml': { text: network } });
    const sent = new ChildTemplatesSent();
    sent.update('file:///parent.yaml', children);
    assert.deepEqual(carried(new ChildTemplatesSent().update('file:///parent.yaml', children)).newSide, ['network.yaml']);
    sent.forget('file:///parent.yaml');
    assert.deepEqual(carried(sent.update('file:///parent.yaml', children)).newSide, ['network.yaml']);
  });

  test('the deployed nested stacks cross when they change, and the worker keeps them otherwise', () => {
    const sent = new ChildTemplatesSent();
    const held = new ChildTemplatesHeld();
    const deployed = { Network: { text: network, status: 'UPDATE_COMPLETE' } };
    const children: NestedChildren = { ...read({}), deployedChildren: deployed };
    const first = structuredClone(sent.update('file:///parent.yaml', children));
    assert.equal(first.keepsDeployed, false);
    assert.deepEqual(held.apply('file:///parent.yaml', first).deployedChildren, deployed);
    const second = structuredClone(sent.update('file:///parent.yaml', children));
    assert.equal(second.keepsDeployed, true);
    assert.equal(second.deployedChildren, undefined);
    assert.deepEqual(held.apply('file:///parent.yaml', second).deployedChildren, deployed);
  });
});
