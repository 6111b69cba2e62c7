/**
 * Hovers on resources and properties: how CloudFormation updates the property (from the spec,
 * whether or not it changed), what this edit changes and why, and where the documentation is.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import { replacedIds, shownDetails } from '../impact/claims';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range as SourceRange, TemplateNode } from '../template/ast';
import { nodeAtPath, pathAtOffset } from '../template';
import type { ResourceSpec } from '../spec/types';
import type { ImpactReport } from '../impact/types';
import { toLspRange } from './diagnostics';
import { attributeHoverText, propertyHoverText, resourceHoverText, stackRiskHoverText } from '../present';
import type { AnalysedTemplate } from './worker/outline';

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
  const hoverRange = (range: SourceRange | undefined) => (range ? toLspRange(document, range) : undefined);
  if (path.length >= 2 && path[0] === 'Outputs' && typeof path[1] === 'string') {
    // An output says something only when its export is at risk.
    const risk = report?.risks?.find((candidate) => candidate.output === path[1]);
    return risk ? markdown(stackRiskHoverText(risk), hoverRange(located.onKey ? keyRangeAt(root, path) : located.node.range)) : null;
  }
  if (path.length < 2 || path[0] !== 'Resources' || typeof path[1] !== 'string') return null;
  const resource = after.model.resources.get(path[1]);
  if (!resource) return null;
  const type = resource.type ?? '';
  const change = report?.changes.find((candidate) => candidate.logicalId === resource.logicalId && candidate.rangeIn === 'new');
  const replaced = report ? replacedIds(report.changes) : new Set<string>();
  // The span a hover covers: the key under the cursor, or the value.
  const spot = located.onKey ? keyRangeAt(root, path) : located.node.range;

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
  const pointer = `/Properties/${path.slice(3).join('/')}`;
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
