/**
 * The worker's evaluated sides, kept across edits: per open document, its baseline, and both
 * sides of each nested stack's child template, under keys that start with the baseline's (see
 * `analyzeUpdate`). A document's baseline changes rarely (HEAD moved, another stack chosen) and its
 * key changes with it: a new baseline replaces the document's previous evaluations, children
 * included, instead of adding to them.
 */
import type { BaselineCache, EvaluatedSide } from '../../impact';

/** How many evaluations one document keeps: its baseline and two per child, for the most children an analysis follows, with room to spare. */
const MAX_KEPT_PER_DOCUMENT = 128;

/** Evaluated sides by document. */
export class BaselineEvaluations {
  private readonly byDocument = new Map<string, { baselineKey: string; kept: Map<string, EvaluatedSide> }>();

  /** The cache `analyzeUpdate` keeps one document's evaluations in. */
  of(uri: string, baselineKey: string): BaselineCache {
    let entry = this.byDocument.get(uri);
    if (entry?.baselineKey !== baselineKey) this.byDocument.set(uri, (entry = { baselineKey, kept: new Map() }));
    const kept = entry.kept;
    return {
      get: (key) => {
        const found = kept.get(key);
        if (found !== undefined) {
          // Least recently used first: a found entry moves to the end.
          kept.delete(key);
          kept.set(key, found);
        }
        return found;
      },
      set: (key, evaluated) => {
        kept.set(key, evaluated);
        if (kept.size > MAX_KEPT_PER_DOCUMENT) kept.delete(kept.keys().next().value!);
      },
    };
  }

  /** Drops a document's evaluations (closed, or analysed without a baseline). */
  forget(uri: string): void {
    this.byDocument.delete(uri);
  }
}
