/**
 * `cfn-impact diff --stack`: the deployed stack as the baseline, read once with read-only calls:
 * its template (`GetTemplate`), parameter values and status (`DescribeStacks`), and what crosses
 * stacks (crossStackReader.ts): the Region's exports, who imports the stack's exports, and the
 * outputs of stacks the templates read with `Fn::GetStackOutput`.
 */
import { stackOutputStacks } from '../evaluate/crossStackReads';
import type { AnalyzeOptions } from '../impact';
import { readCrossStack } from '../stacks/crossStackReader';
import type { ReaderError } from '../stacks/types';
import { parseTemplate } from '../template';
import type { CliIo } from './io';
import { connect, type ConnectionArgs } from './stacks';

export interface DeployedBaseline {
  templateBody: string;
  parameters: Record<string, string>;
  status: string;
  region: string;
  /** Absent when it could not be read: imports then stay deploy-time values and exports only warn. */
  crossStack?: NonNullable<AnalyzeOptions['crossStack']>;
  /** Why what crosses stacks could not be read, for stderr. */
  crossStackProblem?: string;
}

/** Reads a deployed stack as a baseline for `newText`; a failed read is a message for a person. */
export async function readDeployedBaseline(
  stackName: string,
  newText: string,
  connection: ConnectionArgs,
  io: CliIo,
): Promise<{ ok: true; value: DeployedBaseline } | { ok: false; message: string }> {
  const connected = await connect(connection, io, 3);
  if (!connected.ok) return { ok: false, message: describe(connected.error) };
  const { reader } = connected;
  try {
    const [described, template] = await Promise.all([reader.describeStacks({ stackName }), reader.getTemplate(stackName)]);
    if (!described.ok) return { ok: false, message: describe(described.error) };
    if (!template.ok) return { ok: false, message: describe(template.error) };
    const stack = described.value[0];
    if (!stack) return { ok: false, message: `Stack ${stackName} does not exist in ${reader.info.region}.` };
    const parameters: Record<string, string> = {};
    for (const parameter of stack.parameters) if (parameter.value !== undefined) parameters[parameter.key] = parameter.value;
    const exportsOf = stack.outputs.flatMap((o) => (o.exportName !== undefined ? [o.exportName] : []));
    const outputsOf = [...new Set([template.value.body, newText].flatMap((text) => stackOutputStacks(parseTemplate(text).root)))];
    // The baseline stands without it (a policy that predates ListExports/ListImports, say), as in the editor.
    const crossStack = await readCrossStack(reader, { exportsOf, outputsOf });
    const baseline = { templateBody: template.value.body, parameters, status: stack.status, region: reader.info.region };
    return { ok: true, value: crossStack.ok ? { ...baseline, crossStack: crossStack.value } : { ...baseline, crossStackProblem: describe(crossStack.error) } };
  } finally {
    reader.dispose();
  }
}

function describe(error: ReaderError): string {
  return `${error.message} ${error.fix}`.trim();
}
