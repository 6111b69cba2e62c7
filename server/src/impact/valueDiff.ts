/**
 * Comparison of evaluated values the way CloudFormation compares them, reporting every
 * leaf that differs.
 *
 * Two rules make this more than a deep-equal:
 * - Scalars compare by their string form, because CloudFormation passes every property value
 *   to the resource provider as text: `30` equals `"30"` and `true` equals `"true"`.
 * - A symbolic value (a resource's physical id or attribute) stays equal to itself unless the
 *   resource it names is replaced or updated in this same deployment. `fateOf` tells which.
 *
 * A reference can be listed and still keep its value. A change set lists every reader of a
 * resource it may replace, and every `Fn::GetAtt` reader of a resource it updates, as `Dynamic`:
 * the value is re-read at deploy time. This analysis can know more than the change set: a resource
 * whose RequiresRecreation is `Conditionally` but whose update only interrupts it keeps its id, and
 * an attribute that echoes a create-only property (spec `propertyEchoes`) cannot change in an update
 * in place. Such differences are kept, as a change set lists them, and marked `keepsValue`.
 */
import {
  Concatenation,
  isSymbolic,
  isValueObject,
  ResourceAttribute,
  ResourceRef,
  UnknownValue,
  type Symbolic,
  type Value,
} from '../evaluate/value';
import { valueKey } from '../evaluate/render';
import type { Evaluation, LookupCondition } from './types';

/**
 * What a change set plans for a resource, as far as references to it are concerned.
 * `modified-opaque`: updated in place, but its attributes are not described by the spec
 * (custom resources, unknown types), so any of them may change.
 */
export type ChangeSetPlan = 'unchanged' | 'modified' | 'modified-opaque' | 'conditionally-replaced' | 'replaced';

/** What this deployment does to a resource: the change set's plan, and what is known to stay. */
export interface ResourceFate {
  plan: ChangeSetPlan;
  /**
   * Whether reading the resource gives the same value after the update although the plan lists
   * its readers: `Ref` when `attribute` is undefined, `Fn::GetAtt` otherwise.
   */
  keeps(attribute: string | undefined): boolean;
}

/** The fate of a resource this deployment does not touch. */
export const UNCHANGED: ResourceFate = { plan: 'unchanged', keeps: () => true };

export type PathSegment = string | number;

/** A referenced resource whose new physical id or attribute makes a value differ. */
export interface ReferenceCause {
  logicalId: string;
  /** Set for `Fn::GetAtt`; absent for `Ref`. */
  attribute?: string;
}

export interface ValueDifference {
  path: PathSegment[];
  before: Value | undefined;
  after: Value | undefined;
  /** `Dynamic` when the values differ only if a referenced resource's value changes at deploy time. */
  evaluation: Evaluation;
  /** Present when the expression is the same and the difference comes from a referenced resource. */
  cause?: ReferenceCause;
  /** A `Dynamic` difference that is known not to happen: every reference it depends on keeps its value. */
  keepsValue?: true;
  /**
   * For a lookup keyed by values only the deployment knows whose selectable entries changed: the
   * keys that select a changed entry, so the difference happens only where the stack's keys are
   * those (`before` and `after` are then that entry's values, when one entry changed).
   */
  when?: LookupCondition;
}

type SymbolVerdict =
  | { equal: true }
  | { equal: false; evaluation: Evaluation; cause?: ReferenceCause; keepsValue?: true; when?: LookupCondition; entry?: { before: Value | undefined; after: Value | undefined } };

const EQUAL: SymbolVerdict = { equal: true };
const STATIC_DIFFERENT: SymbolVerdict = { equal: false, evaluation: 'Static' };

/**
 * Attributes that a non-replacing update cannot change: a resource keeps its identity (ARN, id)
 * unless it is replaced. Other attributes may echo updated properties or change with a restart
 * (an instance's `PublicDnsName`), so CloudFormation marks their readers as `Dynamic`. A nested
 * stack's `Outputs.*` are whatever its template says, so they are never taken as identity.
 */
export function isIdentityAttribute(attribute: string): boolean {
  if (attribute.startsWith('Outputs.')) return false;
  const last = attribute.slice(attribute.lastIndexOf('.') + 1);
  return /(Arn|Id|Ids)$/.test(last) || last === 'DefaultSecurityGroup' || last === 'DefaultNetworkAcl';
}

/** Lists every leaf where `after` differs from `before`, given what happens to referenced resources. */
export function diffValues(
  before: Value | undefined,
  after: Value | undefined,
  fateOf: (logicalId: string) => ResourceFate,
): ValueDifference[] {
  const out: ValueDifference[] = [];
  walk(before, after, [], fateOf, out);
  return out;
}

function walk(
  a: Value | undefined,
  b: Value | undefined,
  // The path so far, one stack for the whole walk: a difference takes a copy of it. Copying it at
  // every step made comparing two large templates allocate a path per property compared.
  path: PathSegment[],
  fateOf: (logicalId: string) => ResourceFate,
  out: ValueDifference[],
): void {
  if (a === b && (a === undefined || typeof a !== 'object')) return;
  if (a === undefined || b === undefined) {
    out.push({ path: [...path], before: a, after: b, evaluation: 'Static' });
    return;
  }
  if (isSymbolic(a) || isSymbolic(b)) {
    const verdict = isSymbolic(a) && isSymbolic(b) ? compareSymbols(a, b, fateOf) : STATIC_DIFFERENT;
    if (!verdict.equal) {
      const entry = verdict.entry;
      const difference: ValueDifference = { path: [...path], before: entry ? entry.before : a, after: entry ? entry.after : b, evaluation: verdict.evaluation, cause: verdict.cause };
      if (verdict.keepsValue) difference.keepsValue = true;
      if (verdict.when) difference.when = verdict.when;
      out.push(difference);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      out.push({ path: [...path], before: a, after: b, evaluation: 'Static' });
      return;
    }
    for (let i = 0; i < a.length; i++) {
      path.push(i);
      walk(a[i], b[i], path, fateOf, out);
      path.pop();
    }
    return;
  }
  if (isValueObject(a) && isValueObject(b)) {
    for (const key of Object.keys(a)) {
      path.push(key);
      walk(a[key], b[key], path, fateOf, out);
      path.pop();
    }
    for (const key of Object.keys(b)) {
      if (key in a) continue;
      path.push(key);
      walk(undefined, b[key], path, fateOf, out);
      path.pop();
    }
    return;
  }
  if (!scalarsEqual(a, b)) out.push({ path: [...path], before: a, after: b, evaluation: 'Static' });
}

/** Scalar equality with CloudFormation's coercion to text; containers never equal scalars. */
function scalarsEqual(a: Value, b: Value): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'object' || typeof b === 'object') return false;
  return String(a) === String(b);
}

/** Whether two values are equal as CloudFormation would see them, with no resource changing. */
export function valuesEqual(a: Value | undefined, b: Value | undefined): boolean {
  return diffValues(a, b, () => UNCHANGED).length === 0;
}

/** How much a verdict says changes: equal, re-read but kept, may change, changes. */
function verdictRank(verdict: SymbolVerdict): number {
  if (verdict.equal) return 0;
  if (verdict.evaluation === 'Static') return 3;
  return verdict.keepsValue ? 1 : 2;
}

function compareSymbols(a: Symbolic, b: Symbolic, fateOf: (logicalId: string) => ResourceFate): SymbolVerdict {
  if (a instanceof ResourceRef && b instanceof ResourceRef) {
    if (a.logicalId !== b.logicalId) return STATIC_DIFFERENT;
    return referenceVerdict(fateOf(a.logicalId), { logicalId: a.logicalId });
  }
  if (a instanceof ResourceAttribute && b instanceof ResourceAttribute) {
    if (a.logicalId !== b.logicalId || a.attribute !== b.attribute) return STATIC_DIFFERENT;
    return referenceVerdict(fateOf(a.logicalId), { logicalId: a.logicalId, attribute: a.attribute });
  }
  if (a instanceof UnknownValue && b instanceof UnknownValue) {
    if (a.key !== b.key) return lookupVerdict(a, b) ?? STATIC_DIFFERENT;
    let worst: SymbolVerdict = EQUAL;
    for (const dep of b.resourceDeps) {
      const verdict = compareSymbols(dep, dep, fateOf);
      if (verdictRank(verdict) > verdictRank(worst)) worst = verdict;
    }
    return worst;
  }
  if (a instanceof Concatenation && b instanceof Concatenation) {
    if (a.parts.length !== b.parts.length) return STATIC_DIFFERENT;
    let worst: SymbolVerdict = EQUAL;
    for (let i = 0; i < a.parts.length; i++) {
      const pa = a.parts[i];
      const pb = b.parts[i];
      let verdict: SymbolVerdict;
      if (typeof pa === 'string' || typeof pb === 'string') verdict = pa === pb ? EQUAL : STATIC_DIFFERENT;
      else verdict = compareSymbols(pa, pb, fateOf);
      // A lookup's changed entry is a part of the text: the difference shows the whole text.
      if (!verdict.equal && verdict.entry) verdict = { ...verdict, entry: undefined };
      if (!verdict.equal && verdict.cause === undefined) return verdict;
      if (verdictRank(verdict) > verdictRank(worst)) worst = verdict;
    }
    return worst;
  }
  return STATIC_DIFFERENT;
}

/**
 * Two lookups with the same keys whose selectable entries differ (docs/update-rules.md#lookup-entries):
 * the value changes only where the stack's deploy-time keys select a changed entry. Undefined for
 * anything else.
 */
function lookupVerdict(a: UnknownValue, b: UnknownValue): SymbolVerdict | undefined {
  const before = a.lookup;
  const after = b.lookup;
  if (before === undefined || after === undefined || before.keysKey !== after.keysKey) return undefined;
  const pathKey = (path: readonly string[]) => path.join('\u0000');
  const old = new Map(before.choices.map((choice) => [pathKey(choice.path), choice]));
  const now = new Map(after.choices.map((choice) => [pathKey(choice.path), choice]));
  const changed: { path: readonly string[]; before: Value | undefined; after: Value | undefined }[] = [];
  for (const [key, choice] of now) {
    const was = old.get(key);
    if (was === undefined || valueKey(was.value) !== valueKey(choice.value)) changed.push({ path: choice.path, before: was?.value, after: choice.value });
  }
  for (const [key, choice] of old) if (!now.has(key)) changed.push({ path: choice.path, before: choice.value, after: undefined });
  if (changed.length === 0) return EQUAL;
  const decidedBy = after.decidedBy;
  const values = [...new Set(changed.map((c) => decidedBy.map((d) => c.path[d.position]).join(', ')))];
  const when = { key: decidedBy.map((d) => d.name).join(', '), values };
  const only = changed.length === 1 ? changed[0]! : undefined;
  return { equal: false, evaluation: 'Static', when, ...(only ? { entry: { before: only.before, after: only.after } } : {}) };
}

/**
 * What reading a changed resource gives. A replacement changes its id and attributes (`Static`).
 * A possible replacement may change them (`Dynamic`). An update in place keeps its id and
 * identity attributes (not listed) and may change its other attributes (`Dynamic`). `Dynamic`
 * readings the fate knows to stay the same are marked `keepsValue`.
 */
function referenceVerdict(fate: ResourceFate, cause: ReferenceCause): SymbolVerdict {
  const attribute = cause.attribute;
  switch (fate.plan) {
    case 'unchanged':
      return EQUAL;
    case 'replaced':
      return { equal: false, evaluation: 'Static', cause };
    case 'modified':
      if (attribute === undefined || isIdentityAttribute(attribute)) return EQUAL;
      break;
    case 'modified-opaque':
      if (attribute === undefined) return EQUAL;
      break;
    case 'conditionally-replaced':
      break;
  }
  return fate.keeps(attribute) ? { equal: false, evaluation: 'Dynamic', cause, keepsValue: true } : { equal: false, evaluation: 'Dynamic', cause };
}
