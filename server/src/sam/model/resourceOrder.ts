/**
 * The order in which SAM visits a template's resources. SAM keeps the Resources section of a
 * template with a REST API in a Python 2.7 dict (pyOrder.ts), and its plugins add and remove
 * entries (the implicit APIs, generated connectors) before the resources are translated, which
 * can reorder that dict; other templates keep the order as written.
 */
import { PyDict } from '../python/py27Dict';

/** The keys of the Resources section, kept in SAM's order through the plugins' edits. */
export class ResourceOrder {
  private readonly py27?: PyDict;
  /** A written order: a JavaScript set keeps insertion order, as a Python 3 dict does. */
  private readonly written: Set<string>;

  constructor(keys: readonly string[], py27: boolean) {
    if (py27) {
      this.py27 = new PyDict();
      for (const key of keys) this.py27.set(key, null);
      this.written = new Set();
    } else this.written = new Set(keys);
  }

  /** `resources[id] = ...`: a new id is added; an existing one keeps its place. */
  set(id: string): void {
    if (this.py27) this.py27.set(id, null);
    else this.written.add(id);
  }

  delete(id: string): void {
    if (this.py27) this.py27.delete(id);
    else this.written.delete(id);
  }

  /** The keys in order. */
  keys(): string[] {
    return this.py27 ? this.py27.keys() : [...this.written];
  }
}
