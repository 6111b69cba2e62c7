/**
 * `cfn-impact watch STACK`: follows one deployment until the stack leaves its `*_IN_PROGRESS`
 * state, then exits 0 (succeeded), 2 (failed or rolled back) or 1 (any other error), so CI can
 * gate on it. A live redrawn view on a terminal, plain lines otherwise, JSON lines with --json.
 */
import { isRunning, isTerminal, operationOutcome } from '../cloudformation/stackLifecycle';
import type { OperationSummary } from '../stacks/stackModel';
import { StackWatcher, systemClock, type StackSnapshot, type WatcherChange, type WatcherClock } from '../stacks/stackWatcher';
import type { ReaderError, StackEvent } from '../stacks/types';
import type { CliIo } from './io';
import { durationText, leftBehindLine, progressCounts, rootCauseLine, validationFailureLine } from '../present';
import { failedValidations, latestOperationId, type ValidationFailure } from '../stacks/earlyValidation';
import type { CloudFormationReader } from '../stacks/cloudFormationReader';
import type { OperationProgress } from '../stacks/operationProgress';
import { WatchProgress } from './watchProgress';
import { connect, parseArgs, reportError } from './stacks';
import { REDRAW, clockTime, cut, fit, paintFor, type Paint } from './terminal';

export interface WatchDeps {
  /** The clock the watcher polls on (tests pass a fake one). */
  clock?: WatcherClock;
}

/**
 * How long a watch waits without seeing anything change before it gives up. CloudFormation can
 * be silent for a long time while one resource stabilises (a CloudFront distribution, a database
 * cluster), so the default is generous; its purpose is that nothing (a throttled account, a
 * stack that cannot be read) keeps a CI job waiting until its own time limit.
 */
const DEFAULT_QUIET_LIMIT_MIN = 60;

const USAGE = `Usage: cfn-impact watch STACK [--region R] [--profile P] [--endpoint URL] [--interval-ms N] [--quiet-limit-min N] [--json]

Follows the stack's current (or last) operation until it is no longer in progress; a stack at rest
ends the watch at once, with its last operation's outcome.
Exit code: 0 succeeded, 2 failed or rolled back, 1 any other error (no such stack, no credentials,
nothing seen to change for the quiet limit).
  --json               JSON lines: {"type":"stack"}, {"type":"event"} per event, {"type":"progress"} whenever
                       a count changes (done never goes back; the last has done === total), then {"type":"done"}
  --interval-ms N      poll interval while the deployment runs (default 2000, growing to 5000 when quiet)
  --quiet-limit-min N  give up when no event, status or resource change was seen for N minutes (default ${DEFAULT_QUIET_LIMIT_MIN})
`;

/** Errors that polling again will not fix. */
const FATAL: ReadonlySet<ReaderError['kind']> = new Set(['not-found', 'no-credentials', 'expired-credentials', 'access-denied', 'unknown-region']);
/** Transient errors (network, server) end the watch after this many failed polls in a row. */
const MAX_CONSECUTIVE_ERRORS = 5;

type Outcome =
  | { kind: 'done'; stack: StackSnapshot; operation?: OperationSummary }
  | { kind: 'error'; error: ReaderError }
  | { kind: 'quiet'; minutes: number; stack?: StackSnapshot };


/** `cfn-impact watch`: resolves to the exit code. */
export async function runWatch(argv: string[], io: CliIo, deps: WatchDeps = {}): Promise<number> {
  const parsed = parseArgs(argv, ['--interval-ms', '--quiet-limit-min'], ['--json']);
  if (typeof parsed === 'string') {
    io.stderr(`cfn-impact watch: ${parsed}\n\n${USAGE}`);
    return 1;
  }
  if (parsed.flags.has('--help')) {
    io.stdout(USAGE);
    return 0;
  }
  const [stackName, ...extra] = parsed.positional;
  if (!stackName || extra.length > 0) {
    io.stderr(`cfn-impact watch: ${stackName ? `unexpected argument ${extra[0]}` : 'which stack? (STACK is required)'}\n\n${USAGE}`);
    return 1;
  }
  const intervalText = parsed.values.get('--interval-ms');
  const interval = intervalText === undefined ? 2000 : Number(intervalText);
  if (!Number.isInteger(interval) || interval < 1) {
    io.stderr(`cfn-impact watch: --interval-ms must be a positive whole number of milliseconds, got ${intervalText}\n`);
    return 1;
  }
  const quietText = parsed.values.get('--quiet-limit-min');
  const quietMinutes = quietText === undefined ? DEFAULT_QUIET_LIMIT_MIN : Number(quietText);
  if (!Number.isInteger(quietMinutes) || quietMinutes < 1) {
    io.stderr(`cfn-impact watch: --quiet-limit-min must be a positive whole number of minutes, got ${quietText}\n`);
    return 1;
  }
  const connected = await connect(parsed.connection, io, 1);
  if (!connected.ok) {
    reportError(io, 'watch', connected.error);
    return 1;
  }
  const reader = connected.reader;
  const clock = deps.clock ?? systemClock;
  const watcher = new StackWatcher({
    reader,
    clock,
    scope: [stackName],
    activeIntervalMs: interval,
    activeMaxIntervalMs: intervalText === undefined ? 5000 : interval,
    settledIntervalMs: Math.max(interval, 5000),
    quietLimitMs: quietMinutes * 60_000,
  });
  const json = parsed.flags.has('--json');
  const progress = new WatchProgress();
  const view = json ? new JsonView(io) : io.isTTY ? new LiveView(io, watcher, clock, progress) : new PlainView(io);
  try {
    const outcome = await new Promise<Outcome>((resolve) => {
      watcher.onDidChange((change) => {
        view.onChange(change);
        const changed = progress.next(watcher.getStack(stackName), clock.now());
        if (changed) view.onProgress(changed);
        switch (change.kind) {
          case 'operation-ended': {
            const stack = watcher.getStack(change.stackId);
            if (stack && isTerminal(stack.status)) resolve({ kind: 'done', stack, operation: change.operation });
            break;
          }
          case 'resources': {
            // Resources are reloaded whenever an operation ends, and once at the start: a stack
            // already settled (even one whose history shows no operation start) ends the watch.
            const stack = watcher.getStack(change.stackId);
            if (stack?.detailed && isTerminal(stack.status)) resolve({ kind: 'done', stack, operation: stack.operation });
            break;
          }
          case 'quiet':
            resolve({ kind: 'quiet', minutes: quietMinutes, stack: watcher.getStack(stackName) });
            break;
          case 'error':
            if (change.error && (FATAL.has(change.error.kind) || change.consecutive >= MAX_CONSECUTIVE_ERRORS)) {
              resolve({ kind: 'error', error: change.error });
            }
            break;
        }
      });
      watcher.start();
    });
    if (outcome.kind === 'error') {
      view.close();
      reportError(io, 'watch', outcome.error);
      return 1;
    }
    if (outcome.kind === 'quiet') {
      view.close();
      const status = outcome.stack?.status ? ` (last seen ${outcome.stack.status})` : '';
      io.stderr(`cfn-impact watch: nothing about ${stackName} changed for ${outcome.minutes} min${status}; giving up. Run it again to go on watching, or raise --quiet-limit-min.\n`);
      return 1;
    }
    const last = progress.next(outcome.stack, clock.now());
    if (last) view.onProgress(last);
    const result = operationOutcome(outcome.stack.status);
    const rejected = result === 'failed' ? await readValidationFailures(reader, outcome.stack) : [];
    view.finish(outcome.stack, outcome.operation, rejected);
    return result === 'succeeded' ? 0 : result === 'failed' ? 2 : 1;
  } finally {
    watcher.dispose();
    reader.dispose();
  }
}

/**
 * The early-validation checks that rejected the stack's last operation, from DescribeEvents (one
 * call, failed events only). Empty when CloudFormation gave no operation id or the call failed:
 * a policy without `cloudformation:DescribeEvents` still gets the outcome, without this detail.
 */
async function readValidationFailures(reader: CloudFormationReader, stack: StackSnapshot): Promise<ValidationFailure[]> {
  const operationId = latestOperationId(stack.events, stack.stackId);
  if (operationId === undefined) return [];
  const read = await reader.describeEvents(stack.stackId, operationId, { failedOnly: true });
  return read.ok ? failedValidations(read.value) : [];
}

interface View {
  onChange(change: WatcherChange): void;
  /** The operation's progress counts changed. */
  onProgress(progress: OperationProgress): void;
  /** `rejected`: the early-validation checks that failed the operation, which are then its root cause. */
  finish(stack: StackSnapshot, operation: OperationSummary | undefined, rejected: ValidationFailure[]): void;
  close(): void;
}

/** JSON lines exactly as documented: stack changes, each event once (oldest first), then done. */
class JsonView implements View {
  constructor(private readonly io: CliIo) {}

  onChange(change: WatcherChange): void {
    if (change.kind === 'event' && change.inOperation) {
      const e = change.event;
      this.line({
        type: 'event',
        eventId: e.eventId,
        logicalId: e.logicalId,
        physicalId: e.physicalId ?? null,
        resourceType: e.resourceType,
        status: e.status,
        reason: e.reason ?? null,
        timestamp: new Date(e.timestamp).toISOString(),
      });
    } else if (change.kind === 'status' && change.inOperation) {
      this.line({ type: 'stack', stackName: change.stackName, status: change.to, reason: change.reason ?? null });
    }
  }

  onProgress(p: OperationProgress): void {
    this.line({ type: 'progress', done: p.done, total: p.total, inProgress: p.inProgress, failed: p.failed, elapsedMs: p.elapsedMs, etaMs: p.etaMs });
  }

  finish(stack: StackSnapshot, operation: OperationSummary | undefined, rejected: ValidationFailure[]): void {
    const cause = operation?.rootCause;
    const [firstRejection] = rejected;
    this.line({
      type: 'done',
      stackName: stack.stackName,
      status: stack.status,
      reason: stack.statusReason ?? null,
      rootCause: firstRejection
        ? { logicalId: firstRejection.logicalId ?? stack.stackName, status: 'VALIDATION_FAILED', reason: firstRejection.reason ?? null }
        : cause
          ? { logicalId: cause.logicalId, status: cause.status, reason: cause.reason ?? null }
          : null,
      validationFailures: rejected.map((v) => ({ name: v.name, logicalId: v.logicalId ?? null, path: v.path ?? null, reason: v.reason ?? null })),
      resources: stack.resources.map((r) => ({
        logicalId: r.logicalId,
        physicalId: r.physicalId ?? null,
        resourceType: r.resourceType,
        status: r.status,
      })),
      undeleted: [...new Set((operation?.undeleted ?? []).map((u) => u.logicalId))],
    });
  }

  close(): void {}

  private line(value: unknown): void {
    this.io.stdout(`${JSON.stringify(value)}\n`);
  }
}

function eventLine(e: StackEvent, paint: Paint): string {
  // The physical id tells the old resource from its replacement during cleanup; a stack's own
  // id is its long ARN, which says nothing the stack name does not.
  const physical = e.resourceType === 'AWS::CloudFormation::Stack' ? '' : (e.physicalId ?? '');
  const parts = [clockTime(e.timestamp), fit(e.logicalId, 24), fit(e.resourceType, 28), paint.dim(fit(physical, 24)), paint.status(e.status, fit(e.status, 36))];
  if (e.reason) parts.push(e.reason);
  return parts.join('  ').trimEnd();
}

function summaryLines(stack: StackSnapshot, operation: OperationSummary | undefined, rejected: ValidationFailure[], paint: Paint): string[] {
  const outcome = operationOutcome(stack.status);
  const lines = [
    `${paint.bold(stack.stackName)}: ${paint.status(stack.status)}${stack.statusReason ? ` — ${stack.statusReason}` : ''}` +
      (outcome === 'succeeded' ? '' : paint.red(' (failed)')),
  ];
  const cause = operation?.rootCause;
  // A rejection by early validation is why the operation failed; the stack's own failure event only says that it was rejected.
  for (const v of rejected) lines.push(paint.red(validationFailureLine(v)));
  if (cause && outcome !== 'succeeded' && rejected.length === 0) {
    lines.push(rootCauseLine(cause, (status) => paint.status(status)));
  }
  for (const u of operation?.undeleted ?? []) lines.push(paint.yellow(leftBehindLine(u)));
  return lines;
}

/** One line per event of the deployment, then a summary: for logs and pipes. */
class PlainView implements View {
  private readonly paint: Paint;
  private announced = false;

  constructor(private readonly io: CliIo) {
    this.paint = paintFor(io);
  }

  onChange(change: WatcherChange): void {
    if (change.kind === 'event' && change.inOperation) {
      if (!this.announced) {
        this.announced = true;
        this.io.stdout(`Watching ${change.stackName}\n`);
      }
      this.io.stdout(`${eventLine(change.event, this.paint)}\n`);
    }
  }

  /** Logs keep one line per event; the summary at the end gives the outcome. */
  onProgress(): void {}

  finish(stack: StackSnapshot, operation: OperationSummary | undefined, rejected: ValidationFailure[]): void {
    this.io.stdout(`${summaryLines(stack, operation, rejected, this.paint).join('\n')}\n`);
  }

  close(): void {}
}

/** A continuously redrawn screen: stack status, resources with physical ids, latest events. */
class LiveView implements View {
  private readonly paint: Paint;
  private stackId?: string;
  private pending = false;

  constructor(
    private readonly io: CliIo,
    private readonly watcher: StackWatcher,
    private readonly clock: WatcherClock,
    private readonly progress: WatchProgress,
  ) {
    this.paint = paintFor(io);
  }

  /** The screen is redrawn on every change anyway; the progress is read when drawing. */
  onProgress(): void {}

  onChange(change: WatcherChange): void {
    if ('stackId' in change && change.stackId) this.stackId = change.stackId;
    // Changes arrive in bursts (one per event); draw once per burst.
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.draw();
    });
  }

  finish(stack: StackSnapshot, operation: OperationSummary | undefined, rejected: ValidationFailure[]): void {
    this.draw(stack);
    this.io.stdout(`\n${summaryLines(stack, operation, rejected, this.paint).join('\n')}\n`);
  }

  close(): void {}

  private draw(given?: StackSnapshot): void {
    const stack = given ?? (this.stackId ? this.watcher.getStack(this.stackId) : undefined);
    if (!stack) return;
    const width = Number(this.io.env.COLUMNS) || 120;
    const rows = Number(this.io.env.LINES) || 40;
    const p = this.paint;
    const lines: string[] = [];
    const started = stack.operation?.startedAt;
    const elapsed = started !== undefined ? `  ${p.dim(durationText((stack.operation?.endedAt ?? this.clock.now()) - started))}` : '';
    const current = this.progress.current;
    const running = isRunning(stack.status);
    const counts = current ? `  ${progressCounts(current, running)}` : '';
    lines.push(`${p.bold(stack.stackName)}  ${p.status(stack.status)}${counts}${elapsed}`);
    if (stack.statusReason) lines.push(p.dim(cut(stack.statusReason, width)));
    lines.push('');
    lines.push(p.bold(`${fit('RESOURCE', 24)}  ${fit('TYPE', 28)}  ${fit('STATUS', 36)}  PHYSICAL ID`));
    for (const r of [...stack.resources].sort((a, b) => a.logicalId.localeCompare(b.logicalId))) {
      let physical = r.physicalId ?? '';
      for (const former of r.formerPhysical) physical += `  (replaces ${former.physicalId}: ${former.status})`;
      if (r.cleanup) physical += `  (cleanup: ${r.cleanup.status})`;
      lines.push(cut(`${fit(r.logicalId, 24)}  ${fit(r.resourceType, 28)}  ${p.status(r.status, fit(r.status, 36))}  ${physical}`, width + 20));
    }
    lines.push('');
    lines.push(p.bold('LATEST EVENTS'));
    const room = Math.max(3, rows - lines.length - 2);
    for (const e of stack.events.slice(0, room)) lines.push(cut(eventLine(e, p), width + 20));
    this.io.stdout(`${REDRAW}${lines.join('\n')}\n`);
  }
}
