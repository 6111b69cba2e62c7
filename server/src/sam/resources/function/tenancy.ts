/**
 * A function with `TenancyConfig` (tenant isolation) runs a separate execution environment per
 * tenant, invoked with a tenant id: Lambda supports neither SnapStart, provisioned concurrency
 * nor function URLs for it, and only API Gateway passes the tenant id, so SAM rejects those
 * settings and every other event source.
 */
import type { SamResource } from '../../model/context';
import { invalidResource, type SamError } from '../../model/errors';
import { isMap, type PlainMap } from '../../model/values';

/** The event source types that can invoke a function with tenant isolation. */
const TENANT_EVENT_TYPES = ['Api', 'HttpApi'];

/** The first setting of a function with tenancy configuration that SAM rejects, or nothing. */
export function checkTenancy(sam: SamResource, p: PlainMap): SamError | undefined {
  if (p.TenancyConfig === undefined || p.TenancyConfig === null) return undefined;
  const unsupported = (what: string, property: string) => invalidResource(sam.logicalId, `${what} is not supported for functions enabled with tenancy configuration.`, ['Properties', property]);
  if (p.SnapStart !== undefined && p.SnapStart !== null) return unsupported('SnapStart', 'SnapStart');
  if (p.ProvisionedConcurrencyConfig !== undefined && p.ProvisionedConcurrencyConfig !== null) return unsupported('Provisioned concurrency', 'ProvisionedConcurrencyConfig');
  if (p.FunctionUrlConfig !== undefined && p.FunctionUrlConfig !== null) return unsupported('Function URL', 'FunctionUrlConfig');
  if (isMap(p.Events)) {
    for (const [eventId, event] of Object.entries(p.Events)) {
      const type = isMap(event) ? event.Type : undefined;
      if (typeof type === 'string' && !TENANT_EVENT_TYPES.includes(type)) {
        return invalidResource(
          sam.logicalId,
          `Event source '${type}' is not supported for functions enabled with tenancy configuration. Only Api and HttpApi event sources are supported.`,
          ['Properties', 'Events', eventId, 'Type'],
        );
      }
    }
  }
  return undefined;
}
