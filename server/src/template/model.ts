/**
 * The structural view of a CloudFormation template: its sections and resources,
 * read from the syntax tree without evaluating anything.
 */
import type { MapNode, ParsedTemplate, Range, TemplateError, TemplateNode } from './ast';

export interface ParameterDecl {
  name: string;
  /** Range of the parameter's key in the Parameters section. */
  keyRange: Range;
  node: MapNode;
  type: string | undefined;
  default: TemplateNode | undefined;
  noEcho: boolean;
}

export interface ResourceDecl {
  logicalId: string;
  keyRange: Range;
  /** The whole resource entry value (the map holding Type, Properties, ...). */
  node: MapNode;
  type: string | undefined;
  typeRange: Range | undefined;
  properties: TemplateNode | undefined;
  metadata: TemplateNode | undefined;
  /** The resource's `Condition` name, if any. */
  condition: string | undefined;
  conditionRange: Range | undefined;
  dependsOn: { name: string; range: Range }[];
  /** DeletionPolicy, UpdateReplacePolicy, CreationPolicy, UpdatePolicy, Version: kept for views; they never trigger an update by themselves. */
  attributes: Record<string, TemplateNode>;
}

export interface OutputDecl {
  name: string;
  keyRange: Range;
  node: MapNode;
  condition: string | undefined;
}

/** A template's sections, keyed by name, each with the node it came from. */
export interface TemplateModel {
  parsed: ParsedTemplate;
  /** The root map, when the document is a map. */
  root: MapNode | undefined;
  formatVersion: TemplateNode | undefined;
  description: TemplateNode | undefined;
  /** Transform names declared at top level (`Transform: X` or a list of them). */
  transforms: { name: string; range: Range }[];
  parameters: Map<string, ParameterDecl>;
  mappings: MapNode | undefined;
  conditions: Map<string, { name: string; keyRange: Range; node: TemplateNode }>;
  resources: Map<string, ResourceDecl>;
  outputs: Map<string, OutputDecl>;
  /** Whether the content looks like a CloudFormation template (by content, never by file name). */
  isCloudFormation: boolean;
  /** Structural problems (and the parser's own), each with a range. */
  errors: TemplateError[];
}
