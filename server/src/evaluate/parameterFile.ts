/**
 * Parameter values files, in the three shapes people keep next to templates:
 * the CLI's `[{"ParameterKey": "K", "ParameterValue": "V"}]`, CodePipeline's template
 * configuration `{"Parameters": {"K": "V"}}`, and a plain `{"K": "V"}` map (JSON or YAML).
 */
import { parse as parseYaml } from 'yaml';

export type ParameterFileResult =
  | {
      ok: true;
      parameters: Record<string, string>;
      /** Keys listed with `UsePreviousValue: true`: the deployed stack's value applies. */
      usePrevious: string[];
    }
  | { ok: false; message: string };

/** Reads parameter values (as CloudFormation's wire strings) from a parameters file's text. */
export function readParameterFile(text: string): ParameterFileResult {
  let data: unknown;
  try {
    data = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    return { ok: false, message: `not valid JSON or YAML: ${(error as Error).message.split('\n', 1)[0]}` };
  }
  const parameters: Record<string, string> = {};
  const usePrevious: string[] = [];
  if (Array.isArray(data)) {
    for (const entry of data) {
      if (!isRecord(entry) || typeof entry.ParameterKey !== 'string') {
        return { ok: false, message: 'each list entry must have a ParameterKey' };
      }
      // `UsePreviousValue` entries carry no value: the stack's current value applies.
      if (entry.UsePreviousValue === true || entry.UsePreviousValue === 'true') {
        usePrevious.push(entry.ParameterKey);
        continue;
      }
      const value = wireValue(entry.ParameterValue);
      if (value !== undefined) parameters[entry.ParameterKey] = value;
    }
    return { ok: true, parameters, usePrevious };
  }
  if (!isRecord(data)) return { ok: false, message: 'expected a list of ParameterKey/ParameterValue or a map of values' };
  const source = isRecord(data.Parameters) ? data.Parameters : data;
  for (const [key, raw] of Object.entries(source)) {
    const value = wireValue(raw);
    if (value !== undefined) parameters[key] = value;
  }
  return { ok: true, parameters, usePrevious };
}

/** CloudFormation takes every parameter as a string; lists become CommaDelimitedList strings. */
function wireValue(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (Array.isArray(raw) && raw.every((item) => typeof item === 'string' || typeof item === 'number')) return raw.join(',');
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
