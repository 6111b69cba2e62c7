/**
 * Where the user edited something that is not a resource (a parameter's value, a mapping entry, a
 * condition, a SAM `Globals` value), and which resource changes each such edit causes: directly,
 * in the resources that read it, and through the resources those replace. The editor shows it at
 * the edit, so that the consequence of an edit is not found only at the resources, far below.
 */
import { expressionInputs, valueKey } from '../evaluate';
import type { EvaluatedTemplate } from '../evaluate';
import type { MapNode, TemplateModel, TemplateNode } from '../template';
import { samePlainValue } from '../template';
import { changesSomething } from './claims';
import type { EditEffect, EditSite, ResourceChange } from './types';

/** The sides as `compareSides` has them: the evaluated templates and, for SAM, the templates as written. */
interface Side extends EvaluatedTemplate {
  writtenModel?: TemplateModel;
}

/** The `Globals` section each SAM type takes its defaults from. */
const GLOBALS_SECTION: Readonly<Record<string, string>> = {
  'AWS::Serverless::Function': 'Function',
  'AWS::Serverless::Api': 'Api',
  'AWS::Serverless::HttpApi': 'HttpApi',
  'AWS::Serverless::SimpleTable': 'SimpleTable',
  'AWS::Serverless::StateMachine': 'StateMachine',
  'AWS::Serverless::LayerVersion': 'LayerVersion',
};

/**
 * The edits outside resources between two sides, each with the changes it causes; an edit that
 * causes none is left out. Pure; linear in the size of the sections compared and the changes.
 */
export function findEditSites(before: Side, after: Side, changes: readonly ResourceChange[]): EditSite[] {
  const written = { before: before.writtenModel ?? before.model, after: after.writtenModel ?? after.model };
  const sites = editedEntries(before, after, written.before, written.after);
  if (sites.length === 0) return [];
  const changed = changes.filter(changesSomething);
  const readers = readersOf(changed, written.before, written.after);
  const followers = followersOf(changed);
  const candidates = candidatesByInput(changed, readers);
  const out: EditSite[] = [];
  for (const site of sites) {
    const direct = new Set<ResourceChange>();
    for (const change of candidates.get(inputKey(site)) ?? []) {
      if (readsSite(readers.get(change)!, site, change)) direct.add(change);
    }
    if (direct.size === 0) continue;
    out.push({ ...site, effects: inTemplateOrder(withCascade(direct, changed, followers), written.after) });
  }
  return out;
}

type Site = Omit<EditSite, 'effects'>;

/** The parameters whose value, the mapping entries, conditions and Globals values whose text differs between the sides, in template order. */
function editedEntries(before: Side, after: Side, writtenBefore: TemplateModel, writtenAfter: TemplateModel): Site[] {
  const sites: Site[] = [];
  for (const [name, decl] of writtenAfter.parameters) {
    const old = before.parameters.get(name);
    const now = after.parameters.get(name);
    if (old !== undefined && now !== undefined && valueKey(old.value) !== valueKey(now.value)) sites.push({ kind: 'parameter', name, range: decl.keyRange });
  }
  const oldMaps = writtenBefore.mappings;
  for (const map of writtenAfter.mappings?.entries ?? []) {
    if (map.value.kind !== 'map') continue;
    const oldMap = entryOf(oldMaps, map.key);
    for (const top of map.value.entries) {
      if (top.value.kind !== 'map') continue;
      const oldTop = entryOf(oldMap, top.key);
      for (const second of top.value.entries) {
        const old = entryOf(oldTop, second.key);
        if (old === undefined || !samePlainValue(old, second.value)) sites.push({ kind: 'mapping-entry', name: `${map.key}.${top.key}.${second.key}`, range: second.keyRange });
      }
    }
  }
  for (const [name, decl] of writtenAfter.conditions) {
    const old = writtenBefore.conditions.get(name);
    if (old === undefined || !samePlainValue(old.node, decl.node)) sites.push({ kind: 'condition', name, range: decl.keyRange });
  }
  const globals = entryOf(writtenAfter.root, 'Globals');
  const oldGlobals = entryOf(writtenBefore.root, 'Globals');
  for (const section of globals?.kind === 'map' ? globals.entries : []) {
    if (section.value.kind !== 'map') continue;
    const oldSection = entryOf(oldGlobals, section.key);
    for (const entry of section.value.entries) {
      const old = entryOf(oldSection, entry.key);
      if (old === undefined || !samePlainValue(old, entry.value)) sites.push({ kind: 'globals', name: `${section.key}.${entry.key}`, range: entry.keyRange });
    }
  }
  return sites;
}

/** What a site is to the resources that read it: a parameter, a map, a condition, a Globals section. */
function inputKey(site: Site): string {
  if (site.kind === 'mapping-entry') return `mapping:${site.name.slice(0, site.name.indexOf('.'))}`;
  if (site.kind === 'globals') return `globals:${site.name.slice(0, site.name.indexOf('.'))}`;
  return `${site.kind}:${site.name}`;
}

/** The changed resources that may follow each input, so that each site looks only at those: linear in what they read. */
function candidatesByInput(changes: readonly ResourceChange[], readers: ReadonlyMap<ResourceChange, Reader>): Map<string, Set<ResourceChange>> {
  const byInput = new Map<string, Set<ResourceChange>>();
  const add = (key: string, change: ResourceChange) => {
    const set = byInput.get(key) ?? new Set<ResourceChange>();
    set.add(change);
    byInput.set(key, set);
  };
  for (const change of changes) {
    const reader = readers.get(change);
    if (reader === undefined) continue;
    for (const name of reader.parameters) add(`parameter:${name}`, change);
    for (const name of reader.mappings) add(`mapping:${name}`, change);
    for (const name of reader.conditions) add(`condition:${name}`, change);
    const section = reader.type === undefined ? undefined : GLOBALS_SECTION[reader.type];
    if (section !== undefined) add(`globals:${section}`, change);
    for (const detail of change.details) if (detail.changeSource === 'ParameterReference' && detail.causingEntity !== undefined) add(`parameter:${detail.causingEntity}`, change);
  }
  return byInput;
}

/** What a changed resource reads, from its declaration as written, and whether that declaration was edited. */
interface Reader {
  logicalId: string;
  type: string | undefined;
  /** Its own text is the same on both sides: what changed it is something it reads. */
  unchanged: boolean;
  parameters: ReadonlySet<string>;
  mappings: ReadonlySet<string>;
  conditions: ReadonlySet<string>;
  /** Its own Properties' keys, which a Globals value does not reach. */
  ownProperties: ReadonlySet<string>;
}

/** For each changed resource that is in the new template, what its declaration as written reads (a SAM resource's, for what it generates). */
function readersOf(changes: readonly ResourceChange[], writtenBefore: TemplateModel, writtenAfter: TemplateModel): Map<ResourceChange, Reader> {
  const byId = new Map<string, Reader | null>();
  const readers = new Map<ResourceChange, Reader>();
  for (const change of changes) {
    const logicalId = change.generatedBy?.logicalId ?? change.logicalId;
    let reader = byId.get(logicalId);
    if (reader === undefined) {
      const decl = writtenAfter.resources.get(logicalId);
      const old = writtenBefore.resources.get(logicalId);
      reader = decl === undefined ? null : readerOf(decl, old?.node, writtenAfter);
      byId.set(logicalId, reader);
    }
    if (reader !== null) readers.set(change, reader);
  }
  return readers;
}

function readerOf(decl: { logicalId: string; type: string | undefined; node: MapNode; properties: TemplateNode | undefined; condition: string | undefined }, oldNode: TemplateNode | undefined, model: TemplateModel): Reader {
  // The resource's own Condition is an attribute, not an intrinsic: what it reads is read here.
  const guard = decl.condition === undefined ? undefined : model.conditions.get(decl.condition)?.node;
  const read = [expressionInputs(decl.node, model), ...(guard === undefined ? [] : [expressionInputs(guard, model)])];
  const conditions = new Set(read.flatMap((inputs) => inputs.conditions));
  if (decl.condition !== undefined) conditions.add(decl.condition);
  return {
    logicalId: decl.logicalId,
    type: decl.type,
    unchanged: oldNode !== undefined && samePlainValue(oldNode, decl.node),
    parameters: new Set(read.flatMap((inputs) => inputs.parameters)),
    mappings: new Set(read.flatMap((inputs) => inputs.mappings)),
    conditions,
    ownProperties: new Set(decl.properties?.kind === 'map' ? decl.properties.entries.map((e) => e.key) : []),
  };
}

/**
 * Whether a change follows from a site its resource reads. A resource whose own text was edited
 * changed for that edit, unless a detail names the edited parameter as its cause: then both.
 */
function readsSite(reader: Reader, site: Site, change: ResourceChange): boolean {
  switch (site.kind) {
    case 'parameter':
      if (change.details.some((d) => d.changeSource === 'ParameterReference' && d.causingEntity === site.name)) return true;
      return reader.unchanged && reader.parameters.has(site.name);
    case 'mapping-entry':
      return reader.unchanged && reader.mappings.has(site.name.slice(0, site.name.indexOf('.')));
    case 'condition':
      return reader.unchanged && reader.conditions.has(site.name);
    case 'globals': {
      const [section, key] = site.name.split('.') as [string, string];
      if (reader.type === undefined || GLOBALS_SECTION[reader.type] !== section || reader.ownProperties.has(key)) return false;
      // A function edited itself too changed for the Globals value where a changed property bears its name.
      return reader.unchanged || change.details.some((d) => d.target.name === key);
    }
  }
}

/**
 * The direct changes and, through them, the changes that only follow a resource they touch (a
 * detail caused by its replacement or a new attribute), each once, in the report's order. A SAM
 * resource's generated resources count as that resource.
 */
function withCascade(direct: ReadonlySet<ResourceChange>, changes: readonly ResourceChange[], followers: Followers): EditEffect[] {
  const via = new Map<ResourceChange, string | undefined>([...direct].map((change) => [change, undefined]));
  const queue = [...direct].map((change) => change.logicalId);
  for (let at = 0; at < queue.length; at++) {
    for (const { change, cause } of followers.get(queue[at]!) ?? []) {
      if (via.has(change)) continue;
      via.set(change, cause);
      queue.push(change.logicalId);
    }
  }
  const effects = new Map<string, EditEffect>();
  for (const change of changes) {
    if (!via.has(change)) continue;
    const logicalId = change.generatedBy?.logicalId ?? change.logicalId;
    const known = effects.get(logicalId);
    const effect: EditEffect = { logicalId, action: change.action, impact: change.impact };
    const cause = via.get(change);
    if (cause !== undefined) effect.via = cause;
    if (change.logicalId !== logicalId) effect.generated = { logicalId: change.logicalId, resourceType: change.resourceType };
    // A SAM resource counts once, with the weightiest of what happens to what it generates.
    if (known === undefined || weight(effect) > weight(known)) effects.set(logicalId, effect);
  }
  return [...effects.values()];
}

/** Effects in the order their resources are written in the new template; removed ones last, as they were. */
function inTemplateOrder(effects: EditEffect[], model: TemplateModel): EditEffect[] {
  const position = new Map([...model.resources.keys()].map((logicalId, index) => [logicalId, index]));
  const at = (effect: EditEffect) => position.get(effect.logicalId) ?? Number.MAX_SAFE_INTEGER;
  return effects.map((effect, index) => ({ effect, index })).sort((a, b) => at(a.effect) - at(b.effect) || a.index - b.index).map(({ effect }) => effect);
}

/** For each resource, the changes that follow it (a detail caused by its replacement or a new attribute). */
type Followers = Map<string, { change: ResourceChange; cause: string }[]>;

/** Which changes follow each resource: one pass over the details, so that every walk is linear. */
function followersOf(changes: readonly ResourceChange[]): Followers {
  const followers: Followers = new Map();
  for (const change of changes) {
    for (const detail of change.details) {
      if ((detail.changeSource !== 'ResourceReference' && detail.changeSource !== 'ResourceAttribute') || detail.causingEntity === undefined) continue;
      const cause = causingResource(detail.causingEntity);
      const list = followers.get(cause) ?? [];
      list.push({ change, cause });
      followers.set(cause, list);
    }
  }
  return followers;
}

/** `Orders.Arn` names the resource `Orders`. */
function causingResource(entity: string): string {
  const dot = entity.indexOf('.');
  return dot < 0 ? entity : entity.slice(0, dot);
}

function weight(effect: EditEffect): number {
  if (effect.action === 'Remove') return 4;
  if (effect.impact === 'replacement') return 3;
  if (effect.action === 'Add') return 2;
  return 1;
}

function entryOf(node: TemplateNode | undefined, key: string): TemplateNode | undefined {
  return node?.kind === 'map' ? node.entries.find((e) => e.key === key)?.value : undefined;
}
