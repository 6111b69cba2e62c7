/**
 * The template syntax tree: what the parser produces from JSON or YAML text.
 *
 * Every node carries the character offsets it came from, so that any finding can
 * point at the exact key or value. Offsets are UTF-16 code unit indexes into the
 * text that was parsed (the same unit LSP positions and JavaScript strings use).
 */

/** A half-open span of the source text: `[start, end)` in UTF-16 code units. */
export interface Range {
  start: number;
  end: number;
}

export type TemplateNode = MapNode | SeqNode | ScalarNode;

/**
 * A mapping. CloudFormation short forms (`!Ref X`, `!Sub ...`) are parsed into the
 * long form they stand for (`{ "Ref": "X" }`), with `shortForm` set so views can tell.
 */
export interface MapNode {
  kind: 'map';
  range: Range;
  entries: MapEntry[];
  /** The YAML tag this map was made from, e.g. `!GetAtt`; absent for plain maps. */
  shortForm?: string;
}

export interface MapEntry {
  key: string;
  keyRange: Range;
  value: TemplateNode;
}

export interface SeqNode {
  kind: 'seq';
  range: Range;
  items: TemplateNode[];
}

/** A scalar value as the YAML 1.2 core schema (or JSON) reads it. */
export interface ScalarNode {
  kind: 'scalar';
  range: Range;
  value: string | number | boolean | null;
}

/** A problem found while reading a template, with the span it concerns. */
export interface TemplateError {
  message: string;
  range: Range;
  /** Stable machine-readable code, e.g. `yaml-syntax`, `unknown-section`, `duplicate-key`. */
  code: string;
  severity: 'error' | 'warning';
}

/** The result of parsing one text: a tree when one could be built, and every problem seen. */
export interface ParsedTemplate {
  text: string;
  format: 'json' | 'yaml';
  root: TemplateNode | undefined;
  errors: TemplateError[];
}
