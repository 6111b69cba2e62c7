/**
 * Every custom message between the language server and its clients, declared once.
 *
 * The server and the VS Code client both import this module, so a change of shape is a
 * compile error on both sides. Everything here is plain data that any LSP client can send
 * or receive; nothing requires VS Code.
 */
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';

/** What "before" means for one template. */
export type BaselineChoice =
  /** Whatever the settings and the defaults give: a linked stack, else git HEAD (when `cfnImpact.baseline.default` is `git`). */
  | { kind: 'default' }
  /** No baseline: only template problems are reported. */
  | { kind: 'none' }
  /** The file's content at a git revision (`HEAD`, a branch, a tag or a commit id). */
  | { kind: 'git'; ref: string }
  /** Another file on disk (an absolute path or a `file:` URI). */
  | { kind: 'file'; path: string }
  /** A deployed stack: its original template and its current parameter values. */
  | { kind: 'stack'; stackName: string; region?: string };

/**
 * The state of a document's baseline:
 * `ok` it was read; `none` there is none (untracked file, `none` chosen, untrusted workspace);
 * `loading` it is being read; `stale` it could not be refreshed, the last one read is still used;
 * `unreachable` it could not be read at all.
 */
export type BaselineState = 'ok' | 'none' | 'loading' | 'stale' | 'unreachable';

export interface BaselineStatus {
  /** The template document this status is about. */
  uri: string;
  kind: 'git' | 'file' | 'stack' | 'none';
  state: BaselineState;
  /** A short label for a status bar: `HEAD`, `main`, `stack my-stack`, `params.json`. */
  label: string;
  /** One sentence for a person: why there is no baseline, what failed, what it was read from. */
  detail?: string;
  /** The git commit id, or the stack's status, the baseline was read at. */
  revision?: string;
}

/** Server → client: a document's baseline changed state. */
export const baselineStatusNotification = new NotificationType<BaselineStatus>('cfnImpact/baselineStatus');

export interface ChooseBaselineParams {
  uri: string;
  choice: BaselineChoice;
}

/**
 * Client → server: use this baseline for this document from now on (link a stack, pick a git ref
 * or file, go back to the default). Answers with the new status once the baseline was read.
 */
export const chooseBaselineRequest = new RequestType<ChooseBaselineParams, BaselineStatus | null, void>('cfnImpact/chooseBaseline');

export interface BaselineTextParams {
  uri: string;
}

export interface BaselineText {
  text: string;
  /** Same as the status label, for a diff editor's title. */
  label: string;
}

/** Client → server: the baseline text of a document (for a diff view); null when it has none. */
export const baselineTextRequest = new RequestType<BaselineTextParams, BaselineText | null, void>('cfnImpact/baselineText');

/** Where signed AWS requests go. Clients must take these from user or machine settings only. */
export interface AwsSettings {
  profile?: string;
  regions?: string[];
  endpoint?: string;
}

/** What the client knows about the environment that the server must obey. */
export interface ServerEnvironment {
  /** False in an untrusted workspace: the server then runs no git command and makes no AWS call. */
  trusted: boolean;
  aws: AwsSettings;
}

/** Client → server: the trust or the AWS settings changed. */
export const environmentNotification = new NotificationType<ServerEnvironment>('cfnImpact/environment');

/** What a client may pass in `initializationOptions`; every field is optional. */
export interface InitializationOptions {
  environment?: Partial<ServerEnvironment>;
  /** Baselines chosen earlier, by document URI (the VS Code client keeps them per workspace). */
  baselines?: Record<string, BaselineChoice>;
}

/** Arguments of the `cfnImpact.openDiff` command that code lenses carry. */
export interface OpenDiffArguments {
  uri: string;
  /** Zero-based line to reveal in the diff. */
  line?: number;
}

/** Command ids the server puts into code lenses; the client registers them. */
export const commands = {
  openDiff: 'cfnImpact.openDiff',
  chooseBaseline: 'cfnImpact.chooseBaseline',
} as const;
