/**
 * The worker's evaluated baselines: one per open document, kept across edits. A document's
 * baseline changes rarely (HEAD moved, another stack chosen) and its key changes with it, so a
 * new key replaces the document's previous evaluation instead of adding to it.
 */
import type { EvaluatedTemplate } from '../../evaluate/types';
import type { BaselineCache } from '../../impact';

/** Evaluated baselines by document, the latest key only. */
export class BaselineEvaluations {
  private readonly byDocument = new Map<string, { key: string; evaluated: EvaluatedTemplate }>();

  /** The cache `analyzeUpdate` keeps one document's baseline in. */
  of(uri: string): BaselineCache {
    return {
      get: (key) => {
        const kept = this.byDocument.get(uri);
        return kept?.key === key ? kept.evaluated : undefined;
      },
      set: (key, evaluated) => {
        this.byDocument.set(uri, { key, evaluated });
      },
    };
  }

  /** Drops a document's baseline (closed, or analysed without one). */
  forget(uri: string): void {
    this.byDocument.delete(uri);
  }
}
