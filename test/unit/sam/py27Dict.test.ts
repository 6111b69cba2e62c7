/**
 * The key order of SAM's `Py27Dict`: Python 2.7's dict, whose keys iterate in hash-table slot
 * order, which depends on the history of inserts, deletes and deep copies (a deep copy adds the
 * keys again, in iteration order, to a fresh table). Expectations are what Python 2.7.18's own
 * `dict` and `copy.deepcopy` give for the same steps.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { swaggerSkeleton, SwaggerEditor } from '../../../server/src/sam/api/swaggerEditor';
import { CopyRecord, PyDict, py27KeyOrder, type ReplayCheckpoint } from '../../../server/src/sam/python/py27Dict';

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

test("a dict's key history, replayed with one key renamed, gives the order the dict would have had with that key, deep copies and all", () => {
  // A paths table as SAM's fold makes it: a path added between deep copies of the whole document,
  // and many copies after the last (the integrations, CORS), some tables cycling from copy to copy.
  const build = (rename: (key: string) => string) => {
    const record = new CopyRecord();
    return PyDict.recordingCopies(record, () => {
      const document = new PyDict();
      const paths = new PyDict();
      PyDict.keepHistory(paths);
      document.set('swagger', '2.0');
      document.set('paths', paths);
      for (let i = 0; i < 120; i++) {
        PyDict.deepCopyInPlace(document);
        paths.set(rename(`/team${i % 7}/items${i}/{id}`), new PyDict());
        for (let copies = i % 3; copies >= 0; copies--) PyDict.deepCopyInPlace(document);
      }
      for (let i = 0; i < 250; i++) PyDict.deepCopyInPlace(document);
      return paths;
    });
  };
  const written = build((key) => key);
  assert.equal(written.keyHistory?.broken, false);
  for (const [from, to] of [
    ['/team1/items1/{id}', '/team1/items1x/{id}'],
    ['/team3/items80/{id}', '/a'],
    ['/team0/items119/{id}', '/team0/items119/{id}/more'],
  ] as const) {
    const rename = (key: string) => (key === from ? to : key);
    const expected = build(rename).keys();
    const index = written.keyHistory!.added.findIndex((added) => added.key === from);
    const replayed = PyDict.replayedOrder(written.keyHistory!, written.documentCopies, rename, { checkpointAt: index });
    assert.deepEqual(replayed.order.keys(), expected, `${from} renamed ${to}`);
    // Gone on from the checkpoint before the renamed add, or from one before an earlier add, the replay is the same.
    const exact: ReplayCheckpoint = replayed.checkpoints.find((checkpoint) => checkpoint.at === index)!;
    assert.deepEqual(PyDict.replayedOrder(written.keyHistory!, written.documentCopies, rename, { resume: exact }).order.keys(), expected, `${from} renamed ${to}, from its checkpoint`);
    const earlier: ReplayCheckpoint = PyDict.replayedOrder(written.keyHistory!, written.documentCopies, (key) => key, { checkpointAt: Math.floor(index / 2) }).checkpoints.find((checkpoint) => checkpoint.at === Math.floor(index / 2))!;
    assert.deepEqual(PyDict.replayedOrder(written.keyHistory!, written.documentCopies, rename, { resume: earlier }).order.keys(), expected, `${from} renamed ${to}, from an earlier checkpoint`);
    // The checkpoints the fold itself took, every few adds, are a replay's too.
    for (const taken of written.keyHistory!.checkpoints.filter((checkpoint) => checkpoint.at <= index)) {
      assert.deepEqual(PyDict.replayedOrder(written.keyHistory!, written.documentCopies, rename, { resume: taken }).order.keys(), expected, `${from} renamed ${to}, from the fold's checkpoint at ${taken.at}`);
    }
  }
});

test("a dict's key history is broken by what it does not record: a delete, an update", () => {
  PyDict.recordingCopies(new CopyRecord(), () => {
    const deleted = new PyDict();
    PyDict.keepHistory(deleted);
    deleted.set('a', 1);
    deleted.delete('a');
    assert.equal(deleted.keyHistory?.broken, true);
    const updated = new PyDict();
    PyDict.keepHistory(updated);
    updated.update({ a: 1, b: 2 });
    assert.equal(updated.keyHistory?.broken, true);
  });
});

test("a deep copy between two turns of a loop over a definition's paths is noted, one outside the loop is not", () => {
  const loop = (copyInside: boolean) => {
    const record = new CopyRecord();
    PyDict.recordingCopies(record, () => {
      const editor = new SwaggerEditor(swaggerSkeleton());
      for (const path of ['/a', '/b', '/c']) editor.addPath(path, 'get');
      const document = editor.swagger;
      for (const _path of new SwaggerEditor(document).iterOnPath()) if (copyInside) PyDict.deepCopyInPlace(document);
    });
    return record.copiedBetweenPathTurns;
  };
  assert.equal(loop(true), true);
  assert.equal(loop(false), false);
});
