// Lint rules, including the architecture's import invariants (see ARCHITECTURE.md).
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'Only client/ may import vscode (ARCHITECTURE.md, invariant 2).' };
const lspPatterns = {
  group: ['vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-protocol', 'vscode-languageserver-textdocument', 'vscode-jsonrpc', 'vscode-jsonrpc/*'],
  message: 'Only server/src/lsp/ knows LSP (ARCHITECTURE.md, invariant 3).',
};
const ioModules = ['fs', 'fs/promises', 'child_process', 'http', 'https', 'http2', 'net', 'tls', 'dns', 'os', 'worker_threads', 'timers', 'timers/promises']
  .flatMap((name) => [name, `node:${name}`])
  .map((name) => ({
  name,
  message: 'The engine is pure: I/O is passed in by the caller (ARCHITECTURE.md, invariant 1).',
}));

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
    files: ['server/**/*.ts'],
    ignores: ['server/src/lsp/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [lspPatterns] }] },
  },
  {
    files: ['server/src/lsp/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['server/src/template/**/*.ts', 'server/src/evaluate/**/*.ts', 'server/src/impact/**/*.ts', 'server/src/spec/**/*.ts', 'server/src/cloudformation/**/*.ts'],
    ignores: ['server/src/spec/load.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode, ...ioModules], patterns: [lspPatterns] }],
      // Time, timers and the environment are I/O too: the caller passes them in.
      'no-restricted-globals': ['error', ...['setTimeout', 'setInterval', 'setImmediate', 'fetch', 'performance'].map((name) => ({ name, message: 'The engine is pure: time and timers are passed in by the caller.' }))],
      'no-restricted-properties': [
        'error',
        { object: 'process', message: 'The engine is pure: the environment is passed in by the caller.' },
        { object: 'Date', property: 'now', message: 'The engine is pure: the clock is passed in by the caller.' },
      ],
    },
  },
  {
    // CloudFormation's own rules are the layer below both the engine and the stacks module, so
    // they import nothing from either (and nothing else outside their folder).
    files: ['server/src/cloudformation/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...ioModules],
          patterns: [lspPatterns, { group: ['../*', '@aws-sdk/*'], message: 'cloudformation/ is pure knowledge and imports nothing outside its folder (ARCHITECTURE.md, invariant 1).' }],
        },
      ],
    },
  },
);
