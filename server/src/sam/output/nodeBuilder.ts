/**
 * Plain values back into syntax-tree nodes for the expanded template. A map or list the transform
 * passed through unchanged is its original node, with its ranges; anything the transform built
 * takes the range of the SAM property (or resource) it came from, keeping the ranges of the parts
 * it copied from the template wherever their key and value still match.
 */
import type { MapEntry, MapNode, Range, TemplateNode } from '../../template/ast';
import type { SourceIndex } from '../model/sourceIndex';
import { isMap } from '../model/values';

/** Builds nodes for plain values, reusing the nodes of values read from the template and left as read. */
export class NodeBuilder {
  /** `built` holds nodes built before for values that have not changed since, each taken again where it stands at the same range. */
  constructor(
    private readonly index: SourceIndex,
    private readonly built?: ReadonlyMap<object, TemplateNode>,
  ) {}

  /** The node for `value`, ranged at `range` where nothing better is known; `hint` is the node it was made from, if any. */
  build(value: unknown, range: Range, hint?: TemplateNode): TemplateNode {
    if (typeof value === 'object' && value !== null) {
      const own = this.index.nodeOf(value);
      if (own !== undefined) {
        // Checked rather than trusted: a value edited in place must not keep its old node.
        if (matchesNode(value, own)) return own;
        hint = own;
      }
      const before = hint === undefined ? this.built?.get(value) : undefined;
      if (before !== undefined && before.range.start === range.start && before.range.end === range.end) return before;
    }
    if (Array.isArray(value)) {
      const hintItems = hint?.kind === 'seq' ? hint.items : undefined;
      return {
        kind: 'seq',
        range: hint?.range ?? range,
        items: value.map((item, i) => {
          const itemHint = hintItems?.[i];
          return this.build(item, itemHint?.range ?? range, itemHint);
        }),
      };
    }
    if (isMap(value)) {
      const hintEntries = hint?.kind === 'map' ? hint.entries : undefined;
      const entries: MapEntry[] = [];
      let i = 0;
      for (const key of Object.keys(value)) {
        // Keys mostly keep their order, so the entry at the same place is tried first.
        const hintEntry = hintEntries === undefined ? undefined : hintEntries[i]?.key === key ? hintEntries[i] : hintEntries.find((e) => e.key === key);
        i++;
        const childRange = hintEntry?.value.range ?? range;
        entries.push({ key, keyRange: hintEntry?.keyRange ?? range, value: this.build(value[key], childRange, hintEntry?.value) });
      }
      const node: MapNode = { kind: 'map', range: hint?.range ?? range, entries };
      if (hint?.kind === 'map' && hint.shortForm !== undefined && entries.length === 1 && hint.entries[0]?.key === entries[0]!.key) node.shortForm = hint.shortForm;
      return node;
    }
    const scalar = value === undefined ? null : (value as string | number | boolean | null);
    const scalarRange = hint !== undefined && hint.kind === 'scalar' && hint.value === scalar ? hint.range : range;
    return { kind: 'scalar', range: scalarRange, value: scalar };
  }
}

/** Whether a plain value is exactly what a node holds (keys in the same order, scalars identical). */
function matchesNode(value: unknown, node: TemplateNode): boolean {
  if (node.kind === 'scalar') return value === node.value;
  if (node.kind === 'seq') return Array.isArray(value) && value.length === node.items.length && node.items.every((item, i) => matchesNode(value[i], item));
  if (!isMap(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== node.entries.length) return false;
  return node.entries.every((entry, i) => keys[i] === entry.key && matchesNode(value[entry.key], entry.value));
}
