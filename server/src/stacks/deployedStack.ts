/**
 * A deployed stack as the baseline of an update: its template as submitted (`GetTemplate`, stage
 * Original), its current parameter values and its status (`DescribeStacks`), and the nested
 * stacks it runs (deployedNestedStacks.ts). The editor's linked
 * stack and `cfn-impact diff --stack` read it here, through the read-only reader, alike.
 */
import { stackOutputStacks } from '../evaluate/crossStackReads';
import { parseTemplate } from '../template';
import type { CloudFormationReader } from './cloudFormationReader';
import { readCrossStack, type CrossStackRead } from './crossStackReader';
import { readNestedStacks, type DeployedNestedStacks } from './deployedNestedStacks';
import { operationOutcome } from '../cloudformation/stackLifecycle';
import type { LastOperationFailure } from '../impact';
import { failedValidations } from './earlyValidation';
import { placeOfStackId } from './stackArn';
import type { ReaderError, StackDescription } from './types';
import type { StackDrift } from '../cloudformation/drift';
import { readStackDrift } from './stackDrift';

/** A deployed stack's template and parameter values, as a stack baseline needs them. */
export interface DeployedStack {
  templateBody: string;
  parameters: Record<string, string>;
  status: string;
  stackName: string;
  region?: string;
  /** The account the stack is in, from its id: what `AWS::AccountId` is in its templates. */
  accountId?: string;
  /**
   * What crosses stacks for this baseline (crossStackReader.ts), read once with it; absent when it
   * could not be read: imports then stay deploy-time values and exports only warn.
   */
  crossStack?: CrossStackRead;
  /** Why what crosses stacks could not be read. */
  crossStackProblem?: string;
  /**
   * The nested stacks it runs (deployedNestedStacks.ts), by stack path, read once with it:
   * the baselines of the child templates the edited parent names. Absent when its template nests
   * no stack, or they could not be listed (then `nestedProblem` says why).
   */
  nested?: DeployedNestedStacks;
  nestedProblem?: string;
  /**
   * When its last operation failed: the early-validation checks that rejected it (DescribeEvents,
   * failed events of that operation), each with its template path. Absent otherwise.
   */
  lastOperationFailures?: LastOperationFailure[];
  /** Its drift as the last detection found it (stackDrift.ts); absent when it could not be read (`driftProblem` says why). */
  drift?: StackDrift;
  driftProblem?: string;
}

/** `missing` when the stack does not exist (a stack an app would create). */
export type DeployedStackRead = { ok: true; stack: DeployedStack } | { ok: false; message: string; missing?: true };

/**
 * Reads a stack's template, parameter values and status, and what crosses stacks: the Region's
 * exports, who imports the stack's exports, and the outputs of the stacks the deployed template
 * and `otherTemplates` (the edited one) read with `Fn::GetStackOutput`, and unless `nested` is
 * false the nested stacks it runs. A failure is a message fit for a person; what crosses stacks or
 * the nested stacks failing leaves the baseline standing.
 */
export async function readDeployedStack(
  reader: CloudFormationReader,
  stackName: string,
  otherTemplates: readonly string[] = [],
  { nested = true }: { nested?: boolean } = {},
): Promise<DeployedStackRead> {
  const [described, template] = await Promise.all([reader.describeStacks({ stackName }), reader.getTemplate(stackName)]);
  if (!described.ok) return { ok: false, message: describeReaderError(described.error), ...(described.error.kind === 'not-found' ? { missing: true as const } : {}) };
  const stack = described.value[0];
  if (!stack) return { ok: false, message: `Stack ${stackName} does not exist in ${reader.info.region}.`, missing: true };
  if (!template.ok) return { ok: false, message: describeReaderError(template.error) };
  const parameters: Record<string, string> = {};
  for (const parameter of stack.parameters) if (parameter.value !== undefined) parameters[parameter.key] = parameter.value;
  const exportsOf = stack.outputs.flatMap((o) => (o.exportName !== undefined ? [o.exportName] : []));
  const outputsOf = [...new Set([template.value.body, ...otherTemplates].flatMap((text) => stackOutputStacks(parseTemplate(text).root)))];
  const [crossStack, nestedStacks, failures, drift] = await Promise.all([readCrossStack(reader, { exportsOf, outputsOf }), nested ? readNestedStacks(reader, stack.stackId, template.value.body) : { ok: true as const, value: {} },
    readLastOperationFailures(reader, stack),
    readStackDrift(reader, stack),
  ]);
  const deployed: DeployedStack = { templateBody: template.value.body, parameters, status: stack.status, stackName: stack.stackName, region: reader.info.region };
  const { accountId } = placeOfStackId(stack.stackId);
  if (accountId !== undefined) deployed.accountId = accountId;
  if (crossStack.ok) deployed.crossStack = crossStack.value;
  else deployed.crossStackProblem = describeReaderError(crossStack.error);
  if (!nestedStacks.ok) deployed.nestedProblem = describeReaderError(nestedStacks.error);
  else if (Object.keys(nestedStacks.value).length > 0) deployed.nested = nestedStacks.value;
  if (failures.length > 0) deployed.lastOperationFailures = failures;
  if (drift.ok) deployed.drift = drift.value;
  else deployed.driftProblem = describeReaderError(drift.error);
  return { ok: true, stack: deployed };
}

/**
 * The early-validation checks that rejected the stack's last operation, when it failed and
 * CloudFormation names it (`LastOperations`); none when it could not be read (the baseline stands).
 */
async function readLastOperationFailures(reader: CloudFormationReader, stack: StackDescription): Promise<LastOperationFailure[]> {
  // A rollback of its own follows the operation that failed: that one is the one validated.
  const last = stack.lastOperations?.find((o) => o.operationType !== 'ROLLBACK' && o.operationType !== 'CONTINUE_ROLLBACK');
  if (!last || operationOutcome(stack.status) !== 'failed') return [];
  const events = await reader.describeEvents(stack.stackId, last.operationId, { failedOnly: true });
  if (!events.ok) return [];
  return failedValidations(events.value).map((failure) => ({ name: failure.name, ...(failure.reason !== undefined ? { reason: failure.reason } : {}), ...(failure.path !== undefined ? { path: failure.path } : {}) }));
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
