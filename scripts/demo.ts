/**
 * The README demo, with no AWS account: the impact report for the bundled example templates,
 * then a live watch of the deployment that report predicts (scenario 'network-example': the
 * same replacements, addition and retained removal, with CloudFormation's cleanup phase),
 * served by the local CloudFormation endpoint that the tests use.
 *
 *   npm run demo            the report, then the watch (about 20 s)
 *   npm run demo -- --fast  the same with 200 ms steps
 */
import { main } from '../server/src/cli/main';
import type { CliIo } from '../server/src/cli/io';
import { startEndpoint } from '../test/endpoint/server';

async function demo(): Promise<number> {
  const fast = process.argv.includes('--fast');
  const io: CliIo = {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  };
  const heading = (text: string) => io.stdout(`\n${io.isTTY ? `\u001b[1m${text}\u001b[0m` : text}\n\n`);

  heading('1. What will deploying examples/network/update.yaml do to the stack running deployed.yaml?');
  const diffCode = await main(['diff', 'examples/network/deployed.yaml', 'examples/network/update.yaml', '--stack-name', 'network'], io);
  if (diffCode !== 0) return diffCode;

  heading(
    '2. Watching the deployment just predicted, live: the same replacements, the new Queue and the retained AccessLogs, with the cleanup phase, scripted on the local CloudFormation endpoint (no AWS account needed)',
  );
  const endpoint = await startEndpoint({ scenarios: [{ name: 'network-example', stackName: 'network' }], stepMs: fast ? 200 : 1000, startAt: Date.now() });
  // The SDK needs credentials to sign with and the local endpoint accepts any. Demo ones, always:
  // whatever real credentials the environment holds are never used to
  // sign requests to the local endpoint.
  process.env.AWS_ACCESS_KEY_ID = 'demo';
  process.env.AWS_SECRET_ACCESS_KEY = 'demo';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  process.env.AWS_REGION = 'us-east-1';
  try {
    const watchCode = await main(['watch', 'network', '--endpoint', endpoint.url, '--region', 'us-east-1', '--interval-ms', fast ? '250' : '1000'], io);
    const actions = [...new Set(endpoint.calls.map((c) => c.action))].sort();
    io.stdout(`\nThe watch made ${endpoint.calls.length} read-only calls (${actions.join(', ')}) and exited with ${watchCode}.\n`);
    return watchCode;
  } finally {
    await endpoint.close();
  }
}

demo().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`demo: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
