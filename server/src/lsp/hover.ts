/**
 * Hovers on resources and properties: how CloudFormation updates the property (from the spec,
 * whether or not it changed), what this edit changes and why, and where the documentation is. On
 * the lines of a SAM resource, and of Globals, the resources the Serverless transform generates
 * from them and what happens to each.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import { replacedIds, shownDetails } from '../impact/claims';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range as SourceRange, TemplateNode } from '../template/ast';
import { nodeAtPath, pathAtOffset } from '../template';
import type { ResourceSpec } from '../spec/types';
import type { EditSite, ImpactReport } from '../impact/types';
import { toLspRange } from './diagnostics';
import { attributeHoverText, editSiteHoverText, loopHoverText, propertyHoverText, resourceHoverText, samHoverText, stackRiskHoverText, type GeneratedResourceFacts } from '../present';
import type { AnalysedTemplate, GeneratedResourceOutline } from './worker/outline';

/**
 * Resource attributes that change nothing on their own (docs/update-rules.md#attributes-alone):
 * their new value is honoured when something else updates the resource. `Condition` is not one
 * of them.
 */
const passiveAttributes = new Set(['DeletionPolicy', 'UpdateReplacePolicy', 'CreationPolicy', 'UpdatePolicy', 'DependsOn']);

/** The hover at an offset of an analysed document, or null where there is nothing to say. */
export function buildHover(
  document: TextDocument,
  after: AnalysedTemplate,
  report: ImpactReport | undefined,
  spec: ResourceSpec,
  offset: number,
): Hover | null {
  const root = after.model.root;
  if (!root) return null;
  const located = pathAtOffset(root, offset);
  if (!located) return null;
  const path = located.path;
  const replaced = report ? replacedIds(report.changes) : new Set<string>();
  const hoverRange = (range: SourceRange | undefined) => (range ? toLspRange(document, range) : undefined);
  // The span a hover covers: the key under the cursor, or the value.
  const spot = located.onKey ? keyRangeAt(root, path) : located.node.range;
  // An edit outside the resources: what it causes, listed with why. (A Globals value's own hover,
  // below, lists what it reaches and what happens to each.)
  const site = report && path[0] !== 'Globals' ? editSiteAt(report, path) : undefined;
  if (site && report) return markdown(editSiteHoverText(site, report.changes, replaced), hoverRange(spot));
  if (path.length >= 2 && path[0] === 'Outputs' && typeof path[1] === 'string') {
    // An output says something only when its export is at risk.
    const risk = report?.risks?.find((candidate) => candidate.output === path[1]);
    return risk ? markdown(stackRiskHoverText(risk), hoverRange(spot)) : null;
  }
  if (after.generated && path[0] === 'Globals' && typeof path[1] === 'string' && typeof path[2] === 'string') {
    const property = path.slice(2).filter((step): step is string => typeof step === 'string').join('.');
    return markdown(globalsHoverText(after, report, root, path[1], property, replaced), hoverRange(spot));
  }
  if (path.length < 2 || path[0] !== 'Resources' || typeof path[1] !== 'string') return null;
  // A loop's resources have no key of their own: its hover lists what happens to each it generates.
  if (path[1].startsWith('Fn::ForEach::')) {
    const loop = keyRangeAt(root, path.slice(0, 2));
    const text = nodeAtPath(root, path.slice(0, 2));
    if (!report || !loop || !text) return null;
    const within = (range: SourceRange) => range.start >= loop.start && range.end <= text.range.end;
    return markdown(loopHoverText(path[1], report.changes.filter((c) => c.rangeIn === 'new' && within(c.range)), replaced), hoverRange(spot));
  }
  const resource = after.model.resources.get(path[1]);
  if (!resource) return null;
  // Where the template's loops are expanded, the resources one loop generates share its key: on
  // that key, the hover lists them all (inside, a property's hover is the property's).
  const key = path.length === 2 ? keyRangeAt(root, path) : undefined;
  const resources = nodeAtPath(root, ['Resources']);
  const siblings = key && resources?.kind === 'map' ? resources.entries.filter((e) => e.keyRange.start === key.start).map((e) => e.key) : [];
  if (siblings.length > 1 && report) {
    const generated = new Set(siblings);
    const changes = report.changes.filter((c) => c.rangeIn === 'new' && (generated.has(c.logicalId) || (c.generatedBy !== undefined && generated.has(c.generatedBy.logicalId))));
    return markdown(loopHoverText(`Fn::ForEach: ${siblings.join(', ')}`, changes, replaced), hoverRange(spot));
  }
  const type = resource.type ?? '';
  const change = report?.changes.find((candidate) => candidate.logicalId === resource.logicalId && candidate.rangeIn === 'new');

  // A SAM resource: what the Serverless transform generates from it, or from the property under the cursor.
  if (after.generated?.some((g) => g.samLogicalId === resource.logicalId)) {
    const property = path[2] === 'Properties' && path.length > 3 ? path.slice(3).filter((step): step is string => typeof step === 'string').join('.') : undefined;
    return markdown(samHoverText(property ?? resource.logicalId, type, generatedFrom(after.generated, report, resource.logicalId, property), replaced), hoverRange(spot));
  }

  // On the logical id, the Type, or anywhere in the resource outside its properties: the resource.
  if (path.length === 2 || path[2] !== 'Properties' || path.length === 3) {
    if (path.length >= 3 && typeof path[2] === 'string' && (passiveAttributes.has(path[2]) || path[2] === 'Condition')) {
      return markdown(attributeHoverText(path[2]), hoverRange(spot));
    }
    return markdown(resourceHoverText(resource.logicalId, type, spec.typeInfo(type), change, replaced), hoverRange(spot));
  }

  // Inside Properties: the property path without list indexes, as the spec indexes it.
  const propertyPath = path.slice(3).filter((step): step is string => typeof step === 'string');
  if (propertyPath.length === 0) return null;
  const pointer = `/Properties/${path.slice(3).map((step) => String(step).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  const info = spec.typeInfo(type);
  const behavior = spec.propertyBehavior(type, propertyPath);
  const docs = propertyDocsAt(spec, type, propertyPath);
  const text = propertyHoverText(
    {
      logicalId: resource.logicalId,
      type,
      propertyPath,
      behavior,
      custom: info.custom,
      description: docs?.description,
      documentationUrl: docs?.documentationUrl ?? behavior.documentationUrl ?? info.documentationUrl,
      change,
      details: change ? shownDetails(change).filter((detail) => pathsOverlap(detail.target.path, pointer)) : [],
    },
    replaced,
  );
  return markdown(text, hoverRange(spot));
}

/** Whether one SAM property path (`Events.Api.Properties`) is the other or lies inside it. */
function samPathsOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/**
 * The resources generated from a SAM resource (those a property produced or feeds, when one is
 * named), each with its change in this update, followed by those the update removes.
 */
function generatedFrom(generated: readonly GeneratedResourceOutline[], report: ImpactReport | undefined, samLogicalId: string, property: string | undefined): GeneratedResourceFacts[] {
  const concerns = (from: string | undefined, reads: readonly string[]) =>
    property === undefined || (from !== undefined && samPathsOverlap(from, property)) || reads.some((read) => samPathsOverlap(read, property));
  const facts: GeneratedResourceFacts[] = [];
  for (const g of generated) {
    if (g.samLogicalId !== samLogicalId || !concerns(g.property, g.reads)) continue;
    const change = report?.changes.find((c) => c.logicalId === g.logicalId && c.rangeIn === 'new');
    facts.push(change ? { logicalId: g.logicalId, type: g.type, change } : { logicalId: g.logicalId, type: g.type });
  }
  for (const change of report?.changes ?? []) {
    if (change.action !== 'Remove' || change.generatedBy?.logicalId !== samLogicalId || !concerns(change.generatedBy.property, [])) continue;
    facts.push({ logicalId: change.logicalId, type: change.resourceType, change });
  }
  return facts;
}

/**
 * The hover on a property of `Globals` (`Globals.Function.Timeout`): what the transform generates
 * from it for every SAM resource of that type that does not set the property itself.
 */
function globalsHoverText(after: AnalysedTemplate, report: ImpactReport | undefined, root: TemplateNode, section: string, property: string, replaced: ReadonlySet<string>): string {
  const type = `AWS::Serverless::${section}`;
  const facts: GeneratedResourceFacts[] = [];
  for (const resource of after.model.resources.values()) {
    if (resource.type !== type) continue;
    const own = nodeAtPath(root, ['Resources', resource.logicalId, 'Properties', property.split('.')[0]!]);
    if (own !== undefined) continue;
    facts.push(...generatedFrom(after.generated ?? [], report, resource.logicalId, property));
  }
  return samHoverText(`Globals.${section}.${property}`, type, facts, replaced);
}

/** The range of the key a path ends with. */
function keyRangeAt(root: TemplateNode, path: readonly (string | number)[]): SourceRange | undefined {
  const parent = nodeAtPath(root, path.slice(0, -1));
  const key = path[path.length - 1];
  return parent?.kind === 'map' ? parent.entries.find((entry) => entry.key === key)?.keyRange : undefined;
}






/** Whether one JSON pointer is the other or lies inside it. */
function pathsOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Documentation for the deepest documented prefix of a property path (map keys are not in the spec). */
function propertyDocsAt(spec: ResourceSpec, type: string, path: string[]) {
  for (let length = path.length; length > 0; length--) {
    const docs = spec.propertyDocs(type, path.slice(0, length));
    if (docs && (docs.description || docs.documentationUrl)) return docs;
  }
  return undefined;
}



function markdown(value: string, range: ReturnType<typeof toLspRange> | undefined): Hover {
  return range ? { contents: { kind: MarkupKind.Markdown, value }, range } : { contents: { kind: MarkupKind.Markdown, value } };
}

/** The edit outside the resources that a template path is in (a parameter, a mapping entry, a condition), if it changes something. */
function editSiteAt(report: ImpactReport, path: readonly (string | number)[]): EditSite | undefined {
  const names = path.filter((step): step is string => typeof step === 'string');
  const [section] = names;
  const wanted =
    section === 'Parameters' && names.length >= 2 ? { kind: 'parameter', name: names[1] }
    : section === 'Conditions' && names.length >= 2 ? { kind: 'condition', name: names[1] }
    : section === 'Mappings' && names.length >= 4 ? { kind: 'mapping-entry', name: names.slice(1, 4).join('.') }
    : undefined;
  if (wanted === undefined) return undefined;
  return report.editSites?.find((site) => site.kind === wanted.kind && site.name === wanted.name);
}
