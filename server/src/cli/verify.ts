/**
 * `cfn-impact verify --stack NAME --change-set NAME [NEW]`: reads a change set a pipeline created
 * (DescribeChangeSet with property values, all pages, nested change sets included; read-only)
 * and compares it, resource by resource, with the prediction for the same update: the deployed
 * stack as the baseline, NEW (else the change set's own template) with the change set's
 * parameter values (else the given ones).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { analyzeUpdate, compareWithChangeSet } from '../impact';
import { readParameterFile } from '../evaluate/parameterFile';
import { changeSetVerdict, comparedResourceLine, disagreementText, verdictMessage } from '../present';
import { loadResourceSpec } from '../spec/load';
import { describeReaderError } from '../stacks/deployedStack';
import type { CliIo } from './io';
import { openReader, stackSides } from './stackBaseline';

export const VERIFY_USAGE = `Usage: cfn-impact verify --stack NAME --change-set NAME [NEW_TEMPLATE] [options]

Compares a change set CloudFormation created with this prediction for the same update, resource
by resource: action, replacement and the properties changed. Without NEW_TEMPLATE, the change
set's own template is read. Only read-only calls are made (DescribeStacks, GetTemplate,
DescribeChangeSet).

Options:
  --parameters FILE   values for NEW_TEMPLATE (default: the change set's parameter values)
  --region R, --profile P, --endpoint URL
  --json              print one JSON object

Exit codes: 0 the change set and the prediction agree, 3 they differ, 1 error.
`;

/** Runs `verify`; resolves to the exit code (0 agree, 3 differ, 1 error). */
export async function runVerify(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const fail = (message: string, usage = false): number => {
    io.stderr(`cfn-impact verify: ${message}\n${usage ? `\n${VERIFY_USAGE}` : ''}`);
    if (json) io.stdout(`${JSON.stringify({ status: 'error', message, resources: [], nested: [] })}\n`);
    return 1;
  };
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        stack: { type: 'string' },
        'change-set': { type: 'string' },
        parameters: { type: 'string' },
        region: { type: 'string' },
        profile: { type: 'string' },
        endpoint: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return fail((e as Error).message, true);
  }
  const { values: opts, positionals } = args;
  if (opts.help) {
    io.stdout(VERIFY_USAGE);
    return 0;
  }
  if (!opts.stack || !opts['change-set']) return fail('--stack and --change-set are required', true);
  if (positionals.length > 1) return fail(`expected at most one template file, got ${positionals.length}`, true);
  let given: ReturnType<typeof readParameterFile> | undefined;
  let newText: string | undefined;
  try {
    if (positionals[0] !== undefined) newText = readFileSync(positionals[0], 'utf8');
    if (opts.parameters !== undefined) given = readParameterFile(readFileSync(opts.parameters, 'utf8'));
  } catch (e) {
    return fail(`cannot read ${(e as NodeJS.ErrnoException).path ?? 'a file'}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (given && !given.ok) return fail(`${opts.parameters}: ${given.message}`);
  let spec;
  try {
    spec = loadResourceSpec();
  } catch (e) {
    return fail((e as Error).message);
  }

  const opened = await openReader({ region: opts.region, profile: opts.profile, endpoint: opts.endpoint, env: io.env });
  if (!opened.ok) return fail(opened.message);
  const { reader } = opened;
  try {
    const changeSet = await reader.describeChangeSet(opts.stack, opts['change-set']);
    if (!changeSet.ok) return fail(describeReaderError(changeSet.error));
    if (newText === undefined) {
      const template = await reader.getTemplate(opts.stack, { changeSetName: changeSet.value.changeSetId || opts['change-set'] });
      if (!template.ok) return fail(describeReaderError(template.error));
      newText = template.value.body;
    }
    // The change set was made with these values; UsePreviousValue ones it lists with the stack's value.
    const parameters = given?.ok ? { values: given.parameters, usePrevious: given.usePrevious } : { values: changeSet.value.parameters, usePrevious: [] };
    // The change set's template is packaged (its nested stacks are in S3): nested stacks are compared by their own change sets.
    const sides = await stackSides(reader, opts.stack, newText, parameters, { nested: false });
    if (!sides.ok) return fail(sides.message);
    const { report } = analyzeUpdate(sides.before, sides.after, {
      spec,
      region: sides.stack.region ?? reader.info.region,
      ...(sides.stack.accountId !== undefined ? { accountId: sides.stack.accountId } : {}),
      stackName: sides.stack.stackName,
      stackStatus: sides.stack.status,
      // A drift-aware change set starts from the live state: the prediction does so from the last drift detection.
      ...(sides.stack.drift ? { drift: sides.stack.drift } : {}),
      ...(changeSet.value.deploymentMode === 'REVERT_DRIFT' ? { revertDrift: true } : {}),
    });
    if (report.status === 'error') return fail(`the prediction is that CloudFormation rejects this update: ${verdictMessage(report)}`);
    const comparison = compareWithChangeSet(report.changes, changeSet.value.changes);
    const agreeing = comparison.resources.filter((r) => r.disagreements.length === 0).length;
    const message = changeSetVerdict(changeSet.value.changeSetName, agreeing, comparison.resources.length - agreeing, comparison.nested.length);
    const actionOf = (logicalId: string) => report.changes.find((c) => c.logicalId === logicalId)?.action;
    if (json) {
      io.stdout(
        `${JSON.stringify({
          status: comparison.agrees ? 'agree' : 'differ',
          message,
          changeSet: { id: changeSet.value.changeSetId, name: changeSet.value.changeSetName, status: changeSet.value.status, executionStatus: changeSet.value.executionStatus },
          resources: comparison.resources.map((r) => ({ ...r, agrees: r.disagreements.length === 0, disagreements: r.disagreements.map((d) => ({ ...d, message: disagreementText(d) })) })),
          nested: comparison.nested.map((c) => ({ nestedIn: c.nestedIn, logicalId: c.logicalId, resourceType: c.resourceType, action: c.action })),
        })}\n`,
      );
    } else {
      const lines = [`cfn-impact verify: change set ${changeSet.value.changeSetName} of stack ${sides.stack.stackName}`, message, ''];
      for (const resource of comparison.resources) lines.push(`  ${comparedResourceLine(resource, actionOf(resource.logicalId))}`);
      for (const nested of comparison.nested) lines.push(`  · ${[...nested.nestedIn, nested.logicalId].join('/')} (${nested.resourceType}): ${nested.action}`);
      io.stdout(`${lines.join('\n')}\n`);
    }
    return comparison.agrees ? 0 : 3;
  } finally {
    reader.dispose();
  }
}
