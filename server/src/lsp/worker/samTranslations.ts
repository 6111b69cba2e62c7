/**
 * The worker's kept SAM translations: one cache per open document, from its first analysis to its
 * close, so that an edit to one function of a SAM template translates that function again and
 * takes the others from the cache.
 */
import { SamTranslationCache } from '../../sam';

/** SAM translation caches by document. */
export class SamTranslations {
  private readonly byDocument = new Map<string, SamTranslationCache>();

  /** The cache of one document, made on first use. */
  of(uri: string): SamTranslationCache {
    let cache = this.byDocument.get(uri);
    // Each analysis is sent to the main thread before the next begins: nothing here reads an
    // expansion after the next, so the next may move its ranges in place.
    if (!cache) this.byDocument.set(uri, (cache = new SamTranslationCache({ movesInPlace: true })));
    return cache;
  }

  /** Drops a closed document's cache. */
  forget(uri: string): void {
    this.byDocument.delete(uri);
  }
}
