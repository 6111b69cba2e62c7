/**
 * What other stacks publish and read, for one analysis baseline: the Region's exports
 * (`ListExports`), who imports each export of the deployed stack (`ListImports`) and the outputs
 * of stacks a template reads with `Fn::GetStackOutput` (`DescribeStacks`). Read once per baseline
 * by the CLI and the language server and passed to the engine as data, never per keystroke.
 */
import type { CloudFormationReader } from './cloudFormationReader';
import type { ReadResult } from './types';

/** The reads this module makes. */
export type CrossStackSource = Pick<CloudFormationReader, 'listExports' | 'listImports' | 'describeStacks'>;

/** Cross-stack values as the engine takes them (`AnalyzeOptions.crossStack`). */
export interface CrossStackRead {
  exports: Map<string, string>;
  stackOutputs: Map<string, Map<string, string>>;
  importsByExport: Map<string, string[]>;
}

/** At most this many exports are asked about, so one baseline costs a bounded number of calls. */
export const MAX_EXPORTS_CHECKED = 100;

/**
 * Reads the Region's exports, the importers of `exportsOf` (the deployed stack's export names)
 * and the outputs of `outputsOf` (stack names). A stack that does not exist is left out, so what
 * reads it stays a deploy-time value; any other failed read fails the whole read.
 */
export async function readCrossStack(reader: CrossStackSource, wants: { exportsOf: readonly string[]; outputsOf: readonly string[] }): Promise<ReadResult<CrossStackRead>> {
  const listed = await reader.listExports();
  if (!listed.ok) return listed;
  const exports = new Map(listed.value.map((e) => [e.name, e.value]));
  const importsByExport = new Map<string, string[]>();
  for (const name of wants.exportsOf.slice(0, MAX_EXPORTS_CHECKED)) {
    const importers = await reader.listImports(name);
    if (!importers.ok) return importers;
    importsByExport.set(name, importers.value);
  }
  const stackOutputs = new Map<string, Map<string, string>>();
  for (const stackName of wants.outputsOf) {
    const described = await reader.describeStacks({ stackName });
    if (!described.ok) {
      if (described.error.kind === 'not-found') continue;
      return described;
    }
    const outputs = new Map<string, string>();
    for (const output of described.value[0]?.outputs ?? []) if (output.value !== undefined) outputs.set(output.key, output.value);
    stackOutputs.set(stackName, outputs);
  }
  return { ok: true, value: { exports, stackOutputs, importsByExport } };
}
