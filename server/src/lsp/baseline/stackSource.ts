/**
 * Deployed stacks as baselines, read through the project's read-only CloudFormation reader:
 * `GetTemplate` (stage Original) for the template and `DescribeStacks` for the parameter values
 * and the status, and what crosses stacks (`ListExports`, `ListImports`, the outputs of stacks the
 * template reads with `Fn::GetStackOutput`). One reader per region, created on first use.
 */
import { stackOutputStacks } from '../../evaluate/crossStackReads';
import type { CloudFormationReader } from '../../stacks/cloudFormationReader';
import { readCrossStack } from '../../stacks/crossStackReader';
import { parseTemplate } from '../../template';
import type { ReaderError } from '../../stacks/types';
import type { AwsSettings } from '../protocol';
import type { DeployedStackSource } from './baselines';

/** A stack source over the AWS settings the client passed (user or machine scope only). */
export function createDeployedStackSource(settings: AwsSettings): DeployedStackSource & { dispose(): void } {
  const readers = new Map<string, Promise<{ ok: true; reader: CloudFormationReader } | { ok: false; message: string }>>();

  function readerFor(region: string | undefined) {
    const key = region ?? '';
    let reader = readers.get(key);
    if (!reader) {
      // Loaded on first use: the AWS SDK is large, and most sessions never link a stack.
      reader = import('../../stacks/cloudFormationReader.js')
        .then(({ CloudFormationReader }) => CloudFormationReader.create({ region, profile: settings.profile, endpoint: settings.endpoint }))
        .then((created) => (created.ok ? { ok: true as const, reader: created.value } : { ok: false as const, message: describe(created.error) }));
      readers.set(key, reader);
    }
    return reader;
  }

  return {
    async read(stackName, region) {
      const made = await readerFor(region ?? settings.regions?.[0]);
      if (!made.ok) return { ok: false, message: made.message };
      const { reader } = made;
      const [described, template] = await Promise.all([reader.describeStacks({ stackName }), reader.getTemplate(stackName)]);
      if (!described.ok) return { ok: false, message: describe(described.error) };
      if (!template.ok) return { ok: false, message: describe(template.error) };
      const stack = described.value[0];
      if (!stack) return { ok: false, message: `Stack ${stackName} does not exist in ${reader.info.region}.` };
      const parameters: Record<string, string> = {};
      for (const parameter of stack.parameters) if (parameter.value !== undefined) parameters[parameter.key] = parameter.value;
      // Read once with the baseline, never per edit. Without it (a policy that predates
      // ListExports/ListImports, say) imports stay deploy-time values and exports only warn.
      const exportsOf = stack.outputs.flatMap((o) => (o.exportName !== undefined ? [o.exportName] : []));
      const crossStack = await readCrossStack(reader, { exportsOf, outputsOf: stackOutputStacks(parseTemplate(template.value.body).root) });
      return {
        ok: true,
        stack: {
          templateBody: template.value.body,
          parameters,
          status: stack.status,
          stackName: stack.stackName,
          region: reader.info.region,
          ...(crossStack.ok ? { crossStack: crossStack.value } : {}),
        },
      };
    },
    dispose() {
      for (const reader of readers.values()) void reader.then((made) => made.ok && made.reader.dispose());
      readers.clear();
    },
  };
}

function describe(error: ReaderError): string {
  return error.fix ? `${error.message} ${error.fix}` : error.message;
}
