/**
 * `cfn-impact`: the command-line face of the engine and the stacks watcher.
 */
import { runDiff } from './diff';
import { runExpand } from './expand';
import type { CliIo } from './io';
import { runStacks } from './stacks';
import { runVerify } from './verify';
import { runWatch } from './watch';

const USAGE = `Usage: cfn-impact <command> [options]

Commands:
  diff OLD NEW    predict what deploying NEW over a stack made from OLD will do
                  (--stack NAME NEW: over a deployed stack; --base REF: every template of a branch)
  verify          compare a change set CloudFormation created with the prediction (exit 3: they differ)
  expand FILE     print the processed template (the Serverless transform expanded)
  stacks          list the stacks of the connected account and their statuses
  watch STACK     follow a deployment live until it settles (exit 0 success, 2 failed)

Run cfn-impact <command> --help for the options of a command.
`;

/** Dispatches a command line; resolves to the process exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'diff':
      return runDiff(rest, io);
    case 'expand':
      return runExpand(rest, io);
    case 'stacks':
      return runStacks(rest, io);
    case 'watch':
      return runWatch(rest, io);
    case 'verify':
      return runVerify(rest, io);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      io.stdout(USAGE);
      return command === undefined ? 1 : 0;
    default:
      io.stderr(`cfn-impact: unknown command "${command}"\n\n${USAGE}`);
      return 1;
  }
}

if (require.main === module) {
  const io: CliIo = {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // A bug, not a user error: say so briefly instead of printing a stack trace.
      process.stderr.write(`cfn-impact: internal error: ${(error as Error)?.message ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
