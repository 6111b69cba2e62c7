/**
 * parseTemplate: JSON or YAML text to a TemplateNode tree with source ranges.
 *
 * One parser (yaml, YAML 1.2 core schema) reads both formats, since JSON is YAML. Short forms
 * become the long form they stand for. Nothing here throws on user input: every problem is
 * returned as a TemplateError with a range.
 */
import { Composer, Parser, YAMLMap, YAMLSeq, isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { CollectionTag, Document, Node as YamlNode, Scalar, ScalarTag, YAMLError } from 'yaml';
import type { MapEntry, MapNode, ParsedTemplate, Range, ScalarNode, TemplateError, TemplateNode } from './ast';
import { parseAroundEntry } from './entryWindow';
import { parseJsonFast } from './fastJson';
import { parseYamlFast, type FastYamlDecline } from './fastYaml';
import { prepareCst, type CstFacts } from './prepareCst';
import { MAX_ALIAS_EXPANSION_NODES, MAX_NESTING_DEPTH } from './limits';
import { SHORT_FORM_KEYS } from './shortForms';

/**
 * Tag definitions that make yaml accept every short form on scalars, sequences and maps
 * without resolving them: the tree builder turns the tagged node into its long form.
 */
const CLOUDFORMATION_TAGS: (ScalarTag | CollectionTag)[] = [...SHORT_FORM_KEYS.keys()].flatMap((tag) => [
  { tag, resolve: (source: string) => source } satisfies ScalarTag,
  { tag, collection: 'seq', nodeClass: YAMLSeq } satisfies CollectionTag,
  { tag, collection: 'map', nodeClass: YAMLMap } satisfies CollectionTag,
]);

const RAIN_TAG_PREFIX = '!Rain::';

const COMPOSER_OPTIONS = {
  version: '1.2',
  schema: 'core',
  customTags: CLOUDFORMATION_TAGS,
  // Duplicate keys are reported by the tree builder, which keeps the last value as CloudFormation tooling does.
  uniqueKeys: false,
  prettyErrors: false,
  strict: true,
} as const;

/** Reads YAML text faster than the general path, or declines (undefined) so that the general path decides; `declined` is told where. */
export type FastYamlReader = (text: string, declined?: FastYamlDecline) => ParsedTemplate | undefined;

/** Reads strict JSON faster than the general path, or declines (undefined) so that the general path decides. */
export type FastJsonReader = (text: string) => ParsedTemplate | undefined;

/**
 * Parses a template's text (JSON or YAML) into a tree with ranges; never throws. `readFast` is
 * the fast path for YAML and `readJsonFast` the one for JSON, parameters so that tests can give one that fails.
 */
export function parseTemplate(text: string, readFast: FastYamlReader = parseYamlFast, readJsonFast: FastJsonReader = parseJsonFast): ParsedTemplate {
  // Most templates are read by a fast path, which declines whatever it is not sure of.
  let fast: ParsedTemplate | undefined;
  const declined: FastYamlDecline = {};
  try {
    if (looksLikeJson(text)) {
      fast = readJsonFast(text);
    } else {
      fast = readFast(text, declined);
      // One entry that does not parse (a key typed, before its colon) is read alone, the rest fast.
      if (fast === undefined && declined.lineStart !== undefined) fast = parseAroundEntry(text, declined.lineStart, readFast, parseWithYamlPackage);
    }
  } catch (error) {
    return withFastPathFault(parseWithYamlPackage(text), error);
  }
  return fast ?? parseWithYamlPackage(text);
}

/** The general path: every input through the `yaml` package (what the fast path must agree with). */
export function parseWithYamlPackage(text: string): ParsedTemplate {
  const format = looksLikeJson(text) ? 'json' : 'yaml';
  try {
    return parseUnguarded(text, format);
  } catch (error) {
    // The bounds above should make this unreachable; it stays so that no input can take the caller down.
    const reason = error instanceof Error ? error.message : String(error);
    return {
      text,
      format,
      root: undefined,
      errors: [
        {
          message: `The template could not be parsed: ${reason}`,
          range: { start: 0, end: text.length },
          code: 'parse-failure',
          severity: 'error',
        },
      ],
    };
  }
}

/**
 * The general path's result when the fast path threw instead of reading or declining. That is a
 * bug in the fast path: it must never be the reason a parse fails, so the user gets the general
 * path's tree, and the fault is reported as a warning with the `internal-error` code that the
 * test suites look for, so that tests fail on it instead of passing through the fallback.
 */
function withFastPathFault(general: ParsedTemplate, error: unknown): ParsedTemplate {
  const reason = error instanceof Error ? error.message : String(error);
  const fault: TemplateError = {
    message: `Internal error in the fast ${general.format === 'json' ? 'JSON' : 'YAML'} reader (${reason}); the template was read by the general YAML parser instead.`,
    range: { start: 0, end: 0 },
    code: 'internal-error',
    severity: 'warning',
  };
  return { ...general, errors: [fault, ...general.errors] };
}

/** Parser errors that mean the text is not well-formed YAML or JSON. */
const NOT_WELL_FORMED = new Set(['yaml-syntax', 'parse-failure']);

/** Whether a problem (a template error, or a diagnostic made from one) says that the text is not well-formed YAML or JSON. */
export function isSyntaxError(problem: { severity: string; code?: unknown }): boolean {
  return problem.severity === 'error' && typeof problem.code === 'string' && NOT_WELL_FORMED.has(problem.code);
}

/** Whether the text parsed as YAML or JSON without a syntax error (CloudFormation reads nothing else of a text that did not). */
export function isWellFormed(parsed: ParsedTemplate): boolean {
  return !parsed.errors.some(isSyntaxError);
}

/** JSON when the first character that is not whitespace (or a byte-order mark) opens an object or array. */
function looksLikeJson(text: string): boolean {
  for (const character of text) {
    if (character === '{' || character === '[') return true;
    if (!/[\s\uFEFF]/.test(character)) return false;
  }
  return false;
}

function parseUnguarded(text: string, format: 'json' | 'yaml'): ParsedTemplate {
  const tokens = [...new Parser().parse(text)];
  const facts = prepareCst(tokens);
  const composer = new Composer(COMPOSER_OPTIONS);
  const documents = [...composer.compose(tokens, true, text.length)] as Document.Parsed[];

  const errors: TemplateError[] = [];
  for (const range of facts.truncated) {
    errors.push({
      message: `Collections nest deeper than ${MAX_NESTING_DEPTH} levels here; the rest of this value was not read.`,
      range,
      code: 'nesting-too-deep',
      severity: 'error',
    });
  }
  for (const document of documents) {
    for (const e of document.errors) errors.push(fromYamlError(e, 'error', text.length));
    for (const w of document.warnings) {
      // Unknown local tags are reported by the tree builder with a clearer message.
      if (w.code === 'TAG_RESOLVE_FAILED' && w.message.startsWith('Unresolved tag: !')) continue;
      errors.push(fromYamlError(w, 'warning', text.length));
    }
  }
  if (documents.length > 1) {
    const second = documents[1]!;
    const start = second.range?.[0] ?? 0;
    errors.push({
      message: `A template is a single YAML document, but this text holds ${documents.length}; only the first is read.`,
      range: { start, end: Math.max(start, second.range?.[1] ?? start) },
      code: 'multiple-documents',
      severity: 'error',
    });
  }

  const first = documents[0];
  const contents = first?.contents;
  const builder = new TreeBuilder(text, facts, errors);
  const root = contents === null || contents === undefined ? undefined : builder.build(contents as YamlNode);
  // Problems are found in several passes; consumers get them in text order.
  errors.sort((a, b) => a.range.start - b.range.start);
  return { text, format, root, errors };
}

function fromYamlError(error: YAMLError, severity: 'error' | 'warning', length: number): TemplateError {
  const start = Math.min(Math.max(0, error.pos[0]), length);
  const end = Math.min(Math.max(start, error.pos[1]), length);
  return { message: error.message, range: { start, end }, code: severity === 'error' ? 'yaml-syntax' : 'yaml-warning', severity };
}

/** Turns yaml's composed nodes into TemplateNodes: short forms, aliases, duplicate keys and limits. */
class TreeBuilder {
  private readonly anchors = new Map<string, TemplateNode>();
  private aliasBudget = MAX_ALIAS_EXPANSION_NODES;
  private aliasLimitReported = false;

  constructor(
    private readonly text: string,
    private readonly facts: CstFacts,
    private readonly errors: TemplateError[],
  ) {}

  build(node: YamlNode): TemplateNode {
    return this.convert(node, 1, { start: 0, end: 0 });
  }

  private convert(node: unknown, depth: number, fallback: Range): TemplateNode {
    if (node === null || node === undefined) return { kind: 'scalar', range: fallback, value: null };
    // The CST pass already cut deeper collections; this guard keeps the builder's own recursion bounded regardless.
    if (depth > MAX_NESTING_DEPTH && (isMap(node) || isSeq(node))) {
      const range = rangeOf(node as YamlNode, fallback);
      this.error('nesting-too-deep', `Collections nest deeper than ${MAX_NESTING_DEPTH} levels here; the rest of this value was not read.`, range);
      return { kind: 'scalar', range, value: null };
    }
    if (isAlias(node)) return this.expandAlias(node.source, rangeOf(node, fallback), depth);

    let converted: TemplateNode;
    const range = rangeOf(node as YamlNode, fallback);
    if (isScalar(node)) {
      converted = { kind: 'scalar', range, value: this.scalarValue(node) };
    } else if (isMap(node)) {
      converted = this.convertMap(node.items, range, depth);
    } else if (isSeq(node)) {
      converted = {
        kind: 'seq',
        range,
        items: node.items.map((item) => (isPair(item) ? this.convertMap([item], rangeOf(item.key as YamlNode, range), depth + 1) : this.convert(item, depth + 1, range))),
      };
    } else {
      converted = { kind: 'scalar', range, value: null };
    }

    const tag = (node as YamlNode).tag;
    if (tag !== undefined) converted = this.applyTag(tag, converted);
    const anchor = (node as YamlNode).anchor;
    // Registering the anchor only once its node is complete makes a self-referencing alias an unknown alias instead of a cycle.
    if (anchor) this.anchors.set(anchor, converted);
    return converted;
  }

  private convertMap(pairs: readonly unknown[], range: Range, depth: number): MapNode {
    const entries: MapEntry[] = [];
    const indexByKey = new Map<string, number>();
    for (const pair of pairs) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      const valueNode = pair.value as YamlNode | null;
      const valueRangeHint = valueNode ? rangeOf(valueNode, range) : undefined;
      const keyRange = keyNode ? rangeOf(keyNode, range) : { start: valueRangeHint?.start ?? range.start, end: valueRangeHint?.start ?? range.start };
      const key = this.keyText(keyNode, keyRange, depth);
      const value = this.convert(valueNode, depth + 1, { start: keyRange.end, end: keyRange.end });
      const entry: MapEntry = { key, keyRange, value };
      const earlier = indexByKey.get(key);
      if (earlier === undefined) {
        indexByKey.set(key, entries.length);
        entries.push(entry);
      } else {
        this.error('duplicate-key', `Duplicate key '${key}': CloudFormation rejects templates with duplicate keys (the last value is used here).`, keyRange);
        entries[earlier] = entry;
      }
    }
    return { kind: 'map', range, entries };
  }

  /** Keys are strings: a plain scalar that the core schema reads as another type keeps its source text. */
  private keyText(keyNode: YamlNode | null, keyRange: Range, depth: number): string {
    if (keyNode === null) return '';
    if (isScalar(keyNode)) {
      const value = this.scalarValue(keyNode);
      return typeof value === 'string' ? value : this.text.slice(keyRange.start, keyRange.end);
    }
    if (isAlias(keyNode)) {
      const target = this.expandAlias(keyNode.source, keyRange, depth);
      if (target.kind === 'scalar') return target.value === null ? '' : String(target.value);
    }
    return this.text.slice(keyRange.start, keyRange.end);
  }

  private scalarValue(node: Scalar): string | number | boolean | null {
    const value = scalarValue(node.value);
    // Long JSON-compatible strings were resolved before composition (see prepareCst).
    return typeof value === 'string' && node.range ? (this.facts.resolvedStrings.get(node.range[0]) ?? value) : value;
  }

  private applyTag(tag: string, node: TemplateNode): TemplateNode {
    let longForm = SHORT_FORM_KEYS.get(tag);
    if (longForm === undefined && tag.startsWith(RAIN_TAG_PREFIX)) {
      // Rain (aws-cloudformation/rain) reads `!Rain::Embed x` as `{"Rain::Embed": x}` and expands it before deploying.
      longForm = tag.slice(1);
      this.errors.push({
        message: `${tag} is expanded by \`rain pkg\` before deployment; CloudFormation itself does not accept it.`,
        range: this.tagRange(node.range.start),
        code: 'preprocessor-tag',
        severity: 'warning',
      });
    }
    if (longForm === undefined) {
      // `!` alone is YAML's non-specific tag (a plain string); `!!x` tags are yaml's own.
      if (tag !== '!' && tag.startsWith('!') && !tag.startsWith('!!')) {
        this.error('unknown-tag', `Unknown tag ${tag}: CloudFormation understands only its intrinsic function short forms (such as !Ref and !Sub).`, this.tagRange(node.range.start));
      }
      return node;
    }
    const keyRange = this.tagRange(node.range.start);
    const value = tag === '!GetAtt' && node.kind === 'scalar' && typeof node.value === 'string' ? this.splitGetAtt(node as ScalarNode & { value: string }) : node;
    return {
      kind: 'map',
      range: { start: keyRange.start, end: Math.max(keyRange.end, node.range.end) },
      entries: [{ key: longForm, keyRange, value }],
      shortForm: tag,
    };
  }

  /** `!GetAtt A.B.C` means `Fn::GetAtt: [A, B.C]`: the logical id ends at the first dot. */
  private splitGetAtt(node: ScalarNode & { value: string }): TemplateNode {
    const dot = node.value.indexOf('.');
    if (dot < 0) return node;
    const { start, end } = node.range;
    const source = this.text.slice(start, end);
    // Exact sub-ranges exist when the value is written as is (plain) or just quoted without escapes.
    const offset = source === node.value ? start : source.slice(1, -1) === node.value ? start + 1 : undefined;
    const idRange = offset === undefined ? node.range : { start: offset, end: offset + dot };
    const attributeRange = offset === undefined ? node.range : { start: offset + dot + 1, end: offset + node.value.length };
    return {
      kind: 'seq',
      range: node.range,
      items: [
        { kind: 'scalar', range: idRange, value: node.value.slice(0, dot) },
        { kind: 'scalar', range: attributeRange, value: node.value.slice(dot + 1) },
      ],
    };
  }

  /** The span of the tag token that precedes a node starting at `nodeStart`. */
  private tagRange(nodeStart: number): Range {
    const starts = this.facts.tagStarts;
    let low = 0;
    let high = starts.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (starts[mid]! <= nodeStart) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found < 0 ? { start: nodeStart, end: nodeStart } : { start: starts[found]!, end: this.facts.tagEnds[found]! };
  }

  private expandAlias(name: string, range: Range, depth: number): TemplateNode {
    const target = this.anchors.get(name);
    if (target === undefined) {
      this.error('unknown-alias', `The alias *${name} refers to no anchor defined before it.`, range);
      return { kind: 'scalar', range, value: null };
    }
    const copy = this.copyWithinBudget(target, depth);
    if (copy === undefined) {
      if (!this.aliasLimitReported) {
        this.aliasLimitReported = true;
        this.error('alias-limit', `Aliases expand to more than ${MAX_ALIAS_EXPANSION_NODES} nodes; the expansion stops here.`, range);
      }
      return { kind: 'scalar', range, value: null };
    }
    // The copy is located at the alias; the nodes inside it keep pointing at the anchored text.
    return { ...copy, range };
  }

  /** A deep copy of an anchored node, or undefined when the alias budget or nesting bound runs out. */
  private copyWithinBudget(node: TemplateNode, depth: number): TemplateNode | undefined {
    if (--this.aliasBudget < 0) return undefined;
    if (depth > MAX_NESTING_DEPTH) {
      this.error('nesting-too-deep', `Aliases nest values deeper than ${MAX_NESTING_DEPTH} levels here; the rest of this value was not read.`, node.range);
      return { kind: 'scalar', range: node.range, value: null };
    }
    switch (node.kind) {
      case 'scalar':
        return { ...node };
      case 'seq': {
        const items: TemplateNode[] = [];
        for (const item of node.items) {
          const copy = this.copyWithinBudget(item, depth + 1);
          if (copy === undefined) return undefined;
          items.push(copy);
        }
        return { kind: 'seq', range: node.range, items };
      }
      case 'map': {
        const entries: MapEntry[] = [];
        // A short form's wrapper map is not a level the author wrote, so it does not count towards nesting.
        const childDepth = node.shortForm ? depth : depth + 1;
        for (const entry of node.entries) {
          const value = this.copyWithinBudget(entry.value, childDepth);
          if (value === undefined) return undefined;
          entries.push({ key: entry.key, keyRange: entry.keyRange, value });
        }
        return node.shortForm ? { kind: 'map', range: node.range, entries, shortForm: node.shortForm } : { kind: 'map', range: node.range, entries };
      }
    }
  }

  private error(code: string, message: string, range: Range): void {
    this.errors.push({ message, range, code, severity: 'error' });
  }
}

function rangeOf(node: YamlNode | null | undefined, fallback: Range): Range {
  const r = node?.range;
  return r ? { start: r[0], end: Math.max(r[0], r[1]) } : fallback;
}

function scalarValue(value: unknown): string | number | boolean | null {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
      return Number(value);
    default:
      return value === null || value === undefined ? null : String(value);
  }
}

