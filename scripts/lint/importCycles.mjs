// A lint rule: no import cycle among the project's own modules (ARCHITECTURE.md, invariant 11).
//
// Type-only imports count too: a cycle of types is a cycle of meaning, and the layers and files
// that form one cannot be read, tested or moved one at a time. The linted file's imports are read
// from its syntax tree (so a probe linted from text is judged by what it says); every other file's
// are read from disk once per lint run, with the relative imports and re-exports found by a
// pattern, which is enough for this code base (no `require`, no dynamic import in the engine).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/** Relative module specifiers in `import ... from`, `export ... from` and bare `import '...'`. */
const SPECIFIER = /^\s*(?:import|export)\b[^'";]*?(?:\bfrom\s*)?['"](\.{1,2}\/[^'"]*)['"]/gm;

/** The file a relative specifier names from `file`, when it is a TypeScript file of the project. */
function resolveModule(file, specifier) {
  const base = resolve(dirname(file), specifier);
  for (const candidate of [`${base}.ts`, `${base}/index.ts`, base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Each file's imports, read from disk, for the length of one lint run. */
const importsOnDisk = new Map();

function importsOf(file) {
  let imports = importsOnDisk.get(file);
  if (imports === undefined) {
    imports = [];
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolveModule(file, match[1]);
      if (target !== undefined && !imports.includes(target)) imports.push(target);
    }
    importsOnDisk.set(file, imports);
  }
  return imports;
}

/** A path of imports from `start` back to `goal`, or undefined; iterative, so a deep graph cannot overflow the stack. */
function pathBack(start, goal) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of importsOf(file)) {
      if (next === goal) {
        const path = [file];
        for (let at = cameFrom.get(file); at !== undefined; at = cameFrom.get(at)) path.unshift(at);
        return path;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses an import that closes a cycle among the project\'s modules, type-only imports included.' },
    schema: [],
    messages: { cycle: 'This import closes a cycle: {{cycle}} (ARCHITECTURE.md, invariant 11).' },
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolveModule(file, specifier);
      if (target === undefined || target === file) return;
      const back = pathBack(target, file);
      if (back === undefined) return;
      const cycle = [file, ...back, file].map((f) => relative(root, f)).join(' → ');
      context.report({ node: node.source, messageId: 'cycle', data: { cycle } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
