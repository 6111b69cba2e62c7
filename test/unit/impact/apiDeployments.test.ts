/**
 * A REST API's changes that no deployment carries (docs/update-rules.md#api-not-redeployed).
 * Expectations come from the API Gateway Developer Guide ("Every time you update an API, you must
 * redeploy the API to an existing stage or to a new stage. Updating an API includes modifying
 * routes, methods, integrations, authorizers, resource policies, and anything else other than
 * stage settings") and the AWS::ApiGateway::Deployment documentation (a deployment deploys the
 * RestApi to a stage; a stage names the deployment it serves).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { analyzeUpdate } from '../../../server/src/impact';
import type { ImpactDiagnostic } from '../../../server/src/impact/types';
import { loadResourceSpec } from '../../../server/src/spec/load';
import { samInitApp } from '../../fixtures/samHelloWorld';

const spec = loadResourceSpec();

function notRedeployed(before: string, after: string): ImpactDiagnostic[] {
  const { report } = analyzeUpdate({ text: before }, { text: after }, { spec });
  assert.notEqual(report.status, 'error', report.message);
  return report.diagnostics.filter((d) => d.code === 'api-not-redeployed');
}

/** A REST API with one method, deployed by `Release` to the stage `prod`; `policy` is the API's resource policy line. */
const api = (deployment = 'Release', policy = '') => `Resources:
  Api:
    Type: AWS::ApiGateway::RestApi
    Properties:
      Name: items
${policy}  Items:
    Type: AWS::ApiGateway::Resource
    Properties:
      RestApiId: !Ref Api
      ParentId: !GetAtt Api.RootResourceId
      PathPart: items
  GetItems:
    Type: AWS::ApiGateway::Method
    Properties:
      RestApiId: !Ref Api
      ResourceId: !Ref Items
      HttpMethod: GET
      AuthorizationType: NONE
      Integration: { Type: MOCK }
  ${deployment}:
    Type: AWS::ApiGateway::Deployment
    DependsOn: GetItems
    Properties:
      RestApiId: !Ref Api
  Prod:
    Type: AWS::ApiGateway::Stage
    Properties:
      RestApiId: !Ref Api
      DeploymentId: !Ref ${deployment}
      StageName: prod
`;

const iamAuth = (text: string) => text.replace('AuthorizationType: NONE', 'AuthorizationType: AWS_IAM');

describe('a change to what a REST API serves needs a new deployment', () => {
  test('a method changed while the deployment stays: a warning at the method, naming the API and the deployment', () => {
    const [warning, ...more] = notRedeployed(api(), iamAuth(api()));
    assert.equal(more.length, 0);
    assert.equal(warning?.severity, 'warning');
    assert.equal(warning?.logicalId, 'GetItems');
    assert.deepEqual(warning?.finding, { kind: 'api-not-redeployed', restApi: 'Api', changed: ['GetItems'], deployments: ['Release'] });
  });

  test('the same change with a deployment under a new logical id is deployed: no warning', () => {
    assert.deepEqual(notRedeployed(api(), iamAuth(api('Release2'))), []);
  });

  test('a new resource policy on the API is served only once deployed', () => {
    const policy = '      Policy: { Version: "2012-10-17", Statement: [{ Effect: Deny, Principal: "*", Action: execute-api:Invoke, Resource: "*" }] }\n';
    assert.deepEqual(notRedeployed(api(), api('Release', policy))[0]?.finding, { kind: 'api-not-redeployed', restApi: 'Api', changed: ['Api'], deployments: ['Release'] });
  });

  test('a method taken away is a change too: the warning is at the API, since the method is gone from the new template', () => {
    const without = api().replace(/  GetItems:\n(?: {4}.*\n)+/, '').replace('    DependsOn: GetItems\n', '');
    const [warning] = notRedeployed(api(), without);
    assert.equal(warning?.logicalId, 'Api');
    assert.deepEqual(warning?.finding, { kind: 'api-not-redeployed', restApi: 'Api', changed: ['GetItems'], deployments: ['Release'] });
  });
});

describe('what needs no new deployment', () => {
  test('the API\'s name, and the stage\'s own settings', () => {
    assert.deepEqual(notRedeployed(api(), api().replace('Name: items', 'Name: things')), []);
    assert.deepEqual(notRedeployed(api(), api().replace('      StageName: prod\n', '      StageName: prod\n      TracingEnabled: true\n')), []);
  });

  test('an API the template does not deploy (a pipeline or the console does) is not this update\'s to deploy', () => {
    const undeployed = api().replace(/  Release:\n(?: {4}.*\n)+/, '').replace(/  Prod:\n(?: {4}.*\n)+/, '');
    assert.deepEqual(notRedeployed(undeployed, iamAuth(undeployed)), []);
  });

  test('SAM names the deployment by a hash of the API\'s definition: a new event is a new deployment, no warning', () => {
    const after = samInitApp.replace('            Method: get\n', '            Method: get\n        Bye:\n          Type: Api\n          Properties:\n            Path: /bye\n            Method: get\n');
    assert.deepEqual(notRedeployed(samInitApp, after), []);
  });
});
