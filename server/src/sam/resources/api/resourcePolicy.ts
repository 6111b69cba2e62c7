/**
 * Source VPCs of an API's resource policy (`Auth.ResourcePolicy.SourceVpcWhitelist` and
 * `SourceVpcBlacklist`) that read a parameter with no value at hand: SAM resolves them to strings
 * with the value CloudFormation gives it, so here they are not an error; each stands in as a VPC id.
 */
import { noteParameterWithoutValue, type SamResource, type TranslationContext } from '../../model/context';
import { parameterWithoutValue } from '../../model/intrinsics';
import type { PlainPyDict, PyDict, PyValue } from '../../python/py27Dict';
import { pyGet, toPlain } from '../../model/pyValues';

const SOURCE_VPC_LISTS = ['SourceVpcWhitelist', 'SourceVpcBlacklist'];

/** Notes each list of `policy` (at `property`, the policy's path) that reads such a parameter; the test the swagger editor takes for its items. */
export function sourceVpcsWithoutValue(ctx: TranslationContext, sam: SamResource, policy: PyDict | PlainPyDict, property: string): (value: PyValue) => boolean {
  const withoutValue = (value: PyValue) => parameterWithoutValue(toPlain(value), ctx.parameters);
  for (const key of SOURCE_VPC_LISTS) {
    const list = pyGet(policy, key);
    const parameter = Array.isArray(list) ? list.map(withoutValue).find((name) => name !== undefined) : undefined;
    if (parameter !== undefined) noteParameterWithoutValue(ctx, sam, `${property}.${key}`, parameter);
  }
  return (value) => withoutValue(value) !== undefined;
}
