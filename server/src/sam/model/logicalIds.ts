/**
 * SAM's logical ids for generated resources (samtranslator/translator/logical_id_generator.py):
 * a prefix followed by the first 10 hex digits of the SHA-1 of the data that must force a new
 * resource when it changes: a function's code for its `Version`, a layer's properties for its
 * `LayerVersion`, an API's definition for its `Deployment`. A string is hashed as it is; anything
 * else as Python's compact, key-sorted JSON.
 */
import { pythonJsonDumps } from '../python/pythonJson';
import { sha1Hex } from '../python/sha1';

/** How many hex digits of the digest SAM appends to a prefix. */
export const LOGICAL_ID_HASH_LENGTH = 10;

/** The SHA-1 (40 hex digits) SAM computes for `data`, or '' for empty data (falsy in Python). */
export function dataHash(data: unknown): string {
  if (isEmpty(data)) return '';
  return sha1Hex(typeof data === 'string' ? data : pythonJsonDumps(data));
}

/** `LogicalIdGenerator(prefix, data, data_hash).gen()`: the prefix and 10 digits of the hash (a given hash wins). */
export function generateLogicalId(prefix: string, data: unknown, givenHash?: string): string {
  if (givenHash) return prefix + givenHash.slice(0, LOGICAL_ID_HASH_LENGTH);
  return prefix + dataHash(data).slice(0, LOGICAL_ID_HASH_LENGTH);
}

/** Python's truthiness for the data a generator is given: empty strings, lists and dicts hash to nothing. */
function isEmpty(data: unknown): boolean {
  if (data === undefined || data === null || data === false || data === 0 || data === '') return true;
  if (Array.isArray(data)) return data.length === 0;
  return typeof data === 'object' && Object.keys(data).length === 0;
}
