/**
 * The template module: parsing JSON/YAML into a tree with ranges, the structural model,
 * and pure helpers over the tree.
 */
export type { MapEntry, MapNode, ParsedTemplate, Range, ScalarNode, SeqNode, TemplateError, TemplateNode } from './ast';
export type { OutputDecl, ParameterDecl, ResourceDecl, TemplateModel } from './model';
export { isSyntaxError, isWellFormed, parseTemplate } from './parse';
export { LANGUAGE_EXTENSIONS_TRANSFORM, readTemplateModel, SERVERLESS_TRANSFORM, SERVERLESS_TYPE_PREFIX } from './readModel';
export { LineIndex, type LinePosition } from './lineIndex';
export { nodeAtPath, pathAtOffset, pointerSegments, samePlainValue, toPlain, type OffsetLocation } from './tree';
export { MAX_ALIAS_EXPANSION_NODES, MAX_NESTING_DEPTH } from './limits';
export { SHORT_FORM_KEYS } from './shortForms';
export { mayBeTemplate } from './markers';
export { isTemplateText } from './recognize';
