/**
 * CDK apps in the editor: the source files of an app (a folder holding `cdk.json`) get lenses,
 * hovers and problems at the lines that created changed constructs, from the app's last synth
 * (`cdk.out/`, or the `output` cdk.json names) compared with the baseline
 * `cfnImpact.cdk.baseline` names: `deployed` (each stack against the deployed stack of its name,
 * read-only, when AWS is configured and the workspace trusted) or a folder holding a baseline
 * assembly. The comparison is made once per synth and baseline, and made again when a
 * `manifest.json` changes (the client watches them) or the baseline's stacks are refreshed. It
 * runs on the server's main thread, one stack at a time with other requests answered between
 * two, each template within CloudFormation's 1 MB limit (assemblies/assemblyFolder.ts).
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { readAssemblyFolder } from '../assemblies/assemblyFolder';
import { placementsInFile, type SourcePlacement } from '../cdk/sourcePlacements';
import { compareStack, pairStacks, type StackComparison, type StackSides } from '../cdk/stackComparison';
import type { AnalyzeOptions } from '../impact';
import { loadResourceSpec } from '../spec/load';
import type { DeployedStackSource } from './baseline/baselines';
import type { Logger } from './runSafe';

/** The languages CDK apps are written in that the extension reads: their files hold the construct lines. */
const APP_LANGUAGES = new Set(['typescript', 'javascript', 'typescriptreact', 'javascriptreact', 'python']);

/** How far up from a source file `cdk.json` is looked for. */
const MAX_APP_DEPTH = 12;

/** One CDK app: its folder and where `cdk synth` writes the assembly. */
interface CdkApp {
  folder: string;
  output: string;
}

/** What a source file of an app shows: the app's stacks compared, and where their changes belong in the file. */
export interface AppSourceView {
  app: CdkApp;
  baseline: string;
  stacks: StackComparison[];
  placements: SourcePlacement[];
  /** Why nothing can be compared (no synth yet, no baseline), said once at the top of the file. */
  problem?: string;
}

type Comparison = { ok: true; stacks: StackComparison[] } | { ok: false; message: string };

export interface CdkAppsOptions {
  logger: Logger;
  deployedStacks: () => DeployedStackSource | undefined;
  /** The AWS Regions the user configured, the first used for stacks whose app does not fix one. */
  regions: () => readonly string[];
}

export class CdkApps {
  private readonly apps = new Map<string, CdkApp | null>();
  private readonly comparisons = new Map<string, { key: string; result: Promise<Comparison> }>();
  /** Bumped when deployed stacks may have moved on, so deployed baselines are read again. */
  private deployedGeneration = 0;

  constructor(private readonly options: CdkAppsOptions) {}

  /** Whether a document is a source file of a CDK app. */
  handles(document: TextDocument): boolean {
    return APP_LANGUAGES.has(document.languageId) && this.appOf(document.uri) !== undefined;
  }

  /** The app's comparison and the placements in this document, or undefined when it is not an app's source. */
  async view(document: TextDocument, baselineSetting: string): Promise<AppSourceView | undefined> {
    const app = this.appOf(document.uri);
    if (!app) return undefined;
    const path = fileURLToPath(document.uri);
    const compared = await this.compare(app, baselineSetting);
    const baseline = baselineSetting === 'deployed' ? 'deployed stacks' : baselineSetting;
    if (!compared.ok) return { app, baseline, stacks: [], placements: [], problem: compared.message };
    return { app, baseline, stacks: compared.stacks, placements: placementsInFile(path, document.getText(), compared.stacks, samePathOnce()) };
  }

  /** Deployed stacks may have changed (a deployment ended, the AWS settings changed). */
  refreshDeployed(): void {
    this.deployedGeneration++;
  }

  private appOf(uri: string): CdkApp | undefined {
    if (!uri.startsWith('file:')) return undefined;
    let folder = dirname(fileURLToPath(uri));
    const visited: string[] = [];
    for (let depth = 0; depth < MAX_APP_DEPTH; depth++) {
      const known = this.apps.get(folder);
      if (known !== undefined) return this.remember(visited, known);
      visited.push(folder);
      const config = join(folder, 'cdk.json');
      if (existsSync(config)) return this.remember(visited, { folder, output: outputOf(config) });
      const parent = dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    this.remember(visited, null);
    return undefined;
  }

  private remember(folders: string[], app: CdkApp | null): CdkApp | undefined {
    for (const folder of folders) this.apps.set(folder, app);
    return app ?? undefined;
  }

  private compare(app: CdkApp, baselineSetting: string): Promise<Comparison> {
    const current = join(app.folder, app.output);
    const baselineFolder = baselineSetting === 'deployed' ? undefined : isAbsolute(baselineSetting) ? baselineSetting : resolve(app.folder, baselineSetting);
    const key = [manifestKey(current), baselineSetting, baselineFolder ? manifestKey(baselineFolder) : `deployed#${this.deployedGeneration}`].join('|');
    const cached = this.comparisons.get(app.folder);
    if (cached?.key === key) return cached.result;
    const result = this.compareNow(app, current, baselineFolder).catch((error: unknown): Comparison => {
      this.options.logger.error(`comparing the CDK app in ${app.folder}: ${String(error)}`);
      return { ok: false, message: `The app could not be compared: ${String(error)}` };
    });
    this.comparisons.set(app.folder, { key, result });
    return result;
  }

  private async compareNow(app: CdkApp, current: string, baselineFolder: string | undefined): Promise<Comparison> {
    if (!existsSync(join(current, 'manifest.json'))) return { ok: false, message: `No synthesized app in ${app.output}/: run cdk synth to see what deploying it changes.` };
    const now = readAssemblyFolder(current);
    if (!now.ok) return now;
    const options: AnalyzeOptions = { spec: loadResourceSpec() };
    if (baselineFolder !== undefined) {
      const old = readAssemblyFolder(baselineFolder);
      if (!old.ok) return { ok: false, message: `The baseline assembly cannot be read: ${old.message}` };
      const stacks: StackComparison[] = [];
      for (const sides of pairStacks(old.value, now.value)) {
        stacks.push(compareStack(sides, options));
        // One stack at a time: the server answers other requests between two stacks' analyses.
        await yieldToRequests();
      }
      return { ok: true, stacks };
    }
    const source = this.options.deployedStacks();
    if (!source) return { ok: false, message: 'No baseline: set cfnImpact.cdk.baseline to a folder holding a synthesized assembly, or configure AWS (and trust the workspace) to compare with the deployed stacks.' };
    const stacks: StackComparison[] = [];
    for (const stack of now.value.assembly.stacks) {
      const text = now.value.templates.get(stack.templateFile) ?? '';
      const read = await source.read(stack.stackName, stack.region ?? this.options.regions()[0]);
      if (!read.ok && !read.missing) return { ok: false, message: `${stack.displayName}: ${read.message}` };
      const sides: StackSides = { stack: stack.displayName, stackName: stack.stackName, new: { stack, side: read.ok ? { text, fallbackParameters: read.stack.parameters } : { text } } };
      let stackOptions = options;
      if (read.ok) {
        sides.old = { side: { text: read.stack.templateBody, parameters: read.stack.parameters } };
        stackOptions = { ...options, stackStatus: read.stack.status, region: read.stack.region, ...(read.stack.accountId ? { accountId: read.stack.accountId } : {}), ...(read.stack.drift ? { drift: read.stack.drift } : {}) };
      }
      stacks.push(compareStack(sides, stackOptions));
      await yieldToRequests();
    }
    return { ok: true, stacks };
  }
}

function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The folder `cdk synth` writes to: cdk.json's `output`, else `cdk.out`. */
function outputOf(config: string): string {
  try {
    const parsed = JSON.parse(readFileSync(config, 'utf8')) as { output?: unknown };
    return typeof parsed.output === 'string' && parsed.output.trim() !== '' ? parsed.output : 'cdk.out';
  } catch {
    return 'cdk.out';
  }
}

/** An assembly folder's manifest and when it was written: a new synth is a new key. */
function manifestKey(folder: string): string {
  const manifest = join(folder, 'manifest.json');
  try {
    return `${manifest}@${statSync(manifest).mtimeMs}`;
  } catch {
    return `${manifest}@none`;
  }
}

/**
 * Whether two paths name one file (a trace may name it through a symbolic link), each path
 * resolved at most once per use: a view asks for every changed construct's file.
 */
function samePathOnce(): (a: string, b: string) => boolean {
  const resolved = new Map<string, string | undefined>();
  const real = (path: string) => {
    if (!resolved.has(path)) {
      try {
        resolved.set(path, realpathSync(path));
      } catch {
        resolved.set(path, undefined);
      }
    }
    return resolved.get(path);
  };
  return (a, b) => a === b || (real(a) !== undefined && real(a) === real(b));
}
