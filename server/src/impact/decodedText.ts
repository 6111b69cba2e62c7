/**
 * User data as people wrote it: an instance's `UserData` is base64 (`Fn::Base64` of a script), so
 * its change is shown as the first line of the script that differs, decoded, rather than as two
 * runs of base64 that differ somewhere.
 */
import type { Value } from '../evaluate/value';

/** The properties whose values are base64 text by definition, by their last path segment. */
const BASE64_PROPERTIES = new Set(['UserData']);

/** Base64 text decoded, when it is base64 of UTF-8 text; undefined otherwise. */
function decoded(value: string): string | undefined {
  if (value.length === 0 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const text = Buffer.from(value, 'base64').toString('utf8');
  // Replacement characters or control bytes other than whitespace mean this is not text.
  return /[\uFFFD\u0000-\u0008\u000E-\u001F]/.test(text) ? undefined : text;
}

/** The first line that differs between two base64 texts at a base64 property, decoded; undefined when either is not such a text. */
export function firstChangedLine(path: readonly (string | number)[], before: Value | undefined, after: Value | undefined): { line: number; before: string; after: string } | undefined {
  const last = [...path].reverse().find((step): step is string => typeof step === 'string');
  if (last === undefined || !BASE64_PROPERTIES.has(last) || typeof before !== 'string' || typeof after !== 'string') return undefined;
  const old = decoded(before);
  const next = decoded(after);
  if (old === undefined || next === undefined) return undefined;
  const oldLines = old.split(/\r?\n/);
  const nextLines = next.split(/\r?\n/);
  for (let i = 0; i < Math.max(oldLines.length, nextLines.length); i++) {
    if (oldLines[i] !== nextLines[i]) return { line: i + 1, before: oldLines[i] ?? '(no line)', after: nextLines[i] ?? '(no line)' };
  }
  return undefined;
}
