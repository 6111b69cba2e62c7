/**
 * Trust and AWS access: the client sends the workspace trust and the AWS settings
 * (`cfnImpact/environment`) and asks which profiles and regions can be chosen
 * (`cfnImpact/awsProfiles`).
 */
import { AWS_REGIONS, readAwsProfiles } from '../../stacks/awsProfiles';
import { awsProfilesRequest, environmentNotification } from '../protocol';
import { runSafe, runSafeNotification } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** Registers the environment notification and the AWS profiles request. */
export function registerEnvironmentHandlers({ connection, logger, environment, baselines, analyzer, cdkApps }: ServerServices): void {
  connection.onNotification(environmentNotification, (next) =>
    runSafeNotification(logger, 'environment', () => {
      environment.apply(next);
      baselines.invalidateAll();
      cdkApps.refreshDeployed();
      analyzer.refreshAll();
    }),
  );

  connection.onRequest(awsProfilesRequest, (_params, token) =>
    runSafe(logger, 'awsProfiles', token, { profiles: [], regions: [...AWS_REGIONS] }, async () => ({
      profiles: await readAwsProfiles(),
      regions: [...AWS_REGIONS],
    })),
  );
}
