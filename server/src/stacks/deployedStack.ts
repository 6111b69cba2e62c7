/**
 * A deployed stack as the baseline of an update: its template as submitted (`GetTemplate`, stage
 * Original), its current parameter values and its status (`DescribeStacks`). The editor's linked
 * stack and `cfn-impact diff --stack` read it here, through the read-only reader, alike.
 */
import type { CloudFormationReader } from './cloudFormationReader';
import type { ReaderError } from './types';

/** A deployed stack's template and parameter values, as a stack baseline needs them. */
export interface DeployedStack {
  templateBody: string;
  parameters: Record<string, string>;
  status: string;
  stackName: string;
  region?: string;
}

export type DeployedStackRead = { ok: true; stack: DeployedStack } | { ok: false; message: string };

/** Reads a stack's template, parameter values and status; a failure is a message fit for a person. */
export async function readDeployedStack(reader: CloudFormationReader, stackName: string): Promise<DeployedStackRead> {
  const [described, template] = await Promise.all([reader.describeStacks({ stackName }), reader.getTemplate(stackName)]);
  if (!described.ok) return { ok: false, message: describeReaderError(described.error) };
  if (!template.ok) return { ok: false, message: describeReaderError(template.error) };
  const stack = described.value[0];
  if (!stack) return { ok: false, message: `Stack ${stackName} does not exist in ${reader.info.region}.` };
  const parameters: Record<string, string> = {};
  for (const parameter of stack.parameters) if (parameter.value !== undefined) parameters[parameter.key] = parameter.value;
  return { ok: true, stack: { templateBody: template.value.body, parameters, status: stack.status, stackName: stack.stackName, region: reader.info.region } };
}

/**
 * The values an update is made with when a parameters file names some keys `UsePreviousValue`:
 * against a deployed stack each such key takes the stack's current value. Keys the stack does not
 * have are left out, so that the new template's own rules (its default, or an error) decide them.
 */
export function withPreviousValues(values: Record<string, string>, usePrevious: readonly string[], stackValues: Record<string, string>): Record<string, string> {
  const merged = { ...values };
  for (const key of usePrevious) if (Object.hasOwn(stackValues, key)) merged[key] = stackValues[key];
  return merged;
}

/** A reader error as one sentence with its fix. */
export function describeReaderError(error: ReaderError): string {
  return error.fix ? `${error.message} ${error.fix}` : error.message;
}
