/**
 * How every face cuts a list of names: a few named, the rest counted, in one form.
 */

/** Names shown before the rest are counted. */
export const NAMES_SHOWN = 3;

/** Names a list with at most `shown` entries, the rest counted: `A, B, C and 2 more`. Repeats are named once. */
export function listSome(items: readonly string[], shown = NAMES_SHOWN): string {
  const unique = [...new Set(items)];
  if (unique.length <= shown) return unique.join(', ');
  return `${unique.slice(0, shown).join(', ')} and ${unique.length - shown} more`;
}
