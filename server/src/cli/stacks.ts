/**
 * `cfn-impact stacks`: the stacks of one region with their statuses, or one stack's recent
 * operations, as a table or JSON. Also
 * holds the connection options (`--region`, `--profile`, `--endpoint`) that `watch` shares.
 */
import { durationText, operationName, operationStatusShown } from '../present';
import { CloudFormationReader } from '../stacks/cloudFormationReader';
import { recentOperations } from '../stacks/operationHistory';
import { stackPhase } from '../cloudformation/stackLifecycle';
import type { ReaderError } from '../stacks/types';
import type { CliIo } from './io';
import { cut, fit, paintFor } from './terminal';

export interface ConnectionArgs {
  region?: string;
  profile?: string;
  endpoint?: string;
}

export interface ParsedArgs {
  connection: ConnectionArgs;
  flags: Set<string>;
  values: Map<string, string>;
  positional: string[];
}

/**
 * Parses `--name value`, `--name=value` and bare flags. `valued` lists options that take a value
 * besides the connection options; anything else unknown is an error message.
 */
export function parseArgs(argv: string[], valued: string[], flags: string[]): ParsedArgs | string {
  const takesValue = new Set(['--region', '--profile', '--endpoint', ...valued]);
  const known = new Set([...flags, '--help', '-h']);
  const parsed: ParsedArgs = { connection: {}, flags: new Set(), values: new Map(), positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (takesValue.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '') return `${name} needs a value`;
      parsed.values.set(name, value);
    } else if (known.has(name) && eq < 0) {
      parsed.flags.add(name === '-h' ? '--help' : name);
    } else {
      return `unknown option ${arg}`;
    }
  }
  const region = parsed.values.get('--region');
  const profile = parsed.values.get('--profile');
  const endpoint = parsed.values.get('--endpoint');
  if (region) parsed.connection.region = region;
  if (profile) parsed.connection.profile = profile;
  if (endpoint) {
    if (!/^https?:\/\/[^\s/]+/.test(endpoint)) return `--endpoint must be an http(s) URL, got ${endpoint}`;
    parsed.connection.endpoint = endpoint;
  }
  return parsed;
}

/** Creates a reader for the connection options, with AWS_REGION / AWS_PROFILE from the CLI's environment. */
export async function connect(
  connection: ConnectionArgs,
  io: CliIo,
  maxAttempts: number,
): Promise<{ ok: true; reader: CloudFormationReader } | { ok: false; error: ReaderError }> {
  const created = await CloudFormationReader.create({ ...connection, env: io.env, maxAttempts });
  return created.ok ? { ok: true, reader: created.value } : { ok: false, error: created.error };
}

/** Writes a reader error as two lines: what happened, what to do. */
export function reportError(io: CliIo, command: string, error: ReaderError): void {
  io.stderr(`cfn-impact ${command}: ${error.message}\n  ${error.fix}\n`);
}

const USAGE = `Usage: cfn-impact stacks [STACK] [--region R] [--profile P] [--endpoint URL] [--all] [--json]

Lists the stacks of a region with their status, in-progress stacks first; with a STACK (name or
ARN), that stack's recent operations, newest first, with their outcome and duration.
  --all     include deleted stacks
  --json    print JSON instead of a table
`;

/** How many pages of events `stacks STACK` reads back: the recent operations are in the first few. */
const HISTORY_PAGES = 10;

/** `cfn-impact stacks`: resolves to the exit code (0 listed, 1 error). */
export async function runStacks(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, [], ['--json', '--all']);
  if (typeof parsed === 'string') {
    io.stderr(`cfn-impact stacks: ${parsed}\n\n${USAGE}`);
    return 1;
  }
  if (parsed.flags.has('--help')) {
    io.stdout(USAGE);
    return 0;
  }
  if (parsed.positional.length > 1) {
    io.stderr(`cfn-impact stacks: unexpected argument ${parsed.positional[1]}\n\n${USAGE}`);
    return 1;
  }
  const connected = await connect(parsed.connection, io, 3);
  if (!connected.ok) {
    reportError(io, 'stacks', connected.error);
    return 1;
  }
  const reader = connected.reader;
  try {
    const stackName = parsed.positional[0];
    if (stackName !== undefined) return await printOperations(reader, stackName, parsed.flags.has('--json'), io);
    const listed = await reader.listStacks();
    if (!listed.ok) {
      reportError(io, 'stacks', listed.error);
      return 1;
    }
    const stacks = listed.value
      .filter((s) => parsed.flags.has('--all') || s.status !== 'DELETE_COMPLETE')
      .sort((a, b) => {
        const ar = stackPhase(a.status) === 'in-progress' ? 0 : 1;
        const br = stackPhase(b.status) === 'in-progress' ? 0 : 1;
        return ar - br || (b.lastUpdatedTime ?? b.creationTime) - (a.lastUpdatedTime ?? a.creationTime) || a.stackName.localeCompare(b.stackName);
      });
    if (parsed.flags.has('--json')) {
      const rows = stacks.map((s) => ({
        stackName: s.stackName,
        stackId: s.stackId,
        status: s.status,
        reason: s.statusReason ?? null,
        lastUpdated: new Date(s.lastUpdatedTime ?? s.creationTime).toISOString(),
      }));
      io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    if (stacks.length === 0) {
      io.stdout(`No stacks in ${reader.info.region}.\n`);
      return 0;
    }
    const paint = paintFor(io);
    const nameWidth = Math.min(48, Math.max(5, ...stacks.map((s) => s.stackName.length)));
    const statusWidth = Math.max(6, ...stacks.map((s) => s.status.length));
    const width = Number(io.env.COLUMNS) || 120;
    io.stdout(paint.bold(`${fit('STACK', nameWidth)}  ${fit('STATUS', statusWidth)}  ${fit('LAST UPDATED', 20)}  REASON`) + '\n');
    for (const s of stacks) {
      const updated = timeText(s.lastUpdatedTime ?? s.creationTime);
      const reasonWidth = Math.max(10, width - nameWidth - statusWidth - 26);
      const line = `${fit(s.stackName, nameWidth)}  ${paint.status(s.status, fit(s.status, statusWidth))}  ${fit(updated, 20)}  ${cut(s.statusReason ?? '', reasonWidth)}`;
      io.stdout(`${line.trimEnd()}\n`);
    }
    return 0;
  } finally {
    reader.dispose();
  }
}

/** `cfn-impact stacks STACK`: the stack's status and recent operations, from one read of its history. */
async function printOperations(reader: CloudFormationReader, stackName: string, json: boolean, io: CliIo): Promise<number> {
  const described = await reader.describeStacks({ stackName });
  if (!described.ok) {
    reportError(io, 'stacks', described.error);
    return 1;
  }
  const stack = described.value[0];
  if (!stack) {
    io.stderr(`cfn-impact stacks: Stack with id ${stackName} does not exist\n`);
    return 1;
  }
  const events = await reader.describeStackEvents(stack.stackId, { maxPages: HISTORY_PAGES });
  if (!events.ok) {
    reportError(io, 'stacks', events.error);
    return 1;
  }
  const operations = recentOperations(events.value.events, stack.lastOperations);
  if (json) {
    const out = {
      stackName: stack.stackName,
      stackId: stack.stackId,
      status: stack.status,
      reason: stack.statusReason ?? null,
      operations: operations.map((o) => ({
        operationId: o.operationId ?? null,
        operationType: o.operationType,
        outcome: o.outcome,
        status: o.status,
        startedAt: new Date(o.startedAt).toISOString(),
        durationMs: o.lastEventAt - o.startedAt,
        events: o.eventCount,
      })),
    };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const paint = paintFor(io);
  io.stdout(`${paint.bold(stack.stackName)}  ${paint.status(stack.status, stack.status)}${stack.statusReason ? `  ${stack.statusReason}` : ''}\n`);
  if (operations.length === 0) {
    io.stdout('No operation was found in its recent events.\n');
    return 0;
  }
  const rows = operations.map((o) => [operationName(o.operationType), o.outcome === 'in-progress' ? 'running' : o.outcome, durationText(o.lastEventAt - o.startedAt), timeText(o.startedAt), operationStatusShown(o) ?? '']);
  const widths = [0, 1, 2, 3].map((i) => Math.max(['OPERATION', 'OUTCOME', 'DURATION', 'STARTED'][i]!.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 4 ? fit(cell, widths[i]!) : cell)).join('  ').trimEnd();
  io.stdout(paint.bold(line(['OPERATION', 'OUTCOME', 'DURATION', 'STARTED', 'STATUS'])) + '\n');
  for (const row of rows) io.stdout(`${line(row)}\n`);
  return 0;
}

/** `2024-05-01 10:00:00Z`: a time as the stacks table writes it. */
function timeText(time: number): string {
  return new Date(time).toISOString().slice(0, 19).replace('T', ' ') + 'Z';
}
