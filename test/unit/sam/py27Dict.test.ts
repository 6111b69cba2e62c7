/**
 * The key order of SAM's `Py27Dict`: Python 2.7's dict, whose keys iterate in hash-table slot
 * order, which depends on the history of inserts, deletes and deep copies (a deep copy adds the
 * keys again, in iteration order, to a fresh table). Expectations are what Python 2.7.18's own
 * `dict` and `copy.deepcopy` give for the same steps.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PyDict, py27KeyOrder } from '../../../server/src/sam/python/py27Dict';

/** A dict with `keys` set in order, each to 1. */
function dictOf(keys: readonly string[]): PyDict {
  const dict = new PyDict();
  for (const key of keys) dict.set(key, 1);
  return dict;
}

test('keys iterate in slot order, not in insertion order', () => {
  assert.deepEqual(py27KeyOrder(['swagger', 'info', 'paths']), ['info', 'paths', 'swagger']);
});

test('a deep copy can reorder keys, and copies of copies cycle', () => {
  const dict = dictOf(['Key0', 'Key1', 'Key4', 'Key10']);
  assert.deepEqual(dict.keys(), ['Key1', 'Key0', 'Key10', 'Key4']);
  PyDict.deepCopyInPlace(dict);
  assert.deepEqual(dict.keys(), ['Key1', 'Key0', 'Key4', 'Key10']);
  PyDict.deepCopyInPlace(dict);
  assert.deepEqual(dict.keys(), ['Key1', 'Key0', 'Key10', 'Key4']);
});

test('a deep copy drops the slot a deleted key left, so a later key does not take it', () => {
  // Python: d = {Key0..Key4}; del d['Key1']; c = copy.deepcopy(d) (same order as d); c['Extra'] = 1.
  // In d itself, 'Extra' would take the deleted key's slot and come first.
  const dict = dictOf(['Key0', 'Key1', 'Key2', 'Key3', 'Key4']);
  dict.delete('Key1');
  PyDict.deepCopyInPlace(dict);
  dict.set('Extra', 1);
  assert.deepEqual(dict.keys(), ['Key3', 'Key2', 'Key0', 'Extra', 'Key4']);
});

test("a large table's copies that come back only after many copies still give, copy after copy, the order of its keys added again each time", () => {
  // A deep copy adds the keys again, in iteration order, to a fresh table: so each copy's order is
  // `py27KeyOrder` of the order before it. An API's `paths` of 800 events cycles after 60 copies.
  const paths = Array.from({ length: 800 }, (_, i) => `/catalog/items${i}/{id}`);
  const document = new PyDict();
  const table = dictOf(paths);
  document.set('paths', table);
  let expected = table.keys();
  for (let copy = 1; copy <= 150; copy++) {
    PyDict.deepCopyInPlace(document);
    expected = py27KeyOrder(expected);
    assert.deepEqual(table.keys(), expected, `after ${copy} copies`);
  }
});
