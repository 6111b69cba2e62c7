// Lint rules, including the architecture's layer invariants (see ARCHITECTURE.md, "Invariants").
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import { noImportCycle } from './scripts/lint/importCycles.mjs';
import { samStages } from './scripts/lint/samStages.mjs';

const noVscode = { name: 'vscode', message: 'Only client/ may import vscode (ARCHITECTURE.md, invariant 2).' };
const lspPatterns = {
  group: ['vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-protocol', 'vscode-languageserver-textdocument', 'vscode-jsonrpc', 'vscode-jsonrpc/*'],
  message: 'Only server/src/lsp/ knows LSP (ARCHITECTURE.md, invariant 3).',
};

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The engine's folders, which may import one another and nothing else of the project.
 * `cloudformation/` (CloudFormation knowledge as data, such as the stack lifecycle) is held to the
 * engine's purity too, and imports only itself (its own block below).
 */
const ENGINE_FOLDERS = ['template', 'evaluate', 'spec', 'sam', 'impact', 'cdk', 'cloudformation'];
const ENGINE_FILES = ENGINE_FOLDERS.map((folder) => `server/src/${folder}/**/*.ts`);
const ENGINE_PACKAGES = ['yaml', 're2js'];

/** Node's built-in modules, bare and with the `node:` prefix. */
const BUILTIN = `(?:node:.*|(?:${builtinModules.map(escapeRegex).join('|')})(?:/.*)?)`;

/**
 * What an engine file may import: a relative path that stays in its own folder (`./x`, with no
 * `..` after it), a relative path into another engine folder (`../impact/x`), or an allowed
 * package. Written over the import text rather than the resolved path, so a file in a subfolder
 * that climbs out (`../../stacks`) matches none of these and is refused.
 */
function engineImportRule(extraAllowed = []) {
  const allowed = [
    '\\./(?:(?!\\.\\.).)*',
    `\\.\\./(?:${ENGINE_FOLDERS.join('|')})(?:/(?:(?!\\.\\.).)*)?`,
    `(?:${ENGINE_PACKAGES.join('|')})(?:/.*)?`,
    ...extraAllowed,
  ];
  return [
    'error',
    {
      patterns: [
        { regex: `^${BUILTIN}$`, message: 'The engine is pure: it imports no Node built-in module, and I/O is passed in by the caller (ARCHITECTURE.md, invariant 1).' },
        {
          // Built-ins have their own message above; everything else outside the list lands here once.
          regex: `^(?!(?:${allowed.join('|')})$)(?!${BUILTIN}$)`,
          message: `The engine imports only the engine (${ENGINE_FOLDERS.map((f) => `${f}/`).join(', ')}) and the packages ${ENGINE_PACKAGES.join(' and ')} (ARCHITECTURE.md, invariant 1).`,
        },
      ],
    },
  ];
}

const clockMessage = 'The engine is pure: the clock and timers are passed in by the caller (ARCHITECTURE.md, invariant 1).';
const randomMessage = 'The engine is pure: it uses no randomness (ARCHITECTURE.md, invariant 1).';
const environmentMessage = 'The engine is pure: the environment is passed in by the caller (ARCHITECTURE.md, invariant 1).';
const networkMessage = 'The engine is pure: it does no I/O (ARCHITECTURE.md, invariant 1).';

/** A relative import that reaches into one of the given top-level folders of server/src. */
const intoFolders = (folders) => `^\\.{1,2}/(?:.*/)?(?:${folders.join('|')})(?:/|$)`;

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.cache/', 'test-artifacts/', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // No import cycle among the project's modules, type-only imports included (ARCHITECTURE.md, invariant 11).
    files: ['server/src/**/*.ts', 'client/src/**/*.ts'],
    plugins: { project: { rules: { 'no-import-cycle': noImportCycle, 'sam-stages': samStages } } },
    rules: { 'project/no-import-cycle': 'error', 'project/sam-stages': 'error' },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/src/lsp/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [lspPatterns] }] },
  },
  {
    files: ['server/src/stacks/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [lspPatterns, { regex: intoFolders(['lsp', 'cli']), message: 'stacks/ serves the language server and the CLI and imports neither (ARCHITECTURE.md, invariant 9).' }],
        },
      ],
    },
  },
  {
    files: ['server/src/git/**/*.ts', 'server/src/assemblies/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [lspPatterns, { regex: intoFolders(['lsp', 'cli']), message: 'git/ and assemblies/ serve the language server and the CLI and import neither (ARCHITECTURE.md, invariant 9).' }],
        },
      ],
    },
  },
  {
    files: ['server/src/lsp/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode], patterns: [{ regex: intoFolders(['cli']), message: 'lsp/ and cli/ are two faces over the same modules and import neither each other (ARCHITECTURE.md, invariant 9).' }] }],
    },
  },
  {
    files: ['server/src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noVscode], patterns: [lspPatterns, { regex: intoFolders(['lsp']), message: 'lsp/ and cli/ are two faces over the same modules and import neither each other (ARCHITECTURE.md, invariant 9).' }] },
      ],
    },
  },
  {
    // spec/load.ts is the one adapter beside the engine: it reads the compiled index from disk for the callers.
    files: ENGINE_FILES,
    ignores: ['server/src/spec/load.ts'],
    rules: {
      'no-restricted-imports': engineImportRule(),
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date']", message: clockMessage },
        { selector: "CallExpression[callee.name='Date']", message: clockMessage },
        { selector: 'ImportExpression', message: 'The engine imports statically, only from the engine (ARCHITECTURE.md, invariant 1).' },
        { selector: 'TSImportType', message: 'The engine imports statically, only from the engine (ARCHITECTURE.md, invariant 1).' },
      ],
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'clearImmediate', 'queueMicrotask', 'performance'].map((name) => ({ name, message: clockMessage })),
        { name: 'crypto', message: randomMessage },
        ...['process', 'globalThis', 'global'].map((name) => ({ name, message: environmentMessage })),
        ...['fetch', 'WebSocket', 'XMLHttpRequest'].map((name) => ({ name, message: networkMessage })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: clockMessage },
        { object: 'Math', property: 'random', message: randomMessage },
      ],
    },
  },
  {
    // A subfolder of an engine folder (sam/model/) reaches its own engine folder through `../`
    // (with no `..` after it) and the other engine folders through `../../<folder>/`.
    files: ENGINE_FOLDERS.filter((f) => f !== 'cloudformation').map((folder) => `server/src/${folder}/*/**/*.ts`),
    rules: {
      'no-restricted-imports': engineImportRule([
        '\\.\\./(?:(?!\\.\\.).)*',
        `\\.\\./\\.\\./(?:${ENGINE_FOLDERS.join('|')})(?:/(?:(?!\\.\\.).)*)?`,
      ]),
    },
  },
  {
    // Two levels down (sam/resources/api/), the same one level further: its own engine folder
    // through `../` or `../../`, the others through `../../../<folder>/`.
    files: ENGINE_FOLDERS.filter((f) => f !== 'cloudformation').map((folder) => `server/src/${folder}/*/*/**/*.ts`),
    rules: {
      'no-restricted-imports': engineImportRule([
        '(?:\\.\\./){1,2}(?:(?!\\.\\.).)*',
        `\\.\\./\\.\\./\\.\\./(?:${ENGINE_FOLDERS.join('|')})(?:/(?:(?!\\.\\.).)*)?`,
      ]),
    },
  },
  {
    // CloudFormation's own rules are the layer below both the engine and the stacks module, so
    // they import nothing from either, nor any package: only their own folder.
    files: ['server/src/cloudformation/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^${BUILTIN}$`, message: 'The engine is pure: it imports no Node built-in module, and I/O is passed in by the caller (ARCHITECTURE.md, invariant 1).' },
            { regex: `^(?!\\./(?:(?!\\.\\.).)*$)(?!${BUILTIN}$)`, message: 'cloudformation/ is pure knowledge and imports nothing outside its folder (ARCHITECTURE.md, invariant 1).' },
          ],
        },
      ],
    },
  },
  {
    // present/ words findings and deployment outcomes for every face: it reads the engine's data
    // and nothing that talks to the world (stacks/, lsp/, cli/, vscode), and is as pure as the engine.
    files: ['server/src/present/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^${BUILTIN}$`, message: 'present/ is pure: it imports no Node built-in module (ARCHITECTURE.md, invariant 10).' },
            {
              regex: `^(?!(?:\\./(?:(?!\\.\\.).)*|\\.\\./(?:${ENGINE_FOLDERS.join('|')})(?:/(?:(?!\\.\\.).)*)?)$)(?!${BUILTIN}$)`,
              message: 'present/ imports only itself and the engine (ARCHITECTURE.md, invariant 10).',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', ...['setTimeout', 'setInterval', 'performance', 'process', 'fetch'].map((name) => ({ name, message: 'present/ is pure: it words data it is given (ARCHITECTURE.md, invariant 10).' }))],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'present/ is pure: the time is given (ARCHITECTURE.md, invariant 10).' }],
    },
  },
);
