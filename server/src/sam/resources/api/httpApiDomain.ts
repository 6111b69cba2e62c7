/**
 * The custom domain of an HTTP API (http_api_generator.py, `_construct_api_domain`): the
 * `AWS::ApiGatewayV2::DomainName` named by a hash of the domain name, one `ApiMapping` per base
 * path, and the Route 53 record set group, shared by every API of the hosted zone.
 */
import { noteParameterWithoutValue, type SamResource, type TranslationContext } from '../../model/context';
import { invalidResource, type SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { parameterWithoutValue } from '../../model/intrinsics';
import { generateLogicalId } from '../../model/logicalIds';
import { isMap, type PlainMap } from '../../model/values';

const MTLS_FIELDS = ['TruststoreUri', 'TruststoreVersion'];

/**
 * The domain's resources; `tags` is the API's tag map as the stage gets it. `recordSetGroups` are
 * the Route 53 groups this API may add its records to (by default those of every API so far).
 */
export function constructHttpApiDomain(
  ctx: TranslationContext,
  sam: SamResource,
  written: unknown,
  tags: PlainMap | undefined,
  recordSetGroups?: Map<string, GeneratedResource>,
): GeneratedResource[] {
  if (written === undefined || written === null) return [];
  const fail = (detail: string): SamError => invalidResource(sam.logicalId, detail, ['Properties', 'Domain']);
  if (!isMap(written)) throw fail("Property 'Domain' should be a map.");
  let domain = written;
  const endpointParameter = parameterWithoutValue(domain.EndpointConfiguration, ctx.parameters);
  if (endpointParameter !== undefined) {
    // A parameter with no value at hand: REGIONAL, the one value SAM accepts here, stands in.
    noteParameterWithoutValue(ctx, sam, 'Domain.EndpointConfiguration', endpointParameter);
    domain = { ...domain, EndpointConfiguration: 'REGIONAL' };
  }
  const attributes = sam.passThroughAttributes();
  const domainName = domain.DomainName;
  const certificateArn = domain.CertificateArn;
  if (domainName === undefined || domainName === null || certificateArn === undefined || certificateArn === null) {
    throw fail('Custom Domains only works if both DomainName and CertificateArn are provided.');
  }
  const domainId = `ApiGatewayDomainNameV2${generateLogicalId('', domainName)}`;
  const resource = sam.generate(domainId, 'AWS::ApiGatewayV2::DomainName', 'Domain', attributes);
  resource.set('DomainName', domainName, 'Domain.DomainName');
  resource.set('Tags', tags, 'Tags');
  const endpoint = domain.EndpointConfiguration ?? 'REGIONAL';
  if (endpoint !== 'REGIONAL') throw fail("EndpointConfiguration for Custom Domains must be one of ['REGIONAL'].");
  const configuration: PlainMap = { CertificateArn: certificateArn, EndpointType: endpoint };
  if (domain.OwnershipVerificationCertificateArn) configuration.OwnershipVerificationCertificateArn = domain.OwnershipVerificationCertificateArn;
  if (domain.SecurityPolicy) configuration.SecurityPolicy = domain.SecurityPolicy;
  resource.set('DomainNameConfigurations', [configuration], 'Domain');
  const mtls = domain.MutualTlsAuthentication;
  if (mtls) {
    if (!isMap(mtls)) throw fail(`MutualTlsAuthentication must be a map with at least one of the following fields ['TruststoreUri', 'TruststoreVersion'].`);
    const invalid = Object.keys(mtls).filter((key) => !MTLS_FIELDS.includes(key)).sort();
    // SAM names the invalid keys where the resource id belongs.
    if (invalid.length > 0) throw invalidResource(invalid.join(','), "Available MutualTlsAuthentication fields are ['TruststoreUri', 'TruststoreVersion'].", ['Properties', 'Domain', 'MutualTlsAuthentication']);
    const config: PlainMap = {};
    if (mtls.TruststoreUri) config.TruststoreUri = mtls.TruststoreUri;
    if (mtls.TruststoreVersion) config.TruststoreVersion = mtls.TruststoreVersion;
    resource.set('MutualTlsAuthentication', config, 'Domain.MutualTlsAuthentication');
  }
  const resources: GeneratedResource[] = [resource, ...apiMappings(ctx, sam, domain.BasePath, domainId, attributes, fail)];
  // Read only here: an API without a domain reads nothing that other APIs share.
  const group = recordSetGroup(recordSetGroups ?? ctx.route53RecordSetGroups, sam, domain, domainId, attributes, fail);
  if (group) resources.push(group);
  return resources;
}

/** `_construct_basepath_mappings`: one mapping, or one per base path (checked to be plain path text). */
function apiMappings(ctx: TranslationContext, sam: SamResource, basePath: unknown, domainId: string, attributes: PlainMap, fail: (detail: string) => SamError): GeneratedResource[] {
  const stage = ctx.references.ref(sam.logicalId, 'Stage');
  const mapping = (logicalId: string, property: string): GeneratedResource => {
    const resource = sam.generate(logicalId, 'AWS::ApiGatewayV2::ApiMapping', property, attributes);
    resource.set('DomainName', { Ref: domainId });
    resource.set('ApiId', { Ref: sam.logicalId });
    resource.set('Stage', stage);
    return resource;
  };
  const paths = basePath && typeof basePath === 'string' ? [basePath] : basePath && Array.isArray(basePath) ? basePath : undefined;
  if (paths === undefined) return [mapping(`${sam.logicalId}ApiMapping`, 'Domain')];
  return paths.map((path) => {
    if (typeof path !== 'string') throw fail('Basepath must be a string.');
    if (/[^0-9a-zA-Z/\-_]+/.test(path)) throw fail('Invalid Basepath name provided.');
    const resource = mapping(`${sam.logicalId}${path.replace(/[-_/]+/g, '')}ApiMapping`, 'Domain.BasePath');
    resource.set('ApiMappingKey', path.replace(/^\/+|\/+$/g, ''));
    return resource;
  });
}

/** `_construct_route53_recordsetgroup`: the hosted zone's group (one per zone across APIs) with this domain's records. */
function recordSetGroup(groups: Map<string, GeneratedResource>, sam: SamResource, domain: PlainMap, domainId: string, attributes: PlainMap, fail: (detail: string) => SamError): GeneratedResource | undefined {
  const route53 = domain.Route53;
  if (route53 === undefined || route53 === null) return undefined;
  if (!isMap(route53)) throw fail("Property 'Domain.Route53' should be a map.");
  const zoneId = route53.HostedZoneId;
  const zoneName = route53.HostedZoneName;
  if ((zoneId === undefined || zoneId === null) && (zoneName === undefined || zoneName === null)) {
    throw fail('HostedZoneId or HostedZoneName is required to enable Route53 support on Custom Domains.');
  }
  const groupId = `RecordSetGroup${generateLogicalId('', zoneId || zoneName)}`;
  let group = groups.get(groupId);
  if (!group) {
    group = sam.generate(groupId, 'AWS::Route53::RecordSetGroup', 'Domain.Route53', attributes);
    if ('HostedZoneId' in route53) group.set('HostedZoneId', zoneId);
    else if ('HostedZoneName' in route53) group.set('HostedZoneName', zoneName);
    group.set('RecordSets', []);
    groups.set(groupId, group);
  }
  const target: PlainMap = {};
  if (route53.EvaluateTargetHealth !== undefined && route53.EvaluateTargetHealth !== null) target.EvaluateTargetHealth = route53.EvaluateTargetHealth;
  if (domain.EndpointConfiguration !== undefined && domain.EndpointConfiguration !== null && domain.EndpointConfiguration !== 'REGIONAL') {
    throw fail('Only REGIONAL endpoint is supported on HTTP APIs.');
  }
  target.HostedZoneId = { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] };
  target.DNSName = { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] };
  const record = (type: string): PlainMap => {
    const set: PlainMap = { Name: domain.DomainName, Type: type, AliasTarget: target };
    if (route53.Region !== undefined && route53.Region !== null) set.Region = route53.Region;
    if (route53.SetIdentifier !== undefined && route53.SetIdentifier !== null) set.SetIdentifier = route53.SetIdentifier;
    return set;
  };
  const records = [record('A')];
  if (route53.IpV6 === true) records.push(record('AAAA'));
  group.set('RecordSets', [...((group.get('RecordSets') as unknown[] | undefined) ?? []), ...records]);
  return group;
}
