/**
 * The HTML of the timeline panel: a bar per resource laid out on the operation's time span, the
 * operation's parts (deployment, rollback, cleanup) as bands behind the bars, each bar's details
 * and events for hover and selection, and a table of the same data for screen readers. Every word
 * comes from the server; this module only lays them out. Pure (no `vscode`), so that what the
 * panel shows can be checked without an editor.
 *
 * The content security policy allows nothing but the nonce'd style and script: no remote content,
 * no inline handlers, no style attributes. Positions are therefore classes of the nonce'd style
 * sheet, and colours are the theme's own CSS variables.
 */
import type { ResourceStatusKind, StackTimeline, StackTimelineRow } from '../../server/src/lsp/protocol';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The content security policy of the panel: only what carries the nonce runs or styles. */
export function contentSecurityPolicy(nonce: string): string {
  return `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
}

/** The colour of a bar by what its status says, from the theme. */
const KIND_COLOURS: Record<ResourceStatusKind, string> = {
  'in-progress': 'var(--vscode-charts-blue)',
  complete: 'var(--vscode-charts-green)',
  failed: 'var(--vscode-charts-red)',
  deleted: 'var(--vscode-disabledForeground)',
  skipped: 'var(--vscode-charts-yellow)',
};

/** Where a bar lies on the operation's span, in per cent of the track (a bar never vanishes). */
function placement(start: number, end: number, from: number, span: number): string {
  const left = ((start - from) / span) * 100;
  const width = Math.max(0.6, ((end - start) / span) * 100);
  return `left:${left.toFixed(3)}%;width:${Math.min(width, 100 - left).toFixed(3)}%`;
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 16px 16px; }
h1 { font-size: 1.3em; font-weight: 600; margin: 12px 0 4px; }
p { margin: 2px 0; }
.root-cause-line { color: var(--vscode-errorForeground); }
button { font: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 4px 10px; margin: 8px 0; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
.operation-choice { margin: 8px 16px 8px 0; display: inline-block; }
select { font: inherit; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, transparent); padding: 2px 4px; margin-left: 4px; }
select:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
button:focus-visible, .bar-row:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
.chart { margin-top: 8px; }
.bars { position: relative; }
.bands { position: absolute; top: 0; bottom: 0; left: 16em; right: 6em; pointer-events: none; }
.band { position: absolute; top: 0; bottom: 0; border-left: 1px dashed var(--vscode-editorWidget-border, var(--vscode-panel-border)); }
.band-label { position: absolute; top: 0; left: 4px; font-size: 0.85em; color: var(--vscode-descriptionForeground); white-space: nowrap; }
.band-cleanup, .band-rollback { background: var(--vscode-editorWidget-background); opacity: 0.6; }
.rows { list-style: none; margin: 0; padding: 1.6em 0 0; position: relative; }
.bar-row { display: grid; grid-template-columns: 16em 1fr 6em; align-items: center; min-height: 24px; cursor: pointer; }
.bar-row:hover, .bar-row.selected { background: var(--vscode-list-hoverBackground); }
.bar-row.selected { background: var(--vscode-list-inactiveSelectionBackground); }
.name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; padding-right: 8px; }
.marker { font-size: 0.8em; padding: 0 4px; margin-left: 4px; border-radius: 2px; color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); }
.marker-root-cause { background: var(--vscode-charts-red); color: var(--vscode-editor-background); }
.track { position: relative; height: 14px; }
.span { position: absolute; top: 0; bottom: 0; border-radius: 2px; }
.span.part-rollback { background-image: repeating-linear-gradient(135deg, transparent 0 4px, var(--vscode-editor-background) 4px 6px); }
.span.part-cleanup { opacity: 0.55; }
.span.running { animation: pulse 1.5s ease-in-out infinite; }
.bar-row.root-cause .span { outline: 2px solid var(--vscode-charts-red); outline-offset: 1px; }
@keyframes pulse { 50% { opacity: 0.5; } }
@media (prefers-reduced-motion: reduce) { .span.running { animation: none; } }
.duration { text-align: right; color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
.details { margin-top: 12px; border-top: 1px solid var(--vscode-panel-border); padding-top: 8px; }
.details pre { font-family: inherit; white-space: pre-wrap; margin: 0 0 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 2px 8px 2px 0; border-bottom: 1px solid var(--vscode-panel-border); }
td ul { margin: 0; padding-left: 1em; }
.kind-failed { color: var(--vscode-errorForeground); }
[hidden] { display: none !important; }
`;

/**
 * The script of the panel: the view switch, and hover or selection showing a bar's details. It
 * keeps the selection and the view in the webview's state, so that a refresh (which replaces
 * the whole page) shows what the person was looking at.
 */
const SCRIPT = `
(() => {
  const vscode = acquireVsCodeApi();
  const state = vscode.getState() || {};
  const chart = document.getElementById('chart');
  const table = document.getElementById('table');
  const toggle = document.getElementById('toggle');
  const rows = [...document.querySelectorAll('.bar-row')];
  const details = [...document.querySelectorAll('.detail')];
  const hint = document.getElementById('hint');
  const show = (id) => {
    let shown = false;
    for (const d of details) { d.hidden = d.dataset.row !== id; shown ||= !d.hidden; }
    if (hint) hint.hidden = shown;
  };
  const select = (id) => {
    state.selected = id;
    vscode.setState(state);
    for (const r of rows) { const on = r.dataset.row === id; r.classList.toggle('selected', on); r.setAttribute('aria-selected', String(on)); }
    show(id);
  };
  const setView = (view) => {
    state.view = view;
    vscode.setState(state);
    const asTable = view === 'table';
    chart.hidden = asTable;
    table.hidden = !asTable;
    toggle.textContent = asTable ? toggle.dataset.timeline : toggle.dataset.table;
    toggle.setAttribute('aria-pressed', String(asTable));
  };
  for (const r of rows) {
    r.addEventListener('click', () => select(r.dataset.row));
    r.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(r.dataset.row); }
      const next = e.key === 'ArrowDown' ? r.nextElementSibling : e.key === 'ArrowUp' ? r.previousElementSibling : null;
      if (next) { e.preventDefault(); next.focus(); select(next.dataset.row); }
    });
    r.addEventListener('mouseenter', () => show(r.dataset.row));
    r.addEventListener('mouseleave', () => show(state.selected));
  }
  toggle.addEventListener('click', () => setView(state.view === 'table' ? 'timeline' : 'table'));
  // Another operation is the extension's to fetch: it answers with a whole new page.
  const chooser = document.getElementById('operation');
  if (chooser) chooser.addEventListener('change', () => vscode.postMessage({ type: 'operation', index: chooser.value === '' ? -1 : Number(chooser.value) }));
  setView(state.view === 'table' ? 'table' : 'timeline');
  if (state.selected && rows.some((r) => r.dataset.row === state.selected)) select(state.selected);
})();
`;

function rowId(row: StackTimelineRow): string {
  return escapeHtml(row.logicalId);
}

function markers(row: StackTimelineRow, labels: StackTimeline['labels']): string {
  const out: string[] = [];
  if (row.rootCause) out.push(`<span class="marker marker-root-cause">${escapeHtml(labels.rootCause)}</span>`);
  if (row.leftBehind) out.push(`<span class="marker">${escapeHtml(labels.leftBehind)}</span>`);
  if (row.replaced) out.push(`<span class="marker">${escapeHtml(labels.replaced)}</span>`);
  return out.join('');
}

function eventsTable(row: StackTimelineRow, labels: StackTimeline['labels']): string {
  const lines = row.events.map(
    (e) =>
      `<tr${e.rootCause ? ' class="kind-failed"' : ''}><td>${escapeHtml(e.offset)}</td><td class="kind-${e.kind}">${escapeHtml(e.status)}</td><td>${escapeHtml(e.physicalId ?? '')}</td><td>${escapeHtml(e.reason ?? '')}</td></tr>`,
  );
  return `<table><caption hidden>${escapeHtml(labels.events)}</caption><thead><tr><th>${escapeHtml(labels.time)}</th><th>${escapeHtml(labels.status)}</th><th>${escapeHtml(labels.physicalIds)}</th><th>${escapeHtml(labels.reason)}</th></tr></thead><tbody>${lines.join('')}</tbody></table>`;
}

function physicalIdsText(row: StackTimelineRow): string {
  const { old, new: current } = row.physicalIds;
  if (old && current) return `${old} → ${current}`;
  return old ?? current ?? '';
}

/**
 * The chooser of the stack's recent operations: the first entry follows the current or last
 * operation; the others are indexes into `timeline.operations`, which the panel maps back.
 */
function operationChooser(timeline: StackTimeline): string {
  if (timeline.operations.length === 0) return '';
  const { labels } = timeline;
  const following = !timeline.operations.some((o) => o.selected);
  const options = [`<option value=""${following ? ' selected' : ''}>${escapeHtml(labels.latestOperation)}</option>`];
  timeline.operations.forEach((choice, index) => {
    options.push(`<option value="${index}"${choice.selected ? ' selected' : ''}>${escapeHtml(choice.label)}</option>`);
  });
  return `<label class="operation-choice">${escapeHtml(labels.operation)}<select id="operation">${options.join('')}</select></label>`;
}

/** The whole page for a timeline. `nonce` must be fresh for every page. */
export function timelineHtml(timeline: StackTimeline, nonce: string): string {
  const { operation, rows, labels } = timeline;
  const from = operation.start;
  const to = Math.max(operation.end ?? timeline.now, ...rows.map((r) => r.end ?? timeline.now), from + 1);
  const span = to - from;
  const placements: string[] = [];
  const bands = operation.parts.map((part, index) => {
    placements.push(`.band-${index} { ${placement(part.start, part.end ?? to, from, span)} }`);
    return `<div class="band band-${part.part} band-${index}"><span class="band-label">${escapeHtml(part.label)}</span></div>`;
  });
  const bars = rows.map((row, r) => {
    const spans = row.spans.map((s, k) => {
      const end = s.end ?? to;
      placements.push(`.s${r}-${k} { ${placement(s.start, end, from, span)}; background-color: ${KIND_COLOURS[s.kind]}; }`);
      return `<span class="span s${r}-${k} part-${s.part}${s.end === undefined ? ' running' : ''}"></span>`;
    });
    const label = row.details.split('\n').join('. ');
    return `<li class="bar-row${row.rootCause ? ' root-cause' : ''}" role="option" aria-selected="false" tabindex="0" data-row="${rowId(row)}" aria-label="${escapeHtml(label)}"><span class="name">${escapeHtml(row.logicalId)}${markers(row, labels)}</span><span class="track">${spans.join('')}</span><span class="duration">${escapeHtml(row.duration)}</span></li>`;
  });
  const details = rows.map(
    (row) => `<div class="detail" data-row="${rowId(row)}" hidden><pre>${escapeHtml(row.details)}</pre>${eventsTable(row, labels)}</div>`,
  );
  const tableRows = rows.map(
    (row) =>
      `<tr><th scope="row">${escapeHtml(row.logicalId)}</th><td>${escapeHtml(row.resourceType)}</td><td class="kind-${row.kind}">${escapeHtml(row.status)}${row.rootCause ? ` (${escapeHtml(labels.rootCause)})` : ''}${row.leftBehind ? ` (${escapeHtml(labels.leftBehind)})` : ''}</td><td>${escapeHtml(row.events[0]?.offset ?? '')}</td><td>${escapeHtml(row.end === undefined ? `${row.duration}, ${labels.running}` : row.duration)}</td><td>${escapeHtml(physicalIdsText(row))}</td><td><ul>${row.events.map((e) => `<li>${escapeHtml(`${e.offset} ${e.status}${e.reason ? ` — ${e.reason}` : ''}`)}</li>`).join('')}</ul></td></tr>`,
  );
  const chart =
    rows.length === 0
      ? `<p>${escapeHtml(labels.noResources)}</p>`
      : `<div class="bars"><div class="bands" aria-hidden="true">${bands.join('')}</div><ul class="rows" role="listbox" aria-label="${escapeHtml(timeline.title)}">${bars.join('')}</ul></div>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(timeline.title)}</title>
<style nonce="${nonce}">${STYLE}
${placements.join('\n')}
</style>
</head>
<body>
<header>
<h1>${escapeHtml(timeline.title)}</h1>
<p class="summary">${escapeHtml(operation.summary)}</p>
${operation.reason ? `<p class="reason">${escapeHtml(operation.reason)}</p>` : ''}
${operation.rootCause ? `<p class="root-cause-line">${escapeHtml(operation.rootCause)}</p>` : ''}
${operationChooser(timeline)}<button id="toggle" type="button" aria-pressed="false" data-table="${escapeHtml(labels.showTable)}" data-timeline="${escapeHtml(labels.showTimeline)}">${escapeHtml(labels.showTable)}</button>
</header>
<section id="chart" class="chart">${chart}
<div class="details" aria-live="polite"><p id="hint">${escapeHtml(labels.selectHint)}</p>${details.join('')}</div>
</section>
<section id="table" hidden>
<table><thead><tr><th scope="col">${escapeHtml(labels.resource)}</th><th scope="col">${escapeHtml(labels.type)}</th><th scope="col">${escapeHtml(labels.status)}</th><th scope="col">${escapeHtml(labels.started)}</th><th scope="col">${escapeHtml(labels.duration)}</th><th scope="col">${escapeHtml(labels.physicalIds)}</th><th scope="col">${escapeHtml(labels.events)}</th></tr></thead>
<tbody>${tableRows.join('')}</tbody></table>
</section>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>`;
}

/** A page with one message: while the stack's events are read, or why there is no timeline. */
export function timelineMessageHtml(message: string, nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">
<style nonce="${nonce}">body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 16px; }</style>
</head>
<body><p role="status">${escapeHtml(message)}</p></body>
</html>`;
}
