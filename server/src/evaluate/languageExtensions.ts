/**
 * The `AWS::LanguageExtensions` transform's `Fn::ForEach`, expanded on the syntax tree
 * before evaluation (its other functions, `Fn::Length`, `Fn::ToJsonString` and the
 * `DefaultValue` of `Fn::FindInMap`, need values and are evaluated by the evaluator).
 *
 * `Fn::ForEach::Name: [Identifier, Collection, {OutputKey: OutputValue}]` repeats the
 * fragment once per collection item: `${Identifier}` (and `&{Identifier}`, which keeps
 * only letters and digits) are replaced in the output keys, and `Ref: Identifier` and
 * `${Identifier}` inside `Fn::Sub` in the values. Expanded nodes keep the ranges of the
 * fragment they were copied from, which lies inside the `Fn::ForEach`, so every finding
 * about a generated resource points at the text that produced it.
 */
import type { MapEntry, MapNode, Range, ScalarNode, TemplateNode } from '../template/ast';
import type { ErrorSink } from './errors';
import { isSymbolic, type Value } from './value';

/** The sections where `Fn::ForEach` may appear (Resources includes everything inside a resource). */
const EXPANDED_SECTIONS = new Set(['Conditions', 'Resources', 'Outputs']);

/** How many entries all loops of one template may generate: nested loops multiply, and input may be hostile. */
export const MAX_FOR_EACH_ENTRIES = 20_000;

/**
 * How many syntax nodes all loops of one template may copy. A few entries can still explode
 * when each fragment is large (2,000 items times a 2,000-node fragment is four million nodes
 * from 40 KB of text); this bound is well above what CloudFormation's 1 MB template limit allows.
 */
export const MAX_FOR_EACH_NODES = 250_000;

const FOR_EACH_PREFIX = 'Fn::ForEach::';

type Bindings = ReadonlyMap<string, string>;

/** Evaluates a loop's collection (after outer loops' identifiers are substituted) to a value. */
export type CollectionEvaluator = (node: TemplateNode) => Value | undefined;

/** Whether a tree uses `Fn::ForEach` anywhere in the sections that allow it. */
export function usesForEach(root: MapNode): boolean {
  const stack: TemplateNode[] = root.entries.filter((e) => EXPANDED_SECTIONS.has(e.key)).map((e) => e.value);
  while (stack.length > 0) {
    const node = stack.pop()!;
    // Items are pushed one by one: spreading a list of half a million items overflows the call stack.
    if (node.kind === 'seq') for (const item of node.items) stack.push(item);
    else if (node.kind === 'map') {
      for (const e of node.entries) {
        if (e.key.startsWith(FOR_EACH_PREFIX)) return true;
        stack.push(e.value);
      }
    }
  }
  return false;
}

/**
 * What a loop over a value known only at deploy time generates: nothing (the evaluation compares
 * what it can, and says the loop's entries are not compared), or one entry with the identifier's
 * name in the item's place (for a transform listed after this one, such as SAM, to which a loop
 * that generates nothing would leave what it names missing).
 */
export type UnknownCollection = 'nothing' | 'stand-in';

/** The root with every `Fn::ForEach` of the Conditions, Resources and Outputs sections expanded. */
export function expandForEach(root: MapNode, evaluateCollection: CollectionEvaluator, sink: ErrorSink, unknownCollection: UnknownCollection = 'nothing'): MapNode {
  const expander = new ForEachExpander(evaluateCollection, sink, unknownCollection);
  const entries = root.entries.map((e) => (EXPANDED_SECTIONS.has(e.key) ? { ...e, value: expander.expand(e.value, new Map()) } : e));
  return { ...root, entries };
}

class ForEachExpander {
  private generated = 0;
  private generatedNodes = 0;
  private overflowReported = false;
  private readonly fragmentSizes = new WeakMap<MapNode, number>();

  constructor(
    private readonly evaluateCollection: CollectionEvaluator,
    private readonly sink: ErrorSink,
    private readonly unknownCollection: UnknownCollection,
  ) {}

  expand(node: TemplateNode, bindings: Bindings): TemplateNode {
    if (node.kind === 'scalar') return node;
    if (node.kind === 'seq') {
      const items = node.items.map((item) => this.expand(item, bindings));
      return items.every((item, i) => item === node.items[i]) ? node : { ...node, items };
    }
    if (node.entries.length === 1 && bindings.size > 0) {
      const { key, value } = node.entries[0];
      if (key === 'Ref' && value.kind === 'scalar' && typeof value.value === 'string' && bindings.has(value.value)) {
        const replaced: ScalarNode = { kind: 'scalar', range: node.range, value: bindings.get(value.value)! };
        return replaced;
      }
      if (key === 'Fn::Sub') return { ...node, entries: [{ ...node.entries[0], value: this.substituteSub(value, bindings) }] };
    }
    return this.expandMap(node, bindings);
  }

  private expandMap(node: MapNode, bindings: Bindings): MapNode {
    let changed = false;
    const entries: MapEntry[] = [];
    const seen = new Set<string>();
    const push = (entry: MapEntry): void => {
      if (seen.has(entry.key)) {
        this.sink.add(`Template format error: Fn::ForEach generates the key ${entry.key} more than once`, entry.keyRange, 'foreach-duplicate-key');
        return;
      }
      seen.add(entry.key);
      entries.push(entry);
    };
    for (const entry of node.entries) {
      if (entry.key.startsWith(FOR_EACH_PREFIX)) {
        changed = true;
        for (const generated of this.expandLoop(entry, bindings)) push(generated);
        continue;
      }
      const key = bindings.size > 0 ? substituteKey(entry.key, bindings) : entry.key;
      const value = this.expand(entry.value, bindings);
      if (key !== entry.key || value !== entry.value) changed = true;
      push(key === entry.key && value === entry.value ? entry : { ...entry, key, value });
    }
    return changed ? { ...node, entries } : node;
  }

  private expandLoop(entry: MapEntry, bindings: Bindings): MapEntry[] {
    const args = entry.value;
    const shape = `Template format error: ${entry.key} requires a list of an identifier, a collection and a fragment map`;
    if (args.kind !== 'seq' || args.items.length !== 3) {
      this.sink.add(shape, entry.keyRange, 'foreach-malformed');
      return [];
    }
    const [identifierNode, collectionNode, fragment] = args.items;
    if (identifierNode.kind !== 'scalar' || typeof identifierNode.value !== 'string' || identifierNode.value === '' || fragment.kind !== 'map') {
      this.sink.add(shape, entry.keyRange, 'foreach-malformed');
      return [];
    }
    const items = this.collectionItems(entry, this.expand(collectionNode, bindings), identifierNode.value);
    const out: MapEntry[] = [];
    const fragmentSize = this.sizeOf(fragment);
    for (const item of items) {
      const tooMany = this.generated + fragment.entries.length > MAX_FOR_EACH_ENTRIES;
      if (tooMany || this.generatedNodes + fragmentSize > MAX_FOR_EACH_NODES) {
        const message = tooMany
          ? `Template format error: Fn::ForEach generates more than ${MAX_FOR_EACH_ENTRIES} entries`
          : `Template format error: Fn::ForEach generates more than ${MAX_FOR_EACH_NODES} values`;
        if (!this.overflowReported) this.sink.add(message, entry.keyRange, 'foreach-too-large');
        this.overflowReported = true;
        break;
      }
      this.generated += fragment.entries.length;
      this.generatedNodes += fragmentSize;
      const inner = new Map(bindings);
      inner.set(identifierNode.value, item);
      const expanded = this.expandMap(fragment, inner);
      out.push(...expanded.entries);
    }
    return out;
  }

  /** How many nodes a fragment holds, counted once per fragment and without recursion. */
  private sizeOf(fragment: MapNode): number {
    const known = this.fragmentSizes.get(fragment);
    if (known !== undefined) return known;
    let size = 0;
    const stack: TemplateNode[] = [fragment];
    while (stack.length > 0) {
      const node = stack.pop()!;
      size++;
      if (node.kind === 'seq') for (const item of node.items) stack.push(item);
      else if (node.kind === 'map') for (const e of node.entries) stack.push(e.value);
    }
    this.fragmentSizes.set(fragment, size);
    return size;
  }

  private collectionItems(entry: MapEntry, collectionNode: TemplateNode, identifier: string): string[] {
    const value = this.evaluateCollection(collectionNode);
    if (Array.isArray(value)) {
      const items: string[] = [];
      for (const item of value) {
        if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') items.push(String(item));
        else {
          this.sink.add(`Template format error: the collection of ${entry.key} must be a list of strings`, collectionNode.range, 'foreach-collection');
          return [];
        }
      }
      return items;
    }
    if (value === undefined) return [];
    if (isSymbolic(value)) {
      // CloudFormation expands the loop with the value it will have (a parameter's current value,
      // say), which is not known here: the loop is valid, but what it generates cannot be compared
      // entry by entry.
      if (this.unknownCollection === 'stand-in') {
        this.sink.add(`${entry.key} iterates over a value known only at deploy time: its entries are compared as one, with "${identifier}" in each item's place`, collectionNode.range, 'foreach-deploy-time-collection', 'warning');
        return [identifier];
      }
      this.sink.add(`${entry.key} iterates over a value known only at deploy time: the entries it generates are not compared`, collectionNode.range, 'foreach-deploy-time-collection', 'warning');
      return [];
    }
    this.sink.add(`Template format error: the collection of ${entry.key} is not a list`, collectionNode.range, 'foreach-collection');
    return [];
  }

  /** Replaces bound identifiers in an `Fn::Sub` string, except where the variable map redefines them or `${!X}` escapes them. */
  private substituteSub(arg: TemplateNode, bindings: Bindings): TemplateNode {
    if (arg.kind === 'scalar') return typeof arg.value === 'string' ? { ...arg, value: substituteSubText(arg.value, bindings) } : arg;
    if (arg.kind !== 'seq' || arg.items.length === 0) return this.expand(arg, bindings);
    const [text, variables, ...rest] = arg.items;
    const expandedVariables = variables === undefined ? undefined : this.expand(variables, bindings);
    let visible = bindings;
    if (variables?.kind === 'map') {
      const shadowed = new Map(bindings);
      for (const e of variables.entries) shadowed.delete(e.key);
      visible = shadowed;
    }
    const newText = text.kind === 'scalar' && typeof text.value === 'string' ? { ...text, value: substituteSubText(text.value, visible) } : this.expand(text, bindings);
    return { ...arg, items: expandedVariables === undefined ? [newText, ...rest] : [newText, expandedVariables, ...rest] };
  }
}

function substituteKey(key: string, bindings: Bindings): string {
  return key.replace(/([$&])\{([^}]*)\}/g, (whole, sigil: string, name: string) => {
    const value = bindings.get(name.trim());
    if (value === undefined) return whole;
    return sigil === '&' ? value.replace(/[^A-Za-z0-9]/g, '') : value;
  });
}

function substituteSubText(text: string, bindings: Bindings): string {
  return text.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    if (name.startsWith('!')) return whole;
    const value = bindings.get(name.trim());
    return value === undefined ? whole : value;
  });
}

/**
 * The intrinsic functions the transform resolves to their values where it can (SAM's CLI, which
 * runs the transform locally, resolves the same): a `Ref` only to a parameter or a pseudo
 * parameter, the evaluator's answer for a resource being one only AWS knows.
 */
const RESOLVED_FUNCTIONS = new Set(['Ref', 'Fn::Sub', 'Fn::Join', 'Fn::Split', 'Fn::Select', 'Fn::If', 'Fn::FindInMap', 'Fn::Base64', 'Fn::Length', 'Fn::ToJsonString']);

/** The sections the transform resolves in, for the transform listed after it (SAM reads Globals). */
const RESOLVED_SECTIONS = new Set(['Resources', 'Globals', 'Outputs']);

/** Evaluates an intrinsic function's node in its section to a value; undefined when it has none (`AWS::NoValue`). */
export type IntrinsicEvaluator = (node: MapNode, section: string) => Value | undefined;

/**
 * The root with each intrinsic function whose value is known here replaced by that value, as the
 * transform leaves the template for the transform listed after it: a property SAM takes only as
 * a string (an event's `Path`, a `CodeUri`) may then be a `Fn::Sub` of a loop's identifier or of
 * a parameter. A function whose value is not known (a resource's attribute, a parameter with no
 * value at hand) stays as written, with what inside it is known resolved. Resolved nodes keep the
 * range of the function they stand for.
 */
export function resolveKnownIntrinsics(root: MapNode, evaluate: IntrinsicEvaluator): MapNode {
  const resolve = (node: TemplateNode, section: string, depth: number): TemplateNode => {
    // The parser caps nesting; this keeps a hostile tree bounded all the same.
    if (depth > 512 || node.kind === 'scalar') return node;
    if (node.kind === 'seq') {
      const items = node.items.map((item) => resolve(item, section, depth + 1));
      return items.every((item, i) => item === node.items[i]) ? node : { ...node, items };
    }
    if (node.entries.length === 1 && RESOLVED_FUNCTIONS.has(node.entries[0]!.key)) {
      const value = evaluate(node, section);
      if (value !== undefined && isKnown(value, 0)) return valueNode(value, node.range);
    }
    const entries = node.entries.map((e) => {
      const value = resolve(e.value, section, depth + 1);
      return value === e.value ? e : { ...e, value };
    });
    return entries.every((e, i) => e === node.entries[i]) ? node : { ...node, entries };
  };
  const entries = root.entries.map((e) => (RESOLVED_SECTIONS.has(e.key) ? { ...e, value: resolve(e.value, e.key, 0) } : e));
  return { ...root, entries };
}

/** Whether a value holds nothing only AWS knows. */
function isKnown(value: Value, depth: number): boolean {
  if (depth > 512 || isSymbolic(value)) return false;
  if (Array.isArray(value)) return value.every((item) => isKnown(item, depth + 1));
  if (value !== null && typeof value === 'object') return Object.values(value).every((item) => isKnown(item, depth + 1));
  return true;
}

/** A known value as a syntax node at `range`. */
function valueNode(value: Value, range: Range): TemplateNode {
  if (Array.isArray(value)) return { kind: 'seq', range, items: value.map((item) => valueNode(item, range)) };
  if (value !== null && typeof value === 'object') {
    return { kind: 'map', range, entries: Object.entries(value).map(([key, item]) => ({ key, keyRange: range, value: valueNode(item as Value, range) })) };
  }
  return { kind: 'scalar', range, value: value as string | number | boolean | null };
}
