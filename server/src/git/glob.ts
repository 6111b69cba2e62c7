/**
 * The small glob dialect of the `cfnImpact.baseline.links` and `cfnImpact.parameters.files`
 * settings: `**` (any number of folders), `*` and `?` (within one path segment) and `{a,b}`.
 * Paths are compared with forward slashes, relative to the workspace folder.
 *
 * Settings may come from a workspace someone else wrote, so globs are matched by RE2 (linear in
 * the path's length, whatever the glob), globs and paths are capped in length, and the cache of
 * compiled globs is bounded.
 */
import { RE2JS } from 're2js';

/** Longer globs are treated as malformed; longer paths match nothing (no file system has them). */
const MAX_GLOB_LENGTH = 1024;
const MAX_PATH_LENGTH = 4096;
/** Compiled globs kept; settings hold a handful, so reaching this means they keep changing. */
const MAX_CACHED = 256;

const compiled = new Map<string, RE2JS | null>();

/** Whether a relative path (forward slashes) matches a glob; a malformed glob matches nothing. */
export function matchesGlob(relativePath: string, glob: string): boolean {
  if (relativePath.length > MAX_PATH_LENGTH) return false;
  let pattern = compiled.get(glob);
  if (pattern === undefined) {
    pattern = compileGlob(glob);
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
    compiled.set(glob, pattern);
  }
  return pattern !== null && pattern.matches(relativePath);
}

/** The first entry of a glob-keyed map whose glob matches the path, with the most specific (longest) glob winning. */
export function lookupByGlob<T>(map: Record<string, T>, relativePath: string): T | undefined {
  let best: { glob: string; value: T } | undefined;
  for (const [glob, value] of Object.entries(map)) {
    if (matchesGlob(relativePath, glob) && (best === undefined || glob.length > best.glob.length)) best = { glob, value };
  }
  return best?.value;
}

function compileGlob(glob: string): RE2JS | null {
  if (glob.length > MAX_GLOB_LENGTH) return null;
  const source = glob.replace(/\\/g, '/').replace(/^\.\//, '');
  let out = '';
  let braces = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '*') {
      if (source[i + 1] === '*') {
        // `**/` matches zero or more whole folders; a trailing `**` matches the rest.
        if (source[i + 2] === '/') {
          out += '(?:[^/]*/)*';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else {
      out += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&');
    }
  }
  if (braces !== 0) return null;
  try {
    return RE2JS.compile(out);
  } catch {
    return null;
  }
}
