/**
 * Finding where an evaluated value came from in the source, so findings point at text.
 */
import type { Range, TemplateNode } from '../template/ast';
import type { PathSegment } from './valueDiff';

/**
 * The deepest node along `path` that exists in the source tree. Evaluated paths can leave the
 * written tree (through `Fn::If`, `Fn::Sub`, a mapping, a parameter), so the walk stops at the
 * last node it can still follow: the expression that produced the value.
 */
export function deepestNodeAt(node: TemplateNode | undefined, path: readonly PathSegment[]): TemplateNode | undefined {
  let current = node;
  for (const segment of path) {
    if (!current) return undefined;
    if (current.kind === 'map' && typeof segment === 'string') {
      if (current.entries.length === 1 && /^(Fn::|Ref$|Condition$)/.test(current.entries[0].key)) return current;
      const entry = current.entries.find((e) => e.key === segment);
      if (!entry) return current;
      current = entry.value;
    } else if (current.kind === 'seq' && typeof segment === 'number') {
      const item = current.items[segment];
      if (!item) return current;
      current = item;
    } else {
      return current;
    }
  }
  return current;
}

/** The range of the key naming `name` in a map node, for pointing at a property name. */
export function keyRange(node: TemplateNode | undefined, name: string): Range | undefined {
  if (!node || node.kind !== 'map') return undefined;
  return node.entries.find((e) => e.key === name)?.keyRange;
}
