/**
 * An authorizer of an HTTP API (samtranslator/model/apigatewayv2.py, `ApiGatewayV2Authorizer`):
 * AWS_IAM, JWT (OAuth2) or a Lambda (REQUEST) authorizer, checked as SAM checks it and written
 * into the OpenAPI document's security schemes. No CloudFormation resource is generated for it,
 * only, on request, the permission for API Gateway to invoke a Lambda authorizer.
 */
import { invalidResource, type SamError } from '../../model/errors';
import { PyDict, type PyValue } from '../../python/py27Dict';
import { isPyMap, pyGet, pyKeys, pyText, pyTruthy } from '../../model/pyValues';

const AUTHORIZER_KEY = 'x-amazon-apigateway-authorizer';

/** What the template says of one authorizer (its keys as SAM reads them). */
export interface HttpAuthorizerConfig {
  authorizationScopes?: PyValue;
  jwtConfiguration?: PyValue;
  identitySource?: PyValue;
  functionArn?: PyValue;
  functionInvokeRole?: PyValue;
  identity?: PyValue;
  payloadFormatVersion?: PyValue;
  enableSimpleResponses?: PyValue;
  enableFunctionDefaultPermissions?: PyValue;
}

type AuthorizerType = 'AWS_IAM' | 'JWT' | 'REQUEST';

/** One HTTP API authorizer; the constructor throws SAM's error for an invalid one. */
export class HttpAuthorizer {
  readonly type: AuthorizerType;
  readonly authorizationScopes: PyValue | undefined;
  readonly functionArn: PyValue | undefined;
  readonly enableFunctionDefaultPermissions: PyValue | undefined;
  private readonly jwtConfiguration: PyValue | undefined;

  constructor(
    private readonly apiId: string,
    readonly name: string,
    private readonly config: HttpAuthorizerConfig,
    /** The partition the transform runs in: SAM writes it into a Lambda authorizer's URI as text. */
    private readonly partition: string,
    isAwsIam = false,
  ) {
    this.jwtConfiguration = lowerCaseKeys(config.jwtConfiguration);
    this.authorizationScopes = config.authorizationScopes;
    this.functionArn = config.functionArn;
    this.enableFunctionDefaultPermissions = config.enableFunctionDefaultPermissions;
    this.type = isAwsIam ? 'AWS_IAM' : present(this.jwtConfiguration) ? 'JWT' : 'REQUEST';
    this.validate();
  }

  private fail(detail: string): SamError {
    return invalidResource(this.apiId, detail);
  }

  /** `_validate_input_parameters` and the checks of each type. */
  private validate(): void {
    const c = this.config;
    const only = (value: PyValue | undefined, type: AuthorizerType, message: string) => {
      if (value !== undefined && value !== null && this.type !== type) throw this.fail(message);
    };
    if (present(c.authorizationScopes) && !Array.isArray(c.authorizationScopes)) throw this.fail('AuthorizationScopes must be a list.');
    only(c.authorizationScopes, 'JWT', 'AuthorizationScopes must be defined only for OAuth2 Authorizer.');
    only(this.jwtConfiguration, 'JWT', 'JwtConfiguration must be defined only for OAuth2 Authorizer.');
    only(c.identitySource, 'JWT', 'IdentitySource must be defined only for OAuth2 Authorizer.');
    only(c.functionArn, 'REQUEST', 'FunctionArn must be defined only for Lambda Authorizer.');
    only(c.functionInvokeRole, 'REQUEST', 'FunctionInvokeRole must be defined only for Lambda Authorizer.');
    only(c.identity, 'REQUEST', 'Identity must be defined only for Lambda Authorizer.');
    only(c.payloadFormatVersion, 'REQUEST', 'AuthorizerPayloadFormatVersion must be defined only for Lambda Authorizer.');
    only(c.enableSimpleResponses, 'REQUEST', 'EnableSimpleResponses must be defined only for Lambda Authorizer.');
    if (present(c.enableFunctionDefaultPermissions) && this.type !== 'REQUEST') throw this.fail('EnableFunctionDefaultPermissions is only supported for Lambda Authorizer.');
    if (this.type === 'JWT') {
      if (!pyTruthy(this.jwtConfiguration)) throw this.fail(`${this.name} OAuth2 Authorizer must define 'JwtConfiguration'.`);
      if (!pyTruthy(c.identitySource)) throw this.fail(`${this.name} OAuth2 Authorizer must define 'IdentitySource'.`);
    }
    if (this.type === 'REQUEST') {
      if (!pyTruthy(c.functionArn)) throw this.fail(`${this.name} Lambda Authorizer must define 'FunctionArn'.`);
      if (!pyTruthy(c.payloadFormatVersion)) throw this.fail(`${this.name} Lambda Authorizer must define 'AuthorizerPayloadFormatVersion'.`);
    }
    if (present(c.enableFunctionDefaultPermissions) && typeof c.enableFunctionDefaultPermissions !== 'boolean') {
      throw this.fail(`Property 'Authorizers.${this.name}.EnableFunctionDefaultPermissions' should be a boolean.`);
    }
  }

  /** `generate_openapi`: the authorizer's security scheme. */
  openApi(): PyDict {
    const scheme = new PyDict();
    if (this.type === 'AWS_IAM') {
      scheme.set('type', 'apiKey');
      scheme.set('name', 'Authorization');
      scheme.set('in', 'header');
      scheme.set('x-amazon-apigateway-authtype', 'awsSigv4');
      return scheme;
    }
    const authorizer = new PyDict();
    if (this.type === 'JWT') {
      scheme.set('type', 'oauth2');
      scheme.set(AUTHORIZER_KEY, authorizer);
      authorizer.set('jwtConfiguration', this.jwtConfiguration!);
      authorizer.set('identitySource', this.config.identitySource!);
      authorizer.set('type', 'jwt');
      return scheme;
    }
    scheme.set('type', 'apiKey');
    scheme.set('name', 'Unused');
    scheme.set('in', 'header');
    scheme.set(AUTHORIZER_KEY, authorizer);
    authorizer.set('type', 'request');
    authorizer.set('authorizerUri', {
      'Fn::Sub': [`arn:${this.partition}:apigateway:\${AWS::Region}:lambda:path/2015-03-31/functions/\${__FunctionArn__}/invocations`, { __FunctionArn__: this.functionArn! }],
    });
    const role = this.config.functionInvokeRole;
    if (pyTruthy(role) && pyText(role) !== 'NONE') authorizer.set('authorizerCredentials', role!);
    const identity = this.config.identity;
    if (pyTruthy(identity)) {
      if (!isPyMap(identity)) throw this.fail(`Property 'Auth.Authorizers.${this.name}.Identity' should be a map.`);
      const ttl = pyGet(identity, 'ReauthorizeEvery');
      if (ttl !== undefined && ttl !== null) authorizer.set('authorizerResultTtlInSeconds', ttl);
      authorizer.set('identitySource', this.identitySource(identity));
    }
    authorizer.set('authorizerPayloadFormatVersion', this.config.payloadFormatVersion!);
    if (pyTruthy(this.config.enableSimpleResponses)) authorizer.set('enableSimpleResponses', this.config.enableSimpleResponses!);
    return scheme;
  }

  /** `_get_identity_source`: headers, query strings, stage variables and context, with API Gateway's prefixes. */
  private identitySource(identity: PyDict | Record<string, PyValue>): PyValue[] {
    const sources: PyValue[] = [];
    for (const [prefix, property] of [
      ['$request.header.', 'Headers'],
      ['$request.querystring.', 'QueryStrings'],
      ['$stageVariables.', 'StageVariables'],
      ['$context.', 'Context'],
    ] as const) {
      const values = pyGet(identity, property);
      if (!pyTruthy(values)) continue;
      if (!Array.isArray(values)) throw this.fail(`Property 'Authorizers.${this.name}.Identity.${property}' should be a list.`);
      const index = values.findIndex((v) => pyText(v) === undefined);
      if (index >= 0) throw this.fail(`Property 'Authorizers.${this.name}.Identity.${property}[${index}]' should be a string.`);
      for (const value of values) sources.push(prefix + pyText(value)!);
    }
    return sources;
  }
}

/** The authorizer named in a template's `Authorizers` entry, read as SAM reads it. */
export function httpAuthorizerConfig(entry: PyDict | Record<string, PyValue>): HttpAuthorizerConfig {
  return {
    authorizationScopes: pyGet(entry, 'AuthorizationScopes'),
    jwtConfiguration: pyGet(entry, 'JwtConfiguration'),
    identitySource: pyGet(entry, 'IdentitySource'),
    functionArn: pyGet(entry, 'FunctionArn'),
    functionInvokeRole: pyGet(entry, 'FunctionInvokeRole'),
    identity: pyGet(entry, 'Identity'),
    payloadFormatVersion: pyGet(entry, 'AuthorizerPayloadFormatVersion'),
    enableSimpleResponses: pyGet(entry, 'EnableSimpleResponses'),
    enableFunctionDefaultPermissions: pyGet(entry, 'EnableFunctionDefaultPermissions'),
  };
}

/** `_get_jwt_configuration`: the keys in lower case, as OpenAPI wants them. */
function lowerCaseKeys(config: PyValue | undefined): PyValue | undefined {
  if (!pyTruthy(config)) return undefined;
  if (!isPyMap(config)) return config;
  const lowered = new PyDict();
  for (const key of pyKeys(config)) lowered.set(key.toLowerCase(), pyGet(config, key)!);
  return lowered;
}

function present(value: PyValue | undefined): boolean {
  return value !== undefined && value !== null;
}
