/**
 * The Analyzer keeps one state per open document, from its opening to its closing: a closed
 * document has nothing left in the server. Its analysis waiting out a debounce never runs, the
 * requests waiting for it are answered with nothing, nothing is published for it any more, and
 * a baseline change announced for it afterwards starts nothing. Real documents, the real worker.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Analyzer } from '../../../server/src/lsp/analysis';
import type { Baseline } from '../../../server/src/lsp/baseline/baselines';
import type { Logger } from '../../../server/src/lsp/runSafe';
import { defaultSettings } from '../../../server/src/lsp/settings';
import { analysisLimits } from '../../../server/src/lsp/worker/analysisThread';

const queue = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Queue:
    Type: AWS::SQS::Queue
`;

const queueWithTimeout = `${queue}    Properties:
      VisibilityTimeout: 60
`;

const uri = 'file:///work/queue.yaml';

/** A baseline read from a file: the deployed queue. */
const baseline: Baseline = {
  status: { uri, kind: 'file', state: 'ok', label: 'deployed.yaml', detail: '/work/deployed.yaml' },
  text: queue,
  generation: 1,
};

/** The editor's side: open documents and what the Analyzer sent back. */
class Editor {
  readonly documents = new Map<string, TextDocument>();
  readonly published: { uri: string; version: number; diagnostics: Diagnostic[] }[] = [];
  readonly refreshed: string[] = [];

  open(text: string): TextDocument {
    const document = TextDocument.create(uri, 'yaml', 1, text);
    this.documents.set(uri, document);
    return document;
  }

  edit(text: string): TextDocument {
    const previous = this.documents.get(uri)!;
    const document = TextDocument.update(previous, [{ text }], previous.version + 1);
    this.documents.set(uri, document);
    return document;
  }

  close(): void {
    this.documents.delete(uri);
  }

  versionsPublished(): number[] {
    return this.published.filter((p) => p.uri === uri).map((p) => p.version);
  }
}

const logger: Logger = { error: () => undefined, info: () => undefined };

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a document's analysis state, from open to close", () => {
  let editor: Editor;
  let analyzer: Analyzer;

  before(() => {
    editor = new Editor();
    analyzer = new Analyzer({
      getDocument: (at) => editor.documents.get(at),
      settingsFor: () => Promise.resolve(defaultSettings),
      baselineFor: () => Promise.resolve(baseline),
      parametersFor: () => Promise.resolve({ values: {}, source: 'defaults' }),
      publish: (at, version, diagnostics) => editor.published.push({ uri: at, version, diagnostics }),
      refreshed: (at) => editor.refreshed.push(at),
      logger,
      limits: analysisLimits({}),
    });
  });

  after(() => {
    analyzer?.dispose();
  });

  test('an opened document is analysed at once against its baseline, and each edit gets its own result', async () => {
    editor.open(queue);
    analyzer.open(uri);
    assert.equal(analyzer.isOpen(uri), true);
    // The same template as the baseline is a no-op (run 1).
    assert.equal((await analyzer.resultFor(uri, 1))?.report?.status, 'noop');

    editor.edit(queueWithTimeout);
    analyzer.schedule(uri, 10);
    const edited = await analyzer.resultFor(uri, 2);
    assert.deepEqual(edited?.report?.changes.map((c) => [c.logicalId, c.action]), [['Queue', 'Modify']]);
    assert.deepEqual(editor.versionsPublished(), [1, 2]);
  });

  test('closing drops the state: a request waiting for a result gets nothing, and the analysis waiting out its debounce never runs', async () => {
    editor.edit(queue);
    analyzer.schedule(uri, 50);
    const waiting = analyzer.resultFor(uri, 3);
    editor.edit(queueWithTimeout);
    analyzer.schedule(uri, 50);
    editor.close();
    analyzer.close(uri);

    assert.equal(analyzer.isOpen(uri), false);
    assert.equal(await waiting, undefined);
    assert.equal(await analyzer.resultFor(uri, 4), undefined);
    await delay(300);
    assert.deepEqual(editor.versionsPublished(), [1, 2], 'nothing is published after the close');
  });

  test('a baseline change announced for a closed document starts nothing and keeps nothing', async () => {
    analyzer.schedule(uri, 0, 'refresh');
    await delay(100);
    assert.equal(analyzer.isOpen(uri), false);
    assert.deepEqual(editor.versionsPublished(), [1, 2]);
    assert.deepEqual(editor.refreshed, []);
  });

  test('a reopened document starts afresh: analysed at once, with no result of its earlier life', async () => {
    editor.open(queueWithTimeout);
    analyzer.open(uri);
    const reopened = await analyzer.resultFor(uri, 1);
    assert.equal(reopened?.document.getText(), queueWithTimeout);
    assert.deepEqual(reopened?.report?.changes.map((c) => [c.logicalId, c.action]), [['Queue', 'Modify']]);
    assert.deepEqual(editor.versionsPublished(), [1, 2, 1]);
  });
});
