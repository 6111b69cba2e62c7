/**
 * What protocol tests that talk to the local CloudFormation endpoint share: an environment the
 * spawned server inherits with test credentials for signing and nothing of the machine running the
 * tests (no region, profile, AWS configuration file or instance metadata), and a wait for what the
 * server does on its own time.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Sets test credentials and removes the machine's AWS configuration from this process's environment. */
export function useTestAwsEnvironment(accessKeyId: string, secretAccessKey: string): void {
  process.env.AWS_ACCESS_KEY_ID = accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = secretAccessKey;
  process.env.AWS_CONFIG_FILE = join(tmpdir(), 'cfn-impact-no-aws-config');
  process.env.AWS_SHARED_CREDENTIALS_FILE = join(tmpdir(), 'cfn-impact-no-aws-credentials');
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
  for (const name of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE', 'AWS_SESSION_TOKEN']) delete process.env[name];
}

/** Waits until `probe` gives a value (probing again every `intervalMs`), or fails saying what was awaited. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000, intervalMs = 40): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
