/**
 * The parameter values an edited template is analysed with when a parameters file is configured
 * for it, including the file's `UsePreviousValue` entries.
 */
import type { ParameterFileResult } from '../evaluate/parameterFile';
import type { ParameterValues } from './analysis';

/**
 * The values of a parameters file read from `path`. A key listed with `UsePreviousValue` keeps
 * the deployed stack's current value, so against a linked stack it takes `stackValues[key]`.
 * Without a stack it is left out: it takes the edited template's default, which is right as long
 * as the baseline's default is the same (the baseline's resolved value is known only where the
 * baseline is evaluated, in the analysis worker).
 */
export function fileParameterValues(read: ParameterFileResult, path: string, stackValues: Record<string, string> | undefined): ParameterValues {
  if (!read.ok) return { values: {}, source: 'defaults', problem: `Parameters file ${path}: ${read.message}; using defaults.` };
  if (!stackValues || read.usePrevious.length === 0) return { values: read.parameters, source: path };
  const values = { ...read.parameters };
  for (const key of read.usePrevious) {
    if (Object.hasOwn(stackValues, key)) values[key] = stackValues[key];
  }
  return { values, source: path };
}
