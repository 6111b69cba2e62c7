/**
 * What a connector's `Source` or `Destination` refers to (samtranslator/model/connector/connector.py):
 * a resource of the template by `Id`, read as the transform has left it (a SAM function as the
 * `AWS::Lambda::Function` it became), or a resource described by `Type`, `Arn` and the like.
 */
import type { GeneratedResource } from './generated';
import { isMap, plainEqual, type PlainMap } from './values';

/** SAM types a connector may name by `Type`, as the CloudFormation types the profiles know. */
const SAM_TO_CLOUDFORMATION: Record<string, string> = {
  'AWS::Serverless::Function': 'AWS::Lambda::Function',
  'AWS::Serverless::StateMachine': 'AWS::StepFunctions::StateMachine',
  'AWS::Serverless::Api': 'AWS::ApiGateway::RestApi',
  'AWS::Serverless::HttpApi': 'AWS::ApiGatewayV2::Api',
  'AWS::Serverless::SimpleTable': 'AWS::DynamoDB::Table',
};

/** A resource of the template as connectors see it, and how to make it wait for a policy. */
export interface ConnectableResource {
  type: unknown;
  properties: PlainMap;
  dependsOn(): unknown;
  setDependsOn(value: unknown): void;
}

/** The template's resources after the other resources were translated (SAM's `ResourceResolver`). */
export interface ResourceResolver {
  get(logicalId: string): ConnectableResource | undefined;
  all(): [string, ConnectableResource][];
  /** The resources whose `DependsOn` names `logicalId`, in the order of `all()`. */
  dependentsOf(logicalId: string): [string, ConnectableResource][];
}

/** `ConnectorResourceReference`: what a profile needs to know about one side. */
export interface ResourceReference {
  logicalId?: string;
  resourceType: string;
  arn?: unknown;
  roleName?: unknown;
  queueUrl?: unknown;
  resourceId?: unknown;
  name?: unknown;
  qualifier?: unknown;
}

/** Why a side cannot be used (SAM's ConnectorResourceError), worded as SAM words it. */
export class ConnectorResourceError {
  constructor(readonly message: string) {}
}

/**
 * A generated resource, as connectors see it. A connector that makes it wait for a policy edits a
 * copy, which `replace` puts in its place: the resource itself may be a kept translation's, which
 * the next expansion takes from the cache as it was made.
 */
export function generatedConnectable(resource: GeneratedResource, replace: (before: GeneratedResource, after: GeneratedResource) => void): ConnectableResource {
  let current = resource;
  return {
    type: resource.type,
    properties: resource.properties,
    dependsOn: () => current.attributes.DependsOn,
    setDependsOn: (value) => {
      const edited = current.withAttribute('DependsOn', value);
      replace(current, edited);
      current = edited;
    },
  };
}

/** `get_logical_id_from_intrinsic`: the id a `Ref` or `Fn::GetAtt` names. */
export function logicalIdOf(value: unknown): string | undefined {
  if (!isMap(value) || Object.keys(value).length !== 1) return undefined;
  if (typeof value.Ref === 'string') return value.Ref;
  const getAtt = value['Fn::GetAtt'];
  if (Array.isArray(getAtt) && getAtt.length === 2 && typeof getAtt[0] === 'string') return getAtt[0];
  if (typeof getAtt === 'string') return getAtt.split('.')[0];
  return undefined;
}

function nonBlankString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** `get_resource_reference`. */
export function resourceReference(obj: PlainMap, resolver: ResourceResolver, connecting: PlainMap): ResourceReference | ConnectorResourceError {
  const idProvided = 'Id' in obj;
  const otherProvided = Object.keys(obj).some((k) => k !== 'Id' && k !== 'Qualifier');
  if (idProvided === otherProvided) return new ConnectorResourceError("Must provide 'Id' (with optional 'Qualifier') or a supported combination of other properties.");
  const logicalId = obj.Id;
  if (!logicalId) {
    const type = obj.Type;
    if (!nonBlankString(type)) return new ConnectorResourceError("'Type' is missing or not a string.");
    return {
      resourceType: SAM_TO_CLOUDFORMATION[type] ?? type,
      arn: obj.Arn,
      roleName: obj.RoleName,
      queueUrl: obj.QueueUrl,
      resourceId: obj.ResourceId,
      name: obj.Name,
      qualifier: obj.Qualifier,
    };
  }
  if (!nonBlankString(logicalId)) return new ConnectorResourceError("'Id' is missing or not a string.");
  const resource = resolver.get(logicalId);
  if (!resource) return new ConnectorResourceError(`Unable to find resource with logical ID '${logicalId}'.`);
  const type = resource.type;
  if (!nonBlankString(type)) return new ConnectorResourceError("'Type' is missing or not a string.");
  const api = type === 'AWS::ApiGateway::RestApi' || type === 'AWS::ApiGatewayV2::Api';
  return {
    logicalId,
    resourceType: type,
    arn: type === 'AWS::SNS::Topic' || type === 'AWS::StepFunctions::StateMachine' ? { Ref: logicalId } : { 'Fn::GetAtt': [logicalId, 'Arn'] },
    roleName: roleName(connecting, type, resource.properties),
    queueUrl: type === 'AWS::SQS::Queue' ? { Ref: logicalId } : undefined,
    resourceId: api ? { Ref: logicalId } : type === 'AWS::AppSync::GraphQLApi' ? { 'Fn::GetAtt': [logicalId, 'ApiId'] } : undefined,
    name: type === 'AWS::StepFunctions::StateMachine' ? { 'Fn::GetAtt': [logicalId, 'Name'] } : undefined,
    qualifier: 'Qualifier' in obj ? obj.Qualifier : api ? '*' : undefined,
  };
}

/** `_get_resource_role_name`: `Ref` of the role the resource runs as (for a rule, the role of its target on the other side). */
function roleName(connecting: PlainMap, type: string, properties: PlainMap): unknown {
  let role: unknown;
  if (type === 'AWS::Lambda::Function') role = properties.Role;
  else if (type === 'AWS::StepFunctions::StateMachine') role = properties.RoleArn;
  else if (type === 'AWS::AppSync::DataSource') role = properties.ServiceRoleArn;
  else if (type === 'AWS::Events::Rule' && Array.isArray(properties.Targets)) {
    for (const target of properties.Targets) {
      if (!isMap(target)) continue;
      const targetId = logicalIdOf(target.Arn);
      if ((targetId && targetId === connecting.Id) || (connecting.Arn && plainEqual(target.Arn, connecting.Arn))) {
        role = target.RoleArn;
        break;
      }
    }
  }
  const id = role ? logicalIdOf(role) : undefined;
  return id ? { Ref: id } : undefined;
}
