import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LineIndex } from '../../../server/src/template';

describe('LineIndex', () => {
  test('maps offsets to 0-based lines and UTF-16 characters, across \\n, \\r\\n and \\r', () => {
    const text = 'ab\ncd\r\nef\rg🙂h';
    const index = new LineIndex(text);
    assert.equal(index.lineCount, 4);
    assert.deepEqual(index.positionAt(0), { line: 0, character: 0 });
    assert.deepEqual(index.positionAt(2), { line: 0, character: 2 });
    assert.deepEqual(index.positionAt(3), { line: 1, character: 0 });
    assert.deepEqual(index.positionAt(text.indexOf('ef')), { line: 2, character: 0 });
    assert.deepEqual(index.positionAt(text.indexOf('h')), { line: 3, character: 3 });
  });

  test('offsetAt inverts positionAt for every offset', () => {
    const text = 'Resources:\r\n  A:\n\n    Type: "é🙂"\r';
    const index = new LineIndex(text);
    for (let offset = 0; offset <= text.length; offset++) {
      if (text[offset - 1] === '\r' && text[offset] === '\n') continue; // Between \r and \n is not a position.
      assert.equal(index.offsetAt(index.positionAt(offset)), offset, `offset ${offset}`);
    }
  });

  test('clamps out-of-range input to the text and to the line', () => {
    const index = new LineIndex('ab\ncd');
    assert.deepEqual(index.positionAt(-5), { line: 0, character: 0 });
    assert.deepEqual(index.positionAt(99), { line: 1, character: 2 });
    assert.equal(index.offsetAt({ line: 0, character: 99 }), 2);
    assert.equal(index.offsetAt({ line: 9, character: 0 }), 5);
    assert.equal(index.offsetAt({ line: -1, character: 3 }), 0);
  });

  test('the empty text has one line', () => {
    const index = new LineIndex('');
    assert.equal(index.lineCount, 1);
    assert.deepEqual(index.positionAt(0), { line: 0, character: 0 });
    assert.equal(index.offsetAt({ line: 0, character: 4 }), 0);
  });
});
