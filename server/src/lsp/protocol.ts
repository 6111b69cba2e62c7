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
  /**
   * For tests and demos only, not a user setting: every stacks watcher interval (running and
   * settled stacks, backoff base) in milliseconds, instead of the defaults of 2–5 s and 90 s.
   */
  stacksPollIntervalMs?: number;
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
  compareChangeSet: 'cfnImpact.compareChangeSet',
  openNestedChild: 'cfnImpact.openNestedChild',
  showImpacts: 'cfnImpact.showImpacts',
  nextImpact: 'cfnImpact.nextImpact',
  previousImpact: 'cfnImpact.previousImpact',
} as const;

/**
 * Arguments of the `cfnImpact.showImpacts` command, on the lens of an edit outside the resources
 * (a parameter's value, a mapping entry, a condition, a Globals value): the resources it changes,
 * where their keys are, to show beside the edit.
 */
export interface ShowImpactsArguments {
  uri: string;
  line: number;
  /** Each changed resource's place: in the document, or in the file `uri` names (a CDK app's synthesized template). */
  locations: { line: number; character: number; uri?: string }[];
}

/** The changed resources of a document, where their keys are, in template order: what *Go to Next Impact* walks. */
export interface ImpactLocations {
  lines: number[];
}

/** Client → server: the lines of a document's changed resources; empty when it is not analysed or changes nothing. */
export const impactLocationsRequest = new RequestType<{ uri: string }, ImpactLocations, void>('cfnImpact/impactLocations');

/**
 * Arguments of the `cfnImpact.openNestedChild` command, on the lens of a nested stack: the child
 * template to open and the parent whose analysis the lens summarises.
 */
export interface OpenNestedChildArguments {
  uri: string;
  parentUri: string;
}

/**
 * Sent by the client before it opens a child from its parent's lens: the child, opened on its
 * own, takes its parameter values from that parent until it is closed.
 */
export interface NestedParent {
  uri: string;
  parentUri: string;
}

export const nestedParentNotification = new NotificationType<NestedParent>('cfnImpact/nestedParent');

/** Arguments of the `cfnImpact.compareChangeSet` command: the document and the change sets of its linked stack. */
export interface CompareChangeSetArguments {
  uri: string;
  changeSets: string[];
}

export interface CompareChangeSetParams {
  uri: string;
  changeSetName: string;
}

/** How a change set compares with the document's prediction, in words; `agrees` is absent when it could not be compared. */
export interface ChangeSetComparisonResult {
  agrees?: boolean;
  /** The verdict, or why there is none. */
  message: string;
  /** One line per resource. */
  lines: string[];
}

/**
 * Client → server: compare a change set of the document's linked stack (DescribeChangeSet,
 * read-only) with the prediction for the document's current version.
 */
export const compareChangeSetRequest = new RequestType<CompareChangeSetParams, ChangeSetComparisonResult, void>('cfnImpact/compareChangeSet');

// ---------------------------------------------------------------------------------------------
// The stacks view. The server owns the watchers (one per configured region) and answers with
// tree nodes that carry words and semantic state, never a look: each client chooses its icons,
// colours and menus from the state. Clients say when the view is visible, since nothing is
// polled while no one looks.

/** What a node of the stacks tree stands for. */
export type StackTreeNodeKind = 'region' | 'stack' | 'resources' | 'events' | 'resource' | 'physical' | 'event' | 'operations' | 'operation' | 'message';

/**
 * Where a stack stands: an operation in progress, or how the last one ended (`complete`,
 * `rolled-back`, `failed`); `in-review` is a stack created by a change set that waits for it to be
 * executed, `deleted` a stack whose life is over.
 */
export type StackTreePhase = 'in-review' | 'in-progress' | 'complete' | 'rolled-back' | 'failed' | 'deleted';

/** What a resource status says: still changing, done, failed, deleted, or removed from the stack but kept (`skipped`). */
export type ResourceStatusKind = 'in-progress' | 'complete' | 'failed' | 'deleted' | 'skipped';

/**
 * Why a message node is there: `reading` before the first answer, `empty` and `no-match` when
 * there is no stack to show, `no-region` when no region is configured, `untrusted` in an untrusted
 * workspace, `read-failed` when a read failed (see `readError`), `client-error` when a client could
 * not get the tree from the server (clients make that node themselves).
 */
export type StacksMessageReason = 'reading' | 'empty' | 'no-match' | 'no-region' | 'untrusted' | 'read-failed' | 'client-error';

/** One node of the stacks tree: its words, what it stands for, and the ids actions need. */
export interface StackTreeNode {
  /** Stable across answers, so that a client keeps expansion and selection. */
  id: string;
  kind: StackTreeNodeKind;
  label: string;
  description?: string;
  /** Lines separated by `\n`, plain text. */
  tooltip?: string;
  /** Whether the node has children and shows them at first. */
  collapsible: 'none' | 'collapsed' | 'expanded';
  /** Region nodes: how many stacks, how many in progress, whether the last read failed. */
  region?: { stacks: number; inProgress: number; readFailed: boolean };
  /** Stack nodes and events about a stack itself. */
  stack?: {
    status: string;
    phase: StackTreePhase;
    /** Resources the stack's last operation could not delete; 0 while it runs and for events. */
    leftBehind: number;
    /** A running operation's progress once its events are read: counts of resources and milliseconds. */
    progress?: { done: number; total: number; inProgress: number; failed: number; elapsedMs: number; etaMs: number; stabilising: number };
    /** Someone follows the stack (its node was opened in a view): its progress is worth a notification. */
    followed?: boolean;
  };
  /** Resource nodes, the physical resources a resource replaced, and events about a resource. */
  resource?: {
    status: string;
    kind: ResourceStatusKind;
    /** The delete of a resource's old physical resource during a cleanup phase, while one is known. */
    cleanup?: { status: string; kind: ResourceStatusKind };
  };
  /** Message nodes. */
  message?: {
    reason: StacksMessageReason;
    /** With `read-failed`: the kind of failure (`throttled`, `expired-credentials`, `access-denied`, …). */
    readError?: string;
  };
  /** What actions need: open the template, copy ids, open the console. */
  data?: {
    region?: string;
    stackId?: string;
    stackName?: string;
    logicalId?: string;
    physicalId?: string;
    consoleUrl?: string;
    /** An operation node's operation, for its timeline. */
    operation?: StackOperationKey;
  };
  children?: StackTreeNode[];
}

export interface StacksTreeParams {
  /** Case-insensitive text a stack's name or status must contain; empty or absent shows all. */
  filter?: string;
}

export interface StacksTree {
  /** Increases with every change the server announced; a client can skip answers older than one it has. */
  version: number;
  /** Regions (or messages when there is nothing to read), each with its stacks as children. */
  nodes: StackTreeNode[];
}

/** Client → server: the whole stacks tree, filtered. */
export const stacksTreeRequest = new RequestType<StacksTreeParams, StacksTree, void>('cfnImpact/stacksTree');

export interface StacksChanged {
  version: number;
}

/** Server → client: the stacks tree changed (at most a few times a second); ask for it again. */
export const stacksChangedNotification = new NotificationType<StacksChanged>('cfnImpact/stacksChanged');

export interface StacksVisibility {
  visible: boolean;
}

/** Client → server: whether the stacks view is visible. While it is not, the server makes no AWS call. */
export const stacksVisibilityNotification = new NotificationType<StacksVisibility>('cfnImpact/stacksVisibility');

export interface StacksFollowParams {
  region: string;
  stackId: string;
  /** True when the stack was expanded: keep its resources and events loaded; false when collapsed. */
  follow: boolean;
}

/** Client → server: a stack was expanded (follow it) or collapsed (stop following it). */
export const stacksFollowNotification = new NotificationType<StacksFollowParams>('cfnImpact/stacksFollow');

/** Client → server: cancel what is in flight and read every region now; answers once that read is done. */
export const stacksRefreshRequest = new RequestType<Record<string, never>, null, void>('cfnImpact/stacksRefresh');

/** A deployment the view watched that just ended. */
export interface DeploymentEnded {
  region: string;
  stackId: string;
  stackName: string;
  /** The final stack status, e.g. `UPDATE_COMPLETE` or `UPDATE_ROLLBACK_COMPLETE`. */
  status: string;
  outcome: 'succeeded' | 'failed';
  reason?: string;
  /**
   * The first failure of the operation (not the later "Resource creation cancelled" ones), or the
   * early-validation check that rejected it (`validation`, status `VALIDATION_FAILED`).
   */
  rootCause?: { logicalId: string; status: string; reason?: string; validation?: { name: string; path?: string } };
  /** Resources CloudFormation could not delete during cleanup and left behind. */
  undeleted: { logicalId: string; physicalId?: string; resourceType: string; reason?: string }[];
  consoleUrl: string;
}

/** Server → client: a deployment seen while watching ended (sent once per operation). */
export const deploymentEndedNotification = new NotificationType<DeploymentEnded>('cfnImpact/deploymentEnded');

export interface DeployedTemplateParams {
  region: string;
  /** The stack's name or id (ARN). */
  stackId: string;
}

export type DeployedTemplate =
  | { ok: true; body: string; language: 'yaml' | 'json' }
  | { ok: false; message: string };

/** Client → server: the template a stack was deployed with (GetTemplate, stage Original). */
export const deployedTemplateRequest = new RequestType<DeployedTemplateParams, DeployedTemplate, void>('cfnImpact/deployedTemplate');

export interface DetectDriftParams {
  region: string;
  stackName: string;
}

/** How a drift detection ended: its verdict in words, or why it could not run. */
export type DetectDriftResult = { ok: true; message: string; drifted: number } | { ok: false; message: string };

/**
 * Client → server: detect the stack's drift (DetectStackDrift, then DescribeStackDriftDetectionStatus
 * until it ends). The one request that starts something in AWS; it changes no resource, only the
 * drift status CloudFormation records, and is refused in an untrusted workspace.
 */
export const detectDriftRequest = new RequestType<DetectDriftParams, DetectDriftResult, void>('cfnImpact/detectDrift');

export interface AwsProfiles {
  /** Profiles of the shared AWS config and credentials files, `default` first, with their regions. */
  profiles: { name: string; region?: string }[];
  /** Regions to offer in the region picker. */
  regions: string[];
}

/** Client → server: the AWS profiles and regions to offer in the pickers (names only, never keys). */
export const awsProfilesRequest = new RequestType<Record<string, never>, AwsProfiles, void>('cfnImpact/awsProfiles');

export interface StackChoice {
  region: string;
  stackName: string;
  status: string;
}

export interface StackChoices {
  stacks: StackChoice[];
  /** Why the list is empty or partial (untrusted workspace, no region, access denied), with the fix. */
  problems: string[];
}

/** Client → server: the stacks of the configured regions that can be linked to a template (one listing call per region). */
export const stackChoicesRequest = new RequestType<Record<string, never>, StackChoices, void>('cfnImpact/stackChoices');

// ---------------------------------------------------------------------------------------------
// The deployment timeline of a stack's current (or last) operation: one bar per resource from its
// first to its last event, in the parts of the operation it took part in. Times are epoch
// milliseconds; every word comes from the server, so a client only lays the data out.

/** A part of an operation: the work it was started for, its rollback, or the cleanup after it. */
export type StackTimelinePart = 'main' | 'rollback' | 'cleanup';

/** One event of a resource. */
export interface StackTimelineEvent {
  timestamp: number;
  /** When it happened, counted from the start of the operation: `+1m 05s`. */
  offset: string;
  status: string;
  kind: ResourceStatusKind;
  part: StackTimelinePart;
  reason?: string;
  physicalId?: string;
  /** This event is the operation's first failure. */
  rootCause?: boolean;
}

/** The stretch of a resource's bar that falls in one part of the operation. */
export interface StackTimelineSpan {
  part: StackTimelinePart;
  start: number;
  /** Absent while the resource is still changing. */
  end?: number;
  /** The status of its last event. */
  status: string;
  kind: ResourceStatusKind;
}

/** One resource's bar. */
export interface StackTimelineRow {
  logicalId: string;
  resourceType: string;
  start: number;
  /** Absent while the resource is still changing. */
  end?: number;
  /** Its outcome: `failed` when any of its events failed. */
  kind: ResourceStatusKind;
  /** The status its outcome is read from. */
  status: string;
  spans: StackTimelineSpan[];
  /** `new`: the physical id it has in this operation; `old`: the one a replacement superseded or the cleanup removed. */
  physicalIds: { old?: string; new?: string };
  replaced: boolean;
  rootCause: boolean;
  /** Removed from the template: all of its events are in the cleanup. */
  cleanup: boolean;
  leftBehind: boolean;
  /** `12s`, or how long it has been running. */
  duration: string;
  /** Its details, one fact a line (plain text). */
  details: string;
  /** Oldest first. */
  events: StackTimelineEvent[];
}

/** The operation as a whole. */
export interface StackTimelineOperation {
  startStatus: string;
  status: string;
  outcome: 'in-progress' | 'succeeded' | 'failed';
  start: number;
  /** Absent while it runs. */
  end?: number;
  /** `UPDATE_IN_PROGRESS → UPDATE_COMPLETE in 2m 00s`. */
  summary: string;
  reason?: string;
  /** The stack's own failure, in words, when no resource is the root cause. */
  rootCause?: string;
  /** The stack's own statuses during the operation, oldest first. */
  parts: { status: string; part: StackTimelinePart; label: string; start: number; end?: number }[];
}

/** The fixed words of the timeline panel. */
export interface StackTimelineLabels {
  showTable: string;
  showTimeline: string;
  resource: string;
  type: string;
  started: string;
  duration: string;
  status: string;
  physicalIds: string;
  events: string;
  time: string;
  part: string;
  reason: string;
  rootCause: string;
  leftBehind: string;
  replaced: string;
  running: string;
  noResources: string;
  selectHint: string;
  /** The label of the chooser of operations. */
  operation: string;
  /** The chooser's entry for the current or last operation, its rollback included. */
  latestOperation: string;
}

export interface StackTimeline {
  region: string;
  stackId: string;
  stackName: string;
  title: string;
  /** The server's clock when it answered: where running bars end. */
  now: number;
  operation: StackTimelineOperation;
  /** Ordered by first event. */
  rows: StackTimelineRow[];
  /** The stack's recent operations, newest first, to switch between. */
  operations: StackTimelineChoice[];
  labels: StackTimelineLabels;
}

/** One of a stack's operations: CloudFormation's operation id, or where events carry none, its start. */
export interface StackOperationKey {
  operationId?: string;
  startedAt: number;
}

/** An operation the timeline panel can switch to. */
export interface StackTimelineChoice {
  operation: StackOperationKey;
  /** `Update · failed · 3 min 10 s · UPDATE_ROLLBACK_COMPLETE`. */
  label: string;
  /** The one shown. */
  selected: boolean;
}

export interface StackTimelineParams {
  region: string;
  /** The stack's id (ARN) or name. */
  stackId: string;
  /** One of its recent operations; absent, the current or last one (with its rollback). */
  operation?: StackOperationKey;
}

/**
 * The timeline, or why there is none (yet): `loading` while the stack's events are being read
 * (ask again on the next `cfnImpact/stacksChanged`), `unavailable` when there is nothing to show.
 */
export type StackTimelineAnswer = { ok: true; timeline: StackTimeline } | { ok: false; state: 'loading' | 'unavailable'; message: string };

/** Client → server: the timeline of a stack's current or last operation. Asking for it keeps the stack's events loaded. */
export const stackTimelineRequest = new RequestType<StackTimelineParams, StackTimelineAnswer, void>('cfnImpact/stackTimeline');
