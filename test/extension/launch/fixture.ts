/**
 * What both launchers give the suite: the workspace folder, the local CloudFormation endpoint
 * playing a deployment, the user settings that point the extension at it, and the environment of
 * the extension host (dummy credentials the endpoint accepts, and where the report goes).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../e2e/support/paths';
import { startEndpoint, type LocalEndpoint } from '../../e2e/support/endpoint';
import { createGitWorkspace, type GitWorkspace } from '../../e2e/support/workspace';
import { committedFiles, editedFiles, endpointScenario, reportFileVariable } from '../workspace';

/** Screenshots, logs and reports of the extension-host runs (git-ignored). */
export const extensionArtifactsDir = join(repoRoot, 'test-artifacts', 'extension');

export interface SuiteFixture {
  readonly workspace: GitWorkspace;
  readonly endpoint: LocalEndpoint;
  /** User (and machine) settings of the test profile. */
  readonly settings: Record<string, unknown>;
  /** Environment of the extension host. */
  readonly env: Record<string, string>;
  /** The file the suite copies its mocha report into. */
  readonly reportFile: string;
  dispose(): Promise<void>;
}

/** Creates the workspace and starts the endpoint; `name` tells the runs' artifacts apart. */
export async function createFixture(name: string): Promise<SuiteFixture> {
  mkdirSync(extensionArtifactsDir, { recursive: true });
  const workspace = createGitWorkspace(committedFiles, editedFiles);
  // Steps of 300 ms: the deployment settles within two seconds, long before the suite looks.
  const endpoint = await startEndpoint(endpointScenario, `extension-${name}`, { stepMs: 300 }).catch((error: unknown) => {
    workspace.remove();
    throw error;
  });
  // A report left by an earlier run must not be read as this run's.
  const reportFile = join(extensionArtifactsDir, `${name}.report.txt`);
  rmSync(reportFile, { force: true });
  return {
    workspace,
    endpoint,
    settings: { 'cfnImpact.aws.endpoint': endpoint.url, 'cfnImpact.aws.regions': ['us-east-1'] },
    // Signing needs some credentials; the local endpoint does not check them.
    env: {
      AWS_ACCESS_KEY_ID: 'AKIAEXTENSIONTESTS',
      AWS_SECRET_ACCESS_KEY: 'extension-tests-not-a-secret',
      AWS_REGION: 'us-east-1',
      [reportFileVariable]: reportFile,
    },
    reportFile,
    async dispose() {
      await endpoint.stop();
      workspace.remove();
    },
  };
}
