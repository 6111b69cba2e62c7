/**
 * The local artifact paths a SAM template names as written (`CodeUri: hello_world/`), for the
 * caller to look for beside the template: the engine reads no file, and only the caller can find
 * a path with nothing there, which the transform then notes as missing (s3Location.ts).
 */
import { parseTemplate, readTemplateModel } from '../template';
import type { TemplateNode } from '../template/ast';
import { SHORT_FORM_KEYS } from '../template/shortForms';
import { SERVERLESS_TRANSFORM } from '../template/readModel';
import { isLocalPath } from './model/s3Location';

/** The property of each SAM type that names an artifact `sam deploy` uploads. */
const ARTIFACT_PROPERTY: Readonly<Record<string, string>> = {
  'AWS::Serverless::Function': 'CodeUri',
  'AWS::Serverless::LayerVersion': 'ContentUri',
  'AWS::Serverless::StateMachine': 'DefinitionUri',
  'AWS::Serverless::Api': 'DefinitionUri',
  'AWS::Serverless::HttpApi': 'DefinitionUri',
};
const ARTIFACT_PROPERTIES = new Set(Object.values(ARTIFACT_PROPERTY));
/** A text that names none of these properties names no artifact: it is not parsed. */
const MAY_NAME_ARTIFACT = /CodeUri|ContentUri|DefinitionUri/;

/** The literal local paths a SAM template's resources and Globals name, each once, in template order; none for any other text. */
export function localArtifactPaths(text: string): string[] {
  if (!text.includes(SERVERLESS_TRANSFORM) || !MAY_NAME_ARTIFACT.test(text)) return [];
  const model = readTemplateModel(parseTemplate(text));
  const paths = new Set<string>();
  const add = (node: TemplateNode | undefined) => {
    if (node?.kind === 'scalar' && typeof node.value === 'string' && node.value !== '' && isLocalPath(node.value)) paths.add(node.value);
  };
  const globals = model.root?.entries.find((e) => e.key === 'Globals')?.value;
  if (globals?.kind === 'map') {
    for (const section of globals.entries) {
      if (section.value.kind !== 'map') continue;
      for (const entry of section.value.entries) if (ARTIFACT_PROPERTIES.has(entry.key)) add(entry.value);
    }
  }
  for (const decl of model.resources.values()) {
    const property = decl.type === undefined ? undefined : ARTIFACT_PROPERTY[decl.type];
    if (property === undefined || decl.properties?.kind !== 'map') continue;
    add(decl.properties.entries.find((e) => e.key === property)?.value);
  }
  return [...paths];
}

/** Where an artifact property's name stands in a text. */
const ARTIFACT_WORD = /CodeUri|ContentUri|DefinitionUri/g;
/** A line that starts a mapping key (`Bucket: x`, `"Key": "y"`): the value above it is a map. */
const MAPPING_KEY_LINE = /^[ \t]*(["']?)[\w.-]+\1[ \t]*:(?:[ \t]|$)/;

/** How many characters of a line are read: a longer value or line is the parse's (so that a text on one line stays linear). */
const MAX_VALUE_LENGTH = 4096;

/** A line below a key: its text (none when it is longer than is read), and where the one after it starts. */
interface LineBelow {
  line: string | undefined;
  next: number;
}

/** The line of `text` that starts at `from` (after a line break), read no further than is read of a line. */
function lineAt(text: string, from: number): LineBelow | undefined {
  if (from >= text.length) return undefined;
  const head = text.slice(from, from + MAX_VALUE_LENGTH + 1);
  const end = head.indexOf('\n');
  if (end < 0 && head.length > MAX_VALUE_LENGTH) return { line: undefined, next: text.length };
  const line = end < 0 ? head : head.slice(0, end);
  return { line: line.replace(/\r$/, ''), next: from + line.length + 1 };
}

/** The columns a line is indented by. */
function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * What `localArtifactPaths` would find, read off the text without parsing it, or undefined when
 * the text is written so that only a parse can tell: a superset of it (a path written under one
 * of the properties anywhere, in Metadata too) whenever it answers. Each name of an artifact
 * property must stand as a key with its value on the line, a map below it, or in quotes; an
 * anchor, alias, block scalar, escaped string or a value on the next line is left to the parse.
 * The language server asks on every keystroke before the analysis (the parse costs ≈ 5 ms on a
 * 200-function template, on the thread that answers the editor).
 */
export function artifactPathCandidates(text: string): string[] | undefined {
  if (!text.includes(SERVERLESS_TRANSFORM) || !MAY_NAME_ARTIFACT.test(text)) return [];
  const found = new Set<string>();
  // The end of the line the last key stood on, and the line below it: keys on one line (minified JSON) share them.
  let lineEnd = -1;
  let next: LineBelow | undefined;
  for (const match of text.matchAll(ARTIFACT_WORD)) {
    const start = match.index;
    let at = start + match[0].length;
    const quote = text[start - 1];
    if ((quote === '"' || quote === "'") && text[at] === quote) at++;
    while (text[at] === ' ' || text[at] === '\t') at++;
    if (text[at] !== ':') return undefined;
    at++;
    while (text[at] === ' ' || text[at] === '\t') at++;
    if (at > lineEnd) {
      lineEnd = text.indexOf('\n', at);
      if (lineEnd < 0) lineEnd = text.length;
      next = lineAt(text, lineEnd + 1);
    }
    const cut = lineEnd - at > MAX_VALUE_LENGTH;
    const rest = text.slice(at, cut ? at + MAX_VALUE_LENGTH : lineEnd).replace(/\r$/, '');
    const first = rest[0];
    // Only a line or two below is looked at (so that the reading stays linear in the text):
    // anything more is left to the parse.
    const below = next?.line;
    if (next !== undefined && below === undefined) return undefined;
    if (rest === '' || first === '#') {
      // The value is below: a map (an S3 location) names no local path; anything else is the parse's.
      if (below === undefined || !MAPPING_KEY_LINE.test(below)) return undefined;
      continue;
    }
    if (first === '{' || first === '[') continue;
    if (first === '!') {
      // An intrinsic function's short form is no literal path; any other tag leaves a string a string.
      if (!SHORT_FORM_KEYS.has(/^\S+/.exec(rest)![0])) return undefined;
      continue;
    }
    if (first === '"' || first === "'") {
      const close = rest.indexOf(first, 1);
      const value = close < 0 ? undefined : rest.slice(1, close);
      if (value === undefined || (first === '"' && value.includes('\\')) || (first === "'" && rest[close + 1] === "'")) return undefined;
      found.add(value);
      continue;
    }
    if (cut || '*&|>%@`'.includes(first!)) return undefined;
    // A plain scalar ends at a comment; in a flow map, at the first indicator of one.
    const value = rest.replace(/[ \t]+#.*$/, '').trimEnd();
    found.add(value);
    const inFlow = /[,}\]]/.exec(value);
    if (inFlow) found.add(value.slice(0, inFlow.index).trimEnd());
    // A plain scalar goes on over lines indented deeper than its key's, over a blank line too; a
    // comment ends it. Two lines are looked at: more blank lines are the parse's.
    const indent = indentOf(text.slice(text.lastIndexOf('\n', start) + 1, start));
    const goesOn = (line: string | undefined) => line !== undefined && !/^[ \t]*#/.test(line) && indentOf(line) > indent;
    if (below !== undefined && /^[ \t]*$/.test(below)) {
      const after = lineAt(text, next!.next)?.line;
      if (after === undefined || /^[ \t]*$/.test(after) || goesOn(after)) return undefined;
    } else if (goesOn(below)) return undefined;
  }
  return [...found].filter((path) => path !== '' && isLocalPath(path));
}
