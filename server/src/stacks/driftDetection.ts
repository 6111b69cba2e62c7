/**
 * Drift detection on request: `DetectStackDrift`, the one CloudFormation call of the project that
 * starts something. It changes no resource, only the drift status CloudFormation records for the
 * stack and its resources. Made only when a person asks (the stacks view's *Detect Drift*), never
 * in an untrusted workspace; its progress is read with the reader's
 * `describeStackDriftDetectionStatus`.
 */
import { DetectStackDriftCommand } from '@aws-sdk/client-cloudformation';
import { describeAwsError } from './awsErrors';
import { createCloudFormationClient, type ReaderOptions } from './cloudFormationReader';
import type { ReadResult } from './types';

/** Starts a drift detection of the stack; its detection id. */
export async function startDriftDetection(options: ReaderOptions, stackName: string): Promise<ReadResult<string>> {
  const made = await createCloudFormationClient(options);
  if (!made.ok) return made;
  const { client, info } = made.value;
  try {
    const out = await client.send(new DetectStackDriftCommand({ StackName: stackName }));
    return out.StackDriftDetectionId ? { ok: true, value: out.StackDriftDetectionId } : { ok: false, error: describeAwsError(new Error('CloudFormation started no drift detection'), { region: info.region, endpoint: info.endpoint }) };
  } catch (error) {
    // An endpoint that echoes the signing credentials back must not get them into a log.
    const identity = await client.config.credentials().catch(() => undefined);
    const secrets = [identity?.accessKeyId, identity?.secretAccessKey, identity?.sessionToken].filter((v): v is string => typeof v === 'string');
    return { ok: false, error: describeAwsError(error, { region: info.region, endpoint: info.endpoint, secrets }) };
  } finally {
    client.destroy();
  }
}
