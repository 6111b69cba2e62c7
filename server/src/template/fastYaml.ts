/**
 * A fast path for the YAML most templates are written in: block mappings and sequences, plain
 * and quoted one-line scalars, literal block scalars, one-line flow collections and the
 * CloudFormation short forms. It builds the same tree (values and ranges) as the general path
 * through the `yaml` package, about three times faster, and declines (returns undefined) at the
 * first thing it is not certain about — anchors, folded or multi-line scalars, unusual comments,
 * tabs, CRLF, anything erroneous — so that the general path decides those. Declining is always
 * correct; answering differently from the general path is a bug (test/unit/template checks the
 * two agree on the corpus).
 */
import type { MapEntry, MapNode, ParsedTemplate, Range, ScalarNode, SeqNode, TemplateNode } from './ast';
import { MAX_NESTING_DEPTH } from './limits';
import { SHORT_FORM_KEYS } from './shortForms';

/** Thrown inside the fast path to give up; never escapes this module. */
class Decline extends Error {}

const decline = (): never => {
  throw new Decline();
};

/** Well inside the general path's bound, so that nothing near the limit is read differently. */
const MAX_DEPTH = MAX_NESTING_DEPTH / 2;

const SPACE = 32;
const NEWLINE = 10;
const HASH = 35;
const COLON = 58;
const DASH = 45;

/** Characters that cannot start a plain scalar or key in the subset this path reads. */
const INDICATORS = new Set([...'-?:,[]{}#&*!|>\'"%@`']);

const NULL_PLAIN = /^(?:~|[Nn]ull|NULL)$/;
const BOOL_PLAIN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_DEC = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** Only these need a closer look; every other plain scalar is a string. */
const MAYBE_NOT_STRING = /^[-+.~0-9nNtTfF]/;

const DOUBLE_QUOTE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  '"': '"',
  '/': '/',
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '0': '\0',
  a: '\x07',
  v: '\v',
  e: '\x1b',
  ' ': ' ',
};

/** A plain scalar's value under the YAML 1.2 core schema, as the `yaml` package resolves it. */
function resolvePlain(source: string): string | number | boolean | null {
  if (!MAYBE_NOT_STRING.test(source)) return source;
  if (NULL_PLAIN.test(source)) return null;
  if (BOOL_PLAIN.test(source)) return source[0] === 't' || source[0] === 'T';
  if (INT_OCT.test(source)) return parseInt(source.substring(2), 8);
  if (INT_DEC.test(source)) return parseInt(source, 10);
  if (INT_HEX.test(source)) return parseInt(source.substring(2), 16);
  if (FLOAT_NAN.test(source)) return source.slice(-3).toLowerCase() === 'nan' ? NaN : source[0] === '-' ? -Infinity : Infinity;
  if (FLOAT_EXP.test(source) || FLOAT.test(source)) return parseFloat(source);
  return source;
}

/** One physical line that holds content (not blank, not only a comment). */
interface Line {
  start: number;
  /** Offset of the first character that is not a space. */
  content: number;
  indent: number;
  /** Offset of the line break (or the text's end). */
  end: number;
}

/** Where the fast path gave up: the start of the last line it looked at. */
export interface FastYamlDecline {
  lineStart?: number;
}

/**
 * Parses the text with the fast path; undefined when the general path must decide. `declined`,
 * when given, is told the start of the line the fast path last looked at before it gave up.
 */
export function parseYamlFast(text: string, declined?: FastYamlDecline): ParsedTemplate | undefined {
  if (text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  const reader = new FastYamlReader(text);
  try {
    const root = reader.document();
    return root ? { text, format: 'yaml', root, errors: [] } : undefined;
  } catch (error) {
    if (!(error instanceof Decline)) throw error;
    if (declined) declined.lineStart = reader.lastLineStart;
    return undefined;
  }
}

class FastYamlReader {
  /** Start of the first line not yet read. */
  private pos = 0;
  /** Indents of full-line comments skipped since the last content line. */
  private comments: number[] = [];
  /** Offset of the next tab at or after the last line looked at (2^32 - 1 when there is none). */
  private nextTab = -1;
  private atDocumentStart = true;
  /** The start of the last content line looked at. */
  lastLineStart = 0;

  constructor(private readonly text: string) {}

  document(): TemplateNode | undefined {
    let line = this.peek();
    this.atDocumentStart = false;
    if (!line) return undefined;
    if (this.text.startsWith('---', line.content) && line.indent === 0) {
      if (line.end !== line.content + 3) decline();
      this.pos = this.after(line);
      line = this.peek();
      if (!line) return undefined;
    }
    if (line.indent !== 0 || this.comments.length > 0) decline();
    const root = this.blockMap(line, line.content, 1);
    // Anything left is content the root did not take (a document marker, a stray line) or trailing comments.
    if (this.peek() || this.comments.length > 0) decline();
    return root;
  }

  /** The next content line from `pos`, skipping blank and comment lines (noting the comments); pos is unchanged. */
  private peek(): Line | undefined {
    const text = this.text;
    let start = this.pos;
    this.comments = [];
    while (start < text.length) {
      let content = start;
      while (text.charCodeAt(content) === SPACE) content++;
      let end = text.indexOf('\n', content);
      if (end < 0) end = text.length;
      const first = text.charCodeAt(content);
      if (content === end) {
        start = end + 1;
        continue;
      }
      if (first === HASH) {
        this.comments.push(content - start);
        start = end + 1;
        continue;
      }
      // Tabs are separators or indentation in ways the general path should judge.
      if (this.nextTab < start) this.nextTab = text.indexOf('\t', start) >>> 0;
      if (this.nextTab < end) decline();
      // Document markers and directives: only a `---` before the first content line is read here.
      if (content === start && (first === 37 /* % */ || ((text.startsWith('---', start) || text.startsWith('...', start)) && !(this.atDocumentStart && first === DASH)))) decline();
      this.lastLineStart = start;
      return { start, content, indent: content - start, end };
    }
    return undefined;
  }

  private after(line: Line): number {
    return line.end + 1;
  }

  /** Full-line comments before a line are accepted only where they cannot change a collection's end. */
  private checkComments(nextIndent: number): void {
    for (const indent of this.comments) if (indent !== nextIndent) decline();
  }

  /** A block mapping whose first key starts at `keyStart` on `line`; its keys are at that column. */
  private blockMap(line: Line, keyStart: number, depth: number): MapNode {
    if (depth > MAX_DEPTH) decline();
    const column = keyStart - line.start;
    const entries: MapEntry[] = [];
    const seen = new Set<string>();
    let current: Line | undefined = line;
    let keyAt = keyStart;
    let end = keyStart;
    while (current) {
      const { key, keyRange, afterColon } = this.key(current, keyAt);
      if (seen.has(key)) decline();
      seen.add(key);
      const value = this.valueAfter(current, afterColon, column, depth + 1, true);
      entries.push({ key, keyRange, value: value.node });
      end = value.end;
      const next = this.peek();
      if (!next || next.indent < column) {
        // Comments after the last entry would belong to this mapping in yaml's reading, or not: let it decide.
        if (this.comments.some((indent) => indent >= column)) decline();
        break;
      }
      if (next.indent > column) decline();
      if (this.text.charCodeAt(next.content) === DASH && this.isSequenceDash(next.content, next.end)) decline();
      this.checkComments(next.indent);
      current = next;
      keyAt = next.content;
    }
    return { kind: 'map', range: { start: keyStart, end }, entries };
  }

  /** A block sequence whose first dash is at `firstDash` on `line` (later dashes at the same column). */
  private blockSeq(line: Line, firstDash: number, depth: number): SeqNode {
    if (depth > MAX_DEPTH) decline();
    const column = firstDash - line.start;
    const items: TemplateNode[] = [];
    let current: Line | undefined = line;
    let end = firstDash;
    let dash = firstDash;
    while (current) {
      if (!this.isSequenceDash(dash, current.end)) decline();
      let itemAt = dash + 1;
      while (this.text.charCodeAt(itemAt) === SPACE) itemAt++;
      const compactKey = itemAt < current.end && this.looksLikeKey(itemAt, current.end);
      if (compactKey) {
        if (itemAt !== dash + 2) decline();
        const map = this.blockMap(current, itemAt, depth + 1);
        items.push(map);
        end = map.range.end;
      } else if (this.text.charCodeAt(itemAt) === DASH && this.isSequenceDash(itemAt, current.end)) {
        // `- - x`: a sequence inside a sequence, its dashes at the inner column.
        if (itemAt !== dash + 2) decline();
        const inner = this.blockSeq(current, itemAt, depth + 1);
        items.push(inner);
        end = inner.range.end;
      } else {
        const value = this.valueAfter(current, dash + 1, column, depth + 1, false);
        items.push(value.node);
        end = value.end;
      }
      const next = this.peek();
      if (!next || next.indent < column) {
        if (this.comments.some((indent) => indent >= column)) decline();
        break;
      }
      if (next.indent > column) decline();
      if (!this.isSequenceDash(next.content, next.end)) {
        // Same column but not a dash: the parent mapping continues (an indentless sequence ends here).
        if (this.comments.length > 0) decline();
        break;
      }
      this.checkComments(next.indent);
      current = next;
      dash = next.content;
    }
    return { kind: 'seq', range: { start: firstDash, end }, items };
  }

  private isSequenceDash(at: number, lineEnd: number): boolean {
    const next = this.text.charCodeAt(at + 1);
    return this.text.charCodeAt(at) === DASH && (at + 1 === lineEnd || next === SPACE);
  }

  /** Whether a key (`name:` followed by a space or the line's end) starts here. */
  private looksLikeKey(at: number, lineEnd: number): boolean {
    const first = this.text[at]!;
    if (first === '"' || first === "'") {
      const close = quotedEnd(this.text, at, lineEnd);
      return close !== undefined && this.text.charCodeAt(close) === COLON && (close + 1 === lineEnd || this.text.charCodeAt(close + 1) === SPACE);
    }
    if (INDICATORS.has(first)) return false;
    const colon = this.keyColon(at, lineEnd);
    return colon !== undefined;
  }

  /** The colon ending a plain key that starts at `at`, if the line has one before any comment. */
  private keyColon(at: number, lineEnd: number): number | undefined {
    const text = this.text;
    for (let i = at; i < lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === COLON && (i + 1 === lineEnd || text.charCodeAt(i + 1) === SPACE)) return i;
      if (c === HASH && text.charCodeAt(i - 1) === SPACE) return undefined;
    }
    return undefined;
  }

  private key(line: Line, at: number): { key: string; keyRange: Range; afterColon: number } {
    const first = this.text[at]!;
    if (first === '"' || first === "'") {
      const close = quotedEnd(this.text, at, line.end) ?? decline();
      if (this.text.charCodeAt(close) !== COLON || !(close + 1 === line.end || this.text.charCodeAt(close + 1) === SPACE)) decline();
      return { key: this.quotedValue(at, close), keyRange: { start: at, end: close }, afterColon: close + 1 };
    }
    if (INDICATORS.has(first)) decline();
    const colon = this.keyColon(at, line.end) ?? decline();
    if (this.text.charCodeAt(colon - 1) === SPACE) decline();
    return { key: this.text.slice(at, colon), keyRange: { start: at, end: colon }, afterColon: colon + 1 };
  }

  /**
   * The value that follows `key:` or `-` at `from` on `line`: on the same line, or as a block on
   * the lines below (more indented than `parentColumn`). `end` is where the value's lines end.
   */
  private valueAfter(line: Line, from: number, parentColumn: number, depth: number, inMap: boolean): { node: TemplateNode; end: number } {
    const text = this.text;
    let at = from;
    while (text.charCodeAt(at) === SPACE) at++;
    if (at === line.end || (text.charCodeAt(at) === HASH && at > from)) {
      this.pos = this.after(line);
      const below = this.blockBelow(parentColumn, depth, inMap);
      if (below) return below;
      // Nothing below either: a null, located where a value would have started.
      if (this.comments.length > 0) decline();
      // yaml ends the enclosing collection at the line break, or after it when a comment precedes it.
      const end = at < line.end ? Math.min(line.end + 1, text.length) : line.end;
      return { node: { kind: 'scalar', range: { start: at, end: at }, value: null }, end };
    }
    if (at === from && at !== line.end) decline();
    const first = text[at]!;
    if (first === '!') {
      let tagEnd = at;
      while (tagEnd < line.end && text.charCodeAt(tagEnd) !== SPACE) tagEnd++;
      const tag = text.slice(at, tagEnd);
      const longForm = SHORT_FORM_KEYS.get(tag) ?? decline();
      const tagRange = { start: at, end: tagEnd };
      let valueAt = tagEnd;
      while (text.charCodeAt(valueAt) === SPACE) valueAt++;
      let inner: { node: TemplateNode; end: number };
      if (valueAt === line.end || (text.charCodeAt(valueAt) === HASH && valueAt > tagEnd)) {
        this.pos = this.after(line);
        inner = this.blockBelow(parentColumn, depth, false) ?? decline();
      } else {
        if (valueAt === tagEnd || text[valueAt] === '!') decline();
        inner = this.inlineValue(line, valueAt, parentColumn, depth, true);
      }
      const value = tag === '!GetAtt' && inner.node.kind === 'scalar' ? splitGetAtt(this.text, inner.node) : inner.node;
      const node: MapNode = {
        kind: 'map',
        range: { start: tagRange.start, end: Math.max(tagRange.end, inner.node.range.end) },
        entries: [{ key: longForm, keyRange: tagRange, value }],
        shortForm: tag,
      };
      return { node, end: inner.end };
    }
    return this.inlineValue(line, at, parentColumn, depth, false);
  }

  /** A collection on the lines below a `key:` or `-` that had nothing after it; undefined when there is none. */
  private blockBelow(parentColumn: number, depth: number, inMap: boolean): { node: TemplateNode; end: number } | undefined {
    const next = this.peek();
    if (!next) return undefined;
    if (this.comments.length > 0) this.checkComments(next.indent);
    const dash = this.isSequenceDash(next.content, next.end);
    if (next.indent > parentColumn) {
      const node = dash ? this.blockSeq(next, next.content, depth) : this.looksLikeKey(next.content, next.end) ? this.blockMap(next, next.content, depth) : decline();
      return { node, end: node.range.end };
    }
    if (inMap && dash && next.indent === parentColumn) {
      const node = this.blockSeq(next, next.content, depth);
      return { node, end: node.range.end };
    }
    return undefined;
  }

  /** A value that starts on the current line: a scalar, a one-line flow collection or a literal block scalar. */
  private inlineValue(line: Line, at: number, parentColumn: number, depth: number, tagged: boolean): { node: TemplateNode; end: number } {
    const text = this.text;
    const first = text[at]!;
    if (first === '|') return this.literalBlock(line, at, parentColumn);
    let node: TemplateNode;
    let valueEnd: number;
    if (first === '[' || first === '{') {
      const flow = new FlowReader(text, at, line.end, depth);
      node = flow.value();
      valueEnd = flow.pos;
    } else if (first === '"' || first === "'") {
      const close = quotedEnd(this.text, at, line.end) ?? decline();
      node = { kind: 'scalar', range: { start: at, end: close }, value: this.quotedValue(at, close) };
      valueEnd = close;
    } else {
      if (INDICATORS.has(first) && !(first === '-' && text.charCodeAt(at + 1) !== SPACE && at + 1 < line.end)) decline();
      let end = line.end;
      for (let i = at; i < line.end; i++) {
        const c = text.charCodeAt(i);
        if (c === HASH && text.charCodeAt(i - 1) === SPACE) {
          end = i;
          break;
        }
        if (c === COLON && (i + 1 === line.end || text.charCodeAt(i + 1) === SPACE)) decline();
      }
      while (text.charCodeAt(end - 1) === SPACE) end--;
      const source = text.slice(at, end);
      node = { kind: 'scalar', range: { start: at, end }, value: tagged ? source : resolvePlain(source) };
      valueEnd = end;
    }
    this.restOfLine(valueEnd, line.end);
    this.pos = this.after(line);
    return { node, end: Math.min(line.end + 1, text.length) };
  }

  /** After a value only spaces and a comment may follow on its line. */
  private restOfLine(from: number, lineEnd: number): void {
    let i = from;
    while (this.text.charCodeAt(i) === SPACE) i++;
    if (i === lineEnd) return;
    if (this.text.charCodeAt(i) === HASH && i > from) return;
    decline();
  }

  /** `|`, `|-` or `|+` and the more-indented lines below it. */
  private literalBlock(line: Line, at: number, parentColumn: number): { node: TemplateNode; end: number } {
    const text = this.text;
    let i = at + 1;
    const chomp = text[i] === '-' ? 'strip' : text[i] === '+' ? 'keep' : 'clip';
    if (chomp !== 'clip') i++;
    this.restOfLine(i, line.end);
    if (line.end >= text.length) decline();
    // The first content line fixes the indentation; leading blank lines are left to the general path.
    let lineStart = line.end + 1;
    let indent = 0;
    while (text.charCodeAt(lineStart + indent) === SPACE) indent++;
    const firstEnd = text.indexOf('\n', lineStart);
    if (indent <= parentColumn || lineStart + indent === (firstEnd < 0 ? text.length : firstEnd)) decline();
    if (text.charCodeAt(lineStart + indent) === 9) decline();
    const parts: string[] = [];
    let lastContentEnd = lineStart;
    let trailingBlank = 0;
    let blankEnd = lineStart;
    while (lineStart < text.length) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      let spaces = 0;
      while (text.charCodeAt(lineStart + spaces) === SPACE) spaces++;
      const blank = lineStart + spaces === lineEnd;
      // Whitespace-only lines longer than the indentation carry content; the general path handles them.
      if (blank && spaces > indent) decline();
      if (spaces < indent && !blank) break;
      if (blank) {
        trailingBlank++;
        blankEnd = Math.min(lineEnd + 1, text.length);
      } else {
        for (let b = 0; b < trailingBlank; b++) parts.push('');
        trailingBlank = 0;
        parts.push(text.slice(lineStart + indent, lineEnd));
        lastContentEnd = Math.min(lineEnd + 1, text.length);
      }
      lineStart = lineEnd + 1;
    }
    const body = parts.join('\n');
    // When the text ends on the block's last line, with no line break, yaml still ends a clipped
    // or kept value with one; the general path decides such a text.
    if (chomp !== 'strip' && text.charCodeAt(lastContentEnd - 1) !== NEWLINE) decline();
    let value: string;
    let end: number;
    if (chomp === 'strip') {
      value = body;
      end = lastContentEnd;
    } else if (chomp === 'clip') {
      value = `${body}\n`;
      end = lastContentEnd;
    } else {
      if (trailingBlank > 0 && blankEnd >= text.length) decline();
      value = `${body}\n${'\n'.repeat(trailingBlank)}`;
      end = trailingBlank > 0 ? blankEnd : lastContentEnd;
    }
    this.pos = lastContentEnd;
    if (chomp === 'keep') this.pos = end;
    return { node: { kind: 'scalar', range: { start: at, end }, value }, end };
  }

  /** The value of a one-line quoted scalar spanning `[start, end)`. */
  private quotedValue(start: number, end: number): string {
    return quotedScalarValue(this.text, start, end);
  }
}

/** The value of a quoted scalar (single or double) spanning `[start, end)` of `text`, on one line. */
function quotedScalarValue(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  if (text[start] === "'") return inner.includes("''") ? inner.replace(/''/g, "'") : inner;
  if (!inner.includes('\\')) return inner;
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = inner[++i]!;
    const simple = DOUBLE_QUOTE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : decline();
    const hex = inner.slice(i + 1, i + 1 + width);
    if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) decline();
    const code = parseInt(hex, 16);
    if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) decline();
    out += String.fromCodePoint(code);
    i += width;
  }
  return out;
}

/** One-line flow collections: `[a, !Ref b, 'c']`, `{ Key: v }`, nested. */
class FlowReader {
  pos: number;

  constructor(
    private readonly text: string,
    start: number,
    private readonly lineEnd: number,
    private readonly depth: number,
  ) {
    this.pos = start;
  }

  value(): TemplateNode {
    return this.node(this.depth);
  }

  private skipSpaces(): void {
    while (this.text.charCodeAt(this.pos) === SPACE) this.pos++;
    if (this.pos >= this.lineEnd) decline();
  }

  private node(depth: number): TemplateNode {
    if (depth > MAX_DEPTH) decline();
    const text = this.text;
    const first = text[this.pos];
    if (first === '[') return this.seq(depth);
    if (first === '{') return this.map(depth);
    if (first === '!') {
      const tagStart = this.pos;
      while (this.pos < this.lineEnd && text.charCodeAt(this.pos) !== SPACE) this.pos++;
      const tag = text.slice(tagStart, this.pos);
      const longForm = SHORT_FORM_KEYS.get(tag) ?? decline();
      this.skipSpaces();
      if (text[this.pos] === '!' || text[this.pos] === ',' || text[this.pos] === ']' || text[this.pos] === '}') decline();
      let inner = this.node(depth);
      // A short form's scalar is its text as written (the tag decides, not the core schema).
      if (inner.kind === 'scalar' && text[inner.range.start] !== '"' && text[inner.range.start] !== "'") {
        inner = { ...inner, value: text.slice(inner.range.start, inner.range.end) };
      }
      const value = tag === '!GetAtt' && inner.kind === 'scalar' ? splitGetAtt(text, inner) : inner;
      return {
        kind: 'map',
        range: { start: tagStart, end: Math.max(this.pos, inner.range.end) },
        entries: [{ key: longForm, keyRange: { start: tagStart, end: tagStart + tag.length }, value }],
        shortForm: tag,
      };
    }
    if (first === '"' || first === "'") {
      const start = this.pos;
      const end = quotedEnd(text, start, this.lineEnd) ?? decline();
      this.pos = end;
      return { kind: 'scalar', range: { start, end }, value: quotedScalarValue(text, start, end) };
    }
    if (first === undefined || INDICATORS.has(first)) {
      if (!(first === '-' && text.charCodeAt(this.pos + 1) !== SPACE)) decline();
    }
    const start = this.pos;
    let end = start;
    while (end < this.lineEnd) {
      const c = text[end];
      if (c === ',' || c === ']' || c === '}' || c === '[' || c === '{') break;
      if (c === ':') {
        const next = text[end + 1];
        if (next === ' ' || next === ',' || next === ']' || next === '}' || end + 1 === this.lineEnd) break;
      }
      if (c === '#' && text[end - 1] === ' ') decline();
      end++;
    }
    let trimmed = end;
    while (text.charCodeAt(trimmed - 1) === SPACE) trimmed--;
    if (trimmed === start) decline();
    this.pos = trimmed;
    const source = text.slice(start, trimmed);
    return { kind: 'scalar', range: { start, end: trimmed }, value: resolvePlain(source) };
  }

  private seq(depth: number): SeqNode {
    const start = this.pos++;
    const items: TemplateNode[] = [];
    this.skipSpaces();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { kind: 'seq', range: { start, end: this.pos }, items };
    }
    for (;;) {
      this.skipSpaces();
      items.push(this.node(depth + 1));
      this.skipSpaces();
      const c = this.text[this.pos];
      if (c === ',') {
        this.pos++;
        this.skipSpaces();
        if (this.text[this.pos] === ']') decline();
        continue;
      }
      if (c === ']') {
        this.pos++;
        return { kind: 'seq', range: { start, end: this.pos }, items };
      }
      return decline();
    }
  }

  private map(depth: number): MapNode {
    const start = this.pos++;
    const entries: MapEntry[] = [];
    const seen = new Set<string>();
    this.skipSpaces();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { kind: 'map', range: { start, end: this.pos }, entries };
    }
    for (;;) {
      this.skipSpaces();
      const keyNode = this.node(depth + 1);
      if (keyNode.kind !== 'scalar') decline();
      const keySource = this.text.slice(keyNode.range.start, keyNode.range.end);
      const quoted = keySource[0] === '"' || keySource[0] === "'";
      const key = quoted ? String((keyNode as ScalarNode).value) : keySource;
      if (this.text[this.pos] !== ':' || this.text[this.pos + 1] !== ' ') decline();
      this.pos++;
      this.skipSpaces();
      const value = this.node(depth + 1);
      if (seen.has(key)) decline();
      seen.add(key);
      entries.push({ key, keyRange: keyNode.range, value });
      this.skipSpaces();
      const c = this.text[this.pos];
      if (c === ',') {
        this.pos++;
        this.skipSpaces();
        if (this.text[this.pos] === '}') decline();
        continue;
      }
      if (c === '}') {
        this.pos++;
        return { kind: 'map', range: { start, end: this.pos }, entries };
      }
      return decline();
    }
  }
}

/** Offset of the closing quote of a one-line quoted scalar starting at `at`, plus one; undefined when it does not close before `lineEnd`. */
function quotedEnd(text: string, at: number, lineEnd: number): number | undefined {
  const quote = text[at];
  for (let i = at + 1; i < lineEnd; i++) {
    const c = text[i];
    if (quote === "'" && c === "'") {
      if (text[i + 1] === "'") {
        i++;
        continue;
      }
      return i + 1;
    }
    if (quote === '"') {
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '"') return i + 1;
    }
  }
  return undefined;
}

/** `!GetAtt A.B.C` means `Fn::GetAtt: [A, B.C]`: the logical id ends at the first dot (as the general path splits it). */
function splitGetAtt(text: string, node: ScalarNode): TemplateNode {
  const value = node.value;
  if (typeof value !== 'string') return node;
  const dot = value.indexOf('.');
  if (dot < 0) return node;
  const { start, end } = node.range;
  const source = text.slice(start, end);
  const offset = source === value ? start : source.slice(1, -1) === value ? start + 1 : undefined;
  const idRange = offset === undefined ? node.range : { start: offset, end: offset + dot };
  const attributeRange = offset === undefined ? node.range : { start: offset + dot + 1, end: offset + value.length };
  return {
    kind: 'seq',
    range: node.range,
    items: [
      { kind: 'scalar', range: idRange, value: value.slice(0, dot) },
      { kind: 'scalar', range: attributeRange, value: value.slice(dot + 1) },
    ],
  };
}
