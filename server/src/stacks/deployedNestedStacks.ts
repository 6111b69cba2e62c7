/**
 * The nested stacks a deployed stack runs, as the baselines of the child templates the edited
 * parent names: for each stack resource (`AWS::CloudFormation::Stack`) the parent lists
 * (ListStackResources), the nested stack's template as submitted (GetTemplate, stage Original, by
 * its physical id: a stack ARN) and its status (DescribeStacks), then its own nested stacks,
 * level by level, within the engine's limits on depth and count and a limit on the text kept.
 * Read once with the baseline.
 */
import { childStackPath, DEFAULT_NESTED_DEPTH, DEFAULT_NESTED_STACKS, mayNestStacks, type DeployedChildStack } from '../impact';
import type { CloudFormationReader } from './cloudFormationReader';
import type { ReaderError, ReadResult } from './types';

/** The nested stacks of a deployed stack, by stack path: logical ids from the top stack down, `/`-separated. */
export type DeployedNestedStacks = Record<string, DeployedChildStack>;

const STACK_TYPE = 'AWS::CloudFormation::Stack';

/** The most template text kept for one baseline, all nested stacks together (as the editor's read-ahead of child files). */
const MAX_TOTAL_CHARACTERS = 5_000_000;

interface Level {
  stackPath: string;
  stackId: string;
  templateBody: string;
}

/**
 * Reads the nested stacks under `stackId`, whose deployed template is `templateBody`. A stack
 * whose template names no nested stack costs no call. A failure to list the top stack's
 * resources is an error (the baseline stands without its nested stacks); one nested stack that
 * cannot be read is recorded as such and the others are read on.
 */
export async function readNestedStacks(reader: CloudFormationReader, stackId: string, templateBody: string): Promise<ReadResult<DeployedNestedStacks>> {
  const found: DeployedNestedStacks = {};
  let count = 0;
  let characters = 0;
  let level: Level[] = [{ stackPath: '', stackId, templateBody }];
  for (let depth = 1; depth <= DEFAULT_NESTED_DEPTH && level.length > 0; depth++) {
    const next: Level[] = [];
    for (const parent of level) {
      if (!mayNestStacks(parent.templateBody)) continue;
      const listed = await reader.listStackResources(parent.stackId);
      if (!listed.ok) {
        if (parent.stackPath === '') return listed;
        continue;
      }
      for (const resource of listed.value) {
        if (resource.resourceType !== STACK_TYPE) continue;
        if (count >= DEFAULT_NESTED_STACKS) return { ok: true, value: found };
        count += 1;
        const stackPath = childStackPath(parent.stackPath, resource.logicalId);
        // A stack resource without a physical id was never created (or its creation failed).
        const read = resource.physicalId ? await readNestedStack(reader, resource.physicalId) : { child: { problem: 'missing' as const } };
        if ('text' in read.child) {
          characters += read.child.text.length;
          if (characters > MAX_TOTAL_CHARACTERS) {
            found[stackPath] = { problem: 'too-large' };
            continue;
          }
        }
        found[stackPath] = read.child;
        if ('text' in read.child && read.stackId !== undefined) next.push({ stackPath, stackId: read.stackId, templateBody: read.child.text });
      }
    }
    level = next;
  }
  return { ok: true, value: found };
}

/** One nested stack's template and status, through its physical id; a stack that is gone is `missing`. */
async function readNestedStack(reader: CloudFormationReader, physicalId: string): Promise<NestedStackRead> {
  const [described, template] = await Promise.all([reader.describeStacks({ stackName: physicalId }), reader.getTemplate(physicalId)]);
  if (!described.ok) return { child: { problem: problemOf(described.error) } };
  const stack = described.value[0];
  if (!stack || stack.status === 'DELETE_COMPLETE') return { child: { problem: 'missing' } };
  if (!template.ok) return { child: { problem: problemOf(template.error) } };
  return { child: { text: template.value.body, status: stack.status }, stackId: stack.stackId };
}

interface NestedStackRead {
  child: DeployedChildStack;
  /** The nested stack's id, to read its own nested stacks by. */
  stackId?: string;
}

function problemOf(error: ReaderError): 'missing' | 'unreadable' {
  return error.kind === 'not-found' ? 'missing' : 'unreadable';
}
