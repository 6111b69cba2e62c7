/**
 * An ECS service whose deployments another controller owns (docs/update-rules.md#ecs-controller).
 * Expectations come from ECS's UpdateService reference ("For services using the blue/green
 * (CODE_DEPLOY) deployment controller, only the desired count, deployment configuration, health
 * check grace period, task placement constraints and strategies, enable ECS managed tags option,
 * and propagate tags can be updated using this API. If the network configuration, platform
 * version, task definition, or load balancer need to be updated, create a new CodeDeploy
 * deployment"; for EXTERNAL, only the desired count, placement, the grace period and tags, the
 * rest through a new task set).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ResourceChange } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';

const spec = loadResourceSpec();

function serviceChange(before: string, after: string): ResourceChange {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  const service = report.changes.find((c) => c.logicalId === 'Service');
  assert.ok(service, `expected a change for Service (${report.message ?? report.status})`);
  return service;
}

/** A service of `controller` running a task definition of `image`, with `count` tasks. */
const stack = (controller: string, image = 'app:1', count = 2) => `Resources:
  Task:
    Type: AWS::ECS::TaskDefinition
    Properties:
      ContainerDefinitions: [{ Name: app, Image: ${image}, Memory: 512 }]
  Service:
    Type: AWS::ECS::Service
    Properties:
      Cluster: main
      DesiredCount: ${count}
      TaskDefinition: !Ref Task
      DeploymentController: { Type: ${controller} }
`;

describe('a change the deployment controller owns', () => {
  test('a new task definition for a CODE_DEPLOY service fails, in ECS\'s words', () => {
    const service = serviceChange(stack('CODE_DEPLOY'), stack('CODE_DEPLOY', 'app:2'));
    assert.equal(service.impact, 'will-fail');
    assert.deepEqual(service.failure, { kind: 'deployment-controller', controller: 'CODE_DEPLOY', property: 'TaskDefinition' });
  });

  test('an EXTERNAL service refuses it too', () => {
    assert.deepEqual(serviceChange(stack('EXTERNAL'), stack('EXTERNAL', 'app:2')).failure, { kind: 'deployment-controller', controller: 'EXTERNAL', property: 'TaskDefinition' });
  });
});

describe('what the service takes', () => {
  test('a new desired count for a CODE_DEPLOY service is an update', () => {
    const service = serviceChange(stack('CODE_DEPLOY'), stack('CODE_DEPLOY', 'app:1', 3));
    assert.notEqual(service.impact, 'will-fail');
  });

  test('a new task definition for an ECS (rolling) service is an update', () => {
    assert.equal(serviceChange(stack('ECS'), stack('ECS', 'app:2')).failure, undefined);
  });

  test('an EXTERNAL service takes a new desired count, but not a new deployment configuration', () => {
    const configured = (percent: number) => stack('EXTERNAL').replace('      DesiredCount: 2\n', `      DesiredCount: 2\n      DeploymentConfiguration: { MinimumHealthyPercent: ${percent} }\n`);
    assert.notEqual(serviceChange(stack('EXTERNAL'), stack('EXTERNAL', 'app:1', 3)).impact, 'will-fail');
    assert.deepEqual(serviceChange(configured(50), configured(100)).failure, { kind: 'deployment-controller', controller: 'EXTERNAL', property: 'DeploymentConfiguration' });
  });

});
