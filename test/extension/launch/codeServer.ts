/**
 * Runs the extension-host suite inside code-server's extension host, with the extension loaded
 * from this checkout. code-server's command line refuses VS Code's `--extensionDevelopmentPath`
 * and `--extensionTestsPath`, and starts an extension host only for a window; so Chromium opens the
 * workbench with both paths in its `payload` query parameter, which is how VS Code's own
 * extension-development windows receive them, and the workbench hands them to the extension host on
 * the server. The workbench reports the extension host's exit code through
 * `window.codeAutomationExit`, the hook VS Code's web test runner uses. Mocha's report is copied to
 * a file by the suite and printed here as it grows. Exits with the suite's code.
 *
 *   node --import tsx test/extension/launch/codeServer.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { startCodeServer, type CodeServer } from '../../e2e/support/code-server';
import { repoRoot } from '../../e2e/support/paths';
import { Workbench } from '../../e2e/support/workbench';
import { createFixture, type SuiteFixture } from './fixture';
import { buildSuite, missingBundlesReason } from './suiteBuild';

/** The whole suite must finish within this, start-up included. */
const suiteDeadlineMs = 120_000;

/** Prints what the report file holds beyond `printed` characters; returns the new count. */
function printReport(file: string, printed: number): number {
  if (!existsSync(file)) return printed;
  const text = readFileSync(file, 'utf8');
  if (text.length > printed) process.stdout.write(text.slice(printed));
  return Math.max(printed, text.length);
}

/** A `vscode-remote` URI of a server path, the form the workbench's payload takes. */
function remoteUri(authority: string, path: string): string {
  return `vscode-remote://${authority}${encodeURI(path)}`;
}

async function main(): Promise<number> {
  const missing = missingBundlesReason();
  if (missing) {
    console.error(`cannot run the extension-host suite: ${missing}`);
    return 1;
  }
  const testsPath = await buildSuite();
  let fixture: SuiteFixture | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  try {
    fixture = await createFixture('code-server');
    server = await startCodeServer({
      name: 'extension-host',
      workspace: fixture.workspace.path,
      settings: fixture.settings,
      env: fixture.env,
    });
    const url = new URL(server.url);
    const payload = [
      ['extensionDevelopmentPath', remoteUri(url.host, repoRoot)],
      ['extensionTestsPath', remoteUri(url.host, testsPath)],
    ];
    url.searchParams.set('payload', JSON.stringify(payload));

    let exitCode: number | undefined;
    workbench = await Workbench.open(url.toString(), 'extension-host', async (page) => {
      await page.exposeFunction('codeAutomationExit', (code: number) => {
        exitCode = code;
      });
    });
    const deadline = Date.now() + suiteDeadlineMs;
    let printed = 0;
    while (exitCode === undefined && Date.now() < deadline) {
      printed = printReport(fixture.reportFile, printed);
      await delay(250);
    }
    printReport(fixture.reportFile, printed);
    if (exitCode === undefined) {
      await workbench.screenshot('timed-out');
      console.error(`the extension-host suite did not finish within ${suiteDeadlineMs / 1000} s; see test-artifacts/e2e/extension-host.*`);
      return 1;
    }
    console.log(`extension host exited with code ${exitCode}`);
    if (exitCode !== 0) await workbench.screenshot('failed');
    return exitCode;
  } finally {
    await workbench?.close();
    await server?.stop();
    await fixture?.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
