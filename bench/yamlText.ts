/**
 * Writes a template held as plain data (long-form intrinsics) as CloudFormation YAML the way
 * people write it by hand: block style, short forms (`!Ref`, `!GetAtt a.b`, `!Sub`), flow
 * sequences for short intrinsic argument lists. Also reads such YAML back into plain data with
 * a CloudFormation tag schema, which is how the peer tool gets its input.
 */
import { parse as parseYaml, type CollectionTag, type ScalarTag, YAMLMap, YAMLSeq } from 'yaml';

export type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

const SHORT_FORM_FUNCTIONS = [
  'And', 'Base64', 'Cidr', 'Equals', 'FindInMap', 'GetAZs', 'GetAtt', 'If', 'ImportValue', 'Join',
  'Not', 'Or', 'Select', 'Split', 'Sub',
];

/** The long-form key a single-key mapping uses when it is an intrinsic, and its short tag. */
function shortFormOf(value: Plain): { tag: string; argument: Plain } | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const key = keys[0];
  if (key === 'Ref' || key === 'Condition') return { tag: `!${key}`, argument: value[key] };
  if (key.startsWith('Fn::') && SHORT_FORM_FUNCTIONS.includes(key.slice(4))) {
    const argument = value[key];
    // `!GetAtt Resource.Attribute` is the form people type.
    if (key === 'Fn::GetAtt' && Array.isArray(argument) && argument.every((part) => typeof part === 'string')) {
      return { tag: '!GetAtt', argument: argument.join('.') };
    }
    return { tag: `!${key.slice(4)}`, argument };
  }
  return undefined;
}

const PLAIN_SAFE = /^[A-Za-z_/][A-Za-z0-9_./:-]*[A-Za-z0-9_./-]$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

function scalarText(value: string | number | boolean | null): string {
  if (value === null) return 'null';
  if (typeof value !== 'string') return String(value);
  if (PLAIN_SAFE.test(value) && !RESERVED.test(value)) return value;
  return `'${value.replace(/'/g, "''")}'`;
}

/** Whether a value fits on one line in flow style: scalars, and short intrinsics over scalars. */
function inlineText(value: Plain): string | undefined {
  if (typeof value === 'string' && value.includes('\n')) return undefined;
  if (value === null || typeof value !== 'object') return scalarText(value);
  const short = shortFormOf(value);
  if (short) {
    const argument = inlineText(short.argument);
    return argument === undefined ? undefined : `${short.tag} ${argument}`;
  }
  if (Array.isArray(value)) {
    if (value.length > 6) return undefined;
    const parts = value.map(inlineText);
    if (parts.some((part) => part === undefined)) return undefined;
    const text = `[${parts.join(', ')}]`;
    return text.length <= 100 ? text : undefined;
  }
  return undefined;
}

/** The YAML text of a template. */
export function toYaml(template: { [key: string]: Plain }): string {
  const lines: string[] = [];
  writeMapping(template, 0, lines);
  return lines.join('\n') + '\n';
}

function writeMapping(map: { [key: string]: Plain }, indent: number, lines: string[]): void {
  const pad = ' '.repeat(indent);
  for (const [key, value] of Object.entries(map)) writeEntry(`${pad}${scalarText(key)}:`, value, indent, lines);
}

/** Writes `head value` where head is `key:` or `-`; nested content indents under `indent`. */
function writeEntry(head: string, value: Plain, indent: number, lines: string[]): void {
  const short = shortFormOf(value);
  const literal = typeof value === 'string' ? value : short && typeof short.argument === 'string' ? short.argument : undefined;
  if (literal !== undefined && literal.includes('\n')) {
    // Multi-line strings (user data, inline code) as literal blocks, as people write them.
    lines.push(`${head} ${short ? `${short.tag} ` : ''}|`);
    for (const line of literal.replace(/\n$/, '').split('\n')) lines.push(`${' '.repeat(indent + 2)}${line}`);
    return;
  }
  const isMapping = value !== null && typeof value === 'object' && !Array.isArray(value) && !short;
  const inline = isMapping ? undefined : inlineText(value);
  if (inline !== undefined) {
    lines.push(`${head} ${inline}`);
    return;
  }
  if (short && shortFormOf(short.argument)) {
    // A tag cannot tag a tagged node (`!Base64 !Sub |` is not YAML): the outer function takes its long form.
    lines.push(head);
    writeMapping(value as { [key: string]: Plain }, indent + 2, lines);
    return;
  }
  if (short) {
    lines.push(`${head} ${short.tag}`);
    writeBlock(short.argument, indent + 2, lines);
    return;
  }
  if (isMapping && Object.keys(value).length === 0) {
    lines.push(`${head} {}`);
    return;
  }
  lines.push(head);
  writeBlock(value, indent + 2, lines);
}

function writeBlock(value: Plain, indent: number, lines: string[]): void {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === 'object' && !Array.isArray(item) && !shortFormOf(item)) {
        // A mapping inside a sequence: first key on the dash line, the rest aligned under it.
        const entries = Object.entries(item);
        const inner: string[] = [];
        writeMapping(Object.fromEntries(entries), indent + 2, inner);
        inner[0] = `${pad}- ${inner[0].slice(indent + 2)}`;
        lines.push(...inner);
      } else {
        writeEntry(`${pad}-`, item, indent, lines);
      }
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    writeMapping(value, indent, lines);
    return;
  }
  lines.push(`${pad}${scalarText(value)}`);
}

/** Tags that turn each short form back into its long form, as CloudFormation reads them. */
const CLOUDFORMATION_SCHEMA: (ScalarTag | CollectionTag)[] = ['Ref', 'Condition', ...SHORT_FORM_FUNCTIONS].flatMap((name) => {
  const key = name === 'Ref' || name === 'Condition' ? name : `Fn::${name}`;
  const wrap = (argument: unknown) => ({ [key]: name === 'GetAtt' && typeof argument === 'string' ? splitGetAtt(argument) : argument });
  return [
    { tag: `!${name}`, resolve: (source: string) => wrap(source) as unknown as string } as ScalarTag,
    { tag: `!${name}`, collection: 'seq', nodeClass: YAMLSeq, resolve: (seq: YAMLSeq) => wrap(seq.toJSON()) } as unknown as CollectionTag,
    { tag: `!${name}`, collection: 'map', nodeClass: YAMLMap, resolve: (map: YAMLMap) => wrap(map.toJSON()) } as unknown as CollectionTag,
  ];
});

function splitGetAtt(text: string): string[] {
  const dot = text.indexOf('.');
  return dot < 0 ? [text] : [text.slice(0, dot), text.slice(dot + 1)];
}

/** Reads CloudFormation YAML into plain data with long-form intrinsics (what `cdk diff` is given). */
export function parseCloudFormationYaml(text: string): { [key: string]: Plain } {
  return parseYaml(text, { customTags: CLOUDFORMATION_SCHEMA, maxAliasCount: 100 }) as { [key: string]: Plain };
}
