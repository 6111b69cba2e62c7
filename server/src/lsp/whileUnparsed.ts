/**
 * What the editor shows while a document's text does not parse, as when a key is being typed
 * before its colon. CloudFormation rejects such a text with the parser's message alone, and the
 * engine says no more of it; but taking every lens and problem away at such a keystroke and
 * bringing them back at the next would make the lines below each lens jump, and the squiggles
 * blink, twice for every key typed. So the last text that parsed keeps its lenses, problems and
 * hovers, each moved to where its text now is, beside the parser's error, until the text parses
 * again.
 */
import type { CodeLens, Diagnostic, Hover, Range as LspRange } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ImpactReport } from '../impact/types';
import { unparsedVerdictLensTitle } from '../present';
import { isSyntaxError } from '../template/parse';
import { buildCodeLenses } from './codeLens';
import type { AnalysedTemplate } from './worker/outline';

/** The analysis of the last text of a document that parsed, against its current baseline. */
export interface LastParsed {
  text: string;
  after: AnalysedTemplate;
  report: ImpactReport;
  diagnostics: readonly Diagnostic[];
}

/** Whether a report is the rejection of a text that does not parse as YAML or JSON. */
export function rejectsUnparsedText(report: ImpactReport): boolean {
  return report.status === 'error' && report.diagnostics.some((diagnostic) => diagnostic.rangeIn === 'new' && isSyntaxError(diagnostic));
}

/** The lenses while the text does not parse: the last parsed text's, moved, under a verdict that gives the parser's message. */
export function lensesWhileUnparsed(document: TextDocument, report: ImpactReport, last: LastParsed, baselineLabel: string, changeSets: readonly string[] = []): CodeLens[] {
  const lenses = buildCodeLenses(document, last.after, last.report, baselineLabel, changeSets, offsetsAcrossEdit(last.text, document.getText()));
  const verdict = lenses[0];
  if (verdict?.command) verdict.command = { ...verdict.command, title: unparsedVerdictLensTitle(report, baselineLabel) };
  return lenses;
}

/** The problems while the text does not parse: its own (the parser's), then the last parsed text's, moved, that it does not repeat. */
export function diagnosticsWhileUnparsed(document: TextDocument, own: readonly Diagnostic[], last: LastParsed): Diagnostic[] {
  const move = rangesAcrossEdit(lastParsedDocument(document, last), document);
  const key = (d: Diagnostic) => `${d.code}|${d.range.start.line}:${d.range.start.character}|${typeof d.message === 'string' ? d.message : d.message.value}`;
  const shown = new Set(own.map(key));
  const carried = last.diagnostics.map((diagnostic) => ({ ...diagnostic, range: move(diagnostic.range) })).filter((diagnostic) => !shown.has(key(diagnostic)));
  return [...own, ...carried];
}

/**
 * The hover while the text does not parse: the last parsed text's hover at the same place in that
 * text (`hoverAt` builds it), its range moved to where that text now is; none over what the
 * keystrokes since changed (the key being typed), which the last parsed text does not hold.
 */
export function hoverWhileUnparsed(document: TextDocument, last: LastParsed, offset: number, hoverAt: (lastDocument: TextDocument, offset: number) => Hover | null): Hover | null {
  const before = lastParsedDocument(document, last);
  const span = editSpan(last.text, document.getText());
  const offsetBefore = span.back(offset);
  if (offsetBefore === undefined) return null;
  const hover = hoverAt(before, offsetBefore);
  return hover?.range ? { ...hover, range: rangesAcrossEdit(before, document, span.forward)(hover.range) } : hover;
}

/** The last parsed text as a document, to read its ranges' offsets. */
function lastParsedDocument(document: TextDocument, last: LastParsed): TextDocument {
  return TextDocument.create(document.uri, document.languageId, 0, last.text);
}

/** Ranges in `before` taken to where their text is in `now` (`offsetsAcrossEdit`, unless the caller has it). */
function rangesAcrossEdit(before: TextDocument, now: TextDocument, offsetNow = offsetsAcrossEdit(before.getText(), now.getText())): (range: LspRange) => LspRange {
  return (range) => ({ start: now.positionAt(offsetNow(before.offsetAt(range.start))), end: now.positionAt(offsetNow(before.offsetAt(range.end))) });
}

/**
 * Offsets in `before` taken to `now`, the texts taken to differ in one span (what one keystroke or
 * paste changes), which begins at the start of the line of the first difference: before the span
 * an offset stays, after it it moves by the change in length, and within it goes to its start. A
 * line inserted above a key moves the key's whole line down, even where the two lines begin alike.
 */
export function offsetsAcrossEdit(before: string, now: string): (offset: number) => number {
  return editSpan(before, now).forward;
}

/** Offsets in `now` taken back to `before` across the same span; none for an offset within the span, which `before` does not hold. */
export function offsetsBackAcrossEdit(before: string, now: string): (offset: number) => number | undefined {
  return editSpan(before, now).back;
}

/**
 * The one span two texts differ in (`offsetsAcrossEdit`): offsets in `before` taken forward to
 * `now`, and offsets in `now` taken back to `before`, where none within the span go.
 */
function editSpan(before: string, now: string): { forward: (offset: number) => number; back: (offset: number) => number | undefined } {
  const shortest = Math.min(before.length, now.length);
  let prefix = 0;
  while (prefix < shortest && before.charCodeAt(prefix) === now.charCodeAt(prefix)) prefix++;
  if (prefix < shortest || before.length !== now.length) prefix = before.lastIndexOf('\n', prefix - 1) + 1;
  let suffix = 0;
  while (suffix < shortest - prefix && before.charCodeAt(before.length - 1 - suffix) === now.charCodeAt(now.length - 1 - suffix)) suffix++;
  const changedEnd = before.length - suffix;
  const delta = now.length - before.length;
  return {
    forward: (offset) => (offset < prefix ? offset : offset >= changedEnd ? offset + delta : prefix),
    back: (offset) => (offset < prefix ? offset : offset >= changedEnd + delta ? offset - delta : undefined),
  };
}
