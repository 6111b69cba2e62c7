/**
 * A REST API's changes that no deployment carries (docs/update-rules.md#api-not-redeployed): an API
 * Gateway deployment is a snapshot of the API taken when it is created, and a stage serves the
 * snapshot it names. An update that changes what a REST API serves (its methods, resources,
 * models, authorizers, validators, gateway responses, an OpenAPI body or its resource policy) but
 * creates no new `AWS::ApiGateway::Deployment` of it leaves every stage serving the API as it was.
 */
import type { EvaluatedTemplate } from '../evaluate/types';
import { ResourceRef } from '../evaluate/value';
import type { Range } from '../template/ast';
import { makesNewResource } from './claims';
import type { ImpactDiagnostic, ResourceChange } from './types';
import { propertyOf } from './writtenValues';

const REST_API = 'AWS::ApiGateway::RestApi';
const DEPLOYMENT = 'AWS::ApiGateway::Deployment';
/** The resources a deployment snapshots, each naming its API by `RestApiId`. */
const API_PARTS = new Set([
  'AWS::ApiGateway::Method',
  'AWS::ApiGateway::Resource',
  'AWS::ApiGateway::Model',
  'AWS::ApiGateway::Authorizer',
  'AWS::ApiGateway::RequestValidator',
  'AWS::ApiGateway::GatewayResponse',
]);
/** The RestApi's own properties that a deployment snapshots: its definition and its resource policy. */
const SNAPSHOT_PROPERTIES = new Set(['Body', 'BodyS3Location', 'Policy']);

/**
 * One warning per REST API whose served definition this update changes while none of its
 * deployments is created or replaced, placed at its first change in the new template.
 */
export function undeployedApiChanges(changes: readonly ResourceChange[], before: EvaluatedTemplate, after: EvaluatedTemplate): ImpactDiagnostic[] {
  const fateOf = new Map(changes.map((change) => [change.logicalId, change]));
  const changedParts = new Map<string, ResourceChange[]>();
  for (const change of changes) {
    if (change.impact === 'none') continue;
    const api = apiOf(change, before, after);
    if (api === undefined) continue;
    const list = changedParts.get(api) ?? [];
    list.push(change);
    changedParts.set(api, list);
  }
  if (changedParts.size === 0) return [];
  // One pass over the template finds each API's deployments.
  const deploymentsOf = new Map<string, string[]>();
  for (const resource of after.resources.values()) {
    const restApi = propertyOf(resource.properties, 'RestApiId');
    if (!resource.active || resource.type !== DEPLOYMENT || !(restApi instanceof ResourceRef) || !changedParts.has(restApi.logicalId)) continue;
    const list = deploymentsOf.get(restApi.logicalId);
    if (list) list.push(resource.logicalId);
    else deploymentsOf.set(restApi.logicalId, [resource.logicalId]);
  }
  const diagnostics: ImpactDiagnostic[] = [];
  for (const [api, parts] of changedParts) {
    const apiChange = fateOf.get(api);
    // A new or replaced API is deployed by its deployments' replacement (their RestApiId changes), if by anything.
    if (apiChange && makesNewResource(apiChange)) continue;
    const deployments = deploymentsOf.get(api) ?? [];
    // An API deployed from outside the template (a pipeline, the console) is not this update's to deploy.
    if (deployments.length === 0) continue;
    const redeployed = deployments.some((id) => {
      const change = fateOf.get(id);
      return change !== undefined && makesNewResource(change);
    });
    if (redeployed) continue;
    const placed = parts.find((part) => part.rangeIn === 'new');
    const range: Range | undefined = placed?.range ?? after.model.resources.get(api)?.keyRange;
    diagnostics.push({
      severity: 'warning',
      finding: { kind: 'api-not-redeployed', restApi: api, changed: parts.map((part) => part.logicalId), deployments },
      code: 'api-not-redeployed',
      ...(range ? { range } : {}),
      rangeIn: 'new',
      logicalId: placed?.logicalId ?? api,
    });
  }
  return diagnostics;
}

/** The REST API a change changes what is served of: a part of it, or its own definition or policy. */
function apiOf(change: ResourceChange, before: EvaluatedTemplate, after: EvaluatedTemplate): string | undefined {
  if (change.resourceType === REST_API) {
    const served = change.action === 'Modify' && change.details.some((d) => !d.keepsValue && d.target.name !== undefined && SNAPSHOT_PROPERTIES.has(d.target.name));
    return served ? change.logicalId : undefined;
  }
  if (!API_PARTS.has(change.resourceType)) return undefined;
  const side = change.action === 'Remove' ? before : after;
  const restApi = propertyOf(side.resources.get(change.logicalId)?.properties, 'RestApiId');
  const api = restApi instanceof ResourceRef ? restApi.logicalId : undefined;
  return api !== undefined && after.resources.get(api)?.type === REST_API ? api : undefined;
}

