/**
 * Reading parameter files in the two forms people already have: `{"Key": "Value"}` and the
 * AWS CLI's `[{"ParameterKey": ..., "ParameterValue": ...}]`.
 */

export type ParameterValues = Record<string, string>;

/** Parameter values read from a file, or the reason they could not be read. */
export type ParameterFileResult = { ok: true; values: ParameterValues; usePrevious: string[] } | { ok: false; error: string };

/** Parses a parameters file's text. Values become CloudFormation's string form; lists are comma-joined. */
export function parseParameterFile(text: string, fileName: string): ParameterFileResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `${fileName}: not valid JSON (${(e as Error).message})` };
  }
  const values: ParameterValues = {};
  const usePrevious: string[] = [];
  if (Array.isArray(data)) {
    for (const [i, item] of data.entries()) {
      if (!item || typeof item !== 'object' || typeof (item as Record<string, unknown>).ParameterKey !== 'string') {
        return { ok: false, error: `${fileName}: item ${i} has no ParameterKey` };
      }
      const entry = item as { ParameterKey: string; ParameterValue?: unknown; UsePreviousValue?: unknown };
      if (entry.UsePreviousValue === true || entry.UsePreviousValue === 'true') usePrevious.push(entry.ParameterKey);
      else if (entry.ParameterValue !== undefined) values[entry.ParameterKey] = toParameterString(entry.ParameterValue);
      else return { ok: false, error: `${fileName}: ${entry.ParameterKey} has neither ParameterValue nor UsePreviousValue` };
    }
    return { ok: true, values, usePrevious };
  }
  if (data && typeof data === 'object') {
    // The CodePipeline/`sam` style `{ "Parameters": { ... } }` wraps the same map.
    const map = 'Parameters' in data && typeof (data as { Parameters: unknown }).Parameters === 'object'
      ? (data as { Parameters: Record<string, unknown> }).Parameters
      : (data as Record<string, unknown>);
    for (const [key, value] of Object.entries(map)) values[key] = toParameterString(value);
    return { ok: true, values, usePrevious };
  }
  return { ok: false, error: `${fileName}: expected an object or an array of {ParameterKey, ParameterValue}` };
}

function toParameterString(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
