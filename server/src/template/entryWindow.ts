/**
 * A text the fast path declines because one entry of a top-level section does not parse (a key
 * typed before its colon, in a resource) is otherwise plain block YAML. The `yaml` package then
 * reads the whole text, which takes it about 60 ms at 500 resources and 250 ms at 2,000, at every
 * keystroke of the key. Here the `yaml` package reads that entry alone, under its section's key,
 * after the entry before it and with the line after it, the fast path reads the text without it,
 * and the two trees are joined: the same tree and
 * problems, ranges included, as the `yaml` package gives for the whole text (test/unit/template
 * checks it on the corpus, with keys typed at every line). Whatever is not certain is declined
 * (undefined), and the general path reads the text: an entry that parses (what the fast path left
 * is then something else), anchors or aliases in it, document markers, a problem that reaches
 * beyond it (but into the next entry's key, which is then read with it), a key it shares with
 * another entry, or a rest the fast path does not read.
 */
import type { MapEntry, MapNode, ParsedTemplate, Range, TemplateError, TemplateNode } from './ast';

const SPACE = 32;
const HASH = 35;

/** A top-level section's key alone on its line (`Resources:`), which holds a block mapping. */
const SECTION_LINE = /^[A-Za-z0-9]+:$/;

/**
 * What makes an entry's meaning depend on the rest of the text, or on being at a document's start:
 * an anchor or an alias (`&name`, `*name` where a node begins; a `*` inside an ARN is text), a
 * document marker or a directive.
 */
const CONTEXTUAL = /(?:^|[\s[{,])[&*][^\s,\]}]|^(?:---|\.\.\.|%)/m;

/** One line of the text: where it starts, where its content starts, where its line break is. */
interface TextLine {
  start: number;
  content: number;
  end: number;
}

function lineAt(text: string, start: number): TextLine {
  let content = start;
  while (text.charCodeAt(content) === SPACE) content++;
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  return { start, content, end };
}

/** Whether a line holds content: not blank, not only a comment. */
function holdsContent(text: string, line: TextLine): boolean {
  return line.content < line.end && text.charCodeAt(line.content) !== HASH;
}

/** The start of the line before the one starting at `start`, or undefined at the first. */
function previousLineStart(text: string, start: number): number | undefined {
  if (start === 0) return undefined;
  // The line before ends at start - 1; its own start follows the line break before that, if any.
  return start === 1 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
}

/** An entry of a top-level section, from its key's line to where it ends, with the section's key line. */
interface Window {
  section: TextLine;
  start: number;
  end: number;
}

/**
 * The entry of a top-level section that holds the line starting at `lineStart`: from its key's
 * line to the next line of content as little indented (comments and blank lines before that line
 * included), with the section's key line. Undefined when the line is not inside such an entry.
 */
function entryAround(text: string, lineStart: number): Window | undefined {
  // Up to the section's key line, noting the nearest line of content at each indent less than
  // every indent below it: the lines whose blocks hold the line.
  const holders = new Map<number, number>();
  let least = Infinity;
  let section: TextLine | undefined;
  for (let at: number | undefined = lineStart; at !== undefined; at = previousLineStart(text, at)) {
    const line = lineAt(text, at);
    if (!holdsContent(text, line)) continue;
    const indent = line.content - line.start;
    if (indent === 0) {
      section = line;
      break;
    }
    if (indent < least) {
      least = indent;
      holders.set(indent, line.start);
    }
  }
  if (section === undefined || !SECTION_LINE.test(text.slice(section.start, section.end))) return undefined;
  // The section's entries are at the indent of its first line of content.
  let first: TextLine | undefined;
  for (let at = section.end + 1; at < text.length && first === undefined; ) {
    const line = lineAt(text, at);
    if (holdsContent(text, line)) first = line;
    at = line.end + 1;
  }
  if (first === undefined) return undefined;
  const entryIndent = first.content - first.start;
  const entryStart = holders.get(entryIndent);
  if (entryStart === undefined) return undefined;
  return { section, start: entryStart, end: entryEnd(text, entryStart, entryIndent) };
}

/** Where the entry before the one whose key's line starts at `start` begins, in the same section; undefined when it is the section's first. */
function previousEntryStart(text: string, start: number): number | undefined {
  const indent = lineAt(text, start).content - start;
  for (let at = previousLineStart(text, start); at !== undefined; at = previousLineStart(text, at)) {
    const line = lineAt(text, at);
    if (!holdsContent(text, line)) continue;
    const lineIndent = line.content - line.start;
    if (lineIndent === indent) return line.start;
    if (lineIndent < indent) return undefined;
  }
  return undefined;
}

/** Where the entry whose key's line starts at `start` ends: at the next line of content indented `indent` or less, or the text's end. */
function entryEnd(text: string, start: number, indent: number): number {
  for (let at = lineAt(text, start).end + 1; at < text.length; ) {
    const line = lineAt(text, at);
    if (holdsContent(text, line) && line.content - line.start <= indent) return line.start;
    at = line.end + 1;
  }
  return text.length;
}

/** A node's ranges moved by `by` wherever they are at or after `from`; the node itself when it is wholly before. */
function shifted(node: TemplateNode, from: number, by: number): TemplateNode {
  if (node.range.end < from || (node.range.end === from && node.range.start < from)) return node;
  const range = shiftedRange(node.range, from, by);
  switch (node.kind) {
    case 'scalar':
      return { ...node, range };
    case 'seq':
      return { ...node, range, items: node.items.map((item) => shifted(item, from, by)) };
    case 'map':
      return { ...node, range, entries: node.entries.map((entry) => shiftedEntry(entry, from, by)) };
  }
}

function shiftedEntry(entry: MapEntry, from: number, by: number): MapEntry {
  const value = shifted(entry.value, from, by);
  return entry.keyRange.start < from && value === entry.value ? entry : { key: entry.key, keyRange: shiftedRange(entry.keyRange, from, by), value };
}

function shiftedRange(range: Range, from: number, by: number): Range {
  const start = range.start >= from ? range.start + by : range.start;
  const end = range.end > from || (range.end === from && range.start >= from) ? range.end + by : range.end;
  return { start, end };
}

/** What `readWindow` says of an entry whose problem runs on into the line after it. */
const RUNS_ON = 'runs on';

/**
 * Reads `text`, which the fast path declined at the line starting at `declinedAt`, as above;
 * `readFast` is the fast path and `readGeneral` the `yaml` package's.
 */
export function parseAroundEntry(
  text: string,
  declinedAt: number,
  readFast: (text: string) => ParsedTemplate | undefined,
  readGeneral: (text: string) => ParsedTemplate,
): ParsedTemplate | undefined {
  const entry = entryAround(text, declinedAt);
  if (entry === undefined) return undefined;
  const alone = readWindow(text, entry, readFast, readGeneral);
  if (alone !== RUNS_ON) return alone;
  // A key typed at the entries' own indent (a resource's logical id) runs on into the next
  // entry's key, which yaml reads as the rest of one key: the two are read together.
  const together = entry.end < text.length ? readWindow(text, { ...entry, end: entryEnd(text, entry.end, lineAt(text, entry.start).content - entry.start) }, readFast, readGeneral) : undefined;
  return together === RUNS_ON ? undefined : together;
}

/** Reads `text` with the entry `entry` read alone, as above. */
function readWindow(
  text: string,
  entry: Window,
  readFast: (text: string) => ParsedTemplate | undefined,
  readGeneral: (text: string) => ParsedTemplate,
): ParsedTemplate | undefined | typeof RUNS_ON {
  // The entry under its section's key, after the entry before it and with the line that follows
  // it in the text (the next entry's key, or the next section's), so that where the entry begins
  // and ends is read as in the text: the `yaml` package's problems with it, which the whole text
  // must have for this reading to be the general path's, and what it makes of the entry. The
  // problems must all be in the entry, and the entries around it read as what they are.
  const head = `${text.slice(entry.section.start, entry.section.end)}\n`;
  const previous = previousEntryStart(text, entry.start);
  const from = previous ?? entry.start;
  const next = entry.end < text.length ? lineAt(text, entry.end) : undefined;
  const nextIndent = next === undefined ? undefined : next.content - next.start;
  const byAlone = from - head.length;
  const windowAt = entry.start - byAlone;
  const nextAt = entry.end - byAlone;
  const read = text.slice(from, entry.end);
  if (CONTEXTUAL.test(read)) return undefined;
  const alone = readGeneral(head + read + (next === undefined ? '' : text.slice(next.start, Math.min(next.end + 1, text.length))));
  const sibling = nextIndent !== undefined && nextIndent > 0;
  if (!alone.errors.some((error) => error.severity === 'error')) return undefined;
  // A problem before the entry or reaching the line after it (a key typed at the entries' own
  // indent may run on into the next key) is not the entry's alone.
  if (alone.errors.some((error) => error.range.start < windowAt)) return undefined;
  if (alone.errors.some((error) => error.range.end > nextAt)) return sibling ? RUNS_ON : undefined;
  const aloneRoot = alone.root?.kind === 'map' ? alone.root : undefined;
  if (aloneRoot === undefined || aloneRoot.entries.length !== (nextIndent === 0 ? 2 : 1)) return undefined;
  if (nextIndent === 0 && aloneRoot.entries[1]!.keyRange.start !== nextAt) return undefined;
  const aloneSection = aloneRoot.entries[0]!.value;
  if (aloneSection.kind !== 'map') return undefined;
  if (sibling && aloneSection.entries.at(-1)?.keyRange.start !== nextAt + nextIndent) return undefined;
  // The entry before is one entry, where its key is.
  if (previous !== undefined && aloneSection.entries[0]?.keyRange.start !== lineAt(text, previous).content - byAlone) return undefined;
  const windowEntries = aloneSection.entries.slice(previous === undefined ? 0 : 1, sibling ? -1 : undefined);
  if (windowEntries.length === 0 || windowEntries.some((e) => e.keyRange.start < windowAt)) return undefined;
  const entries = windowEntries.map((e) => shiftedEntry(e, 0, byAlone));
  // Where the section ends, when the entry is its last; where the document ends, when the entry ends the text.
  const sectionEnd = sibling ? -Infinity : aloneSection.range.end + byAlone;
  const documentEnd = next === undefined ? aloneRoot.range.end + byAlone : -Infinity;

  // The text without the entry, read by the fast path, its ranges after the entry moved back.
  const rest = readFast(text.slice(0, entry.start) + text.slice(entry.end));
  if (rest?.root?.kind !== 'map') return undefined;
  const by = entry.end - entry.start;
  const root = shifted(rest.root, entry.start, by) as MapNode;
  const sectionKey = text.slice(entry.section.start, entry.section.end - 1);
  const sectionAt = root.entries.findIndex((e) => e.key === sectionKey && e.keyRange.start === entry.section.start);
  const sectionEntry = root.entries[sectionAt];
  if (sectionEntry === undefined) return undefined;
  // Without its only entry the section is empty: a null where its map begins.
  const only = sectionEntry.value.kind === 'scalar' && sectionEntry.value.value === null && !sibling;
  if (sectionEntry.value.kind !== 'map' && !only) return undefined;
  const others = sectionEntry.value.kind === 'map' ? sectionEntry.value.entries : [];
  const keys = new Set(others.map((e) => e.key));
  if (entries.some((e) => keys.has(e.key))) return undefined;
  const before = others.filter((e) => e.keyRange.start < entry.start);
  const after = others.filter((e) => e.keyRange.start >= entry.end);
  if (before.length + after.length !== others.length) return undefined;
  const sectionMap: MapNode =
    sectionEntry.value.kind === 'map'
      ? {
          ...sectionEntry.value,
          range: { start: Math.min(sectionEntry.value.range.start, entries[0]!.keyRange.start), end: Math.max(sectionEntry.value.range.end, sectionEnd) },
          entries: [...before, ...entries, ...after],
        }
      : { kind: 'map', range: { start: aloneSection.range.start + byAlone, end: sectionEnd }, entries };
  const rootEntries = [...root.entries];
  rootEntries[sectionAt] = { ...sectionEntry, value: sectionMap };
  const errors: TemplateError[] = alone.errors.map((error) => ({ ...error, range: { start: error.range.start + byAlone, end: error.range.end + byAlone } }));
  return {
    text,
    format: 'yaml',
    root: { ...root, range: { start: root.range.start, end: Math.max(root.range.end, documentEnd) }, entries: rootEntries },
    errors,
  };
}
