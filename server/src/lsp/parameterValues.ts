/**
 * The parameter values an edited template is analysed with when a parameters file is configured
 * for it, including the file's `UsePreviousValue` entries.
 */
import type { ParameterFileResult } from '../evaluate/parameterFile';
import { withPreviousValues } from '../stacks/deployedStack';
import type { ParameterValues } from './analysisResult';

/**
 * The values of a parameters file read from `path`. A key listed with `UsePreviousValue` keeps
 * the deployed stack's current value, so against a linked stack it takes `stackValues[key]`.
 * Without a stack it is passed on as `usePrevious`: the analysis worker gives it the value the
 * baseline resolved to, where the baseline is evaluated.
 */
export function fileParameterValues(read: ParameterFileResult, path: string, stackValues: Record<string, string> | undefined): ParameterValues {
  if (!read.ok) return { values: {}, source: 'defaults', problem: `Parameters file ${path}: ${read.message}; using defaults.` };
  if (read.usePrevious.length === 0) return { values: read.parameters, source: path };
  if (!stackValues) return { values: read.parameters, source: path, usePrevious: read.usePrevious };
  return { values: withPreviousValues(read.parameters, read.usePrevious, stackValues), source: path };
}
