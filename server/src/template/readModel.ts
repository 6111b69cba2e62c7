/**
 * readTemplateModel: the sections and resources of a parsed template, and the structural
 * checks CloudFormation makes before it evaluates anything.
 */
import type { MapEntry, MapNode, ParsedTemplate, Range, TemplateNode } from './ast';
import type { OutputDecl, ParameterDecl, ResourceDecl, TemplateModel } from './model';
import { isWellFormed } from './parse';

const TOP_LEVEL_SECTIONS = new Set([
  'AWSTemplateFormatVersion',
  'Description',
  'Metadata',
  'Parameters',
  'Mappings',
  'Conditions',
  'Transform',
  'Resources',
  'Outputs',
  'Rules',
  'Hooks',
]);

const RESOURCE_ATTRIBUTES = new Set([
  'Type',
  'Properties',
  'Metadata',
  'DependsOn',
  'Condition',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'CreationPolicy',
  'UpdatePolicy',
  'Version',
]);

/** Attributes kept in ResourceDecl.attributes (the ones with their own fields are not repeated there). */
const POLICY_ATTRIBUTES = new Set(['DeletionPolicy', 'UpdateReplacePolicy', 'CreationPolicy', 'UpdatePolicy', 'Version']);

/** The Serverless transform (SAM), which adds Globals, two resource attributes and the `AWS::Serverless::` types. */
export const SERVERLESS_TRANSFORM = 'AWS::Serverless-2016-10-31';
/** The transform that enables `Fn::ForEach`, `Fn::Length` and the other language extensions. */
export const LANGUAGE_EXTENSIONS_TRANSFORM = 'AWS::LanguageExtensions';
/** What the Serverless transform adds: a Globals section and two resource attributes. */
const SERVERLESS_SECTIONS = new Set(['Globals']);
const SERVERLESS_RESOURCE_ATTRIBUTES = new Set(['Connectors', 'IgnoreGlobals']);

/** Rain modules take an `Overrides` attribute that Rain merges into the module's resources. */
const RAIN_MODULE_OVERRIDES = 'Overrides';

const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const THIRD_PARTY_TYPE = /^[A-Za-z0-9]+::[A-Za-z0-9]+::[A-Za-z0-9]+/;
/** A section-level `Fn::Transform` (AWS::Include) or a `Fn::ForEach::Name` loop stands for entries it will produce. */
const FOR_EACH_KEY = /^Fn::ForEach::/;

/** The prefix of the types only the Serverless transform knows. */
export const SERVERLESS_TYPE_PREFIX = 'AWS::Serverless::';

/**
 * Reads the sections of a parsed template and checks its structure; never throws. `processed`:
 * the template is what the Serverless transform made (whose Transform it no longer declares), so
 * the SAM types it left as written are not judged here.
 */
export function readTemplateModel(parsed: ParsedTemplate, { processed = false }: { processed?: boolean } = {}): TemplateModel {
  const root = parsed.root?.kind === 'map' ? parsed.root : undefined;
  const model: TemplateModel = {
    parsed,
    root,
    formatVersion: undefined,
    description: undefined,
    transforms: [],
    parameters: new Map(),
    mappings: undefined,
    conditions: new Map(),
    resources: new Map(),
    outputs: new Map(),
    isCloudFormation: root !== undefined && looksLikeCloudFormation(root),
    errors: [...parsed.errors],
  };
  if (root === undefined) return model;

  // Other YAML and JSON files (manifests, package.json, ...) are read but never judged; nor is a
  // text that does not parse (a key typed, before its colon), whose problems are its parser's: the
  // tree the parser recovered from it does not nest as the text does.
  const report = model.isCloudFormation && isWellFormed(parsed)
    ? (code: string, message: string, range: Range): void => void model.errors.push({ code, message, range, severity: 'error' })
    : (): void => undefined;

  const sections = new Map(root.entries.map((e) => [e.key, e]));
  model.transforms = readTransforms(sections.get('Transform'), report);
  const transformNames = new Set(model.transforms.map((t) => t.name));
  const usesServerless = transformNames.has(SERVERLESS_TRANSFORM);
  // A macro may rewrite anything, so a template that names one is not held to the plain grammar.
  const usesMacro = [...transformNames].some((n) => n !== SERVERLESS_TRANSFORM && n !== LANGUAGE_EXTENSIONS_TRANSFORM);
  const usesLanguageExtensions = transformNames.has(LANGUAGE_EXTENSIONS_TRANSFORM);

  for (const entry of root.entries) {
    const known = TOP_LEVEL_SECTIONS.has(entry.key) || (usesServerless && SERVERLESS_SECTIONS.has(entry.key));
    if (!known && !usesMacro) {
      const message = `Template format error: Invalid template property or properties [${entry.key}]`;
      // Globals is SAM's: say what would make it known.
      report('unknown-section', SERVERLESS_SECTIONS.has(entry.key) ? `${message}. It needs Transform: ${SERVERLESS_TRANSFORM}, which the template does not declare.` : message, entry.keyRange);
    }
  }

  model.formatVersion = sections.get('AWSTemplateFormatVersion')?.value;
  model.description = sections.get('Description')?.value;

  const parameters = sectionMap(sections.get('Parameters'), report);
  for (const entry of parameters ?? []) {
    if (isSectionTransform(entry.key)) continue;
    const decl = readParameter(entry, report);
    if (decl) model.parameters.set(decl.name, decl);
  }

  const mappingsEntry = sections.get('Mappings');
  if (sectionMap(mappingsEntry, report) !== undefined) model.mappings = mappingsEntry!.value as MapNode;

  for (const entry of sectionMap(sections.get('Conditions'), report) ?? []) {
    if (isSectionTransform(entry.key)) continue;
    model.conditions.set(entry.key, { name: entry.key, keyRange: entry.keyRange, node: entry.value });
  }

  const resourcesEntry = sections.get('Resources');
  const resources = sectionMap(resourcesEntry, report);
  const noResources = resourcesEntry === undefined || isNull(resourcesEntry.value) || (resources !== undefined && resources.length === 0);
  if (noResources && !usesMacro) {
    report('no-resources', 'Template format error: At least one Resources member must be defined.', resourcesEntry?.keyRange ?? firstKeyRange(root));
  }
  const allowedAttributes = (key: string): boolean =>
    RESOURCE_ATTRIBUTES.has(key) || (usesServerless && SERVERLESS_RESOURCE_ATTRIBUTES.has(key)) || key === 'Fn::Transform' || usesMacro;
  for (const entry of resources ?? []) {
    if (isSectionTransform(entry.key) || (usesLanguageExtensions && FOR_EACH_KEY.test(entry.key))) continue;
    const decl = readResource(entry, allowedAttributes, report);
    if (decl) model.resources.set(decl.logicalId, decl);
  }
  if (!usesServerless && !usesMacro && !processed) reportServerlessTypes(model.resources.values(), report);

  for (const entry of sectionMap(sections.get('Outputs'), report) ?? []) {
    if (isSectionTransform(entry.key) || (usesLanguageExtensions && FOR_EACH_KEY.test(entry.key))) continue;
    const decl = readOutput(entry, report);
    if (decl) model.outputs.set(decl.name, decl);
  }
  return model;
}

type Report = (code: string, message: string, range: Range) => void;

/**
 * Without `Transform: AWS::Serverless-2016-10-31` nothing expands SAM's types, and CloudFormation
 * rejects them as it rejects any type it does not know, all of them in one message: an error at
 * each such resource's type, in those words.
 */
function reportServerlessTypes(resources: Iterable<ResourceDecl>, report: Report): void {
  const declared = [...resources].filter((decl) => decl.type?.startsWith(SERVERLESS_TYPE_PREFIX));
  if (declared.length === 0) return;
  const types = [...new Set(declared.map((decl) => decl.type!))];
  const subject = types.length === 1 ? 'It needs' : 'They need';
  const message = `Template format error: Unrecognized resource types: [${types.join(', ')}]. ${subject} Transform: ${SERVERLESS_TRANSFORM}, which the template does not declare.`;
  for (const decl of declared) report('serverless-without-transform', message, decl.typeRange ?? decl.keyRange);
}

/** Whether a root map is a CloudFormation template: it declares the format version, or a resource with a CloudFormation type. */
function looksLikeCloudFormation(root: MapNode): boolean {
  let resources: TemplateNode | undefined;
  for (const entry of root.entries) {
    if (entry.key === 'AWSTemplateFormatVersion') return true;
    if (entry.key === 'Resources') resources = entry.value;
  }
  return resources?.kind === 'map' && declaresCloudFormationType(resources, 0);
}

/** Whether a Resources map (or the template of a `Fn::ForEach` loop in it) declares a resource of a CloudFormation type. */
function declaresCloudFormationType(resources: MapNode, loopDepth: number): boolean {
  return resources.entries.some((resource) => {
    const value = resource.value;
    if (FOR_EACH_KEY.test(resource.key)) {
      // A loop is [identifier, collection, template]; loops nest, but only a few levels deep in practice.
      const template = value.kind === 'seq' ? value.items[2] : undefined;
      return template?.kind === 'map' && loopDepth < 4 && declaresCloudFormationType(template, loopDepth + 1);
    }
    const type = value.kind === 'map' ? scalarString(valueOf(value, 'Type')) : undefined;
    return type !== undefined && (type.startsWith('AWS::') || type.startsWith('Custom::') || THIRD_PARTY_TYPE.test(type));
  });
}

/** The entries of a section that must be a map; reports (and returns undefined for) anything else but an empty value. */
function sectionMap(entry: MapEntry | undefined, report: Report): MapEntry[] | undefined {
  if (entry === undefined || isNull(entry.value)) return undefined;
  if (entry.value.kind !== 'map' || entry.value.shortForm !== undefined) {
    report('invalid-section', `The ${entry.key} section must be a map of names to declarations.`, entry.value.range);
    return undefined;
  }
  return entry.value.entries;
}

function readTransforms(entry: MapEntry | undefined, report: Report): { name: string; range: Range }[] {
  if (entry === undefined) return [];
  const items = entry.value.kind === 'seq' ? entry.value.items : [entry.value];
  const names: { name: string; range: Range }[] = [];
  for (const item of items) {
    const name = scalarString(item);
    if (name === undefined) {
      report('invalid-transform', 'Transform must be a transform name or a list of transform names.', item.range);
    } else {
      names.push({ name, range: item.range });
    }
  }
  return names;
}

function readParameter(entry: MapEntry, report: Report): ParameterDecl | undefined {
  if (!ALPHANUMERIC.test(entry.key)) {
    report('invalid-logical-id', `Parameter name ${entry.key} must be alphanumeric (A-Z, a-z, 0-9).`, entry.keyRange);
  }
  if (entry.value.kind !== 'map') {
    report('invalid-parameter', 'Template format error: Every Parameters object must contain a Type member.', entry.keyRange);
    return undefined;
  }
  const node = entry.value;
  const type = scalarString(valueOf(node, 'Type'));
  if (type === undefined) {
    report('missing-type', 'Template format error: Every Parameters object must contain a Type member.', entry.keyRange);
  }
  const noEcho = valueOf(node, 'NoEcho');
  return {
    name: entry.key,
    keyRange: entry.keyRange,
    node,
    type,
    default: valueOf(node, 'Default'),
    noEcho: noEcho?.kind === 'scalar' && (noEcho.value === true || (typeof noEcho.value === 'string' && noEcho.value.toLowerCase() === 'true')),
  };
}

function readResource(entry: MapEntry, allowedAttribute: (key: string) => boolean, report: Report): ResourceDecl | undefined {
  if (!ALPHANUMERIC.test(entry.key)) {
    report('invalid-logical-id', `Template format error: Resource name ${entry.key} is non alphanumeric.`, entry.keyRange);
  }
  if (entry.value.kind !== 'map' || entry.value.shortForm !== undefined) {
    report('invalid-resource', `Template format error: [/Resources/${entry.key}] Every Resources object must contain a Type member.`, entry.keyRange);
    return undefined;
  }
  const node = entry.value;
  const decl: ResourceDecl = {
    logicalId: entry.key,
    keyRange: entry.keyRange,
    node,
    type: undefined,
    typeRange: undefined,
    properties: undefined,
    metadata: undefined,
    condition: undefined,
    conditionRange: undefined,
    dependsOn: [],
    attributes: {},
  };
  const rainModule = isRainModule(valueOf(node, 'Type'));
  for (const attribute of node.entries) {
    const { key, value } = attribute;
    if (!allowedAttribute(key) && !(rainModule && key === RAIN_MODULE_OVERRIDES)) {
      report('unknown-resource-attribute', `Invalid template resource property '${key}'`, attribute.keyRange);
      continue;
    }
    switch (key) {
      case 'Type':
        decl.type = scalarString(value);
        decl.typeRange = value.range;
        if (decl.type === undefined && !rainModule) report('invalid-type', `The Type of resource ${entry.key} must be a resource type name such as AWS::S3::Bucket.`, value.range);
        break;
      case 'Properties':
        decl.properties = value;
        if (value.kind === 'seq' || (value.kind === 'scalar' && value.value !== null)) {
          report('invalid-properties', `The Properties of resource ${entry.key} must be a map of property names to values.`, value.range);
        }
        break;
      case 'Metadata':
        decl.metadata = value;
        break;
      case 'Condition':
        decl.condition = scalarString(value);
        decl.conditionRange = value.range;
        if (decl.condition === undefined) report('invalid-condition', `The Condition of resource ${entry.key} must be a condition name.`, value.range);
        break;
      case 'DependsOn':
        decl.dependsOn = readDependsOn(value, entry.key, report);
        break;
      default:
        if (POLICY_ATTRIBUTES.has(key)) decl.attributes[key] = value;
        break;
    }
  }
  if (decl.type === undefined && !node.entries.some((e) => e.key === 'Type')) {
    report('missing-type', `Template format error: [/Resources/${entry.key}] Every Resources object must contain a Type member.`, entry.keyRange);
  }
  return decl;
}

/** A Rain module resource (`Type: !Rain::Module path`) is replaced by the module's resources before deployment. */
function isRainModule(type: TemplateNode | undefined): boolean {
  return type?.kind === 'map' && type.entries.length === 1 && type.entries[0]!.key.startsWith('Rain::');
}

function readDependsOn(value: TemplateNode, logicalId: string, report: Report): { name: string; range: Range }[] {
  const items = value.kind === 'seq' ? value.items : [value];
  const names: { name: string; range: Range }[] = [];
  for (const item of items) {
    const name = scalarString(item);
    if (name === undefined) {
      report('invalid-depends-on', `DependsOn of resource ${logicalId} must be a logical ID or a list of logical IDs.`, item.range);
    } else {
      names.push({ name, range: item.range });
    }
  }
  return names;
}

function readOutput(entry: MapEntry, report: Report): OutputDecl | undefined {
  if (!ALPHANUMERIC.test(entry.key)) {
    report('invalid-logical-id', `Template format error: Outputs name '${entry.key}' is non alphanumeric.`, entry.keyRange);
  }
  if (entry.value.kind !== 'map' || entry.value.shortForm !== undefined) {
    report('invalid-output', 'Template format error: Every Outputs member must contain a Value object', entry.keyRange);
    return undefined;
  }
  if (valueOf(entry.value, 'Value') === undefined) {
    report('invalid-output', 'Template format error: Every Outputs member must contain a Value object', entry.keyRange);
  }
  return { name: entry.key, keyRange: entry.keyRange, node: entry.value, condition: scalarString(valueOf(entry.value, 'Condition')) };
}

/** `Fn::Transform` at section level (AWS::Include) inserts entries that only exist after processing. */
function isSectionTransform(key: string): boolean {
  return key === 'Fn::Transform';
}

function valueOf(map: MapNode, key: string): TemplateNode | undefined {
  return map.entries.find((e) => e.key === key)?.value;
}

/** A scalar's text when it is a string (numbers are accepted too, as CloudFormation reads them as strings). */
function scalarString(node: TemplateNode | undefined): string | undefined {
  if (node?.kind !== 'scalar') return undefined;
  if (typeof node.value === 'string') return node.value;
  return typeof node.value === 'number' ? String(node.value) : undefined;
}

function isNull(node: TemplateNode): boolean {
  return node.kind === 'scalar' && node.value === null;
}

function firstKeyRange(root: MapNode): Range {
  return root.entries[0]?.keyRange ?? { start: root.range.start, end: root.range.start };
}

