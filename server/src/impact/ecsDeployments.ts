/**
 * An ECS service whose deployments another controller owns (docs/update-rules.md#ecs-controller):
 * with the `CODE_DEPLOY` (blue/green) deployment controller, ECS's UpdateService takes only the
 * desired count, the deployment configuration, the health check grace period, placement and tags;
 * a new task definition, network configuration, platform version or load balancer needs a
 * CodeDeploy deployment, and CloudFormation's update fails. With the `EXTERNAL` controller it
 * takes still less, and the rest needs a new task set.
 */
import type { EvaluatedResource } from '../evaluate/types';
import type { ChangeDetail, UpdateFailure } from './types';
import { propertyOf } from './writtenValues';

const SERVICE = 'AWS::ECS::Service';
/** What UpdateService refuses for each controller, by the Service's property. */
const REFUSED: Readonly<Record<'CODE_DEPLOY' | 'EXTERNAL', ReadonlySet<string>>> = {
  CODE_DEPLOY: new Set(['TaskDefinition', 'NetworkConfiguration', 'PlatformVersion', 'LoadBalancers']),
  EXTERNAL: new Set(['TaskDefinition', 'NetworkConfiguration', 'PlatformVersion', 'LoadBalancers', 'LaunchType', 'DeploymentConfiguration', 'CapacityProviderStrategy']),
};

function controllerOf(resource: EvaluatedResource): string {
  const controller = propertyOf(propertyOf(resource.properties, 'DeploymentController'), 'Type');
  return typeof controller === 'string' ? controller : 'ECS';
}

/**
 * Why ECS refuses the update of a service updated in place, when it does: a change it takes only
 * through the service's own deployment controller. A service moving between controllers is not
 * judged.
 */
export function deploymentControllerFailure(type: string, before: EvaluatedResource, after: EvaluatedResource, details: readonly ChangeDetail[]): UpdateFailure | undefined {
  if (type !== SERVICE) return undefined;
  const controller = controllerOf(before);
  if ((controller !== 'CODE_DEPLOY' && controller !== 'EXTERNAL') || controllerOf(after) !== controller) return undefined;
  const refused = details.find((d) => !d.keepsValue && d.target.name !== undefined && REFUSED[controller].has(d.target.name));
  return refused ? { kind: 'deployment-controller', controller, property: refused.target.name! } : undefined;
}
