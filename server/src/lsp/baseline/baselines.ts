/**
 * What "before" means for each open template, and keeping it current.
 *
 * A document's baseline is the one chosen for it (by the client, remembered per workspace), else
 * the stack the settings link it to, else its git HEAD version (or none, by setting). Baselines are
 * read once and kept; a git baseline is read again when HEAD moves. When a baseline cannot be read
 * again, the last one read stays in use and is reported stale: it is never silently swapped.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, posix, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinPath, type AnalyzeOptions, type ChildTemplate, type LastOperationFailure } from '../../impact';
import { CLOUDFORMATION_TEMPLATE_LIMIT_BYTES } from '../../cloudformation/templateLimits';
import type { StackDrift } from '../../cloudformation/drift';
import { readChildFile } from '../childFile';
import type { BaselineChoice, BaselineStatus } from '../protocol';
import type { DeployedNestedStacks } from '../../stacks/deployedNestedStacks';
import type { DeployedStackRead } from '../../stacks/deployedStack';
import type { ChangeSetDescription } from '../../stacks/types';
import { headFingerprint, locateInGit, readAtRevision, type GitLocation } from '../../git/repository';


/** What crosses stacks, as the engine takes it. */
export type CrossStackValues = NonNullable<AnalyzeOptions['crossStack']>;

/** Reads deployed stacks; absent when no AWS access is configured in this server. */
export interface DeployedStackSource {
  read(stackName: string, region: string | undefined): Promise<DeployedStackRead>;
  /** The names of the stack's change sets (ListChangeSets). */
  changeSetNames(stackName: string, region: string | undefined): Promise<{ ok: true; names: string[] } | { ok: false; message: string }>;
  /** One change set of the stack, nested ones included (DescribeChangeSet). */
  changeSet(stackName: string, region: string | undefined, name: string): Promise<{ ok: true; changeSet: ChangeSetDescription } | { ok: false; message: string }>;
}

/** A document's baseline as the analysis uses it. */
export interface Baseline {
  status: BaselineStatus;
  /** The baseline template text; absent when there is none. */
  text?: string;
  /** Parameter values the baseline was deployed with (stack baselines only). */
  parameters?: Record<string, string>;
  /** The stack's status and name (stack baselines only), for the update preconditions. */
  stack?: { name: string; status: string; region?: string; accountId?: string; changeSets: string[] };
  /** What crosses stacks, read with the stack (stack baselines only): imports resolve, exports in use are known. */
  crossStack?: CrossStackValues;
  /** Increases whenever the text or parameters change, so evaluation caches know when to drop. */
  generation: number;
  /**
   * Reads a nested stack's child template from where this baseline came from, by its path
   * relative to the baseline's folder: the file at the same commit for git, the file next to a
   * file baseline. Absent for a stack baseline (its nested stacks are `deployedNested`).
   */
  readChild?: (path: string) => Promise<ChildTemplate>;
  /** The nested stacks a deployed stack runs, by stack path (stack baselines only): the old side of its children. */
  deployedNested?: DeployedNestedStacks;
  /** The early-validation checks that rejected the stack's last operation (stack baselines only). */
  lastOperationFailures?: LastOperationFailure[];
  /** The stack's drift as its last detection found it (stack baselines only). */
  drift?: StackDrift;
}

interface Entry {
  choiceKey: string;
  baseline?: Baseline;
  loading?: Promise<Baseline>;
  git?: { location: GitLocation; ref: string; fingerprint: string };
}

export interface BaselineManagerOptions {
  /** False in an untrusted workspace: no git commands, no AWS calls. */
  isTrusted(): boolean;
  /** Called when a baseline changed by itself (HEAD moved, a refresh failed), so the document is analysed again. */
  onChanged(uri: string): void;
  /** Called whenever a document's baseline status changes. */
  onStatus(status: BaselineStatus): void;
  stacks?: DeployedStackSource;
}

let generations = 0;

/** Keeps the baseline of every open template. */
export class BaselineManager {
  private readonly entries = new Map<string, Entry>();
  private readonly chosen = new Map<string, BaselineChoice>();
  private readonly lastStatus = new Map<string, string>();
  private stacks: DeployedStackSource | undefined;

  constructor(private readonly options: BaselineManagerOptions) {
    this.stacks = options.stacks;
  }

  /** Sets or replaces how deployed stacks are read (AWS settings changed). */
  setStackSource(stacks: DeployedStackSource | undefined): void {
    this.stacks = stacks;
  }

  /** Remembers the baseline chosen for a document; `default` forgets the choice. */
  choose(uri: string, choice: BaselineChoice): void {
    if (choice.kind === 'default') this.chosen.delete(uri);
    else this.chosen.set(uri, choice);
  }

  /** The baseline chosen explicitly for a document, if any. */
  choiceOf(uri: string): BaselineChoice | undefined {
    return this.chosen.get(uri);
  }

  /**
   * The document's baseline for the given effective choice; reads it when the choice changed,
   * else answers from memory without any I/O.
   */
  resolve(uri: string, choice: BaselineChoice): Promise<Baseline> {
    const choiceKey = `${this.options.isTrusted() ? 't' : 'u'}|${JSON.stringify(choice)}`;
    let entry = this.entries.get(uri);
    if (entry && entry.choiceKey === choiceKey) {
      if (entry.loading) return entry.loading;
      if (entry.baseline) return Promise.resolve(entry.baseline);
    }
    const previous = entry?.choiceKey === choiceKey ? entry.baseline : undefined;
    entry = { choiceKey, baseline: previous };
    this.entries.set(uri, entry);
    return this.load(uri, entry, choice);
  }

  /** The last baseline read for a document, without reading anything. */
  current(uri: string): Baseline | undefined {
    return this.entries.get(uri)?.baseline;
  }

  /** Forgets what was read for a document (closed, saved while untracked, or settings changed). */
  invalidate(uri: string): void {
    this.entries.delete(uri);
  }

  /**
   * Reads a document's baseline again (after a save, or on request), keeping the previous one
   * as stale when the read fails; re-analyses the document when the baseline changed.
   */
  async refresh(uri: string): Promise<void> {
    const entry = this.entries.get(uri);
    if (!entry || entry.loading) return;
    const before = entry.baseline;
    if (entry.git) entry.git.fingerprint = await headFingerprint(entry.git.location);
    const after = await this.reload(uri, entry);
    if (after.text !== before?.text || after.status.state !== before?.status.state || after.parameters !== before?.parameters) this.options.onChanged(uri);
  }

  /**
   * Reads again the baselines that are this deployed stack (an operation of it just ended): what
   * it runs, and what its last operation says, may have changed.
   */
  async refreshStack(stackName: string, region: string): Promise<void> {
    const uris = [...this.entries].filter(([, entry]) => entry.baseline?.stack?.name === stackName && (entry.baseline.stack.region ?? region) === region).map(([uri]) => uri);
    await Promise.all(uris.map((uri) => this.refresh(uri)));
  }

  /** Forgets everything read (trust or AWS settings changed). */
  invalidateAll(): void {
    this.entries.clear();
  }

  /** Drops a closed document's baseline and status. */
  forget(uri: string): void {
    this.entries.delete(uri);
    this.lastStatus.delete(uri);
  }

  /**
   * Looks (by file metadata only) whether HEAD moved in the repositories of open documents and
   * re-reads their git baselines when it did.
   */
  async checkGitHeads(): Promise<void> {
    for (const [uri, entry] of this.entries) {
      if (!entry.git || entry.loading || !this.options.isTrusted()) continue;
      const fingerprint = await headFingerprint(entry.git.location);
      if (fingerprint === entry.git.fingerprint || this.entries.get(uri) !== entry) continue;
      entry.git.fingerprint = fingerprint;
      const before = entry.baseline;
      const after = await this.reload(uri, entry);
      if (after.text !== before?.text || after.status.state !== before?.status.state) this.options.onChanged(uri);
    }
  }

  private reload(uri: string, entry: Entry): Promise<Baseline> {
    const choice = JSON.parse(entry.choiceKey.slice(2)) as BaselineChoice;
    return this.load(uri, entry, choice);
  }

  private load(uri: string, entry: Entry, choice: BaselineChoice): Promise<Baseline> {
    const loading = this.read(uri, entry, choice)
      .catch((error: unknown): Baseline => this.failed(uri, entry, 'none', 'baseline', `could not read the baseline: ${String(error)}`))
      .then((baseline) => {
        if (this.entries.get(uri) === entry) {
          entry.baseline = baseline;
          entry.loading = undefined;
          this.publish(baseline.status);
        }
        return baseline;
      });
    entry.loading = loading;
    return loading;
  }

  private async read(uri: string, entry: Entry, choice: BaselineChoice): Promise<Baseline> {
    if (choice.kind === 'none' || choice.kind === 'default') {
      return this.none(uri, 'none', 'none', 'No baseline chosen: only template problems are shown.');
    }
    if (choice.kind === 'file') return this.readFileBaseline(uri, entry, choice.path);
    if (!this.options.isTrusted()) {
      return this.none(uri, choice.kind, choice.kind === 'git' ? choice.ref : `stack ${choice.stackName}`, 'The workspace is not trusted: no git commands or AWS calls are made.');
    }
    if (choice.kind === 'git') return this.readGitBaseline(uri, entry, choice.ref);
    return this.readStackBaseline(uri, entry, choice.stackName, choice.region);
  }

  private async readGitBaseline(uri: string, entry: Entry, ref: string): Promise<Baseline> {
    const path = filePathOf(uri);
    if (!path) return this.none(uri, 'git', ref, 'Not a file on disk: no git baseline.');
    const location = entry.git?.location ?? (await this.locate(path));
    if (typeof location === 'string' || location === undefined) {
      return location === undefined ? this.none(uri, 'git', ref, 'Not tracked by git: no baseline.') : this.failed(uri, entry, 'git', ref, location);
    }
    const fingerprint = entry.git?.fingerprint ?? (await headFingerprint(location));
    entry.git = { location, ref, fingerprint };
    const read = await readAtRevision(location, ref);
    switch (read.kind) {
      case 'ok':
        if (entry.baseline?.text === read.text && entry.baseline.status.state === 'ok' && entry.baseline.status.revision === read.commit.slice(0, 12)) {
          return entry.baseline;
        }
        return {
          status: { uri, kind: 'git', state: 'ok', label: ref, revision: read.commit.slice(0, 12), detail: `${location.pathInRepo} at ${ref} (${read.commit.slice(0, 12)})` },
          text: read.text,
          generation: ++generations,
          readChild: gitChildReader(location, read.commit),
        };
      case 'missing-at-revision':
        return this.none(uri, 'git', `${ref} (new file)`, `${location.pathInRepo} is not in ${ref} yet: a new file has no baseline.`);
      case 'bad-revision':
        return this.failed(uri, entry, 'git', ref, read.message);
      default:
        return this.failed(uri, entry, 'git', ref, read.message);
    }
  }

  /** Finds the file in git; a string is an error message, undefined means untracked. */
  private async locate(path: string): Promise<GitLocation | string | undefined> {
    const lookup = await locateInGit(path);
    switch (lookup.kind) {
      case 'tracked':
        return lookup.location;
      case 'untracked':
      case 'no-repository':
        return undefined;
      default:
        return lookup.message;
    }
  }

  private async readFileBaseline(uri: string, entry: Entry, target: string): Promise<Baseline> {
    const documentPath = filePathOf(uri);
    const path = target.startsWith('file:') ? filePathOf(target) : isAbsolute(target) ? target : documentPath ? resolvePath(dirname(documentPath), target) : undefined;
    const label = basename(path ?? target);
    if (!path) return this.failed(uri, entry, 'file', label, `cannot resolve ${target}`);
    try {
      const text = await readFile(path, 'utf8');
      if (entry.baseline?.text === text && entry.baseline.status.state === 'ok') return entry.baseline;
      return { status: { uri, kind: 'file', state: 'ok', label, detail: path }, text, generation: ++generations, readChild: (child) => readChildFile(resolvePath(dirname(path), child)) };
    } catch (error) {
      return this.failed(uri, entry, 'file', label, `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }

  private async readStackBaseline(uri: string, entry: Entry, stackName: string, region: string | undefined): Promise<Baseline> {
    const label = `stack ${stackName}`;
    if (!this.stacks) return this.failed(uri, entry, 'stack', label, 'AWS access is not configured in this language server.');
    const read = await this.stacks.read(stackName, region);
    if (!read.ok) return this.failed(uri, entry, 'stack', label, read.message);
    const { stack } = read;
    // The stack's change sets are offered for comparison; a reader the policy does not allow
    // ListChangeSets simply offers none.
    const listed = await this.stacks.changeSetNames(stackName, region);
    const changeSets = listed.ok ? listed.names : [];
    const previous = entry.baseline;
    if (
      previous?.text === stack.templateBody &&
      previous.status.state === 'ok' &&
      previous.status.revision === stack.status &&
      sameValues(previous.parameters, stack.parameters) &&
      crossStackKey(previous.crossStack) === crossStackKey(stack.crossStack) &&
      JSON.stringify(previous.deployedNested) === JSON.stringify(stack.nested) &&
      JSON.stringify(previous.lastOperationFailures) === JSON.stringify(stack.lastOperationFailures) &&
      driftKey(previous.drift) === driftKey(stack.drift)
    ) {
      return previous.stack && sameNames(previous.stack.changeSets, changeSets) ? previous : { ...previous, stack: { name: stack.stackName, status: stack.status, region: stack.region, ...(stack.accountId !== undefined ? { accountId: stack.accountId } : {}), changeSets } };
    }
    return {
      status: { uri, kind: 'stack', state: 'ok', label, revision: stack.status, detail: `deployed template of ${stack.stackName}${stack.region ? ` in ${stack.region}` : ''} (${stack.status})` },
      text: stack.templateBody,
      parameters: stack.parameters,
      stack: { name: stack.stackName, status: stack.status, region: stack.region, ...(stack.accountId !== undefined ? { accountId: stack.accountId } : {}), changeSets },
      ...(stack.crossStack ? { crossStack: stack.crossStack } : {}),
      ...(stack.nested ? { deployedNested: stack.nested } : {}),
      ...(stack.lastOperationFailures ? { lastOperationFailures: stack.lastOperationFailures } : {}),
      ...(stack.drift ? { drift: stack.drift } : {}),
      generation: ++generations,
    };
  }

  /** Reads a change set of the stack a document's baseline is; a failure is a message. */
  async changeSetOf(uri: string, name: string): Promise<{ ok: true; changeSet: ChangeSetDescription } | { ok: false; message: string }> {
    const stack = this.entries.get(uri)?.baseline?.stack;
    if (!stack) return { ok: false, message: 'The template is not compared with a deployed stack.' };
    if (!this.options.isTrusted() || !this.stacks) return { ok: false, message: 'AWS access is not configured in this language server.' };
    return this.stacks.changeSet(stack.name, stack.region, name);
  }

  private none(uri: string, kind: BaselineStatus['kind'], label: string, detail: string): Baseline {
    return { status: { uri, kind: kind === 'git' || kind === 'file' || kind === 'stack' ? kind : 'none', state: 'none', label, detail }, generation: 0 };
  }

  /** A failed read: keep what was read before (stale) or report the baseline unreachable. */
  private failed(uri: string, entry: Entry, kind: BaselineStatus['kind'], label: string, message: string): Baseline {
    const previous = entry.baseline;
    if (previous?.text !== undefined && previous.status.kind === kind) {
      return { ...previous, status: { ...previous.status, state: 'stale', detail: `Could not refresh (${message}); using the version read at ${previous.status.revision ?? 'the last read'}.` } };
    }
    return { status: { uri, kind, state: 'unreachable', label, detail: message }, generation: 0 };
  }

  private publish(status: BaselineStatus): void {
    const key = JSON.stringify(status);
    if (this.lastStatus.get(status.uri) === key) return;
    this.lastStatus.set(status.uri, key);
    this.options.onStatus(status);
  }
}

/**
 * Reads child templates at the baseline's commit (the commit, not the ref, so that a child is read
 * as of the same moment as its parent), each once per baseline: a git baseline is a new object
 * whenever its commit changes, so no keystroke starts a git process for a child already read.
 */
function gitChildReader(location: GitLocation, commit: string): (path: string) => Promise<ChildTemplate> {
  const read = new Map<string, Promise<ChildTemplate>>();
  const folder = posix.dirname(location.pathInRepo);
  return (path) => {
    let child = read.get(path);
    if (!child) {
      const pathInRepo = joinPath(folder === '.' ? '' : folder, path);
      // A path outside the repository is not at any commit of it.
      child = pathInRepo.startsWith('..') || pathInRepo.startsWith('/') ? Promise.resolve({ problem: 'missing' as const }) : readChildAt({ ...location, pathInRepo }, commit);
      read.set(path, child);
    }
    return child;
  };
}

async function readChildAt(location: GitLocation, commit: string): Promise<ChildTemplate> {
  const read = await readAtRevision(location, commit);
  if (read.kind === 'ok') return read.text.length > CLOUDFORMATION_TEMPLATE_LIMIT_BYTES ? { problem: 'too-large' } : { text: read.text };
  return { problem: read.kind === 'missing-at-revision' ? 'missing' : 'unreadable' };
}

/** The file system path of a `file:` URI, else undefined (untitled documents, remote schemes). */
export function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function sameValues(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  if (!a) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Cross-stack values as one comparable text: a baseline is read again only when they differ. */
function crossStackKey(values: CrossStackValues | undefined): string {
  if (!values) return '';
  const entries = (map: ReadonlyMap<string, unknown> | undefined) => [...(map ?? new Map<string, unknown>()).entries()];
  const outputs = entries(values.stackOutputs).map(([stack, outputs]) => [stack, entries(outputs as ReadonlyMap<string, string>)]);
  return JSON.stringify([entries(values.exports), outputs, entries(values.importsByExport)]);
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** A drift read's identity: a new detection (or a resource updated since) is a new baseline. */
function driftKey(drift: StackDrift | undefined): string {
  return drift ? JSON.stringify([drift.status, drift.checkedAt, [...drift.resources.values()]]) : '';
}
