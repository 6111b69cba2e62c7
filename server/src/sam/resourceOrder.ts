/**
 * The order in which SAM visits a template's resources. SAM keeps the Resources section of a
 * template with a REST API in a Python 2.7 dict (pyOrder.ts), and its plugins add and remove
 * entries (the implicit APIs, generated connectors) before the resources are translated, which
 * can reorder that dict; other templates keep the order as written.
 */
import { PyDict } from './python/py27Dict';
import { sameInOrder } from './values';

/** A visit of the Resources section that decides the order of functions: an implicit API plugin's, or the translation's. */
export type OrderVisit = 'rest' | 'http' | 'translation';

/** What SAM did to the order of a Python 2.7 Resources section: an id set or deleted, or the section gone through (`visit`: which, when named). */
export type OrderStep = { set: string } | { delete: string } | { visit: OrderVisit | undefined };

/** The keys of the Resources section, kept in SAM's order through the plugins' edits. */
export class ResourceOrder {
  private readonly py27?: PyDict;
  private readonly plain: string[];
  /**
   * The steps taken, for a Python 2.7 order: an id added or taken away elsewhere in the section
   * can reorder the others (`visitsKept`). A written order has none to keep.
   */
  readonly steps?: OrderStep[];

  constructor(keys: readonly string[], py27: boolean, keepSteps = false) {
    if (py27) {
      this.py27 = new PyDict();
      for (const key of keys) this.py27.set(key, null);
      this.plain = [];
      if (keepSteps) this.steps = [];
    } else this.plain = [...keys];
  }

  /** `resources[id] = ...`: a new id is added; an existing one keeps its place. */
  set(id: string): void {
    this.steps?.push({ set: id });
    if (this.py27) this.py27.set(id, null);
    else if (!this.plain.includes(id)) this.plain.push(id);
  }

  delete(id: string): void {
    this.steps?.push({ delete: id });
    if (this.py27) this.py27.delete(id);
    else {
      const index = this.plain.indexOf(id);
      if (index >= 0) this.plain.splice(index, 1);
    }
  }

  /** The keys in order; `visit` names a visit whose order of functions a later expansion may need again (`visitsKept`). */
  keys(visit?: OrderVisit): string[] {
    this.steps?.push({ visit });
    return this.py27 ? this.py27.keys() : [...this.plain];
  }
}

/**
 * SAM's `steps` taken again on a Python 2.7 Resources section written with the keys `before`, and
 * with the keys `now`: what each named visit goes through with `now`, or undefined when a visit
 * meets the resources that `matter` in another order than with `before`. Visits with no key set
 * or deleted between them go through the same order: each such run is compared once.
 */
export function visitsKept(steps: readonly OrderStep[], before: readonly string[], now: readonly string[], matter: (id: string) => boolean): Map<OrderVisit, string[]> | undefined {
  const orderBefore = new ResourceOrder(before, true);
  const orderNow = new ResourceOrder(now, true);
  const visits = new Map<OrderVisit, string[]>();
  let keysNow: string[] | undefined;
  for (const step of steps) {
    if ('visit' in step) {
      if (keysNow === undefined) {
        keysNow = orderNow.keys();
        if (!sameInOrder(orderBefore.keys().filter(matter), keysNow.filter(matter))) return undefined;
      }
      if (step.visit !== undefined) visits.set(step.visit, keysNow);
      continue;
    }
    keysNow = undefined;
    if ('set' in step) {
      orderBefore.set(step.set);
      orderNow.set(step.set);
    } else {
      orderBefore.delete(step.delete);
      orderNow.delete(step.delete);
    }
  }
  return visits;
}
