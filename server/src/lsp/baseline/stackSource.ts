/**
 * Deployed stacks as baselines, read through the project's read-only CloudFormation reader:
 * `GetTemplate` (stage Original) for the template and `DescribeStacks` for the parameter values
 * and the status, and what crosses stacks (`ListExports`, `ListImports`, the outputs of stacks the
 * template reads with `Fn::GetStackOutput`). One reader per region, created on first use.
 */
import type { CloudFormationReader } from '../../stacks/cloudFormationReader';
import { describeReaderError, readDeployedStack } from '../../stacks/deployedStack';
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
        .then((created) => (created.ok ? { ok: true as const, reader: created.value } : { ok: false as const, message: describeReaderError(created.error) }));
      readers.set(key, reader);
    }
    return reader;
  }

  return {
    async read(stackName, region) {
      const made = await readerFor(region ?? settings.regions?.[0]);
      if (!made.ok) return { ok: false, message: made.message };
      return readDeployedStack(made.reader, stackName);
    },
    async changeSetNames(stackName, region) {
      const made = await readerFor(region ?? settings.regions?.[0]);
      if (!made.ok) return { ok: false, message: made.message };
      const listed = await made.reader.listChangeSets(stackName);
      return listed.ok ? { ok: true, names: listed.value.map((c) => c.changeSetName) } : { ok: false, message: describeReaderError(listed.error) };
    },
    async changeSet(stackName, region, name) {
      const made = await readerFor(region ?? settings.regions?.[0]);
      if (!made.ok) return { ok: false, message: made.message };
      const read = await made.reader.describeChangeSet(stackName, name);
      return read.ok ? { ok: true, changeSet: read.value } : { ok: false, message: describeReaderError(read.error) };
    },
    dispose() {
      for (const reader of readers.values()) void reader.then((made) => made.ok && made.reader.dispose());
      readers.clear();
    },
  };
}

