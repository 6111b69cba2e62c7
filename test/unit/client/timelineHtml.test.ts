/**
 * The page of the timeline panel: a strict content security policy (only the nonce'd style and
 * script, nothing remote, no inline handlers or style attributes), one bar per resource placed on
 * the operation's span, the root cause marked, the server's words escaped, and a table of the
 * same rows for screen readers.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { timelineHtml, timelineMessageHtml } from '../../../client/src/timelineHtml';
import type { StackTimeline, StackTimelineRow } from '../../../server/src/lsp/protocol';
import { timelineLabels } from '../../../server/src/present';

const START = 1_700_000_000_000;
const NONCE = 'bm9uY2UtZm9yLXRlc3Rz';

/** The words the server sends with every timeline. */
const labels: StackTimeline['labels'] = timelineLabels();

function resourceRow(logicalId: string, start: number, end: number, extra: Partial<StackTimelineRow> = {}): StackTimelineRow {
  return {
    logicalId,
    resourceType: 'AWS::EC2::Instance',
    start: START + start,
    end: START + end,
    kind: 'complete',
    status: 'UPDATE_COMPLETE',
    spans: [{ part: 'main', start: START + start, end: START + end, status: 'UPDATE_COMPLETE', kind: 'complete' }],
    physicalIds: {},
    replaced: false,
    rootCause: false,
    cleanup: false,
    leftBehind: false,
    duration: `${(end - start) / 1000}s`,
    details: `${logicalId} (AWS::EC2::Instance)`,
    events: [{ timestamp: START + start, offset: `+${start / 1000}s`, status: 'UPDATE_IN_PROGRESS', kind: 'in-progress', part: 'main' }],
    ...extra,
  };
}

/** An operation of 40 s: one replaced resource from 10 s to 30 s, one failing one with a hostile reason. */
const timeline: StackTimeline = {
  region: 'us-east-1',
  stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/network/1',
  stackName: 'network',
  title: 'network: UPDATE timeline',
  now: START + 40_000,
  operation: {
    startStatus: 'UPDATE_IN_PROGRESS',
    status: 'UPDATE_ROLLBACK_COMPLETE',
    outcome: 'failed',
    start: START,
    end: START + 40_000,
    summary: 'UPDATE_IN_PROGRESS → UPDATE_ROLLBACK_COMPLETE in 40s',
    parts: [
      { status: 'UPDATE_IN_PROGRESS', part: 'main', label: 'Deployment', start: START, end: START + 20_000 },
      { status: 'UPDATE_ROLLBACK_IN_PROGRESS', part: 'rollback', label: 'Rollback', start: START + 20_000, end: START + 40_000 },
    ],
  },
  rows: [
    resourceRow('VPC', 10_000, 30_000, { replaced: true, physicalIds: { old: 'vpc-old', new: 'vpc-new' } }),
    resourceRow('Instance', 12_000, 16_000, {
      kind: 'failed',
      status: 'CREATE_FAILED',
      rootCause: true,
      spans: [{ part: 'main', start: START + 12_000, end: START + 16_000, status: 'CREATE_FAILED', kind: 'failed' }],
      events: [
        { timestamp: START + 16_000, offset: '+16s', status: 'CREATE_FAILED', kind: 'failed', part: 'main', reason: 'bad <script>alert(1)</script> id', rootCause: true },
      ],
    }),
  ],
  operations: [
    { operation: { operationId: 'op-2', startedAt: START }, label: 'Update · failed · 40s · UPDATE_ROLLBACK_COMPLETE · just now', selected: false },
    { operation: { operationId: 'op-1', startedAt: START - 3_600_000 }, label: 'Create <first> · succeeded · 2m 00s · 1 h ago', selected: false },
  ],
  labels,
};

describe('the timeline page', () => {
  const html = timelineHtml(timeline, NONCE);

  test('allows only its own nonce-carrying style and script, and loads nothing remote', () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.equal(policy, `default-src 'none'; style-src 'nonce-${NONCE}'; script-src 'nonce-${NONCE}';`);
    assert.deepEqual(html.match(/<(script|style)[^>]*>/g), [`<style nonce="${NONCE}">`, `<script nonce="${NONCE}">`]);
    assert.doesNotMatch(html, /\sstyle="/, 'no style attribute (the policy would block it)');
    assert.doesNotMatch(html, /\son[a-z]+="/, 'no inline event handler');
    assert.doesNotMatch(html, /(src|href)="/, 'no resource is loaded');
    assert.doesNotMatch(html, /https?:\/\//);
  });

  test('has one bar per resource, in order, placed on the operation span, the root cause marked', () => {
    assert.deepEqual([...html.matchAll(/<li class="bar-row([^"]*)"[^>]*data-row="([^"]+)"/g)].map((m) => [m[2], m[1]]), [
      ['VPC', ''],
      ['Instance', ' root-cause'],
    ]);
    // VPC runs from 10 s to 30 s of 40 s: from a quarter of the track to three quarters.
    assert.match(html, /\.s0-0 \{ left:25\.000%;width:50\.000%; background-color: var\(--vscode-charts-green\); \}/);
    assert.match(html, /\.s1-0 \{ left:30\.000%;width:10\.000%; background-color: var\(--vscode-charts-red\); \}/);
    assert.match(html, /\.band-1 \{ left:50\.000%;width:50\.000% \}/, 'the rollback band covers the second half');
  });

  test('escapes the words it is given', () => {
    assert.ok(html.includes('bad &lt;script&gt;alert(1)&lt;/script&gt; id'));
    assert.equal(html.match(/<script/g)?.length, 1);
  });

  test('has a table of the same rows, for screen readers', () => {
    const table = html.slice(html.indexOf('<section id="table"'));
    assert.deepEqual(
      [...table.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>[^<]*<\/td><td class="kind-(\w+)">([^<]+)<\/td><td>[^<]*<\/td><td>[^<]*<\/td><td>([^<]*)<\/td>/g)].map((m) => m.slice(1)),
      [
        ['VPC', 'complete', 'UPDATE_COMPLETE', 'vpc-old → vpc-new'],
        ['Instance', 'failed', 'CREATE_FAILED (Root cause)', ''],
      ],
    );
  });

  test('offers the stack\'s recent operations, following the current one until another is chosen', () => {
    const options = (page: string) => [...page.matchAll(/<option value="(\d*)"( selected)?>([^<]*)<\/option>/g)].map((m) => [m[1], m[2] === ' selected', m[3]]);
    assert.deepEqual(options(html), [
      ['', true, 'Current or last, with its rollback'],
      ['0', false, 'Update · failed · 40s · UPDATE_ROLLBACK_COMPLETE · just now'],
      ['1', false, 'Create &lt;first&gt; · succeeded · 2m 00s · 1 h ago'],
    ]);
    const chosen = timelineHtml({ ...timeline, operations: timeline.operations.map((o, i) => ({ ...o, selected: i === 1 })) }, NONCE);
    assert.deepEqual(options(chosen).map(([, selected]) => selected), [false, false, true]);
    const alone = timelineHtml({ ...timeline, operations: [] }, NONCE);
    assert.doesNotMatch(alone, /<select/, 'no chooser when no operation is known');
  });

  test('a message page says what is going on under the same policy', () => {
    const page = timelineMessageHtml('Reading the events of <network>…', NONCE);
    assert.match(page, /<p role="status">Reading the events of &lt;network&gt;…<\/p>/);
    assert.ok(page.includes(`script-src 'nonce-${NONCE}'`));
  });
});
