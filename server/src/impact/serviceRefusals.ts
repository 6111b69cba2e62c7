/**
 * What a service refuses of an update that CloudFormation accepts, for a resource updated in place
 * (docs/update-rules.md, 3.19–3.21): the service's own rules on a new engine version, on storage, on
 * who deploys a service. Each is a failure of the update, in the service's words (present/).
 */
import type { EvaluatedResource } from '../evaluate/types';
import { allocatedStorageFailure } from './databaseStorage';
import { deploymentControllerFailure } from './ecsDeployments';
import { engineVersionFailure, kubernetesVersionFailure } from './engineVersions';
import type { ChangeDetail, UpdateFailure } from './types';

/** Why the resource's service refuses this update in place, when it does. */
export function serviceRefusal(type: string, before: EvaluatedResource, after: EvaluatedResource, details: readonly ChangeDetail[]): UpdateFailure | undefined {
  return (
    engineVersionFailure(type, before, after) ??
    kubernetesVersionFailure(type, before, after) ??
    allocatedStorageFailure(type, before, after) ??
    deploymentControllerFailure(type, before, after, details)
  );
}
