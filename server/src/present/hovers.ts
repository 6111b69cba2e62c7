/**
 * Hovers in words (Markdown): what a resource is and what this update does to it, how a
 * property updates and what changed in it, what a resource attribute does. The language server
 * finds what is under the cursor and what the specification says; this module says it.
 */
import { changesSomething, replacedIds, shownDetails } from '../impact/claims';
import type { ChangeDetail, NestedReport, ResourceChange } from '../impact/types';
import type { PropertyBehavior, ResourceTypeInfo } from '../spec/types';
import { isModuleType } from '../evaluate/modules';
import { decidingUpdatePolicy } from '../impact/policyBehaviors';
import { behaviorSourceNote, behaviorText } from './behaviors';
import { detailCause } from './causes';
import { changeReason, moreLine } from './changes';
import { impactHeading } from './impacts';
import { listSome } from './lists';
import { describeValueChange } from './values';

/** How long a value may be in a hover before it is cut. */
const MAX_VALUE_LENGTH = 160;
/** Changed values listed in a hover before the rest are counted. */
const DETAILS_SHOWN = 8;

/** Inline code that survives any value: long values are cut, backticks cannot close the span. */
function code(value: string): string {
  const text = value.length > MAX_VALUE_LENGTH ? `${value.slice(0, MAX_VALUE_LENGTH)}…` : value;
  const flat = text.replace(/\n/g, ' ');
  return flat.includes('`') ? `\`\` ${flat.replace(/``+/g, '`')} \`\`` : `\`${flat}\``;
}

/** What a hover says about a type the spec does not describe. */
function unknownTypeLine(type: string, custom: boolean): string {
  if (custom) return 'Custom resource: its provider decides how updates are applied.';
  if (isModuleType(type)) return 'Registry module: the resources it expands into are not visible here; update behaviour unknown.';
  return 'This type is not in the resource specification: update behaviour unknown.';
}

/**
 * What a hover says about a resource a change set lists although nothing changes for it: no
 * heading that could read as a claim, only why the change set lists it.
 */
function unchangedNote(logicalId: string, change: ResourceChange): string {
  const read = [...new Set(change.details.map((d) => d.causingEntity).filter((entity): entity is string => entity !== undefined))];
  const keeps = read.length === 1 ? 'which keeps its value' : 'which keep their values';
  return `Not changed by this update: ${logicalId} re-reads ${listSome(read)}, ${keeps}. A change set lists it as Dynamic all the same.`;
}

/** One changed value: `/Properties/CidrBlock`: `10.0.0.0/16` → `10.1.0.0/16` (CidrBlock ← parameter Cidr, requires replacement). */
function detailLine(detail: ChangeDetail, replaced: ReadonlySet<string>): string {
  const change = describeValueChange(detail, code);
  const values = change ? `: ${change}` : '';
  // The update behaviour, not the change set's RequiresRecreation: an instance type change is
  // `Conditionally` there and only interrupts the instance.
  const recreation =
    detail.behavior === 'replacement' ? ', requires replacement' : detail.behavior === 'conditional-replacement' || detail.behavior === 'unknown' ? ', may require replacement' : '';
  const dynamic = detail.evaluation === 'Dynamic' ? ', value known only at deploy time' : '';
  return `${code(detail.target.path)}${values} (${detailCause(detail, replaced)}${recreation}${dynamic})`;
}

/** Up to a screenful of changed values, the rest counted. */
function detailLines(details: readonly ChangeDetail[], replaced: ReadonlySet<string>): string[] {
  const lines = details.slice(0, DETAILS_SHOWN).map((detail) => `- ${detailLine(detail, replaced)}`);
  if (details.length > DETAILS_SHOWN) lines.push(`- ${moreLine(details.length - DETAILS_SHOWN)}`);
  return lines;
}

/** The hover on a resource: its type, what the spec says of it, and what this update does to it and why. */
export function resourceHoverText(logicalId: string, type: string, info: ResourceTypeInfo, change: ResourceChange | undefined, replaced: ReadonlySet<string>): string {
  const lines = [`**${logicalId}** · \`${type || 'no Type'}\``];
  if (info.description) lines.push('', info.description);
  if (!info.known && type) lines.push('', unknownTypeLine(type, info.custom));
  if (info.notUpdatable) lines.push('', 'This resource type cannot be updated: any change makes the update fail.');
  if (info.documentationUrl) lines.push('', `[Documentation](${info.documentationUrl})`);
  if (change && !changesSomething(change)) {
    lines.push('', '---', '', unchangedNote(logicalId, change));
  } else if (change) {
    lines.push('', '---', '', `**${impactHeading(change.impact)}**: ${changeReason(change, replaced)}`);
    // The replacement's chain is the diagnostic's, which the editor shows in the same hover.
    lines.push(...detailLines(shownDetails(change), replaced));
    if (change.nested) lines.push(...nestedHoverLines(change.nested));
  }
  return lines.join('\n');
}

/** Child changes listed in a hover before the rest are counted. */
const HOVER_SHOWN = 10;

/** What happens inside a nested stack, for the hover on its stack resource: one Markdown line per child change. */
export function nestedHoverLines(nested: NestedReport): string[] {
  const replaced = replacedIds(nested.changes);
  const shown = nested.changes.filter(changesSomething);
  if (shown.length === 0) return [];
  return ['', `Inside \`${nested.path}\`:`, ...changeListLines(shown, replaced)];
}

/** A hover's list of changes, one Markdown line each, the rest counted; one SAM generated from another resource says from which. */
function changeListLines(changes: readonly ResourceChange[], replaced: ReadonlySet<string>): string[] {
  const lines = changes.slice(0, HOVER_SHOWN).map((change) => {
    const from = change.generatedBy && change.generatedBy.logicalId !== change.logicalId ? ` (SAM: from ${change.generatedBy.logicalId})` : '';
    return `- \`${change.logicalId}\` · ${change.resourceType}${from} — **${impactHeading(change.impact)}**: ${changeReason(change, replaced)}`;
  });
  if (changes.length > HOVER_SHOWN) lines.push(`- ${moreLine(changes.length - HOVER_SHOWN)}`);
  return lines;
}

/**
 * The hover on a `Fn::ForEach` loop (`title` names it, or the resources it generates): what
 * happens to each resource it generates, one Markdown line each (what SAM generated from one
 * says so), the rest counted. `changes` are those its text causes.
 */
export function loopHoverText(title: string, changes: readonly ResourceChange[], replaced: ReadonlySet<string>): string {
  const shown = changes.filter(changesSomething);
  const lines = [`**${title}**`, ''];
  if (shown.length === 0) return [...lines, 'No resource it generates changes in this update.'].join('\n');
  return [...lines, 'What this update does to the resources it generates:', ...changeListLines(shown, replaced)].join('\n');
}

/** What the hover on a property knows: where it is, what the spec says of it and what changed in it. */
export interface PropertyHoverFacts {
  logicalId: string;
  type: string;
  /** The property path without list indexes, as the spec indexes it. */
  propertyPath: readonly string[];
  behavior: PropertyBehavior;
  custom: boolean;
  description?: string;
  documentationUrl?: string;
  change?: ResourceChange;
  /** The changed values at or inside this property. */
  details: readonly ChangeDetail[];
}

/** The hover on a property: how CloudFormation updates it, whether or not it changed, and what changed in it. */
export function propertyHoverText(facts: PropertyHoverFacts, replaced: ReadonlySet<string>): string {
  const { logicalId, type, propertyPath, behavior, change, details } = facts;
  // Where the resource's update policy decides, the hover says both answers: the policy is read beside the properties.
  const policy = propertyPath[0] === undefined ? undefined : decidingUpdatePolicy(type, propertyPath[0]);
  const behaviorLine = policy
    ? `Update requires: No interruption with UpdatePolicy ${policy}: true; Replacement without it`
    : behaviorText(behavior.behavior) + behaviorSourceNote(behavior.source, facts.custom);
  const lines = [`**${propertyPath.join('.')}** · \`${type}\``, '', behaviorLine];
  if (facts.description) lines.push('', facts.description);
  if (facts.documentationUrl) lines.push('', `[Documentation](${facts.documentationUrl})`);
  if (change && !changesSomething(change)) {
    lines.push('', '---', '', unchangedNote(logicalId, change));
  } else if (change && details.length > 0) {
    lines.push('', '---', '', `**Changed in this update** (${logicalId}: ${impactHeading(change.impact)})`);
    lines.push(...detailLines(details, replaced));
  } else if (change) {
    lines.push('', '---', '', `Unchanged here; ${logicalId}: ${impactHeading(change.impact)}`);
  }
  return lines.join('\n');
}

/** The hover on a resource attribute: `Condition` decides existence; the others change nothing on their own. */
export function attributeHoverText(attribute: string): string {
  if (attribute === 'Condition') {
    return '**Condition** decides whether the resource exists: when its value turns false the update deletes the resource (during cleanup, unless its DeletionPolicy keeps it), and when it turns true the update creates it.';
  }
  return `**${attribute}** is a resource attribute: changing it alone does not update the stack; its new value is honoured when something else updates the resource.`;
}
