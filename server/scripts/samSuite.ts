/**
 * SAM's translator suite as the derivation scripts read it: each valid input (not `error_*`) that
 * has an expected output, as plain values. The suite is `../shared/sam-translator-tests`, beside
 * the project; a script that needs it stops with the reason when it is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTemplate, toPlain } from '../src/template';

export const SUITE = join(__dirname, '..', '..', '..', 'shared', 'sam-translator-tests');

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonMap = { [key: string]: Json };

/** Whether a JSON value is a map. */
export const isMap = (value: unknown): value is JsonMap => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value with every list sorted (by its items' JSON, each sorted first) and every map's keys in order. */
export function listsSorted(value: Json): Json {
  if (Array.isArray(value)) return value.map((item) => JSON.stringify(listsSorted(item))).sort().map((text) => JSON.parse(text) as Json);
  if (isMap(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, listsSorted(value[key]!)]));
  return value;
}

/** One valid input of the suite, its expected output, and its file name. */
export interface SuiteCase {
  file: string;
  input: JsonMap;
  output: JsonMap;
}

/** The suite's valid inputs with their outputs, in file name order; exits with the reason when the suite is absent. */
export function validSuiteCases(): SuiteCase[] {
  if (!existsSync(SUITE)) {
    console.error(`${SUITE} is absent: nothing to derive from.`);
    process.exit(1);
  }
  const cases: SuiteCase[] = [];
  for (const file of readdirSync(join(SUITE, 'input')).sort()) {
    if (!file.endsWith('.yaml') || file.startsWith('error_')) continue;
    const outputFile = join(SUITE, 'output', file.replace(/\.yaml$/, '.json'));
    if (!existsSync(outputFile)) continue;
    const root = parseTemplate(readFileSync(join(SUITE, 'input', file), 'utf8')).root;
    if (root === undefined) continue;
    cases.push({ file, input: toPlain(root) as JsonMap, output: JSON.parse(readFileSync(outputFile, 'utf8')) as JsonMap });
  }
  return cases;
}
