/**
 * `cfn-impact diff OLD NEW`: the engine's verdict for CI and code review.
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeUpdate, DEFAULT_ACCOUNT_ID, DEFAULT_REGION } from '../impact';
import { changesSomething, replacedIds, stackRiskFails } from '../impact/claims';
import { changeReason, diagnosticText, noteTexts, verdictMessage } from '../present';
import type { ImpactReport, ResourceChange } from '../impact/types';
import { loadResourceSpec } from '../spec/load';
import { isStackStatus } from '../cloudformation/stackLifecycle';
import { LineIndex } from '../template';
import type { CliIo } from './io';
import { readParameterFile } from '../evaluate/parameterFile';
import { renderMarkdown, renderText } from './renderReport';

type ParameterValues = Record<string, string>;

const FAIL_ON = ['replacement', 'will-fail', 'any'] as const;
type FailOn = (typeof FAIL_ON)[number];

export const DIFF_USAGE = `Usage: cfn-impact diff OLD_TEMPLATE NEW_TEMPLATE [options]

Predicts what deploying NEW_TEMPLATE over a stack created from OLD_TEMPLATE will do.

Options:
  --parameters FILE       parameter values for both templates
  --old-parameters FILE   parameter values of the deployed stack
  --new-parameters FILE   parameter values for the update (UsePreviousValue takes the old value)
  --region REGION         default us-east-1
  --account-id ID         default 123456789012
  --stack-name NAME       default: the new template's file name
  --stack-status STATUS   the deployed stack's status; CloudFormation rejects updates in most states
  --fail-on LEVEL         exit 2 when the update has a replacement | will-fail | any change
  --json                  print one JSON object
  --markdown              print a Markdown summary for a pull request
  --no-color              plain text even on a terminal
`;

/** Runs `diff`; returns the process exit code (0 ok, 1 error or rejected update, 2 gate tripped). */
export function runDiff(argv: string[], io: CliIo): number {
  // With --json a caller always gets exactly one object on stdout, errors included; people get
  // the message on stderr either way.
  const json = argv.includes('--json');
  const fail = (message: string, usage = false): number => {
    io.stderr(`cfn-impact diff: ${message}\n${usage ? `\n${DIFF_USAGE}` : ''}`);
    if (json) io.stdout(`${JSON.stringify({ status: 'error', message, changes: [], diagnostics: [], notes: [] })}\n`);
    return 1;
  };
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        parameters: { type: 'string' },
        'old-parameters': { type: 'string' },
        'new-parameters': { type: 'string' },
        region: { type: 'string' },
        'account-id': { type: 'string' },
        'stack-name': { type: 'string' },
        'stack-status': { type: 'string' },
        'fail-on': { type: 'string' },
        json: { type: 'boolean' },
        markdown: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return fail((e as Error).message, true);
  }
  const { values: opts, positionals } = args;
  if (opts.help) {
    io.stdout(DIFF_USAGE);
    return 0;
  }
  if (positionals.length !== 2) return fail(`expected two template files, got ${positionals.length}`, true);
  const failOn = opts['fail-on'];
  if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) {
    return fail(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
  }
  const stackStatus = opts['stack-status'];
  if (stackStatus !== undefined && !isStackStatus(stackStatus)) {
    return fail(`--stack-status ${stackStatus} is not a CloudFormation stack status (for example UPDATE_COMPLETE)`);
  }
  const [oldPath, newPath] = positionals;
  let oldText, newText, shared, oldOnly, newOnly;
  try {
    oldText = readText(oldPath);
    newText = readText(newPath);
    shared = readParameters(opts.parameters);
    oldOnly = readParameters(opts['old-parameters']);
    newOnly = readParameters(opts['new-parameters']);
  } catch (e) {
    return fail((e as Error).message);
  }
  // A shared file may name parameters only one side declares; explicit per-side files are strict.
  const oldParameters = oldOnly.values;
  const newParameters: ParameterValues = newOnly.values;

  const stackName = opts['stack-name'] ?? basename(newPath, extname(newPath));
  let spec;
  try {
    spec = loadResourceSpec();
  } catch (e) {
    return fail((e as Error).message);
  }
  const { report } = analyzeUpdate(
    { text: oldText, parameters: oldParameters, fallbackParameters: shared.values },
    { text: newText, parameters: newParameters, fallbackParameters: shared.values, usePreviousValues: newOnly.usePrevious },
    {
      spec,
      region: opts.region ?? DEFAULT_REGION,
      accountId: opts['account-id'] ?? DEFAULT_ACCOUNT_ID,
      stackName,
      stackStatus,
    },
  );

  const files = { old: { path: oldPath, lines: new LineIndex(oldText) }, new: { path: newPath, lines: new LineIndex(newText) } };
  if (opts.json) io.stdout(`${JSON.stringify(toJson(report, files))}\n`);
  else if (opts.markdown) io.stdout(renderMarkdown(report, { stackName, files }));
  else io.stdout(renderText(report, { stackName, files, color: io.isTTY && !opts['no-color'] && !io.env.NO_COLOR }));

  if (report.status === 'error') return 1;
  if (failOn && report.changes.some((c) => tripsGate(c, failOn as FailOn))) return 2;
  // An export another stack imports fails the update as surely as a resource that cannot be updated.
  if ((failOn === 'will-fail' || failOn === 'any') && stackRiskFails(report)) return 2;
  return 0;
}

/**
 * Whether a change trips the CI gate. A possible replacement counts, and so does a replacement
 * that will also fail. The gate weighs what happens (`impact`), not the change set's `Replacement`:
 * an instance type change is `Conditional` there but only interrupts the instance, and a resource
 * that only re-reads unchanged values changes nothing.
 */
function tripsGate(change: ResourceChange, failOn: FailOn): boolean {
  if (!changesSomething(change)) return false;
  if (failOn === 'any') return true;
  if (failOn === 'will-fail') return change.impact === 'will-fail';
  if (change.impact === 'will-fail') return change.replacement === 'True';
  return change.impact === 'replacement' || change.impact === 'conditional-replacement';
}

/** A file's text; throws an Error whose message is fit for a person when it cannot be read. */
function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new Error(`cannot read ${path}: ${why}`);
  }
}

/** A parameters file's values (none when no file is given); throws like `readText`. */
function readParameters(path: string | undefined): { values: ParameterValues; usePrevious: string[] } {
  if (path === undefined) return { values: {}, usePrevious: [] };
  const parsed = readParameterFile(readText(path));
  if (!parsed.ok) throw new Error(`${path}: ${parsed.message}`);
  return { values: parsed.parameters, usePrevious: parsed.usePrevious };
}

interface FileLines {
  path: string;
  lines: LineIndex;
}

/**
 * The `--json` shape: the report, with 1-based line/column positions added to every range, and
 * the words every other face shows (`message`, each change's `reason`, each diagnostic's
 * `message`, the notes) beside the structured causes they are worded from.
 */
function toJson(report: ImpactReport, files: { old: FileLines; new: FileLines }) {
  const where = (range: { start: number; end: number } | undefined, side: 'old' | 'new') => {
    if (!range) return undefined;
    const file = files[side];
    const start = file.lines.positionAt(range.start);
    const end = file.lines.positionAt(range.end);
    return { file: file.path, start: { line: start.line + 1, column: start.character + 1 }, end: { line: end.line + 1, column: end.character + 1 } };
  };
  const replaced = replacedIds(report.changes);
  return {
    status: report.status,
    message: verdictMessage(report),
    changes: report.changes.map((c) => ({
      ...c,
      reason: changeReason(c, replaced),
      location: where(c.range, c.rangeIn),
      details: c.details.map((d) => ({ ...d, location: where(d.range, d.rangeIn) })),
    })),
    diagnostics: report.diagnostics.map((d) => ({ ...d, message: diagnosticText(d), location: where(d.range, d.rangeIn) })),
    notes: noteTexts(report.notes),
  };
}
