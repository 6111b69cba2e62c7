/**
 * Hovers on resources and properties: how CloudFormation updates the property (from the spec,
 * whether or not it changed), what this edit changes and why, and where the documentation is.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import { changesSomething, describeValueChange, shownDetails } from '../impact/labels';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Range as SourceRange, TemplateNode } from '../template/ast';
import { nodeAtPath, pathAtOffset } from '../template';
import type { ResourceSpec } from '../spec/types';
import { isModuleType } from '../evaluate/modules';
import type { ChangeDetail, ImpactReport, ResourceChange } from '../impact/types';
import { toLspRange } from './diagnostics';
import { behaviorText, detailCause, impactHeading, replacedIds, replacementMessage, shortList } from './wording';
import type { AnalysedTemplate } from './worker/outline';

const maxValueLength = 160;
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
  if (path.length < 2 || path[0] !== 'Resources' || typeof path[1] !== 'string') return null;
  const resource = after.model.resources.get(path[1]);
  if (!resource) return null;
  const type = resource.type ?? '';
  const change = report?.changes.find((candidate) => candidate.logicalId === resource.logicalId && candidate.rangeIn === 'new');
  const replaced = report ? replacedIds(report) : new Set<string>();
  const hoverRange = (range: SourceRange | undefined) => (range ? toLspRange(document, range) : undefined);
  // The span a hover covers: the key under the cursor, or the value.
  const spot = located.onKey ? keyRangeAt(root, path) : located.node.range;

  // On the logical id, the Type, or anywhere in the resource outside its properties: the resource.
  if (path.length === 2 || path[2] !== 'Properties' || path.length === 3) {
    if (path.length >= 3 && typeof path[2] === 'string' && (passiveAttributes.has(path[2]) || path[2] === 'Condition')) {
      return markdown(attributeHover(path[2]), hoverRange(spot));
    }
    return markdown(resourceHover(resource.logicalId, type, spec, change, replaced), hoverRange(spot));
  }

  // Inside Properties: the property path without list indexes, as the spec indexes it.
  const propertyPath = path.slice(3).filter((step): step is string => typeof step === 'string');
  if (propertyPath.length === 0) return null;
  const pointer = `/Properties/${path.slice(3).join('/')}`;
  const lines: string[] = [];
  const info = spec.typeInfo(type);
  const behavior = spec.propertyBehavior(type, propertyPath);
  const docs = propertyDocsAt(spec, type, propertyPath);
  lines.push(`**${propertyPath.join('.')}** · \`${type}\``);
  lines.push('');
  lines.push(behaviorText(behavior.behavior) + behaviorSourceNote(behavior.source, info.custom));
  if (docs?.description) lines.push('', docs.description);
  const url = docs?.documentationUrl ?? behavior.documentationUrl ?? info.documentationUrl;
  if (url) lines.push('', `[Documentation](${url})`);

  const details = change ? shownDetails(change).filter((detail) => pathsOverlap(detail.target.path, pointer)) : [];
  if (change && !changesSomething(change)) {
    lines.push('', '---', '', unchangedNote(resource.logicalId, change));
  } else if (change && details.length > 0) {
    lines.push('', '---', '', `**Changed in this update** (${resource.logicalId}: ${impactHeading(change.impact)})`);
    for (const detail of details.slice(0, 8)) lines.push(`- ${detailLine(detail, replaced)}`);
    if (details.length > 8) lines.push(`- … and ${details.length - 8} more`);
  } else if (change) {
    lines.push('', '---', '', `Unchanged here; ${resource.logicalId}: ${impactHeading(change.impact)}`);
  }
  return markdown(lines.join('\n'), hoverRange(spot));
}

/** The range of the key a path ends with. */
function keyRangeAt(root: TemplateNode, path: readonly (string | number)[]): SourceRange | undefined {
  const parent = nodeAtPath(root, path.slice(0, -1));
  const key = path[path.length - 1];
  return parent?.kind === 'map' ? parent.entries.find((entry) => entry.key === key)?.keyRange : undefined;
}

/** What a hover says about a type the spec does not describe. */
function unknownTypeLine(type: string, custom: boolean): string {
  if (custom) return 'Custom resource: its provider decides how updates are applied.';
  if (isModuleType(type)) return 'Registry module: the resources it expands into are not visible here; update behaviour unknown.';
  return 'This type is not in the resource specification: update behaviour unknown.';
}

function resourceHover(logicalId: string, type: string, spec: ResourceSpec, change: ResourceChange | undefined, replaced: ReadonlySet<string>): string {
  const info = spec.typeInfo(type);
  const lines = [`**${logicalId}** · \`${type || 'no Type'}\``];
  if (info.description) lines.push('', info.description);
  if (!info.known && type) lines.push('', unknownTypeLine(type, info.custom));
  if (info.notUpdatable) lines.push('', 'This resource type cannot be updated: any change makes the update fail.');
  if (info.documentationUrl) lines.push('', `[Documentation](${info.documentationUrl})`);
  if (change && !changesSomething(change)) {
    lines.push('', '---', '', unchangedNote(logicalId, change));
  } else if (change) {
    // The engine's reason says what becomes of the old resource (UpdateReplacePolicy) and why.
    lines.push('', '---', '', `**${impactHeading(change.impact)}**: ${change.reason}`);
    if (change.impact === 'replacement' || change.impact === 'conditional-replacement') lines.push('', replacementMessage(change, replaced));
    const details = shownDetails(change);
    for (const detail of details.slice(0, 8)) lines.push(`- ${detailLine(detail, replaced)}`);
    if (details.length > 8) lines.push(`- … and ${details.length - 8} more`);
  }
  return lines.join('\n');
}

/**
 * What a hover says about a resource a change set lists although nothing changes for it: no
 * heading that could read as a claim, only why the change set lists it.
 */
function unchangedNote(logicalId: string, change: ResourceChange): string {
  const read = [...new Set(change.details.map((d) => d.causingEntity).filter((entity): entity is string => entity !== undefined))];
  const keeps = read.length === 1 ? 'which keeps its value' : 'which keep their values';
  return `Not changed by this update: ${logicalId} re-reads ${shortList(read)}, ${keeps}. A change set lists it as Dynamic all the same.`;
}

function attributeHover(attribute: string): string {
  if (attribute === 'Condition') {
    return '**Condition** decides whether the resource exists: when its value turns false the update deletes the resource (during cleanup, unless its DeletionPolicy keeps it), and when it turns true the update creates it.';
  }
  return `**${attribute}** is a resource attribute: changing it alone does not update the stack; its new value is honoured when something else updates the resource.`;
}

/** One changed value: `/Properties/CidrBlock`: `10.0.0.0/16` → `10.1.0.0/16` (CidrBlock ← parameter Cidr), requires replacement. */
function detailLine(detail: ChangeDetail, replaced: ReadonlySet<string>): string {
  const change = describeValueChange(detail, code);
  const values = change ? `: ${change}` : '';
  // The update behaviour, not the change set's RequiresRecreation: an instance type change is
  // `Conditionally` there and only interrupts the instance.
  const recreation = detail.behavior === 'replacement' ? ', requires replacement' : detail.behavior === 'conditional-replacement' || detail.behavior === 'unknown' ? ', may require replacement' : '';
  const dynamic = detail.evaluation === 'Dynamic' ? ', value known only at deploy time' : '';
  return `${code(detail.target.path)}${values} (${detailCause(detail, replaced)}${recreation}${dynamic})`;
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

function behaviorSourceNote(source: string, custom: boolean): string {
  if (custom || source === 'custom-resource') return ' (custom resource: the provider decides)';
  if (source === 'unknown-type') return ' (resource type not in the specification)';
  if (source === 'unknown-property') return ' (property not in the specification)';
  return '';
}

/** Inline code that survives any value: long values are cut, backticks cannot close the span. */
function code(value: string): string {
  const text = value.length > maxValueLength ? `${value.slice(0, maxValueLength)}…` : value;
  const flat = text.replace(/\n/g, ' ');
  return flat.includes('`') ? `\`\` ${flat.replace(/``+/g, '`')} \`\`` : `\`${flat}\``;
}

function markdown(value: string, range: ReturnType<typeof toLspRange> | undefined): Hover {
  return range ? { contents: { kind: MarkupKind.Markdown, value }, range } : { contents: { kind: MarkupKind.Markdown, value } };
}
