/**
 * The entry point VS Code's extension host calls with `--extensionTestsPath`: runs every
 * `*.test.js` bundled beside this file with mocha's spec reporter and rejects when a test fails,
 * which makes the extension host exit with a non-zero code. When the launcher names a report file
 * (code-server's extension host has no terminal of its own), the reporter's lines are copied there
 * as they are printed.
 */
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { reportFileVariable } from '../workspace';

/** Runs the suite; resolves when every test passed. */
export async function run(): Promise<void> {
  const reportFile = process.env[reportFileVariable];
  if (reportFile) {
    writeFileSync(reportFile, '');
    const print = Mocha.reporters.Base.consoleLog;
    Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
      print(...args);
      appendFileSync(reportFile, `${format(...args)}\n`);
    };
  }
  // No colours: the report is read in CI logs and files, where escape codes are noise.
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 60_000 });
  // Files run in name order; activation.test.js comes first because it checks what happens
  // before anything has activated the extension.
  for (const name of readdirSync(__dirname).filter((file) => file.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, name));
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} extension-host test${failures === 1 ? '' : 's'} failed`);
}
