/**
 * A REST API's custom domain (`Domain`, api_generator.py `_construct_api_domain`): the
 * `DomainName` named by a hash of the domain name (`DomainNameV2` for a private domain), a base
 * path mapping per base path, and the Route 53 record set group shared by the APIs of one hosted
 * zone (named by a hash of the zone).
 */
import { noteParameterWithoutValue, type SamResource, type TranslationContext } from '../../model/context';
import { invalidResource, type SamError } from '../../model/errors';
import { GeneratedResource } from '../../model/generated';
import { parameterWithoutValue } from '../../model/intrinsics';
import { generateLogicalId } from '../../model/logicalIds';
import { PyDict, PyUnicode, type PyValue } from '../../python/py27Dict';
import { isPyMap, pyGet, pyKeys, pyText, pyTruthy, toPlain } from '../../model/pyValues';

const ENDPOINTS = ['EDGE', 'REGIONAL', 'PRIVATE'];

/** The domain resources; the domain map of a public domain is completed in place (`ApiDomainName`, the default endpoint) as SAM completes it. */
export function constructRestApiDomain(ctx: TranslationContext, sam: SamResource, domain: PyValue | undefined, restApi: GeneratedResource): GeneratedResource[] {
  if (domain === undefined) return [];
  const fail = (detail: string): SamError => invalidResource(sam.logicalId, detail, ['Properties', 'Domain']);
  if (!(domain instanceof PyDict)) throw fail("Property 'Domain' should be a map.");
  const domainName = domain.get('DomainName');
  if (domainName === undefined || domainName === null) throw fail("Property 'Domain.DomainName' is required.");
  const certificate = domain.get('CertificateArn');
  if (certificate === undefined || certificate === null) throw fail("Property 'Domain.CertificateArn' is required.");
  let endpoint = domain.get('EndpointConfiguration');
  const endpointParameter = parameterWithoutValue(toPlain(endpoint), ctx.parameters);
  if (endpointParameter !== undefined) {
    // A parameter with no value at hand: SAM's default stands in, as if the domain did not set it.
    noteParameterWithoutValue(ctx, sam, 'Domain.EndpointConfiguration', endpointParameter);
    endpoint = undefined;
  }
  if (endpoint === undefined || endpoint === null) {
    endpoint = 'REGIONAL';
    domain.set('EndpointConfiguration', 'REGIONAL');
  } else if (!ENDPOINTS.includes(pyText(endpoint) ?? '')) throw fail("EndpointConfiguration for Custom Domains must be one of ['EDGE', 'REGIONAL', 'PRIVATE'].");
  const isPrivate = pyText(endpoint) === 'PRIVATE';
  const plainName = toPlain(domainName);
  const domainId = (isPrivate ? 'ApiGatewayDomainNameV2' : 'ApiGatewayDomainName') + generateLogicalId('', plainName);
  // A private domain (`_construct_api_domain_v2`) leaves the map as written, and so the deployment's hash input.
  if (!isPrivate) domain.set('ApiDomainName', domainId);
  const attributes = sam.passThroughAttributes();
  const resource = sam.generate(domainId, isPrivate ? 'AWS::ApiGateway::DomainNameV2' : 'AWS::ApiGateway::DomainName', 'Domain', attributes);
  resource.set('DomainName', plainName, 'Domain.DomainName');
  resource.set(pyText(endpoint) === 'REGIONAL' ? 'RegionalCertificateArn' : 'CertificateArn', toPlain(certificate), 'Domain.CertificateArn');
  const ipAddressType = domain.get('IpAddressType');
  const endpointConfiguration: Record<string, unknown> = { Types: [pyText(endpoint)] };
  if (pyTruthy(ipAddressType)) endpointConfiguration.IpAddressType = toPlain(ipAddressType);
  resource.set('EndpointConfiguration', endpointConfiguration, 'Domain.EndpointConfiguration');
  const mtls = domain.get('MutualTlsAuthentication');
  if (pyTruthy(mtls)) {
    if (!isPyMap(mtls)) throw fail("Property 'Domain.MutualTlsAuthentication' should be a map.");
    if (!pyKeys(mtls).every((k) => k === 'TruststoreUri' || k === 'TruststoreVersion')) throw fail("Available Domain.MutualTlsAuthentication fields are ['TruststoreUri', 'TruststoreVersion'].");
    const config: Record<string, unknown> = {};
    if (pyTruthy(pyGet(mtls, 'TruststoreUri'))) config.TruststoreUri = toPlain(pyGet(mtls, 'TruststoreUri'));
    if (pyTruthy(pyGet(mtls, 'TruststoreVersion'))) config.TruststoreVersion = toPlain(pyGet(mtls, 'TruststoreVersion'));
    resource.set('MutualTlsAuthentication', config, 'Domain.MutualTlsAuthentication');
  }
  for (const key of ['SecurityPolicy', 'EndpointAccessMode', 'OwnershipVerificationCertificateArn', 'Policy']) {
    if (pyTruthy(domain.get(key))) resource.set(key, toPlain(domain.get(key)), `Domain.${key}`);
  }
  const resources: GeneratedResource[] = [resource];
  const domainRef = isPrivate ? { DomainNameArn: resource.ref() } : { DomainName: resource.ref() };
  const mappingType = isPrivate ? 'AWS::ApiGateway::BasePathMappingV2' : 'AWS::ApiGateway::BasePathMapping';
  const basePath = domain.get('BasePath');
  const stageRef = ctx.references.ref(restApi.logicalId, 'Stage');
  if (!pyTruthy(basePath)) {
    const mapping = sam.generate(`${sam.logicalId}BasePathMapping`, mappingType, 'Domain', attributes);
    for (const [k, v] of Object.entries(domainRef)) mapping.set(k, v);
    mapping.set('RestApiId', restApi.ref());
    mapping.set('Stage', stageRef);
    resources.push(mapping);
  } else {
    const paths = Array.isArray(basePath) ? basePath : [basePath!];
    const normalize = domain.has('NormalizeBasePath') ? pyTruthy(domain.get('NormalizeBasePath')) : true;
    for (const [index, path] of paths.entries()) {
      const text = pyText(path);
      if (text === undefined) throw invalidResource(sam.logicalId, `Property 'Domain.BasePath[${index}]' should be a string.`, ['Properties', 'Domain', 'BasePath', index]);
      const clean = [...text].filter((c) => /[\p{L}\p{N}]/u.test(c)).join('');
      const mapping = sam.generate(`${sam.logicalId}${clean}BasePathMapping`, mappingType, 'Domain.BasePath', attributes);
      for (const [k, v] of Object.entries(domainRef)) mapping.set(k, v);
      mapping.set('RestApiId', restApi.ref());
      mapping.set('Stage', stageRef);
      mapping.set('BasePath', normalize ? clean : text);
      resources.push(mapping);
    }
  }
  const association = domain.get('AccessAssociation');
  if (association !== undefined && association !== null && !isPyMap(association)) {
    throw invalidResource(sam.logicalId, "Property 'Domain.AccessAssociation' should be a map.", ['Properties', 'Domain', 'AccessAssociation']);
  }
  if (isPrivate && isPyMap(association)) {
    const source = toPlain(pyGet(association, 'VpcEndpointId'));
    const access = sam.generate(generateLogicalId('DomainNameAccessAssociation', [source, domainId]), 'AWS::ApiGateway::DomainNameAccessAssociation', 'Domain.AccessAssociation', attributes);
    access.set('DomainNameArn', resource.ref());
    access.set('AccessAssociationSource', source);
    access.set('AccessAssociationSourceType', 'VPCE');
    resources.push(access);
  }
  const route53 = domain.get('Route53');
  if (route53 !== undefined && route53 !== null) {
    if (!(route53 instanceof PyDict)) throw fail("Property 'Domain.Route53' should be a map.");
    const zoneId = route53.get('HostedZoneId');
    const zoneName = route53.get('HostedZoneName');
    if ((zoneId === undefined || zoneId === null) && (zoneName === undefined || zoneName === null)) {
      throw fail('HostedZoneId or HostedZoneName is required to enable Route53 support on Custom Domains.');
    }
    const zone = pyTruthy(zoneId) ? zoneId : zoneName;
    const separate = route53.get('SeparateRecordSetGroup');
    if (pyTruthy(separate)) {
      if (typeof separate !== 'boolean') throw fail("Property 'Domain.Route53.SeparateRecordSetGroup' should be a boolean.");
      const group = sam.generate(generateLogicalId('RecordSetGroup', [toPlain(zone), plainName]), 'AWS::Route53::RecordSetGroup', 'Domain.Route53', attributes);
      if (pyTruthy(zoneId)) group.set('HostedZoneId', toPlain(zoneId));
      if (pyTruthy(zoneName)) group.set('HostedZoneName', toPlain(zoneName));
      group.set('RecordSets', recordSets(domain, domainId, route53, isPrivate));
      resources.push(group);
      return resources;
    }
    const groupId = `RecordSetGroup${generateLogicalId('', toPlain(zone))}`;
    let group = ctx.route53RecordSetGroups.get(groupId);
    if (!group) {
      group = sam.generate(groupId, 'AWS::Route53::RecordSetGroup', 'Domain.Route53', attributes);
      if (route53.has('HostedZoneId')) group.set('HostedZoneId', toPlain(zoneId));
      if (route53.has('HostedZoneName')) group.set('HostedZoneName', toPlain(zoneName));
      group.set('RecordSets', []);
      ctx.route53RecordSetGroups.set(groupId, group);
    }
    group.set('RecordSets', [...(group.get('RecordSets') as unknown[]), ...recordSets(domain, domainId, route53, isPrivate)]);
    resources.push(group);
  }
  return resources;
}

function recordSets(domain: PyDict, domainId: string, route53: PyDict, isPrivate: boolean): Record<string, unknown>[] {
  const target: Record<string, unknown> = {};
  const health = route53.get('EvaluateTargetHealth');
  if (health !== undefined && health !== null) target.EvaluateTargetHealth = toPlain(health);
  if (isPrivate) {
    target.HostedZoneId = toPlain(route53.get('VpcEndpointHostedZoneId'));
    target.DNSName = toPlain(route53.get('VpcEndpointDomainName'));
  } else if (pyText(domain.get('EndpointConfiguration')) === 'REGIONAL') {
    target.HostedZoneId = { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] };
    target.DNSName = { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] };
  } else {
    if (route53.get('DistributionDomainName') === undefined || route53.get('DistributionDomainName') === null) {
      route53.set('DistributionDomainName', PyDict.from({ 'Fn::GetAtt': [new PyUnicode(domainId), 'DistributionDomainName'] }));
    }
    target.HostedZoneId = 'Z2FDTNDATAQYW2';
    target.DNSName = toPlain(route53.get('DistributionDomainName'));
  }
  const record = (type: string): Record<string, unknown> => {
    const set: Record<string, unknown> = { Name: toPlain(domain.get('DomainName')), Type: type, AliasTarget: target };
    if (route53.get('Region') !== undefined && route53.get('Region') !== null) set.Region = toPlain(route53.get('Region'));
    if (route53.get('SetIdentifier') !== undefined && route53.get('SetIdentifier') !== null) set.SetIdentifier = toPlain(route53.get('SetIdentifier'));
    return set;
  };
  const sets = [record('A')];
  if (route53.get('IpV6') === true) sets.push(record('AAAA'));
  return sets;
}
