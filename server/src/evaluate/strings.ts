/**
 * Building strings from literal text and symbols: dynamic references
 * (`{{resolve:...}}`) inside literals, and concatenations with adjacent literals merged.
 */
import { Concatenation, UnknownValue, type Symbolic, type Value } from './value';

// A reference holds no braces; excluding them keeps the scan linear on hostile text full of unclosed openings.
const DYNAMIC_REFERENCE = /\{\{resolve:(ssm|ssm-secure|secretsmanager):[^{}]*\}\}/g;

const SERVICE_NAMES: Record<string, string> = {
  ssm: 'SSM parameter',
  'ssm-secure': 'SSM SecureString parameter',
  secretsmanager: 'Secrets Manager secret',
};

/** The unknown a dynamic reference like `{{resolve:ssm:/app/ami}}` stands for. */
export function dynamicReferenceValue(reference: string, service: string): UnknownValue {
  const target = reference.slice(`{{resolve:${service}:`.length, -2);
  return new UnknownValue('dynamic:' + reference, `${SERVICE_NAMES[service] ?? service} ${target}`, [], undefined, reference);
}

/**
 * A literal string as CloudFormation will see it: text containing dynamic references
 * becomes the unknown they stand for, or a concatenation when mixed with other text.
 */
export function literalString(text: string): string | Symbolic {
  if (!text.includes('{{resolve:')) return text;
  const parts: (string | Symbolic)[] = [];
  let last = 0;
  DYNAMIC_REFERENCE.lastIndex = 0;
  for (let m = DYNAMIC_REFERENCE.exec(text); m !== null; m = DYNAMIC_REFERENCE.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(dynamicReferenceValue(m[0], m[1]));
    last = m.index + m[0].length;
  }
  if (parts.length === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return parts.length === 1 ? parts[0] : new Concatenation(parts);
}

/**
 * Joins string parts and symbols into the simplest equivalent value: a plain string
 * when everything is known, the lone symbol when nothing else is there, otherwise a
 * concatenation with nested concatenations flattened and adjacent literals merged.
 * Literal text is scanned for dynamic references after merging, because
 * CloudFormation resolves them after the intrinsic functions have run.
 */
export function concatenate(parts: readonly (string | Symbolic)[]): string | Symbolic {
  // Fast path: plain text only, the common case for a fully known Fn::Sub or Fn::Join.
  let allText = true;
  for (const part of parts) {
    if (typeof part !== 'string') {
      allText = false;
      break;
    }
  }
  if (allText) return literalString(parts.join(''));
  const merged: (string | Symbolic)[] = [];
  const pending = { text: '' };
  for (const part of parts) appendPart(part, merged, pending);
  flushLiteral(merged, pending);
  if (merged.length === 0) return '';
  if (merged.length === 1) return merged[0];
  return new Concatenation(merged);
}

function appendPart(part: string | Symbolic, merged: (string | Symbolic)[], pending: { text: string }): void {
  if (typeof part === 'string') pending.text += part;
  else if (part instanceof Concatenation) for (const p of part.parts) appendPart(p, merged, pending);
  else {
    flushLiteral(merged, pending);
    merged.push(part);
  }
}

function flushLiteral(merged: (string | Symbolic)[], pending: { text: string }): void {
  if (pending.text === '') return;
  const literal = literalString(pending.text);
  pending.text = '';
  if (literal instanceof Concatenation) merged.push(...literal.parts);
  else merged.push(literal);
}

/** The string form CloudFormation gives a scalar when it is used as text (numbers and booleans as written). */
export function scalarText(v: Value): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}
