/**
 * Runs the local CloudFormation endpoint in real time, for the README demo and end-to-end tests:
 *
 *   tsx test/endpoint/serve.ts --port 4566 --scenario update-replacement --realtime
 *
 * Options: --port N (default: random), --scenario NAME (repeatable; default: all), --step-ms N
 * (default 1000: one step per second), --start-in-ms N (delay before the scripts start),
 * --settled N (extra stacks at rest), --realtime (the only clock here; accepted for clarity).
 */
import { SCENARIOS } from './scenarios';
import { startEndpoint } from './server';

interface ServeArgs {
  port?: number;
  scenarios: string[];
  stepMs: number;
  startInMs: number;
  settled: number;
}

function parse(argv: string[]): ServeArgs | string {
  const args: ServeArgs = { scenarios: [], stepMs: 1000, startInMs: 0, settled: 0 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i];
    const number = (name: string) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) throw new Error(`${name} needs a whole number`);
      return n;
    };
    try {
      if (arg === '--port') args.port = number('--port');
      else if (arg === '--scenario') args.scenarios.push(value() ?? '');
      else if (arg === '--step-ms') args.stepMs = Math.max(1, number('--step-ms'));
      else if (arg === '--start-in-ms') args.startInMs = number('--start-in-ms');
      else if (arg === '--settled') args.settled = number('--settled');
      else if (arg === '--realtime') continue;
      else return `unknown option ${arg}`;
    } catch (error) {
      return (error as Error).message;
    }
  }
  for (const name of args.scenarios) if (!SCENARIOS[name]) return `unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`;
  if (args.scenarios.length === 0) args.scenarios = Object.keys(SCENARIOS);
  return args;
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  if (typeof args === 'string') {
    process.stderr.write(`serve: ${args}\n`);
    process.exitCode = 1;
    return;
  }
  const endpoint = await startEndpoint({
    port: args.port,
    scenarios: args.scenarios,
    settledStacks: args.settled,
    stepMs: args.stepMs,
    startAt: Date.now() + args.startInMs,
  });
  process.stdout.write(
    [
      `Local CloudFormation endpoint: ${endpoint.url}`,
      ...endpoint.stacks.map((s) => `  ${s.stackName.padEnd(12)} ${s.scenario.name}: ${s.scenario.steps.length} steps of ${args.stepMs} ms`),
      '',
      'Any credentials work; for example:',
      `  AWS_ACCESS_KEY_ID=demo AWS_SECRET_ACCESS_KEY=demo AWS_REGION=us-east-1 npm run impact -- watch ${endpoint.stacks[0]?.stackName ?? 'STACK'} --endpoint ${endpoint.url}`,
      '',
    ].join('\n'),
  );
  const stop = () => {
    void endpoint.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
