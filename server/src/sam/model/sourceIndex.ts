/**
 * The template's syntax tree as plain values for the transform, remembering which node each map
 * and list was read from, so that what the transform passes through unchanged keeps its exact
 * ranges in the expanded template (output.ts).
 */
import type { TemplateNode } from '../../template/ast';
import { setEntry } from '../../template/tree';
import type { PlainMap } from './values';
import { markIntegralFloat } from '../python/integralFloats';

/** A number scalar's text says float: a decimal point or an exponent. */
const FLOAT_TEXT = /[.eE]/;

/** Plain values read from a tree, each map and list remembered with its node. */
export class SourceIndex {
  private readonly nodes = new WeakMap<object, TemplateNode>();

  constructor(private readonly text: string) {}

  private markFloat(container: object, key: string | number, node: TemplateNode): void {
    if (node.kind !== 'scalar' || typeof node.value !== 'number' || !Number.isInteger(node.value)) return;
    if (!FLOAT_TEXT.test(this.text.slice(node.range.start, node.range.end))) return;
    markIntegralFloat(container, key);
  }

  /** The plain value of a node (short forms are long forms already), registering every map and list. */
  read(node: TemplateNode): unknown {
    switch (node.kind) {
      case 'scalar':
        return node.value;
      case 'seq': {
        const items = node.items.map((item) => this.read(item));
        node.items.forEach((item, i) => this.markFloat(items, i, item));
        this.nodes.set(items, node);
        return items;
      }
      case 'map': {
        const map: PlainMap = {};
        for (const entry of node.entries) {
          const value = this.read(entry.value);
          setEntry(map, entry.key, value);
          this.markFloat(map, entry.key, entry.value);
        }
        this.nodes.set(map, node);
        return map;
      }
    }
  }

  /** The node a map or list was read from, when it was read (not built) by the transform. */
  nodeOf(value: unknown): TemplateNode | undefined {
    return typeof value === 'object' && value !== null ? this.nodes.get(value) : undefined;
  }
}
