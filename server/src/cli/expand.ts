/**
 * `cfn-impact expand TEMPLATE`: the processed template, as CloudFormation's `GetTemplate` returns
 * it for stage `Processed` once the Serverless transform has run.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { applyLanguageExtensions, partitionOfRegion } from '../evaluate';
import { readParameterFile } from '../evaluate/parameterFile';
import { expandServerless, languageExtensionsBeforeServerless, runsServerlessTransform } from '../sam';
import { isWellFormed, LineIndex, parseTemplate, readTemplateModel, toPlain, type Range } from '../template';
import { noteSeverity, noteText } from '../present';
import { artifactsBeside } from './localArtifacts';
import { givenRegion } from './region';
import type { CliIo } from './io';

export const EXPAND_USAGE = `Usage: cfn-impact expand TEMPLATE [options]

Prints the processed template: TEMPLATE with its AWS::Serverless-2016-10-31 resources expanded
into the CloudFormation resources the transform generates (what GetTemplate returns for the
stage Processed). A template without the transform is printed as it is.

Options:
  --parameters FILE   parameter values (the transform resolves some of them itself)
  --region REGION     the stack's Region (else AWS_REGION); without one, SAM leaves
                      AWS::Region and AWS::Partition for CloudFormation to resolve
  --json              print one JSON object: {status, message?, template, diagnostics}
`;

interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  message: string;
  code: string;
  location?: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** Runs `expand`; returns the process exit code (0 expanded, 1 error). */
export function runExpand(argv: string[], io: CliIo): number {
  const json = argv.includes('--json');
  const fail = (message: string, usage = false): number => {
    io.stderr(`cfn-impact expand: ${message}\n${usage ? `\n${EXPAND_USAGE}` : ''}`);
    if (json) io.stdout(`${JSON.stringify({ status: 'error', message, template: null, diagnostics: [] })}\n`);
    return 1;
  };
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { parameters: { type: 'string' }, region: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    return fail((e as Error).message, true);
  }
  const { values: opts, positionals } = args;
  if (opts.help) {
    io.stdout(EXPAND_USAGE);
    return 0;
  }
  if (positionals.length !== 1) return fail(`expected one template file, got ${positionals.length}`, true);
  const [path] = positionals;
  let text: string;
  let parameters: Record<string, string> = {};
  try {
    text = readFileSync(path, 'utf8');
    if (opts.parameters !== undefined) {
      const parsed = readParameterFile(readFileSync(opts.parameters, 'utf8'));
      if (!parsed.ok) return fail(`${opts.parameters}: ${parsed.message}`);
      parameters = parsed.parameters;
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? `cannot read ${(e as { path?: string }).path ?? path}: no such file` : (e as Error).message);
  }
  const region = givenRegion(opts.region, io.env);
  let model = readTemplateModel(parseTemplate(text));
  const diagnostics: Diagnostic[] = [];
  const lines = new LineIndex(text);
  const where = (range: Range | undefined) => {
    if (!range) return undefined;
    const start = lines.positionAt(range.start);
    const end = lines.positionAt(range.end);
    return { start: { line: start.line + 1, column: start.character + 1 }, end: { line: end.line + 1, column: end.character + 1 } };
  };
  if (runsServerlessTransform(model)) {
    const artifacts = artifactsBeside(path, text);
    // AWS::LanguageExtensions listed first runs first, as CloudFormation runs them.
    const place = region === undefined ? {} : { region, partition: partitionOfRegion(region) };
    const samInput = languageExtensionsBeforeServerless(model) ? applyLanguageExtensions(model, { parameters, ...place }) : model;
    const expansion = expandServerless(samInput, { parameters: new Map(Object.entries(parameters)), ...place, ...(artifacts ? { artifacts } : {}) });
    model = readTemplateModel(expansion.parsed, { processed: true });
    for (const note of expansion.notes) diagnostics.push({ severity: noteSeverity(note), message: noteText(note), code: note.kind, location: where(note.range) });
  }
  for (const error of model.errors) diagnostics.unshift({ severity: error.severity, message: error.message, code: error.code, location: where(error.range) });
  // A text that does not parse has no processed template: CloudFormation reads nothing of it.
  const template = model.root === undefined || !isWellFormed(model.parsed) ? null : toPlain(model.root);
  if (region === undefined && template !== null && samWroteAwsPartition(text, JSON.stringify(template))) {
    diagnostics.push({ severity: 'info', code: 'sam-partition-assumed', message: PARTITION_ASSUMED });
  }
  const firstError = diagnostics.find((d) => d.severity === 'error');
  if (json) {
    const result = firstError ? { status: 'error', message: firstError.message, template, diagnostics } : { status: 'ok', template, diagnostics };
    io.stdout(`${JSON.stringify(result)}\n`);
  } else {
    for (const d of diagnostics) {
      const at = d.location ? `${path}:${d.location.start.line}:${d.location.start.column}: ` : '';
      io.stderr(`${at}${d.severity}: ${d.message}\n`);
    }
    if (template !== null) io.stdout(`${JSON.stringify(template, null, 2)}\n`);
  }
  return firstError ? 1 : 0;
}

const PARTITION_ASSUMED =
  'The Region is not given, so the ARNs SAM spells out (managed policies, integration URIs) name the aws partition; give --region (or AWS_REGION) for a stack in aws-cn, aws-us-gov or another partition';

/** Whether the processed template names the `aws` partition in more ARNs than the template as written: SAM wrote them. */
function samWroteAwsPartition(written: string, processed: string): boolean {
  const count = (text: string) => text.split('arn:aws:').length - 1;
  return count(processed) > count(written);
}
