/**
 * While a text does not parse, its lenses are the last parsed text's, moved across the edit made
 * since: an offset before the edited lines stays, one after them moves with the text, and one
 * inside them goes to the start of the first.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { offsetsAcrossEdit, offsetsBackAcrossEdit } from '../../../server/src/lsp/whileUnparsed';

/** Where `needle` (found once in `before`) is taken in `now`, as the text at that offset there. */
function movedTo(before: string, now: string, needle: string): string {
  const offset = before.indexOf(needle);
  assert.notEqual(offset, -1);
  return now.slice(offsetsAcrossEdit(before, now)(offset));
}

const template = 'Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n  Topic:\n    Type: AWS::SNS::Topic\n';

describe('offsets across the edit made since the last text that parsed', () => {
  test('a line inserted above a key that begins with the same indentation: the key moves down with its line', () => {
    const now = template.replace('  Topic:\n', '  Tim\n  Topic:\n');
    assert.ok(movedTo(template, now, 'Topic:').startsWith('Topic:\n'));
    assert.ok(movedTo(template, now, 'Queue:').startsWith('Queue:\n'));
  });

  test('a line taken out above a key: the key moves up', () => {
    const now = template.replace('    Type: AWS::SQS::Queue\n', '');
    assert.ok(movedTo(template, now, 'Topic:').startsWith('Topic:\n'));
  });

  test('a key typed over stays on its line, at the line\'s start', () => {
    const now = template.replace('Queue:', 'Q');
    assert.equal(offsetsAcrossEdit(template, now)(template.indexOf('Queue:')), template.indexOf('  Queue:'));
    assert.ok(movedTo(template, now, 'Topic:').startsWith('Topic:\n'));
  });

  test('the same text leaves every offset where it is', () => {
    const same = offsetsAcrossEdit(template, template);
    for (const offset of [0, 10, template.length - 1, template.length]) assert.equal(same(offset), offset);
  });

  test('taken back, for a hover: an offset before the edited lines stays, one after them goes back with its text, and one within them has no place before the edit', () => {
    const now = template.replace('  Topic:\n', '  Tim\n  Topic:\n');
    const back = offsetsBackAcrossEdit(template, now);
    assert.equal(back(now.indexOf('Queue:')), template.indexOf('Queue:'));
    assert.equal(back(now.indexOf('Topic:')), template.indexOf('Topic:'));
    assert.equal(back(now.indexOf('Tim')), undefined);
    // Forward then back is where it began, for every offset outside the span.
    const forward = offsetsAcrossEdit(template, now);
    for (const offset of [0, template.indexOf('Queue:'), template.indexOf('Topic:'), template.length]) assert.equal(back(forward(offset)), offset);
  });
});
