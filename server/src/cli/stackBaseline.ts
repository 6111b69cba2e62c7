/**
 * `cfn-impact diff --stack NAME NEW`: the deployed stack as the baseline, read as the editor reads
 * a linked stack (stacks/deployedStack.ts), with the same parameter rules: a parameters file for
 * the new template is taken as written, its `UsePreviousValue` keys take the stack's values;
 * without one, the stack's values carry over to the parameters the new template still declares.
 */
import type { TemplateSide } from '../impact';
import { CloudFormationReader } from '../stacks/cloudFormationReader';
import { describeReaderError, readDeployedStack, withPreviousValues, type DeployedStack } from '../stacks/deployedStack';

/** Where signed requests go: the command line's options, else the environment and the profile. */
export interface AwsOptions {
  region?: string;
  profile?: string;
  endpoint?: string;
  env: Record<string, string | undefined>;
}

export type StackSides = { ok: true; stack: DeployedStack; before: TemplateSide; after: TemplateSide } | { ok: false; message: string; missing?: true };

/** A read-only CloudFormation reader for the command line's options; a failure is a message. */
export async function openReader(aws: AwsOptions): Promise<{ ok: true; reader: CloudFormationReader } | { ok: false; message: string }> {
  const created = await CloudFormationReader.create({ region: aws.region, profile: aws.profile, endpoint: aws.endpoint, env: aws.env, maxAttempts: 3 });
  return created.ok ? { ok: true, reader: created.value } : { ok: false, message: describeReaderError(created.error) };
}

/** Reads the stack (and unless `nested` is false, the nested stacks it runs) and builds both sides of the update of NEW over it. */
export async function stackSides(
  reader: CloudFormationReader,
  stackName: string,
  newText: string,
  newParameters: { values: Record<string, string>; usePrevious: string[] } | undefined,
  { nested = true }: { nested?: boolean } = {},
): Promise<StackSides> {
  const read = await readDeployedStack(reader, stackName, [newText], { nested });
  if (!read.ok) return read;
  const { stack } = read;
  const before: TemplateSide = { text: stack.templateBody, parameters: stack.parameters };
  const after: TemplateSide = newParameters
    ? { text: newText, parameters: withPreviousValues(newParameters.values, newParameters.usePrevious, stack.parameters) }
    : { text: newText, fallbackParameters: stack.parameters };
  return { ok: true, stack, before, after };
}
