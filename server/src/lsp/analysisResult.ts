/**
 * What an analysis gives a document, and the parameter values it was given: the types the
 * analysis scheduler (analysis.ts) and the modules that feed or keep its results share.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ImpactReport } from '../impact/types';
import type { Baseline } from './baseline/baselines';
import type { AnalysedTemplate } from './worker/outline';

/** The outcome of analysing one version of one document. */
export interface AnalysisResult {
  uri: string;
  version: number;
  document: TextDocument;
  /** The text analysed: the document object itself moves on with later edits. */
  text: string;
  /** Whether the content is a CloudFormation template; other YAML/JSON gets no findings at all. */
  isTemplate: boolean;
  /** The template's outline, for hovers and lenses; absent when the template was not analysed. */
  after?: AnalysedTemplate;
  /** Absent when the document has no baseline (only template problems are shown then). */
  report?: ImpactReport;
  baseline?: Baseline;
  /** The parent template whose nested stack passed this template its parameter values, by its name in the workspace. */
  parametersFrom?: string;
  diagnostics: Diagnostic[];
}

/** Parameter values for the new side, or a problem reading the configured file. */
export interface ParameterValues {
  values: Record<string, string>;
  /** Where they came from, for logs: a file path, `stack`, or `defaults`. */
  source: string;
  problem?: string;
  /** Keys that keep the baseline's resolved value (`UsePreviousValue`) where no stack value is known. */
  usePrevious?: string[];
}
