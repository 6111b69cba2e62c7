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
require(bundle);
