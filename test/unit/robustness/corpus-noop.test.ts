/**
 * Every real template in ../shared/corpus/, compared with itself as a user has it (no parameters
 * file: parameters without a Default are the stack's current values), is a no-op with no error,
 * except the files CloudFormation itself rejects, each listed with its reason. A one-line edit of
 * one resource gives exactly that resource's change. Skips with a reason when the corpus is absent.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { CORPUS, CORPUS_EXCEPTIONS, ONE_LINE_EDITS, corpusPath, corpusSkip, corpusTemplates } from '../../fixtures/realTemplates';

describe('every corpus template compared with itself, with no parameter values, is a no-op', { skip: corpusSkip }, () => {
  if (corpusSkip) return;
  const spec = loadResourceSpec();
  const files = corpusTemplates();

  test('the corpus holds templates, and every exception still exists', () => {
    assert.ok(files.length > 0);
    const paths = new Set(files.map(corpusPath));
    for (const path of Object.keys(CORPUS_EXCEPTIONS)) assert.ok(paths.has(path), `${path} is not in the corpus any more`);
  });

  for (const file of files) {
    const path = corpusPath(file);
    test(path, { skip: CORPUS_EXCEPTIONS[path] }, () => {
      const text = readFileSync(file, 'utf8');
      const { report, after } = analyzeUpdate({ text }, { text }, { spec });
      assert.equal(after.model.isCloudFormation, true, 'not recognised as a CloudFormation template');
      const errors = report.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);
      assert.deepEqual(errors, []);
      assert.equal(report.status, 'noop', report.message);
    });
  }

  test('the listed exceptions are rejected as CloudFormation rejects them, or are not templates', () => {
    for (const path of Object.keys(CORPUS_EXCEPTIONS)) {
      const text = readFileSync(join(CORPUS, path), 'utf8');
      const { report } = analyzeUpdate({ text }, { text }, { spec });
      assert.equal(report.status, 'error', `${path} is accepted now: take it off the list`);
    }
  });
});

describe('a one-line edit of one resource in a real template with no parameter values gives exactly that change', { skip: corpusSkip }, () => {
  if (corpusSkip) return;
  const spec = loadResourceSpec();
  for (const edit of ONE_LINE_EDITS) {
    test(`${edit.file}: ${edit.to.trim()} (${edit.because})`, () => {
      const text = readFileSync(join(CORPUS, edit.file), 'utf8');
      assert.equal(text.split(edit.from).length, 2, `the line to edit occurs once in ${edit.file}`);
      const { report } = analyzeUpdate({ text }, { text: text.replace(edit.from, edit.to) }, { spec });
      assert.equal(report.status, 'update', report.message);
      assert.deepEqual(report.changes.map((c) => [c.logicalId, c.action, c.impact]), [[edit.logicalId, 'Modify', edit.impact]]);
      assert.deepEqual(report.diagnostics.filter((d) => d.severity === 'error'), []);
    });
  }
});
