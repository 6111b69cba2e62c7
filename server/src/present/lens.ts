/**
 * How long a code lens may be, and how a title is fitted to it: a lens says the one thing that
 * matters; what does not fit is in the hover, which every lens has beside it.
 */

/** The longest lens, in characters. */
export const LENS_MAX_LENGTH = 90;

/**
 * The first of the candidate titles, from the fullest to the barest, that fits; the barest is cut
 * at a word, with `…`, when none does.
 */
export function fittedLens(candidates: readonly string[]): string {
  for (const title of candidates) if (title.length <= LENS_MAX_LENGTH) return title;
  const barest = candidates[candidates.length - 1] ?? '';
  const cut = barest.slice(0, LENS_MAX_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > LENS_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s·—,;:]+$/, '')}…`;
}

/**
 * `head` then `tail` in one lens, the tail whole (what the verdict is measured against) and the
 * head shortened at a word, with `…`, when both do not fit.
 */
export function fittedLensKeeping(head: string, tail: string): string {
  if (head.length + tail.length <= LENS_MAX_LENGTH) return `${head}${tail}`;
  const room = LENS_MAX_LENGTH - tail.length - 1;
  if (room < LENS_MAX_LENGTH / 3) return fittedLens([`${head}${tail}`]);
  const cut = head.slice(0, room);
  const space = cut.lastIndexOf(' ');
  return `${(space > room / 2 ? cut.slice(0, space) : cut).replace(/[\s·—,;:]+$/, '')}…${tail}`;
}
