/**
 * A REST API authorizer (`Auth.Authorizers.<Name>`), as SAM writes it into the swagger's security
 * definitions (ApiGatewayAuthorizer in apigateway.py): Cognito user pools, Lambda TOKEN and
 * REQUEST authorizers, and the built-in AWS_IAM.
 */
import { invalidResource, SamError } from '../../model/errors';
import { PyDict, PyUnicode, type PyValue } from '../../python/py27Dict';
import { isPyMap, pyGet, pyText, pyTruthy } from '../../model/pyValues';

const PAYLOAD_TYPES = [undefined, null, 'TOKEN', 'REQUEST'];

/** One authorizer; its values are the template's (unicode strings, Python 2.7 dicts). */
export class RestAuthorizer {
  private constructor(
    readonly apiLogicalId: string,
    readonly name: PyValue,
    readonly userPoolArn: PyValue | undefined,
    readonly functionArn: PyValue | undefined,
    readonly identity: PyValue | undefined,
    readonly functionPayloadType: string | undefined,
    readonly functionInvokeRole: PyValue | undefined,
    readonly isAwsIam: boolean,
    readonly authorizationScopes: PyValue | undefined,
    readonly disableFunctionDefaultPermissions: PyValue | undefined,
  ) {}

  /** The built-in AWS_IAM authorizer. */
  static awsIam(apiLogicalId: string): RestAuthorizer {
    return new RestAuthorizer(apiLogicalId, 'AWS_IAM', undefined, undefined, undefined, undefined, undefined, true, [], undefined);
  }

  /** An authorizer as the API's Auth declares it, checked as SAM checks it. */
  static read(apiLogicalId: string, name: PyValue, config: PyDict): RestAuthorizer | SamError {
    const get = (key: string) => config.get(key);
    const payloadType = pyText(get('FunctionPayloadType'));
    const rawPayload = get('FunctionPayloadType');
    const nameText = pyText(name) ?? String(name);
    if (!PAYLOAD_TYPES.includes(payloadType ?? (rawPayload as null | undefined))) {
      return invalidResource(apiLogicalId, `${nameText} Authorizer has invalid 'FunctionPayloadType': ${pyText(rawPayload) ?? String(rawPayload)}.`, ['Properties', 'Auth', 'Authorizers', nameText]);
    }
    const identity = get('Identity');
    if (payloadType === 'REQUEST' && missingIdentitySource(identity)) {
      if (identity !== undefined && identity !== null && pyTruthy(identity) && !isPyMap(identity)) {
        return invalidResource(apiLogicalId, `Property 'Authorizer.${nameText}.Identity' should be a map.`, ['Properties', 'Auth', 'Authorizers', nameText, 'Identity']);
      }
      return invalidResource(apiLogicalId, `${nameText} Authorizer must specify Identity with at least one of Headers, QueryStrings, StageVariables, or Context.`, ['Properties', 'Auth', 'Authorizers', nameText]);
    }
    const scopes = get('AuthorizationScopes');
    if (scopes !== undefined && scopes !== null && !Array.isArray(scopes)) {
      return invalidResource(apiLogicalId, `Property 'Authorizers.${nameText}.AuthorizationScopes' should be a list.`, ['Properties', 'Auth', 'Authorizers', nameText, 'AuthorizationScopes']);
    }
    const disable = get('DisableFunctionDefaultPermissions');
    if (disable !== undefined && disable !== null && typeof disable !== 'boolean') {
      return invalidResource(apiLogicalId, `Property 'Authorizers.${nameText}.DisableFunctionDefaultPermissions' should be a boolean.`, ['Properties', 'Auth', 'Authorizers', nameText]);
    }
    return new RestAuthorizer(apiLogicalId, name, get('UserPoolArn'), get('FunctionArn'), identity, payloadType, get('FunctionInvokeRole'), false, scopes ?? [], disable);
  }

  get type(): 'AWS_IAM' | 'COGNITO_USER_POOLS' | 'LAMBDA' {
    if (this.isAwsIam) return 'AWS_IAM';
    if (pyTruthy(this.userPoolArn)) return 'COGNITO_USER_POOLS';
    return 'LAMBDA';
  }

  private get payloadType(): string {
    return this.functionPayloadType || 'TOKEN';
  }

  /** The security definition this authorizer writes into the swagger. */
  swagger(partition: string): PyDict | SamError {
    const swagger = new PyDict();
    swagger.set('type', 'apiKey');
    const header = this.headerName();
    if (header instanceof SamError) return header;
    swagger.set('name', header);
    swagger.set('in', 'header');
    swagger.set('x-amazon-apigateway-authtype', this.type === 'AWS_IAM' ? 'awsSigv4' : this.type === 'COGNITO_USER_POOLS' ? 'cognito_user_pools' : 'custom');
    const key = 'x-amazon-apigateway-authorizer';
    if (this.type === 'COGNITO_USER_POOLS') {
      const authorizer = new PyDict();
      authorizer.set('type', 'cognito_user_pools');
      authorizer.set('providerARNs', Array.isArray(this.userPoolArn) ? this.userPoolArn : [this.userPoolArn ?? null]);
      swagger.set(key, authorizer);
    } else if (this.type === 'LAMBDA') {
      const authorizer = PyDict.from({ type: this.payloadType === 'REQUEST' ? 'request' : this.payloadType === 'TOKEN' ? 'token' : null });
      authorizer.set('authorizerUri', {
        'Fn::Sub': [`arn:${partition}:apigateway:\${AWS::Region}:lambda:path/2015-03-31/functions/\${__FunctionArn__}/invocations`, { __FunctionArn__: this.functionArn ?? null }],
      });
      const identity = isPyMap(this.identity) ? this.identity : undefined;
      const ttl = identity ? pyGet(identity, 'ReauthorizeEvery') : undefined;
      if (ttl !== undefined && ttl !== null) authorizer.set('authorizerResultTtlInSeconds', ttl);
      const role = this.functionInvokeRole;
      if (pyTruthy(role) && pyText(role) !== 'NONE') authorizer.set('authorizerCredentials', role!);
      if (this.payloadType === 'REQUEST') {
        const source = this.identitySource();
        if (source instanceof SamError) return source;
        if (source) authorizer.set('identitySource', source);
      }
      swagger.set(key, authorizer);
    }
    const tokenLambda = this.type === 'LAMBDA' && this.payloadType === 'TOKEN';
    if (this.type === 'COGNITO_USER_POOLS' || tokenLambda) {
      const expression = isPyMap(this.identity) ? pyGet(this.identity, 'ValidationExpression') : undefined;
      if (pyTruthy(expression)) (swagger.get(key) as PyDict).set('identityValidationExpression', expression!);
    }
    return swagger;
  }

  private headerName(): PyValue | SamError {
    if (this.type === 'LAMBDA' && this.payloadType === 'REQUEST') return 'Unused';
    if (pyTruthy(this.identity) && !isPyMap(this.identity)) {
      return invalidResource(
        this.apiLogicalId,
        'Auth.Authorizers.<Authorizer>.Identity must be a dict (LambdaTokenAuthorizationIdentity, LambdaRequestAuthorizationIdentity or CognitoAuthorizationIdentity).',
        ['Properties', 'Auth', 'Authorizers'],
      );
    }
    const header = isPyMap(this.identity) ? pyGet(this.identity, 'Header') : undefined;
    return pyTruthy(header) ? header! : 'Authorization';
  }

  /** `identitySource`: the request parts, joined by `, ` (unicode when any part came from the template). */
  private identitySource(): PyValue | SamError {
    const identity = this.identity as PyDict;
    const parts: PyValue[] = [];
    const nameText = pyText(this.name) ?? '';
    for (const [key, prefix] of [
      ['Headers', 'method.request.header.'],
      ['QueryStrings', 'method.request.querystring.'],
      ['StageVariables', 'stageVariables.'],
      ['Context', 'context.'],
    ] as const) {
      const values = pyGet(identity, key);
      if (!pyTruthy(values)) continue;
      if (!Array.isArray(values)) {
        return invalidResource(this.apiLogicalId, `Property 'Auth.Authorizers.${nameText}.Identity.${key}' should be a list.`, ['Properties', 'Auth', 'Authorizers', nameText, 'Identity', key]);
      }
      for (let i = 0; i < values.length; i++) {
        const text = pyText(values[i]);
        if (text === undefined) {
          return invalidResource(this.apiLogicalId, `Property 'Auth.Authorizers.${nameText}.Identity.${key}[${i}]' should be a string.`, ['Properties', 'Auth', 'Authorizers', nameText, 'Identity', key, i]);
        }
        parts.push(values[i] instanceof PyUnicode ? new PyUnicode(prefix + text) : prefix + text);
      }
    }
    const joined = parts.map((p) => pyText(p)!).join(', ');
    return parts.some((p) => p instanceof PyUnicode) ? new PyUnicode(joined) : joined;
  }
}

/** Whether a REQUEST authorizer's identity names no request part (with no positive TTL, SAM requires one). */
function missingIdentitySource(identity: PyValue | undefined): boolean {
  if (!pyTruthy(identity) || !isPyMap(identity)) return true;
  const has = (key: string) => pyTruthy(pyGet(identity, key));
  const missing = !has('Headers') && !has('QueryStrings') && !has('StageVariables') && !has('Context');
  const ttl = pyGet(identity, 'ReauthorizeEvery');
  if (ttl === undefined || ttl === null) return missing;
  const number = typeof ttl === 'number' ? ttl : Number(pyText(ttl));
  if (!Number.isInteger(number)) return missing;
  return number > 0 && missing;
}
