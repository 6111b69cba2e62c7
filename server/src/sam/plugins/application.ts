/**
 * `AWS::Serverless::Application` (sam_resources.py, `SamApplication`, and the Serverless
 * Application Repository plugin, serverless_app_plugin.py): an `AWS::CloudFormation::Stack`
 * whose template is either the `Location` URL or, for a `Location` naming an application and
 * version of the Serverless Application Repository, a pre-signed URL the repository returns
 * when the transform runs. That URL is known only to AWS: the nested stack here reads a stand-in
 * built from the application id and version, so that a new version shows as a new template.
 */
import { noteParameterWithoutValue, type ApplicationTemplates, type SamResource, type TranslationContext } from '../model/context';
import { invalidDocument, invalidResource, SamError, type SamPath } from '../model/errors';
import type { GeneratedResource } from '../model/generated';
import { parameterWithoutValue, resolveFindInMap, resolveParameterRefs } from '../model/intrinsics';
import { checkProperties, IS_DICT, IS_INT, IS_STR, listOf, oneOf, typed, type PropertySpec } from '../model/properties';
import type { ResourceOrder } from '../model/resourceOrder';
import { samTagList } from '../resources/function/function';
import { isList, isMap, type PlainMap } from '../model/values';
import { pyStr } from '../python/pyRepr';
import type { PyValue } from '../python/py27Dict';

const APPLICATION_PROPERTIES: Record<string, PropertySpec> = {
  Location: typed(oneOf(IS_STR, IS_DICT), true),
  TemplateUrl: typed(IS_STR),
  Parameters: typed(IS_DICT),
  NotificationARNs: typed(listOf(oneOf(IS_STR, IS_DICT))),
  Tags: typed(IS_DICT),
  TimeoutInMinutes: typed(IS_INT),
};


/** A Serverless Application Repository application's ARN, the only id the repository takes. */
const SAR_APPLICATION_ARN = /^arn:[a-z0-9-]+:serverlessrepo:[a-z0-9-]+:\d{12}:applications\/.+$/;

/** The key SAM files an application under (`_make_app_key`). */
function applicationKey(id: unknown, version: unknown): string {
  return JSON.stringify([id ?? null, version ?? null]);
}

/**
 * The plugin's first pass (`on_before_transform_template`): each `Location`'s application id
 * and version with parameters and `Fn::FindInMap` resolved, written back, checked to be strings.
 */
export function resolveApplicationLocations(ctx: TranslationContext, order: ResourceOrder): ApplicationTemplates {
  const templates: ApplicationTemplates = new Map();
  for (const logicalId of order.keys()) {
    const entry = ctx.resources[logicalId];
    if (!isMap(entry) || entry.Type !== 'AWS::Serverless::Application' || !isMap(entry.Properties)) continue;
    const location = entry.Properties.Location;
    if (!isMap(location) || location.ApplicationId === undefined || location.ApplicationId === null) continue;
    if (location.SemanticVersion === undefined || location.SemanticVersion === null) continue;
    const path = ['Properties', 'Location'];
    const lookupError =
      findInMapError(resolveParameterRefs(location.ApplicationId, ctx.parameters), ctx.mappings, [...path, 'ApplicationId']) ??
      findInMapError(resolveParameterRefs(location.SemanticVersion, ctx.parameters), ctx.mappings, [...path, 'SemanticVersion']);
    const resolve = (value: unknown) => resolveFindInMap(resolveParameterRefs(value, ctx.parameters), ctx.mappings);
    const id = (location.ApplicationId = resolve(location.ApplicationId));
    const version = (location.SemanticVersion = resolve(location.SemanticVersion));
    const key = applicationKey(id, version);
    if (lookupError) {
      templates.set(key, lookupError);
      continue;
    }
    // A parameter with no value at hand has one when CloudFormation runs the transform: it passes as a string would.
    const idParameter = parameterWithoutValue(id, ctx.parameters, { findInMap: true });
    const versionParameter = parameterWithoutValue(version, ctx.parameters, { findInMap: true });
    if ((isMap(id) && idParameter === undefined) || (isMap(version) && versionParameter === undefined)) {
      templates.set(key, false);
      continue;
    }
    if (templates.has(key)) continue;
    if (typeof id !== 'string' && idParameter === undefined) templates.set(key, invalidResource(logicalId, "Property 'Location.ApplicationId' should be a string.", [...path, 'ApplicationId']));
    else if (typeof version !== 'string' && versionParameter === undefined) templates.set(key, invalidResource(logicalId, "Property 'Location.SemanticVersion' should be a string.", [...path, 'SemanticVersion']));
    else if (typeof id === 'string' && id.startsWith('{{resolve:')) {
      templates.set(key, invalidResource(logicalId, "Serverless Application Repostiory does not support dynamic reference in 'ApplicationId' property.", [...path, 'ApplicationId']));
    } else if (typeof id === 'string' && !SAR_APPLICATION_ARN.test(id)) {
      // The repository knows applications by ARN only: it refuses any other id, which SAM reports so.
      templates.set(key, invalidResource(logicalId, `Cannot access application: ${id}.`, [...path, 'ApplicationId']));
    } else if (idParameter !== undefined || versionParameter !== undefined) {
      // The repository is asked when CloudFormation has the values: here the URL reads the parameters, the same before and after.
      templates.set(key, { 'Fn::Join': ['', ['serverlessrepo:', id, '@', version]] });
    } else templates.set(key, `serverlessrepo:${id}@${version}`);
  }
  return templates;
}

/** Translates an `AWS::Serverless::Application` (the plugin's second pass, then the nested stack). */
export function translateApplication(ctx: TranslationContext, sam: SamResource, templates: ApplicationTemplates): GeneratedResource[] | SamError {
  const p = { ...sam.properties };
  const missing = (key: string) => invalidResource(sam.logicalId, `Resource is missing the required [${key}] property.`);
  if (!('Location' in p)) return missing('Location');
  const location = p.Location;
  let sarTags: PlainMap = {};
  let standInUrl: { 'Fn::Join': [string, unknown[]] } | undefined;
  if (!isMap(location)) p.TemplateUrl = location;
  else {
    if (!('ApplicationId' in location)) return missing('ApplicationId');
    if (!('SemanticVersion' in location)) return missing('SemanticVersion');
    const id = location.ApplicationId;
    const version = location.SemanticVersion;
    if (id === undefined || id === null) return invalidResource(sam.logicalId, "Property 'ApplicationId' is required.", ['Properties', 'Location', 'ApplicationId']);
    const known = templates.get(applicationKey(id, version));
    if (known instanceof SamError && known.kind === 'document') return known;
    const unresolved = (name: string) =>
      invalidResource(sam.logicalId, `Property '${name}' cannot be resolved. Only FindInMap and Ref intrinsic functions are supported.`, ['Properties', 'Location', name]);
    if (isMap(known) && !(known instanceof SamError)) {
      // Named by a parameter with no value at hand: the URL and tags read the parameters, as CloudFormation will give them.
      if (!version) return invalidResource(sam.logicalId, "Property 'SemanticVersion' cannot be blank.", ['Properties', 'Location', 'SemanticVersion']);
      standInUrl = known;
      for (const [name, value] of [['ApplicationId', id], ['SemanticVersion', version]] as const) {
        const parameter = parameterWithoutValue(value, ctx.parameters, { findInMap: true });
        if (parameter !== undefined) noteParameterWithoutValue(ctx, sam, `Location.${name}`, parameter);
      }
    } else {
      // A value that reads a parameter with no value at hand is checked as its value would be: what else it is decides.
      const resolvable = (value: unknown) => parameterWithoutValue(value, ctx.parameters, { findInMap: true }) !== undefined;
      if (isMap(id) && !resolvable(id)) return unresolved('ApplicationId');
      if (!version) return invalidResource(sam.logicalId, "Property 'SemanticVersion' cannot be blank.", ['Properties', 'Location', 'SemanticVersion']);
      if (isMap(version) && !resolvable(version)) return unresolved('SemanticVersion');
      if (known instanceof SamError) return known;
      p.TemplateUrl = known;
    }
    ctx.note({ kind: 'sam-application-url', logicalId: sam.logicalId }, sam.node?.range);
    sarTags = { 'serverlessrepo:applicationId': id };
    if (version !== undefined && version !== null) sarTags['serverlessrepo:semanticVersion'] = version;
  }
  const invalid = checkProperties(sam.logicalId, sam.type, p, APPLICATION_PROPERTIES);
  if (invalid) return invalid;
  const stack = sam.generate(sam.logicalId, 'AWS::CloudFormation::Stack', undefined);
  if (sam.dependsOn !== undefined) stack.setAttribute('DependsOn', sam.dependsOn);
  stack.set('Parameters', p.Parameters, 'Parameters');
  stack.set('NotificationARNs', p.NotificationARNs, 'NotificationARNs');
  const tags = samTagList(sam, p.Tags, sarTags);
  if (tags instanceof SamError) return tags;
  stack.set('Tags', tags, 'Tags');
  stack.set('TimeoutInMinutes', p.TimeoutInMinutes, 'TimeoutInMinutes');
  stack.set('TemplateURL', standInUrl ?? (p.TemplateUrl || ''), 'Location');
  return [stack];
}

/**
 * SAM's check of an `Fn::FindInMap` it resolves: three arguments, and a mapping whose entry is a
 * map of names to values (a mapping is two levels deep). An argument still unresolved is left to
 * CloudFormation.
 */
function findInMapError(value: unknown, mappings: unknown, path: SamPath): SamError | undefined {
  if (!isMap(value) || Object.keys(value).length !== 1 || !('Fn::FindInMap' in value)) return undefined;
  const args = value['Fn::FindInMap'];
  if (!isList(args) || args.length !== 3) {
    return invalidDocument(`Invalid FindInMap value ${pyStr(args as PyValue)}. FindInMap expects an array with 3 values.`, path);
  }
  const [name, top] = args;
  if (typeof name !== 'string' || typeof top !== 'string' || !isMap(mappings) || !isMap(mappings[name]) || !(top in mappings[name])) return undefined;
  if (!isMap(mappings[name][top])) return invalidDocument(`Cannot use Fn::FindInMap on Mapping '${name}' which is not a a two-level map.`, path);
  return undefined;
}
