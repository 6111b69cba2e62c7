/**
 * The checks SAM makes on an `AWS::Serverless::WebSocketApi` before it generates anything
 * (api/webSocketApi.ts translates it), so an invalid one is a template error at the
 * offending property rather than a silent pass. The rules are those of the API Gateway v2
 * WebSocket API SAM builds: a route selection expression and at least one route, each route a
 * function; route keys that API Gateway accepts; authorization only on `$connect`.
 */
import type { SamResource } from '../../model/context';
import { invalidResource, type SamError } from '../../model/errors';
import { IS_BOOL, IS_DICT, IS_STR, checkProperties, typed, PASS_THROUGH, type PropertySpec } from '../../model/properties';
import { isIntrinsic, isList, isMap, type PlainMap } from '../../model/values';

const WEBSOCKET_API_PROPERTIES: Record<string, PropertySpec> = {
  AccessLogSettings: typed(IS_DICT),
  ApiKeySelectionExpression: PASS_THROUGH,
  Auth: typed(IS_DICT),
  DefaultRouteSettings: typed(IS_DICT),
  Description: PASS_THROUGH,
  DisableExecuteApiEndpoint: PASS_THROUGH,
  DisableSchemaValidation: PASS_THROUGH,
  Domain: typed(IS_DICT),
  IpAddressType: PASS_THROUGH,
  Name: PASS_THROUGH,
  PropagateTags: typed(IS_BOOL),
  Routes: typed(IS_DICT, true),
  RouteSelectionExpression: typed(IS_STR, true),
  RouteSettings: typed(IS_DICT),
  StageName: PASS_THROUGH,
  StageVariables: typed(IS_DICT),
  Tags: typed(IS_DICT),
};

/** The special route keys API Gateway gives WebSocket APIs; any other key is a custom route. */
const SPECIAL_ROUTES = ['$connect', '$disconnect', '$default'];
/** The authorization types a WebSocket API's `$connect` route takes. */
const AUTH_TYPES = ['AWS_IAM', 'CUSTOM', 'NONE'];
const IP_ADDRESS_TYPES = ['ipv4', 'dualstack'];

/** The first reason SAM rejects a WebSocket API, or nothing when it is valid. */
export function validateWebSocketApi(sam: SamResource): SamError | undefined {
  const p = sam.properties;
  const id = sam.logicalId;
  const invalid = checkProperties(id, sam.type, p, WEBSOCKET_API_PROPERTIES);
  if (invalid) return invalid;
  const routes = p.Routes;
  if (isMap(routes) && !isIntrinsic(routes)) {
    const routeError = checkRoutes(id, routes);
    if (routeError) return routeError;
  }
  if (isMap(p.Auth) && !isIntrinsic(p.Auth)) {
    const authError = checkAuth(id, p.Auth, isMap(routes) && '$connect' in routes);
    if (authError) return authError;
  }
  if (p.StageName === '$default') return invalidResource(id, 'Stages cannot be named $default for WebSocket APIs.', ['Properties', 'StageName']);
  if (typeof p.IpAddressType === 'string' && !IP_ADDRESS_TYPES.includes(p.IpAddressType)) {
    return invalidResource(id, "IpAddressType must be 'ipv4' or 'dualstack'.", ['Properties', 'IpAddressType']);
  }
  // One base path or several; each is mapped as written, so each must be a string.
  const basePath = isMap(p.Domain) ? p.Domain.BasePath : undefined;
  if (basePath !== undefined && basePath !== null && !(typeof basePath === 'string' || (isList(basePath) && basePath.every((b) => typeof b === 'string')))) {
    return invalidResource(id, 'Basepath must be a string.', ['Properties', 'Domain', 'BasePath']);
  }
  return undefined;
}

function checkRoutes(id: string, routes: PlainMap): SamError | undefined {
  if (Object.keys(routes).length === 0) return invalidResource(id, 'WebSocket API must have at least one route.', ['Properties', 'Routes']);
  for (const [key, route] of Object.entries(routes)) {
    const path = ['Properties', 'Routes', key];
    if (key.startsWith('$') ? !SPECIAL_ROUTES.includes(key) : !/^[A-Za-z0-9]+$/.test(key)) {
      return invalidResource(id, `Route key '${key}' must be alphanumeric. Only $connect, $disconnect, and $default special routes are supported.`, path);
    }
    if (!isMap(route) || route.FunctionArn === undefined || route.FunctionArn === null) {
      return invalidResource(id, 'Route must have associated function.', path);
    }
    if (route.RequestParameters !== undefined && key !== '$connect') {
      return invalidResource(id, 'Request parameters are only supported for the $connect route in WebSocket APIs.', [...path, 'RequestParameters']);
    }
  }
  return undefined;
}

/** Authorization applies to the `$connect` route only; each type takes its own settings. */
function checkAuth(id: string, auth: PlainMap, hasConnect: boolean): SamError | undefined {
  const path = ['Properties', 'Auth'];
  if (!hasConnect) return invalidResource(id, 'Authorization is only available if there is a $connect route.', path);
  const given = auth.AuthType;
  const others = Object.keys(auth).filter((key) => key !== 'AuthType');
  if (given === undefined || given === null) {
    return others.length > 0 ? invalidResource(id, 'AuthType must be specified for additional auth configurations.', path) : undefined;
  }
  if (typeof given !== 'string') return undefined;
  const type = given.toUpperCase();
  if (!AUTH_TYPES.includes(type)) return invalidResource(id, 'AuthType is not one of AWS_IAM, CUSTOM or NONE.', [...path, 'AuthType']);
  if (type === 'CUSTOM') {
    return auth.AuthArn === undefined || auth.AuthArn === null ? invalidResource(id, 'AuthArn must be specified if AuthType is CUSTOM.', [...path, 'AuthType']) : undefined;
  }
  if (others.length > 0) return invalidResource(id, `No additional configurations supported for AuthType ${type}.`, [...path, others[0]!]);
  return undefined;
}
