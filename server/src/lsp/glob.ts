/**
 * The small glob dialect of the `cfnImpact.baseline.links` and `cfnImpact.parameters.files`
 * settings: `**` (any number of folders), `*` and `?` (within one path segment) and `{a,b}`.
 * Paths are compared with forward slashes, relative to the workspace folder.
 */

const compiled = new Map<string, RegExp | null>();

/** Whether a relative path (forward slashes) matches a glob; a malformed glob matches nothing. */
export function matchesGlob(relativePath: string, glob: string): boolean {
  let pattern = compiled.get(glob);
  if (pattern === undefined) {
    pattern = compileGlob(glob);
    compiled.set(glob, pattern);
  }
  return pattern !== null && pattern.test(relativePath);
}

/** The first entry of a glob-keyed map whose glob matches the path, with the most specific (longest) glob winning. */
export function lookupByGlob<T>(map: Record<string, T>, relativePath: string): T | undefined {
  let best: { glob: string; value: T } | undefined;
  for (const [glob, value] of Object.entries(map)) {
    if (matchesGlob(relativePath, glob) && (best === undefined || glob.length > best.glob.length)) best = { glob, value };
  }
  return best?.value;
}

function compileGlob(glob: string): RegExp | null {
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
    return new RegExp(`^${out}$`);
  } catch {
    return null;
  }
}
