/**
 * `cfn-impact diff OLD NEW`: the engine's verdict for CI and code review.
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeUpdate, DEFAULT_ACCOUNT_ID, DEFAULT_REGION, type AnalyzeOptions } from '../impact';
import { changesSomething, replacedIds, stackRiskFails } from '../impact/claims';
import { changeReason, diagnosticText, noteTexts, stackRiskText, verdictMessage } from '../present';
import type { ImpactReport, NestedReport, ResourceChange } from '../impact/types';
import { loadResourceSpec } from '../spec/load';
import { isStackStatus } from '../cloudformation/stackLifecycle';
import { LineIndex } from '../template';
import type { CliIo } from './io';
import { readParameterFile } from '../evaluate/parameterFile';
import { renderMarkdown, renderText } from './renderReport';
import { readDeployedBaseline } from './deployedBaseline';
import { childTemplatesOf, type ChildFiles } from './childTemplates';

type ParameterValues = Record<string, string>;

const FAIL_ON = ['replacement', 'will-fail', 'any'] as const;
type FailOn = (typeof FAIL_ON)[number];

export const DIFF_USAGE = `Usage: cfn-impact diff OLD_TEMPLATE NEW_TEMPLATE [options]
       cfn-impact diff --stack NAME NEW_TEMPLATE [options]

Predicts what deploying NEW_TEMPLATE over a stack created from OLD_TEMPLATE will do. With
--stack, the baseline is the deployed stack (its template, parameter values and status, read
only), and what other stacks import from it and export to it is read too.

Options:
  --stack NAME            compare with this deployed stack (read-only calls)
  --profile P, --endpoint URL  where --stack reads (default: the AWS environment)
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

/** Runs `diff`; resolves to the process exit code (0 ok, 1 error or rejected update, 2 gate tripped). */
export async function runDiff(argv: string[], io: CliIo): Promise<number> {
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
        stack: { type: 'string' },
        profile: { type: 'string' },
        endpoint: { type: 'string' },
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
  const deployedStack = opts.stack;
  if (deployedStack === undefined && positionals.length !== 2) return fail(`expected two template files, got ${positionals.length}`, true);
  if (deployedStack !== undefined && positionals.length !== 1) return fail(`with --stack, expected one template file, got ${positionals.length}`, true);
  if (deployedStack === undefined && (opts.profile !== undefined || opts.endpoint !== undefined)) return fail('--profile and --endpoint need --stack', true);
  if (opts.endpoint !== undefined && !/^https?:\/\/[^\s/]+/.test(opts.endpoint)) return fail(`--endpoint must be an http(s) URL, got ${opts.endpoint}`);
  const failOn = opts['fail-on'];
  if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) {
    return fail(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
  }
  let stackStatus = opts['stack-status'];
  if (stackStatus !== undefined && !isStackStatus(stackStatus)) {
    return fail(`--stack-status ${stackStatus} is not a CloudFormation stack status (for example UPDATE_COMPLETE)`);
  }
  const newPath = positionals[positionals.length - 1];
  let oldPath = positionals.length === 2 ? positionals[0] : `stack ${deployedStack}`;
  let oldText = '';
  let newText, shared, oldOnly, newOnly;
  try {
    if (deployedStack === undefined) oldText = readText(oldPath);
    newText = readText(newPath);
    shared = readParameters(opts.parameters);
    oldOnly = readParameters(opts['old-parameters']);
    newOnly = readParameters(opts['new-parameters']);
  } catch (e) {
    return fail((e as Error).message);
  }
  // A shared file may name parameters only one side declares; explicit per-side files are strict.
  let oldParameters = oldOnly.values;
  const newParameters: ParameterValues = newOnly.values;
  let region = opts.region ?? DEFAULT_REGION;
  let crossStack: AnalyzeOptions['crossStack'];
  if (deployedStack !== undefined) {
    const deployed = await readDeployedBaseline(deployedStack, newText, { region: opts.region, profile: opts.profile, endpoint: opts.endpoint }, io);
    if (!deployed.ok) return fail(deployed.message);
    ({ templateBody: oldText, parameters: oldParameters, status: stackStatus, region, crossStack } = deployed.value);
    if (deployed.value.crossStackProblem) {
      io.stderr(`cfn-impact diff: exports and imports could not be read, so they are compared offline: ${deployed.value.crossStackProblem}\n`);
    }
    oldPath = `stack ${deployedStack}`;
  }

  const stackName = opts['stack-name'] ?? deployedStack ?? basename(newPath, extname(newPath));
  let spec;
  try {
    spec = loadResourceSpec();
  } catch (e) {
    return fail((e as Error).message);
  }
  const children = childTemplatesOf(newPath, deployedStack === undefined ? oldPath : undefined);
  const { report } = analyzeUpdate(
    { text: oldText, parameters: oldParameters, fallbackParameters: shared.values },
    { text: newText, parameters: newParameters, fallbackParameters: shared.values, usePreviousValues: newOnly.usePrevious },
    {
      spec,
      region,
      accountId: opts['account-id'] ?? DEFAULT_ACCOUNT_ID,
      stackName,
      stackStatus,
      ...(crossStack ? { crossStack } : {}),
      nested: children.nested,
    },
  );

  const files = { old: { path: oldPath, lines: new LineIndex(oldText) }, new: { path: newPath, lines: new LineIndex(newText) } };
  if (opts.json) io.stdout(`${JSON.stringify(toJson(report, files, children))}\n`);
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

/** The two files of a nested stack's template, as the CLI read them. */
function childFiles(path: string, children: ReturnType<typeof childTemplatesOf>): { old: FileLines; new: FileLines } {
  const side = (files: ChildFiles | undefined): FileLines => ({ path: files ? files.pathOf(path) : path, lines: new LineIndex(files?.texts.get(path) ?? '') });
  return { old: side(children.oldFiles), new: side(children.newFiles) };
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
function toJson(report: ImpactReport, files: { old: FileLines; new: FileLines }, children: ReturnType<typeof childTemplatesOf>) {
  return { ...jsonOfPlan(report, files, children), notes: noteTexts(report.notes) };
}

/** A plan's `--json` shape, the top template's or a nested stack's, each nested plan located in its own files. */
function jsonOfPlan(report: ImpactReport | NestedReport, files: { old: FileLines; new: FileLines }, children: ReturnType<typeof childTemplatesOf>): object {
  const where = (range: { start: number; end: number } | undefined, side: 'old' | 'new') => {
    if (!range) return undefined;
    const file = files[side];
    const start = file.lines.positionAt(range.start);
    const end = file.lines.positionAt(range.end);
    return { file: file.path, start: { line: start.line + 1, column: start.character + 1 }, end: { line: end.line + 1, column: end.character + 1 } };
  };
  const replaced = replacedIds(report.changes);
  return {
    ...('path' in report ? { path: report.path } : {}),
    status: report.status,
    message: verdictMessage({ ...report, notes: [] }),
    changes: report.changes.map((c) => ({
      ...c,
      reason: changeReason(c, replaced),
      location: where(c.range, c.rangeIn),
      details: c.details.map((d) => ({ ...d, location: where(d.range, d.rangeIn) })),
      ...(c.nested ? { nested: jsonOfPlan(c.nested, childFiles(c.nested.path, children), children) } : {}),
    })),
    ...(report.risks ? { risks: report.risks.map((risk) => ({ ...risk, message: stackRiskText(risk) })) } : {}),
    diagnostics: report.diagnostics.map((d) => ({ ...d, message: diagnosticText(d), location: where(d.range, d.rangeIn) })),
  };
}
