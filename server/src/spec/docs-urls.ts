/**
 * Links into the AWS CloudFormation documentation. The CDK spec carries no links of its own,
 * so they are derived from the naming pattern every reference page follows (and that the spec's
 * own documentation text uses when it links to other pages).
 */

const USER_GUIDE = 'https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide';
const SAM_GUIDE = 'https://docs.aws.amazon.com/serverless-application-model/latest/developerguide';
const SAM_PREFIX = 'AWS::Serverless::';

/** `AWS::EC2::VPC` → `ec2-vpc` (the last two name parts, which also covers `Alexa::ASK::Skill`). */
function pageSlug(resourceType: string): string {
  const parts = resourceType.split('::');
  return parts.slice(-2).join('-').toLowerCase();
}

/** Reference page of a resource type. */
export function resourceTypeUrl(resourceType: string): string {
  if (resourceType.startsWith(SAM_PREFIX)) {
    return `${SAM_GUIDE}/sam-resource-${resourceType.slice(SAM_PREFIX.length).toLowerCase()}.html`;
  }
  return `${USER_GUIDE}/aws-resource-${pageSlug(resourceType)}.html`;
}

/**
 * Documentation of one property: a top-level property is an anchor on the resource page, a
 * property of a nested type (`typeDefinitionName`) an anchor on that type's own page.
 * SAM types document nested types differently, so their links stop at the resource page.
 */
export function propertyUrl(resourceType: string, typeDefinitionName: string | undefined, property: string): string {
  if (resourceType.startsWith(SAM_PREFIX)) return resourceTypeUrl(resourceType);
  const slug = pageSlug(resourceType);
  const name = property.toLowerCase();
  if (typeDefinitionName === undefined) return `${USER_GUIDE}/aws-resource-${slug}.html#cfn-${slug}-${name}`;
  const typeSlug = `${slug}-${typeDefinitionName.toLowerCase()}`;
  return `${USER_GUIDE}/aws-properties-${typeSlug}.html#cfn-${typeSlug}-${name}`;
}
