#!/usr/bin/env node
// Entry point of the `cfn-impact` command: runs the bundled CLI, which `npm run build` produces.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '..', 'dist', 'cli.js');
if (!existsSync(bundle)) {
  console.error('cfn-impact is not built yet: run npm run build');
  process.exit(1);
}
// The bundle only runs itself when it is the main module, so this shim calls its `main`.
const cli = require(bundle);
const io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: Boolean(process.stdout.isTTY),
  env: process.env,
};
cli.main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`cfn-impact: internal error: ${error && error.message ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
