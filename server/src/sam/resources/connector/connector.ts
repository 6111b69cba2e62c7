/**
 * `AWS::Serverless::Connector` (SamConnector): for each destination, the policy or permissions
 * the profile of the source and destination types calls for, with `Metadata` naming the
 * connector and the two types; what waits for the connector waits for them instead, and a
 * function's event source mapping (or the source) waits for the policy when the profile says so.
 */
import type { SamResource } from '../../model/context';
import { invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { ANY, checkProperties, dictOf, IS_STR, listOf, oneOf, typed, type PropertySpec } from '../../model/properties';
import { isList, isMap, type PlainMap } from '../../model/values';
import { PROFILES, type ConnectorProfile, type PermissionGrant, type ProfileVariable } from './profiles';
import profileStatements from './profileStatements.json';
import { profileReplace, profileVariables, replaceVariables } from './profileReplace';
import { ConnectorResourceError, logicalIdOf, resourceReference, type ResourceReference, type ResourceResolver } from '../../model/connectable';

const IS_REFERENCE = dictOf(IS_STR, ANY);

/** The statements of each access category (or combination of them) SAM's suite shows, by source and destination type. */
const STATEMENTS = (profileStatements as { statements: Record<string, Record<string, Record<string, unknown[]>>> }).statements;

const CONNECTOR_PROPERTIES: Record<string, PropertySpec> = {
  Source: typed(IS_REFERENCE, true),
  Destination: typed(oneOf(IS_REFERENCE, listOf(IS_REFERENCE)), true),
  Permissions: typed(listOf(IS_STR), true),
};

/** Translates a connector; `originalTypes` are the template's resource types as written (SAM types included). */
export function translateConnector(sam: SamResource, resolver: ResourceResolver, originalTypes: ReadonlyMap<string, unknown>): GeneratedResource[] | SamError {
  const p = sam.properties;
  const invalid = checkProperties(sam.logicalId, sam.type, p, CONNECTOR_PROPERTIES);
  if (invalid) return invalid;
  const fail = (detail: string) => invalidResource(sam.logicalId, detail);
  const multi = isList(p.Destination);
  const destinations = (multi ? p.Destination : [p.Destination]) as PlainMap[];
  const generated: GeneratedResource[] = [];
  for (let index = 0; index < destinations.length; index++) {
    const destination = resourceReference(destinations[index]!, resolver, p.Source as PlainMap);
    if (destination instanceof ConnectorResourceError) return fail(destination.message);
    const source = resourceReference(p.Source as PlainMap, resolver, destinations[index]!);
    if (source instanceof ConnectorResourceError) return fail(source.message);
    const resources = generateResources(sam, source, destination, index, multi, resolver);
    if (resources instanceof SamError) return resources;
    const metadata = {
      'aws:sam:connectors': {
        [sam.logicalId]: {
          Source: { Type: originalTypes.get(source.logicalId ?? '') ?? source.resourceType },
          Destination: { Type: originalTypes.get(destination.logicalId ?? '') ?? destination.resourceType },
        },
      },
    };
    for (const resource of resources) resource.setAttribute('Metadata', { ...(isMap(resource.attributes.Metadata) ? resource.attributes.Metadata : {}), ...metadata });
    generated.push(...resources);
  }
  // What depended on the connector now depends on what it generated.
  const ids = generated.map((r) => r.logicalId);
  for (const [, resource] of resolver.dependentsOf(sam.logicalId)) {
    const current = resource.dependsOn();
    const list = Array.isArray(current) ? current : current === undefined ? [] : [current];
    if (!list.includes(sam.logicalId)) continue;
    const rest = list.filter((id) => id !== sam.logicalId);
    resource.setDependsOn([...rest, ...ids.filter((id) => !rest.includes(id))]);
  }
  if (generated.length === 0) return fail("'Destination' is an empty list");
  return generated;
}

function generateResources(
  sam: SamResource,
  source: ResourceReference,
  destination: ResourceReference,
  index: number,
  multi: boolean,
  resolver: ResourceResolver,
): GeneratedResource[] | SamError {
  const fail = (detail: string) => invalidResource(sam.logicalId, detail);
  const profile = PROFILES[source.resourceType]?.[destination.resourceType];
  if (!profile) return fail(`Unable to create connector from ${source.resourceType} to ${destination.resourceType}; it's not supported or the template is invalid.`);
  const permissions = [...new Set(sam.properties.Permissions as string[])];
  const categories = Object.keys(profile.categories);
  const valid = categories.join(', ');
  if (permissions.length === 0) return fail(`'Permissions' cannot be empty; valid values are: ${valid}.`);
  if (permissions.some((p) => !categories.includes(p))) {
    return fail(`Unsupported 'Permissions' provided for connector from ${source.resourceType} to ${destination.resourceType}; valid values are: ${valid}.`);
  }
  if (profile.validCombinations) {
    const sorted = profile.validCombinations.map((c) => [...c].sort());
    const given = [...permissions].sort().join(' + ');
    if (!sorted.some((c) => c.join(' + ') === given)) {
      return fail(
        `Unsupported 'Permissions' provided for connector from ${source.resourceType} to ${destination.resourceType}; valid combinations are: ${sorted.map((c) => c.join(' + ')).join(', ')}.`,
      );
    }
  }
  const values = profileVariables(source, destination);
  // SAM replaces the variables of the whole profile first: a missing one fails even for a category not asked for.
  for (const category of Object.values(profile.categories)) {
    for (const variable of Array.isArray(category) ? category : grantVariables(category)) {
      if (values[variable] === undefined || values[variable] === null) return fail(`${variable} is missing.`);
    }
  }
  const suffix = (name: string) => (multi ? `${name}Destination${index}` : name);
  const side = (policyOfSource: boolean) => (policyOfSource ? 'Source' : 'Destination');
  const generate = (logicalId: string, type: string) => {
    const resource = sam.generate(logicalId, type, 'Permissions', sam.attributes());
    if (sam.dependsOn !== undefined) resource.setAttribute('DependsOn', sam.dependsOn);
    return resource;
  };
  const owner = profile.sourcePolicy ? source : destination;
  switch (profile.type) {
    case 'AWS_IAM_ROLE_MANAGED_POLICY': {
      if (!owner.roleName) return fail(`Unable to get IAM role name from '${side(profile.sourcePolicy)}' resource.`);
      const policy = generate(`${sam.logicalId}${suffix('Policy')}`, 'AWS::IAM::ManagedPolicy');
      policy.set('PolicyDocument', policyDocument(profile, permissions, values, source, destination), 'Permissions');
      policy.set('Roles', [owner.roleName], 'Source');
      addDependencies(profile, source, destination, policy.logicalId, resolver);
      return [policy];
    }
    case 'AWS_SQS_QUEUE_POLICY': {
      if (!owner.queueUrl) return fail(`Unable to get SQS queue URL from '${side(profile.sourcePolicy)}' resource.`);
      const policy = generate(`${sam.logicalId}${suffix('QueuePolicy')}`, 'AWS::SQS::QueuePolicy');
      policy.set('PolicyDocument', policyDocument(profile, permissions, values, source, destination), 'Permissions');
      policy.set('Queues', [owner.queueUrl], 'Destination');
      return [policy];
    }
    case 'AWS_SNS_TOPIC_POLICY': {
      if (!owner.arn) return fail(`Unable to get SNS topic ARN from '${side(profile.sourcePolicy)}' resource.`);
      const policy = generate(`${sam.logicalId}${suffix('TopicPolicy')}`, 'AWS::SNS::TopicPolicy');
      policy.set('Topics', [owner.arn], 'Destination');
      policy.set('PolicyDocument', policyDocument(profile, permissions, values, source, destination), 'Permissions');
      return [policy];
    }
    case 'AWS_LAMBDA_PERMISSION': {
      if (!owner.arn) return fail(`Unable to get Lambda function ARN from '${side(profile.sourcePolicy)}' resource.`);
      const out: GeneratedResource[] = [];
      for (const [name, grant] of Object.entries(profile.categories)) {
        if (!permissions.includes(name) || Array.isArray(grant)) continue;
        const permission = generate(`${sam.logicalId}${name}${suffix('LambdaPermission')}`, 'AWS::Lambda::Permission');
        permission.set('Action', 'lambda:InvokeFunction');
        permission.set('FunctionName', owner.arn, 'Destination');
        permission.set('Principal', grant.principal);
        permission.set('SourceArn', replaceVariables(grant.sourceArn, values), 'Source');
        permission.set('SourceAccount', grant.sourceAccount === undefined ? undefined : replaceVariables(grant.sourceAccount, values));
        out.push(permission);
      }
      return out;
    }
  }
}

function grantVariables(grant: PermissionGrant): ProfileVariable[] {
  return [...grant.sourceArn.matchAll(/%\{([A-Za-z]+\.[A-Za-z]+)\}/g)].map((m) => m[1] as ProfileVariable);
}

/**
 * The policy document: the statements of each category granted, with the variables replaced, as
 * SAM's suite shows them (profileStatements.json: by category, or by the combination granted when
 * the suite shows only that); a category not shown there is one symbolic statement naming the
 * pair and the values its statements are about.
 */
function policyDocument(profile: ConnectorProfile, permissions: string[], values: Record<ProfileVariable, unknown>, source: ResourceReference, destination: ResourceReference): PlainMap {
  const granted = Object.entries(profile.categories).filter(([name, uses]) => permissions.includes(name) && Array.isArray(uses));
  const known = STATEMENTS[source.resourceType]?.[destination.resourceType] ?? {};
  const combination = known[granted.map(([name]) => name).join('+')];
  if (combination) return { Version: '2012-10-17', Statement: combination.map((statement) => profileReplace(statement, values)) };
  const statements: unknown[] = [];
  for (const [name, uses] of granted) {
    const shown = known[name];
    if (shown) {
      statements.push(...shown.map((statement) => profileReplace(statement, values)));
      continue;
    }
    const about: PlainMap = {};
    for (const variable of uses as ProfileVariable[]) about[variable] = values[variable];
    statements.push({ Effect: 'Allow', SamConnectorAccess: { Category: name, From: source.resourceType, To: destination.resourceType, On: about } });
  }
  return { Version: '2012-10-17', Statement: statements };
}

/** `DependedBy`: the destination function's one event source mapping from the source, or the source, waits for the policy. */
function addDependencies(profile: ConnectorProfile, source: ResourceReference, destination: ResourceReference, policyId: string, resolver: ResourceResolver): void {
  const wait = (logicalId: string) => {
    const resource = resolver.get(logicalId);
    if (!resource) return;
    const current = resource.dependsOn();
    const list = Array.isArray(current) ? current : current === undefined ? [] : [current];
    // `insert_unique`: the result is always a list, also when the policy was already named.
    resource.setDependsOn(list.includes(policyId) ? list : [...list, policyId]);
  };
  if (profile.dependedBy === 'DESTINATION_EVENT_SOURCE_MAPPING' && source.logicalId && destination.logicalId) {
    const mappings = resolver
      .all()
      .filter(
        ([, r]) =>
          r.type === 'AWS::Lambda::EventSourceMapping' && logicalIdOf(r.properties.FunctionName) === destination.logicalId && logicalIdOf(r.properties.EventSourceArn) === source.logicalId,
      );
    if (mappings.length === 1) wait(mappings[0]![0]);
  }
  if (profile.dependedBy === 'SOURCE' && source.logicalId) wait(source.logicalId);
}
