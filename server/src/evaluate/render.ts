/**
 * Text forms of evaluated values: a compact rendering for people and a canonical
 * key that identifies a value (used to name unknowns derived from other values).
 */
import { Concatenation, ResourceAttribute, ResourceRef, UnknownValue, isSymbolic, type LookupChoices, type Symbolic, type Value } from './value';

/** Longest rendering `renderValue` returns before cutting with an ellipsis. */
export const MAX_RENDER_LENGTH = 160;

/**
 * A compact human rendering for messages: symbols as `${VPC}`, `${VPC.CidrBlock}`, parameters and
 * pseudo parameters only the deployment knows as `${Size}`, `${AWS::AccountId}`, other unknowns as
 * the template writes them (`!ImportValue "${Env}-vpc"`, `{{resolve:ssm:/app/version}}`), or, when
 * the template does not say, in words: `<the output of Fn::Transform Count>`.
 */
export function renderValue(v: Value, maxLength = MAX_RENDER_LENGTH): string {
  const out = { text: '', budget: maxLength + 1 };
  renderInto(v, out);
  return out.text.length > maxLength ? out.text.slice(0, Math.max(0, maxLength - 1)) + '…' : out.text;
}

interface RenderBuffer {
  text: string;
  budget: number;
}

// Rendering stops adding text once the budget is spent, so a huge value costs no more than a small one.
function renderInto(v: Value, out: RenderBuffer): void {
  if (out.text.length >= out.budget) return;
  if (v === null) out.text += 'null';
  else if (typeof v === 'string') out.text += JSON.stringify(v);
  else if (typeof v === 'number' || typeof v === 'boolean') out.text += String(v);
  else if (isSymbolic(v)) {
    if (v instanceof Concatenation) {
      let s = '"';
      for (const part of v.parts) s += typeof part === 'string' ? JSON.stringify(part).slice(1, -1) : symbolText(part);
      out.text += s + '"';
    } else out.text += symbolText(v);
  } else if (Array.isArray(v)) {
    out.text += '[';
    v.forEach((item, i) => {
      if (i > 0) out.text += ', ';
      renderInto(item, out);
    });
    out.text += ']';
  } else {
    out.text += '{';
    let first = true;
    for (const key of Object.keys(v)) {
      if (!first) out.text += ', ';
      first = false;
      out.text += key + ': ';
      renderInto(v[key], out);
      if (out.text.length >= out.budget) break;
    }
    out.text += '}';
  }
}

/** The pseudo parameter an unknown stands for (`AWS::AccountId`), when it stands for one. */
export function pseudoParameterOf(unknown: UnknownValue): string | undefined {
  return /^pseudo:(AWS::[A-Za-z]+)/.exec(unknown.key)?.[1];
}

/** The parameter with no value at hand an unknown stands for (`Size`), when it stands for one. */
export function parameterOf(unknown: UnknownValue): string | undefined {
  return unknown.key.startsWith('param:') ? unknown.key.slice('param:'.length) : undefined;
}

function symbolText(s: Symbolic): string {
  if (s instanceof ResourceRef) return '${' + s.logicalId + '}';
  if (s instanceof ResourceAttribute) return '${' + s.logicalId + '.' + s.attribute + '}';
  if (s instanceof UnknownValue) {
    // A parameter or pseudo parameter only the deployment knows reads as the template writes it.
    const named = pseudoParameterOf(s) ?? parameterOf(s);
    if (named !== undefined) return '${' + named + '}';
    return s.notation ?? '<' + s.reason + '>';
  }
  return s.parts.map((p) => (typeof p === 'string' ? p : symbolText(p))).join('');
}

/** A plain string CloudFormation's YAML reads as itself, unquoted: `Sizes`, `m5.large`, `/app/version`. */
const BARE = /^[A-Za-z0-9_./@+=-][A-Za-z0-9_./@+=:-]*$/;

/**
 * A value as an argument of a function in CloudFormation's short form: `Sizes`, `!Ref Size`,
 * `!GetAtt Vpc.CidrBlock`, `"${Env}-logs"`, `[a, !Ref B]`, the notation of a function's value.
 */
export function notationOf(v: Value): string {
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return BARE.test(v) && !/^(true|false|null|yes|no|on|off|~)$/i.test(v) ? v : JSON.stringify(v);
  if (v instanceof ResourceRef) return `!Ref ${v.logicalId}`;
  if (v instanceof ResourceAttribute) return `!GetAtt ${v.logicalId}.${v.attribute}`;
  if (v instanceof UnknownValue) {
    const named = pseudoParameterOf(v) ?? parameterOf(v);
    if (named !== undefined) return `!Ref ${named}`;
    return v.notation ?? `<${v.reason}>`;
  }
  if (v instanceof Concatenation) return renderValue(v);
  if (Array.isArray(v)) return `[${v.map(notationOf).join(', ')}]`;
  return `{${Object.keys(v).map((key) => `${key}: ${notationOf(v[key])}`).join(', ')}}`;
}

/**
 * A canonical text for a value: equal keys mean equal values (under the rule that
 * unknowns with the same key are equal). Object keys are sorted because CloudFormation
 * compares objects as maps, whatever order their keys were written in.
 */
export function valueKey(v: Value): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (v instanceof ResourceRef) return '{Ref:' + v.logicalId + '}';
  if (v instanceof ResourceAttribute) return '{GetAtt:' + v.logicalId + '.' + v.attribute + '}';
  if (v instanceof UnknownValue) return '{?' + v.key + '}';
  if (v instanceof Concatenation) return '{Cat:' + v.parts.map((p) => (typeof p === 'string' ? JSON.stringify(p) : valueKey(p))).join(',') + '}';
  if (Array.isArray(v)) return '[' + v.map(valueKey).join(',') + ']';
  const keys = Object.keys(v).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + valueKey(v[k])).join(',') + '}';
}

/** The resources whose physical ids or attributes a value depends on, deduplicated, in order of appearance. */
export function symbolDependencies(v: Value): (ResourceRef | ResourceAttribute)[] {
  const seen = new Map<string, ResourceRef | ResourceAttribute>();
  const stack: Value[] = [v];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    if (cur === null || typeof cur !== 'object') continue;
    if (cur instanceof ResourceRef || cur instanceof ResourceAttribute) {
      const k = valueKey(cur);
      if (!seen.has(k)) seen.set(k, cur);
    } else if (cur instanceof UnknownValue) {
      for (const d of cur.resourceDeps) {
        const k = valueKey(d);
        if (!seen.has(k)) seen.set(k, d);
      }
    } else if (cur instanceof Concatenation) {
      for (let i = cur.parts.length - 1; i >= 0; i--) {
        const p = cur.parts[i];
        if (typeof p !== 'string') stack.push(p);
      }
    } else if (Array.isArray(cur)) {
      for (let i = cur.length - 1; i >= 0; i--) stack.push(cur[i]);
    } else {
      const keys = Object.keys(cur);
      for (let i = keys.length - 1; i >= 0; i--) stack.push(cur[keys[i]]);
    }
  }
  return [...seen.values()];
}

/** An unknown derived from another value by a function (`Fn::Base64`, `Fn::Split`, ...), keeping its resource dependencies. */
export function derivedUnknown(fn: string, keyParts: string, reason: string, from: Value, extra: { lookup?: LookupChoices; notation?: string } = {}): UnknownValue {
  return new UnknownValue(fn + ':' + compactKey(keyParts), reason, symbolDependencies(from), extra.lookup, extra.notation);
}

/** Keys longer than this are replaced by a digest of themselves. */
const MAX_KEY_LENGTH = 256;

/**
 * A key of bounded length that stands for `key`: itself when short, else its length and two
 * independent 32-bit hashes. Keys nest (an unknown derived from unknowns holds their keys), so
 * without this a chain of functions over deploy-time values would grow keys, and the time to
 * compare them, with every level; two different long keys share a digest with a probability of
 * about 2^-64, far below any other source of error here.
 */
export function compactKey(key: string): string {
  if (key.length <= MAX_KEY_LENGTH) return key;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `#${key.length}:${(h1 >>> 0).toString(16).padStart(8, '0')}${(h2 >>> 0).toString(16).padStart(8, '0')}`;
}

/** Whether a value holds a symbol anywhere inside it. */
export function containsSymbol(v: Value): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (isSymbolic(v)) return true;
  if (Array.isArray(v)) return v.some(containsSymbol);
  for (const key of Object.keys(v)) if (containsSymbol(v[key])) return true;
  return false;
}
