/**
 * The `Fn::Sub` template language: `${Name}`, `${Resource.Attribute}`, and `${!Literal}`
 * which writes `${Literal}` as is.
 */

export type SubPart = { literal: string } | { variable: string };

/** Splits an `Fn::Sub` string into literal text and variable names (escapes already resolved into literals). */
export function parseSubString(text: string): SubPart[] {
  const parts: SubPart[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('${', i);
    if (open < 0) break;
    const close = text.indexOf('}', open + 2);
    if (close < 0) break; // An unclosed `${` is plain text.
    literal += text.slice(i, open);
    const inner = text.slice(open + 2, close);
    if (inner.startsWith('!')) literal += '${' + inner.slice(1) + '}';
    else {
      if (literal !== '') parts.push({ literal });
      literal = '';
      parts.push({ variable: inner.trim() });
    }
    i = close + 1;
  }
  literal += text.slice(i);
  if (literal !== '') parts.push({ literal });
  return parts;
}

/** The variable names an `Fn::Sub` string uses, in order, repeats included. */
export function subVariables(text: string): string[] {
  const names: string[] = [];
  for (const part of parseSubString(text)) if ('variable' in part) names.push(part.variable);
  return names;
}
