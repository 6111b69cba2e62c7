/**
 * A pass over yaml's concrete syntax tree, before composition: it cuts collections that
 * nest too deeply (so that the recursive composer stays far from the stack limit), speeds up
 * long double-quoted strings, and records where every tag token is (the composed tree keeps a
 * node's tag name, not its span).
 */
import type { CST } from 'yaml';
import type { Range } from './ast';
import { MAX_NESTING_DEPTH } from './limits';

/** What the pass learned: the spans it cut out and the start/end of every tag token, sorted by start. */
export interface CstFacts {
  truncated: Range[];
  /** Values of long double-quoted strings resolved ahead of yaml, by the offset of their opening quote. */
  resolvedStrings: Map<number, string>;
  tagStarts: number[];
  tagEnds: number[];
}

type Holder = { value?: CST.Token | null; key?: CST.Token | null };

/**
 * yaml resolves double-quoted strings one character at a time (about 100 ms per megabyte).
 * A long one that is also a valid JSON string literal means the same in JSON and in YAML
 * (JSON's escapes are a subset of YAML's with the same meaning, and JSON allows no raw line
 * breaks, which YAML would fold), so JSON.parse resolves it natively. The token is then swapped
 * for a single-quoted placeholder of the same length, which yaml reads at once, and the tree
 * builder takes the real value from `resolvedStrings` by offset.
 */
const LONG_QUOTED_STRING = 4096;
const PLACEHOLDER_CHARACTER = 'x';

/** Replaces collections nested deeper than MAX_NESTING_DEPTH with empty scalars (in place), speeds up long quoted strings, and collects tag spans. */
export function prepareCst(tokens: CST.Token[]): CstFacts {
  const truncated: Range[] = [];
  const resolvedStrings = new Map<number, string>();
  const tags: Range[] = [];
  const stack: { holder: Holder; field: 'value' | 'key'; depth: number }[] = [];
  const noteTags = (sourceTokens: readonly CST.Token[] | undefined): void => {
    if (!sourceTokens) return;
    for (const t of sourceTokens) {
      if (t.type === 'tag') tags.push({ start: t.offset, end: t.offset + t.source.length });
    }
  };

  for (const token of tokens) {
    if (token.type !== 'document') continue;
    noteTags(token.start);
    stack.push({ holder: token, field: 'value', depth: 1 });
    while (stack.length > 0) {
      const { holder, field, depth } = stack.pop()!;
      const node = holder[field];
      if (!node) continue;
      switch (node.type) {
        case 'double-quoted-scalar':
          if (node.source.length >= LONG_QUOTED_STRING) {
            const value = parseJsonString(node.source);
            if (value !== undefined) {
              resolvedStrings.set(node.offset, value);
              const placeholder = `'${PLACEHOLDER_CHARACTER.repeat(node.source.length - 2)}'`;
              holder[field] = { ...node, type: 'single-quoted-scalar', source: placeholder };
            }
          }
          break;
        case 'block-map':
        case 'block-seq':
        case 'flow-collection': {
          if (depth > MAX_NESTING_DEPTH) {
            truncated.push({ start: node.offset, end: endOfToken(node) });
            holder[field] = { type: 'scalar', offset: node.offset, indent: node.indent, source: '' };
            continue;
          }
          for (const item of node.items) {
            noteTags(item.start);
            noteTags(item.sep);
            stack.push({ holder: item, field: 'key', depth: depth + 1 });
            stack.push({ holder: item, field: 'value', depth: depth + 1 });
          }
          break;
        }
        case 'block-scalar':
          noteTags(node.props);
          break;
        default:
          break;
      }
    }
  }
  tags.sort((a, b) => a.start - b.start);
  return { truncated, resolvedStrings, tagStarts: tags.map((t) => t.start), tagEnds: tags.map((t) => t.end) };
}

/** The offset just past the last source character of a token, found without recursion. */
function endOfToken(root: CST.Token): number {
  let end = root.offset;
  const pending: CST.Token[] = [root];
  const see = (t: CST.Token | null | undefined): void => {
    if (t) pending.push(t);
  };
  while (pending.length > 0) {
    const t = pending.pop()!;
    if ('source' in t && typeof t.source === 'string') end = Math.max(end, t.offset + t.source.length);
    else end = Math.max(end, t.offset);
    switch (t.type) {
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        for (const item of t.items) {
          item.start.forEach(see);
          item.sep?.forEach(see);
          see(item.key);
          see(item.value);
        }
        if (t.type === 'flow-collection') t.end.forEach(see);
        break;
      case 'alias':
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        t.end?.forEach(see);
        break;
      default:
        break;
    }
  }
  return end;
}

/** The value of a JSON string literal, or undefined when the text is not exactly one. */
function parseJsonString(source: string): string | undefined {
  try {
    const value: unknown = JSON.parse(source);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
