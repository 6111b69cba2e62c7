/**
 * Pure helpers over the TemplateNode tree: plain values, paths and offsets.
 */
import type { TemplateNode } from './ast';

/** The plain JavaScript value of a node, in long form (short forms are already long form in the tree). */
export function toPlain(node: TemplateNode): unknown {
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(toPlain);
    case 'map': {
      const result: Record<string, unknown> = {};
      for (const entry of node.entries) setEntry(result, entry.key, toPlain(entry.value));
      return result;
    }
  }
}

/**
 * `target[key] = value` for a key a template wrote: assigning `__proto__` would change the
 * object's prototype instead of adding the key, so that key is defined as an own property.
 */
export function setEntry<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Whether two nodes hold the same plain value, as `toPlain` gives it: ranges, map key order and
 * short or long form do not count, a repeated key counts with its last value, and scalars are
 * compared with `Object.is` (so `NaN` equals itself and `0` differs from `-0`).
 */
export function samePlainValue(a: TemplateNode, b: TemplateNode): boolean {
  if (a.kind === 'scalar') return b.kind === 'scalar' && Object.is(a.value, b.value);
  if (a.kind === 'seq') return b.kind === 'seq' && a.items.length === b.items.length && a.items.every((item, i) => samePlainValue(item, b.items[i]!));
  if (b.kind !== 'map') return false;
  const valuesOfA = new Map(a.entries.map((entry) => [entry.key, entry.value]));
  const valuesOfB = new Map(b.entries.map((entry) => [entry.key, entry.value]));
  if (valuesOfA.size !== valuesOfB.size) return false;
  for (const [key, value] of valuesOfA) {
    const other = valuesOfB.get(key);
    if (other === undefined || !samePlainValue(value, other)) return false;
  }
  return true;
}

/** The node reached by following map keys (strings) and sequence indexes (numbers), or undefined. */
export function nodeAtPath(node: TemplateNode, path: readonly (string | number)[]): TemplateNode | undefined {
  let current: TemplateNode | undefined = node;
  for (const segment of path) {
    if (current === undefined) return undefined;
    if (typeof segment === 'string') {
      current = current.kind === 'map' ? current.entries.find((e) => e.key === segment)?.value : undefined;
    } else {
      current = current.kind === 'seq' ? current.items[segment] : undefined;
    }
  }
  return current;
}

/** Where an offset falls in the tree. */
export interface OffsetLocation {
  /** Keys and indexes from the root to `node`. */
  path: (string | number)[];
  /** The deepest node whose range contains the offset (for a key, the value under that key). */
  node: TemplateNode;
  /** Whether the offset is on a map key (the last path segment) rather than inside the value. */
  onKey: boolean;
}

/** The deepest node containing `offset` (ranges are half-open), with its path and whether the offset is on a key. */
export function pathAtOffset(root: TemplateNode, offset: number): OffsetLocation | undefined {
  if (!contains(root.range, offset)) return undefined;
  const path: (string | number)[] = [];
  let node = root;
  for (;;) {
    let next: TemplateNode | undefined;
    if (node.kind === 'map') {
      for (const entry of node.entries) {
        if (contains(entry.keyRange, offset)) return { path: [...path, entry.key], node: entry.value, onKey: true };
        if (contains(entry.value.range, offset)) {
          path.push(entry.key);
          next = entry.value;
          break;
        }
      }
    } else if (node.kind === 'seq') {
      for (let i = 0; i < node.items.length; i++) {
        if (contains(node.items[i]!.range, offset)) {
          path.push(i);
          next = node.items[i];
          break;
        }
      }
    }
    if (next === undefined) return { path, node, onKey: false };
    node = next;
  }
}

function contains(range: { start: number; end: number }, offset: number): boolean {
  return range.start <= offset && offset < range.end;
}

/** The segments of a JSON pointer (RFC 6901: `~1` is `/`, `~0` is `~`); none for a text that is not one. */
export function pointerSegments(pointer: string): string[] {
  if (!pointer.startsWith('/')) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
