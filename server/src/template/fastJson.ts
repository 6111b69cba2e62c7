/**
 * A fast path for JSON templates (what the AWS CDK, SAM's `--use-json` and most generators
 * write). It builds the same tree, values and ranges, as the general path through the `yaml`
 * package, which reads JSON as YAML flow collections and is an order of magnitude slower on
 * large texts. Strict JSON only: at the first thing it is not certain the general path reads the
 * same way and without a problem (a duplicate key, a tab, a control character, text after the
 * root, a key longer than YAML allows, nesting near the bound) it declines, and the general path
 * decides. Declining is always correct; answering differently from the general path is a bug
 * (test/unit/template/fastJson*.test.ts hold the two equal).
 */
import type { MapEntry, MapNode, ParsedTemplate, ScalarNode, SeqNode, TemplateNode } from './ast';
import { MAX_NESTING_DEPTH } from './limits';

/** Thrown inside the fast path to give up; never escapes this module. */
class Decline extends Error {}

const decline = (): never => {
  throw new Decline();
};

/** Well inside the general path's bound, so that nothing near the limit is read differently. */
const MAX_DEPTH = MAX_NESTING_DEPTH / 2;

/** YAML limits an implicit key to 1024 characters; JSON keys are implicit keys to the general path. */
const MAX_KEY_SOURCE_LENGTH = 1024;

/**
 * Characters the general path treats differently from JSON, or reports: tabs (YAML separation
 * rules differ), C0 and C1 controls, line and paragraph separators, the byte-order mark and the
 * non-characters YAML does not accept as printable.
 */
const NOT_PLAIN_JSON = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\uFEFF\uFFFE\uFFFF]/;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** Reads a strict JSON text with ranges exactly as the general path would, or declines (undefined). */
export function parseJsonFast(text: string): ParsedTemplate | undefined {
  if (NOT_PLAIN_JSON.test(text)) return undefined;
  const reader = new FastJsonReader(text);
  try {
    const root = reader.document();
    return { text, format: 'json', root, errors: [] };
  } catch (error) {
    if (!(error instanceof Decline)) throw error;
    return undefined;
  }
}

class FastJsonReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  document(): TemplateNode {
    this.skipSpace();
    const root = this.value(1);
    this.skipSpace();
    if (this.pos !== this.text.length) decline();
    return root;
  }

  private value(depth: number): TemplateNode {
    if (depth > MAX_DEPTH) decline();
    const code = this.text.charCodeAt(this.pos);
    if (code === OPEN_BRACE) return this.object(depth);
    if (code === OPEN_BRACKET) return this.array(depth);
    if (code === QUOTE) {
      const start = this.pos;
      const value = this.string();
      return { kind: 'scalar', range: { start, end: this.pos }, value };
    }
    return this.literal();
  }

  private object(depth: number): MapNode {
    const start = this.pos++;
    const entries: MapEntry[] = [];
    const keys = new Set<string>();
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === CLOSE_BRACE) return { kind: 'map', range: { start, end: ++this.pos }, entries };
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== QUOTE) decline();
      const keyStart = this.pos;
      const key = this.string();
      const keyRange = { start: keyStart, end: this.pos };
      if (keyRange.end - keyRange.start > MAX_KEY_SOURCE_LENGTH || keys.has(key)) decline();
      keys.add(key);
      // YAML wants an implicit key and its colon on one line.
      if (this.skipSpace()) decline();
      if (this.text.charCodeAt(this.pos++) !== COLON) decline();
      this.skipSpace();
      entries.push({ key, keyRange, value: this.value(depth + 1) });
      this.skipSpace();
      const next = this.text.charCodeAt(this.pos++);
      if (next === CLOSE_BRACE) return { kind: 'map', range: { start, end: this.pos }, entries };
      if (next !== COMMA) decline();
      this.skipSpace();
    }
  }

  private array(depth: number): SeqNode {
    const start = this.pos++;
    const items: TemplateNode[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === CLOSE_BRACKET) return { kind: 'seq', range: { start, end: ++this.pos }, items };
    for (;;) {
      items.push(this.value(depth + 1));
      this.skipSpace();
      const next = this.text.charCodeAt(this.pos++);
      if (next === CLOSE_BRACKET) return { kind: 'seq', range: { start, end: this.pos }, items };
      if (next !== COMMA) decline();
      this.skipSpace();
    }
  }

  /** A string literal at `pos`, decoded; escapes are JSON's, which the general path decodes alike. */
  private string(): string {
    const start = this.pos;
    let escaped = false;
    let at = start + 1;
    for (;;) {
      const code = this.text.charCodeAt(at);
      if (Number.isNaN(code) || code === 10 || code === 13) decline();
      if (code === QUOTE) break;
      if (code === BACKSLASH) {
        escaped = true;
        at++;
      }
      at++;
    }
    this.pos = at + 1;
    if (!escaped) return this.text.slice(start + 1, at);
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      return decline();
    }
  }

  /** A number, `true`, `false` or `null`: the values the YAML core schema gives these words too. */
  private literal(): ScalarNode {
    const start = this.pos;
    const text = this.text;
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, start)) {
        this.pos += word.length;
        return { kind: 'scalar', range: { start, end: this.pos }, value };
      }
    }
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(text);
    if (match === null) return decline();
    this.pos += match[0].length;
    return { kind: 'scalar', range: { start, end: this.pos }, value: Number(match[0]) };
  }

  /** Skips JSON whitespace; whether a line break was among it. */
  private skipSpace(): boolean {
    let lineBreak = false;
    for (;;) {
      const code = this.text.charCodeAt(this.pos);
      if (code === 32) this.pos++;
      else if (code === 10 || code === 13) {
        lineBreak = true;
        this.pos++;
      } else return lineBreak;
    }
  }
}

const LITERALS: [string, boolean | null][] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
