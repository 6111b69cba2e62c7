/**
 * The messages between the language server's main thread and its analysis worker. Everything
 * here survives structured cloning: plain objects, strings, numbers and typed arrays only.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { AnalyzeOptions, ChildTemplate, DeployedChildStack } from '../../impact';
import type { ImpactReport } from '../../impact/types';
import type { OutlineData } from './outline';

/** Parameter values for one side, and whether they apply only to the parameters that side declares. */
export interface SideParameters {
  values: Record<string, string>;
  /** A deployed stack's values carry over only to declared parameters (`UsePreviousValue`). */
  onlyDeclared: boolean;
  /** Parameters that keep the baseline's resolved value (`UsePreviousValue` in a parameters file). */
  usePrevious?: string[];
}

/**
 * Nested stacks' child templates, read ahead by the main thread (the worker reads nothing), by
 * path relative to the document's folder; a path not here is one that was not read.
 */
export interface NestedChildren {
  /** The document's file name, which a child leading back to it names. */
  templatePath: string;
  newChildren: Record<string, ChildTemplate>;
  oldChildren: Record<string, ChildTemplate>;
  /** With a deployed stack as the baseline: the nested stacks it runs, by stack path (the old side of each child). */
  deployedChildren?: Record<string, DeployedChildStack>;
}

/** One side's children in an update: every path the side names, and the reads that changed since the worker last had them. */
export interface ChildTemplatesSide {
  paths: string[];
  changed: Record<string, ChildTemplate>;
}

/**
 * Nested stacks' child templates as they cross to the worker (childTemplatesSent.ts): what
 * changed since the worker last had them. The deployed nested stacks come when they changed;
 * `keepsDeployed` says the worker's copy stands.
 */
export interface ChildTemplatesUpdate {
  templatePath: string;
  newSide: ChildTemplatesSide;
  oldSide: ChildTemplatesSide;
  keepsDeployed: boolean;
  deployedChildren?: Record<string, DeployedChildStack>;
}

/**
 * The parent template of a child opened on its own, read by the main thread: the worker
 * evaluates it on each side and passes its stack resource's `Parameters` to the child.
 */
export interface ParentTemplate {
  /** The parent's file name and the child's path from the parent's folder, `/`-separated. */
  parentPath: string;
  childPath: string;
  text: string;
  parameters: SideParameters;
  /** The parent at its own baseline, passing to the child at the child's baseline. */
  baseline?: { text: string; parameters: SideParameters };
}

/** One document version to analyse. */
export interface AnalysisRequest {
  uri: string;
  version: number;
  languageId: string;
  text: string;
  parameters: SideParameters;
  stackName?: string;
  stackStatus?: string;
  region?: string;
  /** The linked stack's account, from its id. */
  accountId?: string;
  /** What crosses stacks, read with a stack baseline (Maps survive structured cloning). */
  crossStack?: AnalyzeOptions['crossStack'];
  /** The early-validation checks that rejected the linked stack's last operation, read with the baseline. */
  lastOperationFailures?: AnalyzeOptions['lastOperationFailures'];
  /** The linked stack's drift, read with the baseline, and whether to preview REVERT_DRIFT (`cfnImpact.baseline.revertDrift`). */
  drift?: AnalyzeOptions['drift'];
  revertDrift?: boolean;
  /** The parent whose nested stack passes this template its parameter values, when one is chosen. */
  parent?: ParentTemplate;
  /** Child templates of the nested stacks the document names, when it names any. */
  nested?: NestedChildren;
  /** For a SAM template on disk: whether each local artifact path it names is beside it. */
  artifacts?: Record<string, boolean>;
  /** SAM templates reach CloudFormation as written (the `cfnImpact.sam.withoutSamCli` setting). */
  withoutSamCli?: boolean;
  /** Absent when the document has no baseline. */
  baseline?: {
    /** Identifies the baseline text and its parameter values: the worker re-evaluates the baseline only when it changes. */
    key: string;
    text: string;
    parameters: SideParameters;
  };
}

/** What the main thread keeps of one analysis. */
export interface AnalysisReply {
  /** Whether the content is a CloudFormation template; other YAML/JSON gets no findings. */
  isTemplate: boolean;
  diagnostics: Diagnostic[];
  report?: ImpactReport;
  outline?: OutlineData;
  /** With a parent in the request: whether one of its stack resources nests this template (its values were used). */
  parentNests?: boolean;
}

/** A request as it crosses to the worker: its child templates as an update of what the worker holds. */
export type AnalysisMessage = Omit<AnalysisRequest, 'nested'> & { nested?: ChildTemplatesUpdate };

export type ToWorker = { kind: 'analyze'; id: number; request: AnalysisMessage } | { kind: 'forget'; uri: string };

export type FromWorker =
  /** Sent once the worker has loaded the specification (or failed to: `problem`). */
  | { kind: 'ready'; problem?: string }
  | { kind: 'result'; id: number; reply: AnalysisReply }
  /** The engine threw: a bug, reported for this request; the worker keeps serving. */
  | { kind: 'failed'; id: number; message: string };
