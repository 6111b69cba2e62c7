/**
 * `AWS::Serverless::StateMachine` (SamStateMachine, stepfunctions/generators.py): the
 * `AWS::StepFunctions::StateMachine` with its definition (inline, as a joined JSON string with
 * substitutions, or in S3), the execution role `<Id>Role` built from `Policies` unless `Role` is
 * given, with `AutoPublishAlias` a `StateMachineVersion` (always `<Id>Version`: a new revision
 * replaces it, and the old one is retained) and a `StateMachineAlias` shifting traffic to it, and
 * the resources of its events.
 */
import type { SamResource, TranslationContext } from '../../model/context';
import { invalidResource, SamError } from '../../model/errors';
import type { GeneratedResource } from '../../model/generated';
import { assumeRolePolicy, constructRole, expandPolicies } from '../../model/iam';
import { checkProperties, dictOf, IS_BOOL, IS_DICT, IS_STR, listOf, oneOf, PASS_THROUGH, strict, typed, type PropertySpec } from '../../model/properties';
import { s3LocationObject } from '../../model/s3Location';
import { isMap, tagList, type PlainMap } from '../../model/values';
import { propagateTags } from '../function/function';
import { definitionString } from './definition';
import { checkStateMachineEvents, stateMachineEvents } from './events';

const STATE_MACHINE_PROPERTIES: Record<string, PropertySpec> = {
  Definition: typed(IS_DICT),
  DefinitionUri: typed(oneOf(IS_STR, IS_DICT)),
  Logging: typed(IS_DICT),
  Role: typed(IS_STR),
  RolePath: PASS_THROUGH,
  DefinitionSubstitutions: typed(IS_DICT),
  Events: typed(dictOf(IS_STR, IS_DICT)),
  Name: typed(IS_STR),
  Type: typed(IS_STR),
  Tags: typed(IS_DICT),
  PropagateTags: typed(IS_BOOL),
  Policies: typed(oneOf(IS_STR, listOf(oneOf(IS_STR, IS_DICT)))),
  Tracing: typed(IS_DICT),
  PermissionsBoundary: typed(IS_STR),
  AutoPublishAlias: PASS_THROUGH,
  DeploymentPreference: PASS_THROUGH,
  UseAliasAsEventTarget: strict(IS_BOOL),
};

/** Generated types whose `Tags` a state machine's propagated tags replace. */
const TAGGABLE = new Set(['AWS::StepFunctions::StateMachine', 'AWS::IAM::Role']);

/** Translates an `AWS::Serverless::StateMachine`. */
export function translateStateMachine(ctx: TranslationContext, sam: SamResource): GeneratedResource[] | SamError {
  const p = sam.properties;
  const invalid = checkProperties(sam.logicalId, sam.type, p, STATE_MACHINE_PROPERTIES);
  if (invalid) return invalid;
  const linkError = checkStateMachineEvents(ctx, sam);
  if (linkError) return linkError;
  const fail = (detail: string, property?: string) => invalidResource(sam.logicalId, detail, property ? ['Properties', property] : []);

  const machine = sam.generate(sam.logicalId, 'AWS::StepFunctions::StateMachine', undefined, sam.attributes());
  if (sam.dependsOn !== undefined) machine.setAttribute('DependsOn', sam.dependsOn);
  const resources: GeneratedResource[] = [machine];
  let substitutions = isMap(p.DefinitionSubstitutions) && Object.keys(p.DefinitionSubstitutions).length > 0 ? { ...p.DefinitionSubstitutions } : undefined;
  if (p.Definition && p.DefinitionUri) return fail("Specify either 'Definition' or 'DefinitionUri' property and not both.");
  if (p.Definition) {
    const built = definitionString(p.Definition);
    if (Object.keys(built.substitutions).length > 0) substitutions = { ...(substitutions ?? {}), ...built.substitutions };
    machine.set('DefinitionString', built.definitionString, 'Definition');
  } else if (p.DefinitionUri) {
    const location = s3LocationObject(ctx, sam, p.DefinitionUri, 'DefinitionUri', { bucket: 'Bucket', key: 'Key', version: 'Version' });
    if (location instanceof SamError) return location;
    machine.set('DefinitionS3Location', location, 'DefinitionUri');
  } else return fail("Either 'Definition' or 'DefinitionUri' property must be specified.");
  machine.set('DefinitionSubstitutions', substitutions, 'DefinitionSubstitutions');

  if (p.Role && p.Policies) return fail("Specify either 'Role' or 'Policies' (but not both at the same time) or neither of them");
  const tags = [...tagList({ 'stateMachine:createdBy': 'SAM' }), ...tagList(p.Tags)];
  if (p.Role) machine.set('RoleArn', p.Role, 'Role');
  else {
    const role = executionRole(ctx, sam, tags);
    if (role instanceof SamError) return role;
    machine.set('RoleArn', role.getAtt('Arn'), 'Policies');
    resources.push(role);
  }
  machine.set('StateMachineName', p.Name, 'Name');
  machine.set('StateMachineType', p.Type, 'Type');
  machine.set('LoggingConfiguration', p.Logging, 'Logging');
  machine.set('TracingConfiguration', p.Tracing, 'Tracing');
  machine.set('Tags', tags, 'Tags');

  const shifting = trafficShifting(sam, machine);
  if (shifting instanceof SamError) return shifting;
  resources.push(...shifting);
  const alias = shifting.find((r) => r.type === 'AWS::StepFunctions::StateMachineAlias');
  const target = p.UseAliasAsEventTarget && alias ? alias : machine;
  const events = stateMachineEvents(ctx, sam, { resource: target, arn: target.ref(), condition: sam.condition, permissionsBoundary: p.PermissionsBoundary });
  if (events instanceof SamError) return events;
  resources.push(...events);
  propagateTags(resources, p.Tags, p.PropagateTags, (type) => TAGGABLE.has(type));
  return resources;
}

/** `_construct_role`: `<Id>Role`, trusted by Step Functions, with `Policies` (and X-Ray's when tracing is enabled). */
function executionRole(ctx: TranslationContext, sam: SamResource, tags: PlainMap[]): GeneratedResource | SamError {
  const p = sam.properties;
  const policies = expandPolicies(sam, p.Policies);
  if (policies instanceof SamError) return policies;
  if (isMap(p.Tracing) && p.Tracing.Enabled === true) policies.push('AWSXrayWriteOnlyAccess');
  const role = sam.generate(`${sam.logicalId}Role`, 'AWS::IAM::Role', 'Policies');
  return constructRole(sam, role, {
    partition: ctx.partition,
    assumeRolePolicyDocument: assumeRolePolicy('states.amazonaws.com'),
    policies,
    path: p.RolePath,
    permissionsBoundary: p.PermissionsBoundary,
    tags,
  });
}

/** `_generate_managed_traffic_shifting_resources`: the version and the alias that deploys it. */
function trafficShifting(sam: SamResource, machine: GeneratedResource): GeneratedResource[] | SamError {
  const p = sam.properties;
  if (!p.AutoPublishAlias && p.UseAliasAsEventTarget) return invalidResource(sam.logicalId, "'UseAliasAsEventTarget' requires 'AutoPublishAlias' property to be specified.", ['Properties', 'UseAliasAsEventTarget']);
  if (!p.AutoPublishAlias && !p.DeploymentPreference) return [];
  if (!p.AutoPublishAlias) return invalidResource(sam.logicalId, "'DeploymentPreference' requires 'AutoPublishAlias' property to be specified.", ['Properties', 'DeploymentPreference']);
  const attributes = sam.passThroughAttributes();
  const versionAttributes = { ...attributes };
  // Both policies keep the previous version while traffic shifts away from it.
  if (!('DeletionPolicy' in versionAttributes)) versionAttributes.DeletionPolicy = 'Retain';
  if (!('UpdateReplacePolicy' in versionAttributes)) versionAttributes.UpdateReplacePolicy = 'Retain';
  const version = sam.generate(`${sam.logicalId}Version`, 'AWS::StepFunctions::StateMachineVersion', 'AutoPublishAlias', versionAttributes);
  version.set('StateMachineArn', machine.ref());
  version.set('StateMachineRevisionId', machine.getAtt('StateMachineRevisionId'));
  const alias = sam.generate(`${sam.logicalId}Alias${String(p.AutoPublishAlias)}`, 'AWS::StepFunctions::StateMachineAlias', 'AutoPublishAlias', attributes);
  alias.set('Name', p.AutoPublishAlias, 'AutoPublishAlias');
  const preference: PlainMap = isMap(p.DeploymentPreference) && Object.keys(p.DeploymentPreference).length > 0 ? { ...p.DeploymentPreference } : { Type: 'ALL_AT_ONCE' };
  preference.StateMachineVersionArn = version.ref();
  alias.set('DeploymentPreference', preference, 'DeploymentPreference');
  return [version, alias];
}
