/**
 * `cfn-impact diff`: the engine's verdict for CI and code review, for two files, a template
 * against its deployed stack (`--stack`), or every template a branch changes (`--base`).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeUpdate, type AnalyzeOptions, type TemplateSide } from '../impact';
import { loadResourceSpec } from '../spec/load';
import { isStackStatus } from '../cloudformation/stackLifecycle';
import { LineIndex } from '../template';
import { artifactsBeside } from './localArtifacts';
import type { CliIo } from './io';
import { readParameterFile } from '../evaluate/parameterFile';
import { renderReviewMarkdown, renderReviewText } from './renderReport';
import { reviewBranch } from './branchReview';
import { openReader, stackSides } from './stackBaseline';
import { FAIL_ON, reviewExitCode, type FailOn, type Review } from './review';
import { renderJson } from './formats/json';
import { renderGithub, renderGithubFailure } from './formats/github';
import { renderFailedSarif, renderSarif } from './formats/sarif';
import { childTemplatesOf, type ChildTemplates } from './childTemplates';
import { givenRegion } from './region';
import { assemblyReview, deployedAssemblyReview } from './assemblyDiff';
import { isAssemblyFolder } from '../assemblies/assemblyFolder';

type ParameterValues = Record<string, string>;

const FORMATS = ['text', 'json', 'markdown', 'github', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

export const DIFF_USAGE = `Usage: cfn-impact diff OLD_TEMPLATE NEW_TEMPLATE [options]
       cfn-impact diff --stack NAME NEW_TEMPLATE [options]
       cfn-impact diff --base REF [--head REF2] [PATH...] [options]
       cfn-impact diff OLD_CDK_OUT NEW_CDK_OUT [options]
       cfn-impact diff --deployed CDK_OUT [options]

Predicts what deploying NEW_TEMPLATE over a stack created from OLD_TEMPLATE will do; with
--stack, over the deployed stack (its template, parameter values and status, read-only); with
--base, for every template that differs between REF and the working tree (or REF2). Given two
CDK cloud assemblies (folders holding manifest.json, such as cdk.out), for each stack of the
app, named by construct; with --deployed, each stack of the app over the deployed stack of its
name, in the environment the app gives it (else --region).

Options:
  --parameters FILE       parameter values for both templates (with --stack: for NEW_TEMPLATE)
  --old-parameters FILE   parameter values of the deployed stack
  --new-parameters FILE   parameter values for the update (UsePreviousValue takes the old value)
  --stack NAME            compare with the deployed stack NAME
  --deployed              compare each stack of a CDK assembly with its deployed stack
  --profile P, --endpoint URL   where --stack and --deployed read from (read-only calls)
  --base REF, --head REF2 compare the templates of two revisions (head: the working tree)
  --parameters-map FILE   with --base: JSON object from template glob to parameters file
  --region REGION         the stack's Region (else AWS_REGION; with --stack: the stack's); else
                          AWS::Region is a deploy-time value, the same before and after
  --account-id ID         the account's id (with --stack: the stack's); else AWS::AccountId is
                          a deploy-time value, the same before and after
  --stack-name NAME       the stack's name (with --stack: the stack's); else AWS::StackName is
                          a deploy-time value, and the report names the new template's file
  --stack-status STATUS   the deployed stack's status; CloudFormation rejects updates in most states
  --revert-drift          with --stack: preview a drift-aware change set in REVERT_DRIFT mode, every
                          drifted property (as the last drift detection found it) set back
  --without-sam-cli       a SAM template reaches CloudFormation as written: no sam build/sam deploy
                          packages a function with no CodeUri from the template's folder
  --fail-on LEVEL         exit 2 when the update has a replacement | will-fail | any change
  --format FORMAT         text | json | markdown | github | sarif
  --json, --markdown      the same as --format json, --format markdown
  --no-color              plain text even on a terminal

Exit codes: 0 success, 1 error or an update CloudFormation would reject, 2 --fail-on tripped.
`;

/** Runs `diff`; resolves to the process exit code (0 ok, 1 error or rejected update, 2 gate tripped). */
export async function runDiff(argv: string[], io: CliIo): Promise<number> {
  // With JSON a caller always gets exactly one object on stdout, errors included; people get
  // the message on stderr either way.
  // So do SARIF and GitHub readers: a log that says the run failed, and an error annotation.
  const requested = requestedFormat(argv);
  const branch = argv.some((arg) => arg === '--base' || arg.startsWith('--base='));
  const assembly = argv.includes('--deployed') || argv.some((arg) => !arg.startsWith('-') && isAssemblyFolder(arg));
  const fail = (message: string, usage = false): number => {
    io.stderr(`cfn-impact diff: ${message}\n${usage ? `\n${DIFF_USAGE}` : ''}`);
    if (requested === 'json') io.stdout(`${JSON.stringify(branch ? { status: 'error', message, files: [] } : assembly ? { status: 'error', message, stacks: [] } : { status: 'error', message, changes: [], diagnostics: [], notes: [] })}\n`);
    if (requested === 'sarif') io.stdout(renderFailedSarif(message));
    if (requested === 'github') io.stdout(renderGithubFailure(message));
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
        stack: { type: 'string' },
        deployed: { type: 'boolean' },
        profile: { type: 'string' },
        endpoint: { type: 'string' },
        base: { type: 'string' },
        head: { type: 'string' },
        'parameters-map': { type: 'string' },
        region: { type: 'string' },
        'account-id': { type: 'string' },
        'stack-name': { type: 'string' },
        'stack-status': { type: 'string' },
        'without-sam-cli': { type: 'boolean' },
        'revert-drift': { type: 'boolean' },
        'fail-on': { type: 'string' },
        format: { type: 'string' },
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
  const format = (opts.format ?? (opts.json ? 'json' : opts.markdown ? 'markdown' : 'text')) as Format;
  if (!(FORMATS as readonly string[]).includes(format)) return fail(`--format must be one of ${FORMATS.join(', ')}`);
  const failOn = opts['fail-on'];
  if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) {
    return fail(`--fail-on must be one of ${FAIL_ON.join(', ')}`);
  }
  const stackStatus = opts['stack-status'];
  if (stackStatus !== undefined && !isStackStatus(stackStatus)) {
    return fail(`--stack-status ${stackStatus} is not a CloudFormation stack status (for example UPDATE_COMPLETE)`);
  }
  if (opts.stack !== undefined && opts.base !== undefined) return fail('--stack and --base are two ways to choose the baseline: give one', true);
  if (opts.stack === undefined && !opts.deployed && (opts.profile !== undefined || opts.endpoint !== undefined)) return fail('--profile and --endpoint need --stack or --deployed', true);
  if (opts.deployed && (opts.stack !== undefined || opts.base !== undefined)) return fail('--deployed compares a CDK assembly with its deployed stacks: give it without --stack or --base', true);
  if (opts.endpoint !== undefined && !/^https?:\/\/[^\s/]+/.test(opts.endpoint)) return fail(`--endpoint must be an http(s) URL, got ${opts.endpoint}`);
  if (opts.head !== undefined && opts.base === undefined) return fail('--head needs --base', true);
  if (opts['revert-drift'] && opts.stack === undefined) return fail('--revert-drift previews a drift-aware change set against the deployed stack: it needs --stack', true);
  if (opts['parameters-map'] !== undefined && opts.base === undefined) return fail('--parameters-map needs --base', true);
  let spec;
  try {
    spec = loadResourceSpec();
  } catch (e) {
    return fail((e as Error).message);
  }
  // The Region, the account and the stack's name are what they are where the stack runs: given, or
  // read from the stack; else deploy-time values, the same before and after.
  const analyzeOptions: AnalyzeOptions = { spec, stackStatus };
  const region = givenRegion(opts.region, io.env);
  if (region !== undefined) analyzeOptions.region = region;
  if (opts['account-id'] !== undefined) analyzeOptions.accountId = opts['account-id'];
  if (opts['without-sam-cli']) analyzeOptions.withoutSamCli = true;

  let review: Review;
  const assemblies = positionals.map(isAssemblyFolder);
  if (opts.deployed) {
    if (positionals.length !== 1 || !assemblies[0]) return fail(`--deployed takes one CDK cloud assembly folder (holding manifest.json), got ${positionals.length === 1 ? positionals[0] : `${positionals.length} arguments`}`, true);
    const deployed = await deployedAssemblyReview(positionals[0]!, { region: opts.region, profile: opts.profile, endpoint: opts.endpoint, env: io.env }, analyzeOptions, (message) => io.stderr(`cfn-impact diff: ${message}\n`));
    if (!deployed.ok) return fail(deployed.message);
    review = deployed.value;
  } else if (opts.stack === undefined && opts.base === undefined && assemblies.some(Boolean)) {
    if (positionals.length !== 2 || !assemblies.every(Boolean)) return fail('a CDK cloud assembly is compared with another: give two assembly folders (each holding manifest.json)', true);
    const compared = assemblyReview(positionals[0]!, positionals[1]!, analyzeOptions);
    if (!compared.ok) return fail(compared.message);
    review = compared.value;
  } else if (opts.base !== undefined) {
    const cwd = io.cwd ?? process.cwd();
    let shared;
    try {
      shared = readParameters(opts.parameters === undefined ? undefined : resolve(cwd, opts.parameters));
    } catch (e) {
      return fail((e as Error).message);
    }
    const branch = await reviewBranch({
      cwd,
      base: opts.base,
      head: opts.head,
      pathspecs: positionals,
      parametersMap: opts['parameters-map'],
      shared: shared.values,
      analyzeOptions,
    });
    if (!branch.ok) return fail(branch.message);
    review = branch.review;
  } else {
    const expected = opts.stack !== undefined ? 1 : 2;
    if (positionals.length !== expected) return fail(`expected ${expected === 1 ? 'one template file with --stack' : 'two template files'}, got ${positionals.length}`, true);
    const newPath = positionals[positionals.length - 1];
    let newText: string, before: TemplateSide, after: TemplateSide, oldPath: string;
    let stackName = opts['stack-name'] ?? basename(newPath, extname(newPath));
    // One stack's name: with --base, each template is its own stack.
    let options: AnalyzeOptions = opts['stack-name'] !== undefined ? { ...analyzeOptions, stackName: opts['stack-name'] } : analyzeOptions;
    let children: ChildTemplates | undefined;
    try {
      newText = readText(newPath);
      if (opts.stack !== undefined) {
        if (opts['old-parameters'] !== undefined) return fail('--old-parameters does not apply with --stack: the stack has its own values', true);
        if (opts.parameters !== undefined && opts['new-parameters'] !== undefined) return fail('give --parameters or --new-parameters with --stack, not both', true);
        const given = opts['new-parameters'] ?? opts.parameters;
        const newParameters = given === undefined ? undefined : readParameters(given);
        const opened = await openReader({ region: opts.region, profile: opts.profile, endpoint: opts.endpoint, env: io.env });
        if (!opened.ok) return fail(opened.message);
        const sides = await stackSides(opened.reader, opts.stack, newText, newParameters).finally(() => opened.reader.dispose());
        if (!sides.ok) return fail(sides.message);
        ({ before, after } = sides);
        oldPath = `stack ${sides.stack.stackName}`;
        stackName = opts['stack-name'] ?? sides.stack.stackName;
        options = { ...analyzeOptions, stackName, stackStatus: stackStatus ?? sides.stack.status };
        if (sides.stack.region !== undefined) options.region = sides.stack.region;
        if (options.accountId === undefined && sides.stack.accountId !== undefined) options.accountId = sides.stack.accountId;
        // The old side of each nested stack is the nested stack the deployed stack runs.
        children = childTemplatesOf(newPath, undefined, sides.stack.nested);
        if (sides.stack.crossStack) options.crossStack = sides.stack.crossStack;
        if (sides.stack.lastOperationFailures) options.lastOperationFailures = sides.stack.lastOperationFailures;
        // What the update does to changes made outside CloudFormation, as the last drift detection found them.
        if (sides.stack.drift) options.drift = sides.stack.drift;
        if (opts['revert-drift']) options.revertDrift = true;
        if (sides.stack.driftProblem) io.stderr(`cfn-impact diff: the stack's drift could not be read, so what the update does to it is not shown: ${sides.stack.driftProblem}\n`);
        if (sides.stack.crossStackProblem) {
          io.stderr(`cfn-impact diff: exports and imports could not be read, so they are compared offline: ${sides.stack.crossStackProblem}\n`);
        }
        if (sides.stack.nestedProblem) {
          io.stderr(`cfn-impact diff: the nested stacks of ${sides.stack.stackName} could not be read, so their templates are not compared: ${sides.stack.nestedProblem}\n`);
        }
      } else {
        oldPath = positionals[0];
        children = childTemplatesOf(newPath, oldPath);
        const shared = readParameters(opts.parameters);
        const oldOnly = readParameters(opts['old-parameters']);
        const newOnly = readParameters(opts['new-parameters']);
        // A shared file may name parameters only one side declares; explicit per-side files are strict.
        before = { text: readText(oldPath), parameters: oldOnly.values, fallbackParameters: shared.values };
        after = { text: newText, parameters: newOnly.values, fallbackParameters: shared.values, usePreviousValues: newOnly.usePrevious };
      }
    } catch (e) {
      return fail((e as Error).message);
    }
    // The new template is the file on disk: its local artifacts are looked for beside it.
    const artifacts = artifactsBeside(newPath, newText);
    if (artifacts) after = { ...after, artifacts };
    const { report } = analyzeUpdate(before, after, { ...options, ...(children ? { nested: children.nested } : {}) });
    const files = { old: { path: oldPath, lines: new LineIndex(before.text) }, new: { path: newPath, lines: new LineIndex(newText) } };
    review = { files: [{ path: newPath, change: 'changed', report, stackName, files, ...(children ? { children } : {}) }], branch: false, notTemplates: 0 };
  }

  io.stdout(render(review, format, io, opts['no-color'] === true));
  if (format === 'github' && io.env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(io.env.GITHUB_STEP_SUMMARY, renderReviewMarkdown(review));
    } catch (e) {
      io.stderr(`cfn-impact diff: cannot write the job summary to ${io.env.GITHUB_STEP_SUMMARY}: ${(e as NodeJS.ErrnoException).code ?? String(e)}\n`);
    }
  }
  return reviewExitCode(review, failOn as FailOn | undefined);
}

/** The format asked for, read before the arguments are parsed, so that a parse error is answered in it. */
function requestedFormat(argv: string[]): string | undefined {
  if (argv.includes('--json')) return 'json';
  const index = argv.indexOf('--format');
  if (index >= 0) return argv[index + 1];
  return argv.find((arg) => arg.startsWith('--format='))?.slice('--format='.length);
}

function render(review: Review, format: Format, io: CliIo, noColor: boolean): string {
  switch (format) {
    case 'json':
      return renderJson(review);
    case 'markdown':
      return renderReviewMarkdown(review);
    case 'github':
      return renderGithub(review);
    case 'sarif':
      return renderSarif(review);
    case 'text':
      return renderReviewText(review, io.isTTY && !noColor && !io.env.NO_COLOR);
  }
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
