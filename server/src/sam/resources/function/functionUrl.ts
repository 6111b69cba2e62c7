/**
 * `FunctionUrlConfig`: an `AWS::Lambda::Url` `<Function>Url` (on the alias when there is one) and,
 * for `AuthType: NONE`, the public permissions `<Function>UrlPublicPermissions` (invoke the URL) and
 * `<Function>URLInvokeAllowPublicAccess` (invoke the function through it).
 */
import type { SamResource } from '../../model/context';
import { invalidResource, type SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { isIntrinsic, isMap, type PlainMap } from '../../model/values';

const CORS_TYPES: Record<string, (v: unknown) => boolean> = {
  AllowOrigins: Array.isArray,
  AllowMethods: Array.isArray,
  AllowCredentials: (v) => typeof v === 'boolean',
  AllowHeaders: Array.isArray,
  ExposeHeaders: Array.isArray,
  MaxAge: (v) => typeof v === 'number' && Number.isInteger(v),
};
const CORS_TYPE_NAMES: Record<string, string> = { AllowCredentials: 'bool', MaxAge: 'int' };

/** The URL and its public permission. */
export function constructFunctionUrl(sam: SamResource, fn: GeneratedResource, alias: GeneratedResource | undefined, config: PlainMap): GeneratedResource[] | SamError {
  if (!isIntrinsic(config)) {
    const authType = config.AuthType;
    if (!(authType && isIntrinsic(authType)) && authType !== 'AWS_IAM' && authType !== 'NONE') {
      return invalidResource(fn.logicalId, 'AuthType is required to configure function property `FunctionUrlConfig`. Please provide either AWS_IAM or NONE.', ['Properties', 'FunctionUrlConfig']);
    }
    const cors = config.Cors;
    if (cors && !isIntrinsic(cors)) {
      if (!isMap(cors)) return invalidResource(fn.logicalId, "Property 'FunctionUrlConfig.Cors' should be a map.", ['Properties', 'FunctionUrlConfig', 'Cors']);
      for (const [name, value] of Object.entries(cors)) {
        const check = CORS_TYPES[name];
        if (!check) return invalidResource(fn.logicalId, `${name} is not a valid property for configuring Cors.`, ['Properties', 'FunctionUrlConfig', 'Cors', name]);
        if (!isIntrinsic(value) && !check(value)) return invalidResource(fn.logicalId, `${name} must be of type ${CORS_TYPE_NAMES[name] ?? 'list'}.`, ['Properties', 'FunctionUrlConfig', 'Cors', name]);
      }
    }
  }
  const target = alias ? alias.ref() : fn.ref();
  const url = sam.generate(`${fn.logicalId}Url`, 'AWS::Lambda::Url', 'FunctionUrlConfig');
  if (config.Cors) url.set('Cors', config.Cors, 'FunctionUrlConfig.Cors');
  url.set('AuthType', config.AuthType, 'FunctionUrlConfig.AuthType');
  url.set('TargetFunctionArn', target);
  url.set('InvokeMode', config.InvokeMode, 'FunctionUrlConfig.InvokeMode');
  const out = [url];
  if (config.AuthType === 'NONE' && !isIntrinsic(config)) {
    const permission = sam.generate(`${fn.logicalId}UrlPublicPermissions`, 'AWS::Lambda::Permission', 'FunctionUrlConfig');
    permission.set('Action', 'lambda:InvokeFunctionUrl');
    permission.set('FunctionName', target);
    permission.set('Principal', '*');
    permission.set('FunctionUrlAuthType', 'NONE');
    // Public URLs also need the function itself invocable through the URL.
    const invoke = sam.generate(`${fn.logicalId}URLInvokeAllowPublicAccess`, 'AWS::Lambda::Permission', 'FunctionUrlConfig');
    invoke.set('Action', 'lambda:InvokeFunction');
    invoke.set('FunctionName', target);
    invoke.set('Principal', '*');
    invoke.set('InvokedViaFunctionUrl', true);
    out.push(permission, invoke);
  }
  return out;
}
