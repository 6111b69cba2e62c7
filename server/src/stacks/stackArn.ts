/**
 * What a stack id says of where the stack is: `arn:PARTITION:cloudformation:REGION:ACCOUNT:stack/NAME/ID`.
 */

/** The Region and account of a stack id, each where the id holds one. */
export function placeOfStackId(stackId: string): { region?: string; accountId?: string } {
  const [arn, , service, region, account] = stackId.split(':');
  if (arn !== 'arn' || service !== 'cloudformation') return {};
  const place: { region?: string; accountId?: string } = {};
  if (region) place.region = region;
  if (account !== undefined && /^\d{12}$/.test(account)) place.accountId = account;
  return place;
}
