/**
 * A keystroke in Globals that changes only properties SAM copies to each Lambda function and reads
 * nowhere else but in the check of its value (`COPIED_ONLY`, function/function.ts), such as a
 * timeout every function takes: the expansion starts from the last one (reexpand.ts), each
 * function that takes such a property from Globals gets its Lambda function again with the new
 * value, and everything else moves with its text. Every function's translation would otherwise be
 * done again, for a change to one property of one resource each.
 */
import type { MapEntry, MapNode } from '../template/ast';
import { COPIED_ONLY, validCopiedValue } from './function/function';
import type { GeneratedResource } from './generated';
import { mergedAsScalar } from './globals';
import { writtenType } from './placement';
import { logicalIdOf } from './connector/reference';
import { keySpanOf, slice, spanOf, withoutAnchors, type PlacedRecord, type Span } from './movedRecords';
import type { SourceIndex } from './sourceIndex';
import { sameInOrder } from './values';

const FUNCTION = 'AWS::Serverless::Function';
const LAMBDA_FUNCTION = 'AWS::Lambda::Function';
const LAMBDA_VERSION = 'AWS::Lambda::Version';
const ROLE = 'AWS::IAM::Role';

/** What an edit to Globals changed: spans for what it left as it was, and the changed properties of the Function section. */
export interface FunctionGlobalsEdit {
  spans: Span[];
  /** The changed properties' entries, in the earlier text and in this one. */
  changed: Map<string, { before: MapEntry; now: MapEntry }>;
  /** Where the first changed property starts in the earlier text: what lies after it moves only with a span. */
  firstChange: number;
}

/** The entries of two maps side by side, when they have the same keys in the same order. */
function sideBySide(before: MapNode, now: MapNode): [MapEntry, MapEntry][] | undefined {
  if (before.entries.length !== now.entries.length) return undefined;
  const pairs: [MapEntry, MapEntry][] = [];
  for (let i = 0; i < now.entries.length; i++) {
    const pair: [MapEntry, MapEntry] = [before.entries[i]!, now.entries[i]!];
    if (pair[0].key !== pair[1].key) return undefined;
    pairs.push(pair);
  }
  return pairs;
}

/**
 * The edit between two texts of the Globals entry, when it changed nothing but values of
 * `COPIED_ONLY` properties in its Function section (no key added, removed or moved, no anchor,
 * no `AutoPublishAliasAllProperties`); undefined otherwise.
 */
export function functionGlobalsEdit(before: MapEntry, now: MapEntry, earlierText: string, text: string): FunctionGlobalsEdit | undefined {
  if (before.value.kind !== 'map' || now.value.kind !== 'map') return undefined;
  if (!withoutAnchors(before, now, earlierText, text)) return undefined;
  const sections = sideBySide(before.value, now.value);
  if (sections === undefined) return undefined;
  const spans: Span[] = [keySpanOf(before, now)];
  const changed = new Map<string, { before: MapEntry; now: MapEntry }>();
  let firstChange = Infinity;
  for (const [sectionBefore, sectionNow] of sections) {
    if (slice(earlierText, sectionBefore) === slice(text, sectionNow)) {
      spans.push(spanOf(sectionBefore, sectionNow));
      continue;
    }
    if (sectionNow.key !== 'Function' || sectionBefore.value.kind !== 'map' || sectionNow.value.kind !== 'map') return undefined;
    const properties = sideBySide(sectionBefore.value, sectionNow.value);
    if (properties === undefined || properties.some(([, property]) => property.key === 'AutoPublishAliasAllProperties')) return undefined;
    spans.push(keySpanOf(sectionBefore, sectionNow));
    // Tags that propagate reach the resources events and preferences generate, not only the function and its role.
    const propagates = properties.some(([, property]) => property.key === 'PropagateTags');
    for (const [propertyBefore, propertyNow] of properties) {
      if (slice(earlierText, propertyBefore) === slice(text, propertyNow)) spans.push(spanOf(propertyBefore, propertyNow));
      else if (COPIED_ONLY.has(propertyNow.key) && !(propagates && COPIED_ONLY.get(propertyNow.key)!.alsoRole)) {
        changed.set(propertyNow.key, { before: propertyBefore, now: propertyNow });
        firstChange = Math.min(firstChange, propertyBefore.keyRange.start);
      } else return undefined;
    }
  }
  return changed.size === 0 ? undefined : { spans, changed, firstChange };
}

/**
 * The Lambda functions of the last expansion made again with the edit's new values, by logical id,
 * for the functions not edited themselves that take an edited property from Globals (with the
 * roles SAM made for them, for a property the role takes too: tags that do not propagate); undefined
 * when a function's translation may change otherwise (the caller expands in full): it ignores
 * globals, hashes all its properties, has its own value where Globals merges rather than yields,
 * publishes a version that reads the property, a property whose presence is read goes, a value
 * appears or goes (its place among the properties would change), a value is one the translator
 * rejects, its Lambda function (or role) does not hold the value Globals gave it, or its tags propagate.
 */
export function patchedFunctions(
  edit: FunctionGlobalsEdit,
  placed: readonly PlacedRecord[],
  resourcesNow: ReadonlyMap<string, MapEntry>,
  edited: ReadonlySet<string>,
  earlierIndex: SourceIndex,
  index: SourceIndex,
): Map<string, GeneratedResource> | undefined {
  const values = new Map<string, { before: unknown; now: unknown }>();
  for (const [name, { before, now }] of edit.changed) {
    const value = { before: earlierIndex.read(before.value), now: index.read(now.value) };
    // A value the translator rejects is its error, which only the translation words.
    if (!validCopiedValue(name, value.now)) return undefined;
    values.set(name, value);
  }
  const versioned = new Set<string>();
  const byKey = new Map<string, PlacedRecord>();
  for (const record of placed) {
    if (record.resource?.type === LAMBDA_VERSION) versioned.add(record.producer);
    byKey.set(record.key, record);
  }
  const patched = new Map<string, GeneratedResource>();
  for (const record of placed) {
    const resource = record.resource;
    if (resource?.type !== LAMBDA_FUNCTION || record.key !== record.producer || edited.has(record.producer)) continue;
    const entry = resourcesNow.get(record.producer)?.value;
    if (entry?.kind !== 'map') return undefined;
    if (writtenType(entry) !== FUNCTION) continue;
    if (entry.entries.some((e) => e.key === 'IgnoreGlobals')) return undefined;
    const properties = entry.entries.find((e) => e.key === 'Properties')?.value;
    const own = properties?.kind === 'map' ? properties.entries : [];
    if (own.some((e) => e.key === 'AutoPublishAliasAllProperties')) return undefined;
    let made = resource;
    // The role the Lambda function runs as, when SAM made it for the function.
    const roleId = logicalIdOf(resource.get('Role'));
    const role = roleId === undefined ? undefined : byKey.get(roleId);
    let madeRole = role?.producer === record.producer && role.resource?.type === ROLE ? role.resource : undefined;
    for (const [name, { before, now }] of values) {
      const ownEntry = own.find((e) => e.key === name);
      if (ownEntry !== undefined) {
        if (mergedAsScalar(before) && mergedAsScalar(now) && mergedAsScalar(index.read(ownEntry.value))) continue;
        return undefined;
      }
      const condition = COPIED_ONLY.get(name)!;
      if (condition.noVersion && versioned.has(record.producer)) return undefined;
      if (condition.staysGiven && (!before || !now)) return undefined;
      if (before === undefined || before === null || now === undefined || now === null) return undefined;
      const becomes = condition.becomes;
      if (becomes && (!becomes.alone(before) || !becomes.alone(now))) return undefined;
      const property = becomes?.property ?? name;
      const valueBefore = becomes ? becomes.value(before) : before;
      const valueNow = becomes ? becomes.value(now) : now;
      if (!sameInOrder(made.get(property), valueBefore)) return undefined;
      made = made.withValue(property, valueNow);
      if (condition.alsoRole) {
        if (own.some((e) => e.key === 'PropagateTags')) return undefined;
        // The role SAM made for the function (none when the function names its own) takes the value too.
        if (madeRole !== undefined) {
          if (!sameInOrder(madeRole.get(property), valueBefore)) return undefined;
          madeRole = madeRole.withValue(property, valueNow);
        }
      }
    }
    if (made !== resource) patched.set(record.key, made);
    if (role && madeRole && madeRole !== role.resource) patched.set(role.key, madeRole);
  }
  return patched;
}

/** The Properties map of a processed resource's entry node, and where it stands among the entry's keys. */
function propertiesOf(entry: MapEntry): { node: MapNode; at: number } | undefined {
  if (entry.value.kind !== 'map') return undefined;
  const at = entry.value.entries.findIndex((e) => e.key === 'Properties');
  const node = entry.value.entries[at]?.value;
  return node?.kind === 'map' ? { node, at } : undefined;
}

/** A processed resource's entry node with its Properties' entries replaced by `entries`. */
function withPropertyEntries(entry: MapEntry, properties: { node: MapNode; at: number }, entries: MapEntry[]): MapEntry {
  const resource = entry.value as MapNode;
  const resourceEntries = [...resource.entries];
  resourceEntries[properties.at] = { ...resourceEntries[properties.at]!, value: { ...properties.node, entries } };
  return { ...entry, value: { ...resource, entries: resourceEntries } };
}

/**
 * A Lambda function's processed entry with the properties Globals changed taken out (their ranges
 * are in text that changed), to be moved with its text, and a way to put them back, built anew
 * where they stood; undefined when the entry is not a resource with those properties.
 */
export function entryWithoutChanged(entry: MapEntry, names: ReadonlySet<string>): { entry: MapEntry; putBack: (moved: MapEntry, build: (name: string) => MapEntry) => MapEntry | undefined } | undefined {
  const properties = propertiesOf(entry);
  if (properties === undefined) return undefined;
  const kept = properties.node.entries.filter((e) => !names.has(e.key));
  const order = properties.node.entries.map((e) => e.key);
  return {
    entry: withPropertyEntries(entry, properties, kept),
    putBack: (moved, build) => {
      const movedProperties = propertiesOf(moved);
      if (movedProperties === undefined) return undefined;
      const movedByKey = new Map(movedProperties.node.entries.map((e) => [e.key, e]));
      return withPropertyEntries(moved, movedProperties, order.map((key) => (names.has(key) ? build(key) : movedByKey.get(key)!)));
    },
  };
}
