/**
 * The CloudFormation Impact language server: `node dist/server.js --stdio` (or `--node-ipc`,
 * `--socket=N`), usable from any LSP editor. Thin glue: documents in, the engine's findings out
 * as diagnostics, code lenses and hovers; baselines read from git, files or deployed stacks.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve as resolvePath, sep } from 'node:path';
import {
  CodeLensRefreshRequest,
  createConnection,
  DidChangeConfigurationNotification,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
  type WorkspaceFolder,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loadResourceSpec } from '../spec/load';
import type { ResourceSpec } from '../spec/types';
import { Analyzer, type ParameterValues } from './analysis';
import { BaselineManager, filePathOf, type Baseline } from './baseline/baselines';
import { createDeployedStackSource } from './baseline/stackSource';
import { buildCodeLenses, noBaselineLens } from './codeLens';
import { lookupByGlob } from './glob';
import { buildHover } from './hover';
import { readParameterFile, type ParameterFileResult } from '../evaluate/parameterFile';
import { fileParameterValues } from './parameterValues';
import {
  awsProfilesRequest,
  stackChoicesRequest,
  baselineStatusNotification,
  baselineTextRequest,
  chooseBaselineRequest,
  deployedTemplateRequest,
  deploymentEndedNotification,
  environmentNotification,
  stacksChangedNotification,
  stacksFollowNotification,
  stacksRefreshRequest,
  stacksTreeRequest,
  stacksVisibilityNotification,
  type BaselineChoice,
  type InitializationOptions,
  type ServerEnvironment,
} from './protocol';
import { describeError, runSafe, runSafeNotification, type Logger } from './runSafe';
import { defaultSettings, readDocumentSettings, type DocumentSettings } from './settings';
import { StacksService } from './stacksService';
import { AWS_REGIONS, readAwsProfiles } from '../stacks/awsProfiles';

/** How often open documents' repositories are checked for a moved HEAD (file metadata only). */
const gitHeadCheckMs = 3000;

function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const logger: Logger = {
    error: (message) => connection.console.error(message),
    info: (message) => connection.console.info(message),
  };

  let environment: ServerEnvironment = { trusted: true, aws: {} };
  let workspaceFolders: string[] = [];
  let canPullConfiguration = false;
  let canRefreshLenses = false;
  let canWatchWorkspaceFolders = false;
  let spec: ResourceSpec | undefined;
  let stackSource: ReturnType<typeof createDeployedStackSource> | undefined;
  const settingsCache = new Map<string, Promise<DocumentSettings>>();
  const parameterFiles = new Map<string, { mtimeMs: number; read: ParameterFileResult }>();
  let stacks: StacksService | undefined;

  const baselines = new BaselineManager({
    isTrusted: () => environment.trusted,
    onChanged: (uri) => analyzer.schedule(uri, 0, 'refresh'),
    onStatus: (status) => void connection.sendNotification(baselineStatusNotification, status),
  });

  const analyzer: Analyzer = new Analyzer({
    getDocument: (uri) => documents.get(uri),
    settingsFor,
    baselineFor: (uri, settings) => baselines.resolve(uri, effectiveChoice(uri, settings)),
    parametersFor,
    publish: (uri, version, diagnostics) => void connection.sendDiagnostics({ uri, version, diagnostics }),
    refreshed: () => {
      if (canRefreshLenses) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
    },
    logger,
  });

  /** The document's settings, asked of the client once and kept until they change. */
  function settingsFor(uri: string): Promise<DocumentSettings> {
    let cached = settingsCache.get(uri);
    if (!cached) {
      cached = canPullConfiguration
        ? connection.workspace.getConfiguration({ scopeUri: uri, section: 'cfnImpact' }).then(readDocumentSettings, (error: unknown) => {
            logger.error(`reading settings failed: ${describeError(error)}`);
            return defaultSettings;
          })
        : Promise.resolve(defaultSettings);
      settingsCache.set(uri, cached);
    }
    return cached;
  }

  /** What "before" is for a document: the chosen baseline, else the linked stack, else the default. */
  function effectiveChoice(uri: string, settings: DocumentSettings): BaselineChoice {
    const chosen = baselines.choiceOf(uri);
    if (chosen) return chosen;
    const linked = lookupByGlob(settings.links, workspaceRelativePath(uri));
    if (linked) return { kind: 'stack', stackName: linked };
    return settings.defaultBaseline === 'git' ? { kind: 'git', ref: 'HEAD' } : { kind: 'none' };
  }

  /** Parameter values for the edited template: the configured file, else the stack's values, else defaults. */
  async function parametersFor(uri: string, settings: DocumentSettings, baseline: Baseline): Promise<ParameterValues> {
    const configured = lookupByGlob(settings.parameterFiles, workspaceRelativePath(uri));
    if (configured) {
      const folder = workspaceFolderOf(uri) ?? dirname(filePathOf(uri) ?? '.');
      const path = isAbsolute(configured) ? configured : resolvePath(folder, configured);
      return fileParameterValues(await readParametersFile(path), path, baseline.parameters);
    }
    if (baseline.parameters) return { values: baseline.parameters, source: 'stack' };
    return { values: {}, source: 'defaults' };
  }

  /** Reads a parameters file, again only when it changed on disk. */
  async function readParametersFile(path: string): Promise<ParameterFileResult> {
    try {
      const info = await stat(path);
      const cached = parameterFiles.get(path);
      if (cached && cached.mtimeMs === info.mtimeMs) return cached.read;
      const read = readParameterFile(await readFile(path, 'utf8'));
      parameterFiles.set(path, { mtimeMs: info.mtimeMs, read });
      return read;
    } catch (error) {
      return { ok: false, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }

  function workspaceFolderOf(uri: string): string | undefined {
    const path = filePathOf(uri);
    if (!path) return undefined;
    let best: string | undefined;
    for (const folder of workspaceFolders) {
      if ((path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep)) && (!best || folder.length > best.length)) best = folder;
    }
    return best;
  }

  /** The document's path relative to its workspace folder (forward slashes), which setting globs match. */
  function workspaceRelativePath(uri: string): string {
    const path = filePathOf(uri);
    if (!path) return uri;
    const folder = workspaceFolderOf(uri);
    return (folder ? relative(folder, path) : path).split(sep).join('/');
  }

  function debounceFor(uri: string): Promise<number> {
    return settingsFor(uri).then((settings) => settings.debounceMs);
  }

  function reanalyseAll(): void {
    for (const document of documents.all()) analyzer.schedule(document.uri, 0, 'refresh');
  }

  function applyEnvironment(next: Partial<ServerEnvironment> | undefined): void {
    environment = { trusted: next?.trusted ?? environment.trusted, aws: next?.aws ?? environment.aws };
    stackSource?.dispose();
    stackSource = createDeployedStackSource(environment.aws);
    baselines.setStackSource(stackSource);
    stacks?.configure(environment);
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const options = (params.initializationOptions ?? {}) as InitializationOptions;
    stacks = new StacksService({
      logger,
      onChanged: (version) => void connection.sendNotification(stacksChangedNotification, { version }).catch(() => undefined),
      onDeploymentEnded: (ended) => void connection.sendNotification(deploymentEndedNotification, ended).catch(() => undefined),
      ...(typeof options.stacksPollIntervalMs === 'number' ? { pollIntervalMs: options.stacksPollIntervalMs } : {}),
    });
    applyEnvironment(options.environment);
    for (const [uri, choice] of Object.entries(options.baselines ?? {})) baselines.choose(uri, choice);
    workspaceFolders = foldersOf(params.workspaceFolders ?? undefined, params.rootUri ?? undefined);
    canPullConfiguration = params.capabilities?.workspace?.configuration === true;
    canRefreshLenses = params.capabilities?.workspace?.codeLens?.refreshSupport === true;
    canWatchWorkspaceFolders = params.capabilities?.workspace?.workspaceFolders === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeLensProvider: { resolveProvider: false },
        hoverProvider: true,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'cfn-impact', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (canPullConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'cfnImpact' }).catch(() => undefined);
    if (canWatchWorkspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) =>
        runSafeNotification(logger, 'workspace folders', () => {
          const removed = new Set(foldersOf(event.removed, undefined));
          workspaceFolders = [...workspaceFolders.filter((folder) => !removed.has(folder)), ...foldersOf(event.added, undefined)];
          settingsCache.clear();
          reanalyseAll();
        }),
      );
    }
    const timer = setInterval(() => {
      if (environment.trusted) baselines.checkGitHeads().catch((error: unknown) => logger.error(`git HEAD check failed: ${describeError(error)}`));
    }, gitHeadCheckMs);
    timer.unref();
    connection.onShutdown(() => {
      clearInterval(timer);
      analyzer.dispose();
      stacks?.dispose();
    });
  });

  connection.onDidChangeConfiguration(() =>
    runSafeNotification(logger, 'configuration change', () => {
      settingsCache.clear();
      parameterFiles.clear();
      baselines.invalidateAll();
      reanalyseAll();
    }),
  );

  connection.onNotification(environmentNotification, (next) =>
    runSafeNotification(logger, 'environment', () => {
      applyEnvironment(next);
      baselines.invalidateAll();
      reanalyseAll();
    }),
  );

  documents.onDidChangeContent((event) =>
    runSafeNotification(logger, 'document change', async () => {
      const uri = event.document.uri;
      // The first content of a document is its opening: analysed at once, not after a debounce.
      if (!analyzer.isOpen(uri)) {
        analyzer.open(uri);
        return;
      }
      analyzer.schedule(uri, await debounceFor(uri));
    }),
  );

  documents.onDidSave((event) =>
    runSafeNotification(logger, 'document save', async () => {
      // A file just added to git may have a baseline now; a deployed stack may have moved on.
      await baselines.refresh(event.document.uri);
    }),
  );

  documents.onDidClose((event) =>
    runSafeNotification(logger, 'document close', () => {
      const uri = event.document.uri;
      settingsCache.delete(uri);
      analyzer.close(uri);
      baselines.forget(uri);
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    }),
  );

  connection.onCodeLens((params, token) =>
    runSafe(logger, 'codeLens', token, [], async () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.isTemplate || !result.after) return [];
      if (!result.report) return [noBaselineLens(result.document, result.baseline?.status.detail ?? 'none chosen')];
      return buildCodeLenses(result.document, result.after, result.report, result.baseline?.status.label ?? 'baseline');
    }),
  );

  connection.onHover((params, token) =>
    runSafe(logger, 'hover', token, null, async () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return null;
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.isTemplate || !result.after) return null;
      return buildHover(result.document, result.after, result.report, spec ??= loadResourceSpec(), result.document.offsetAt(params.position));
    }),
  );

  connection.onRequest(chooseBaselineRequest, (params, token) =>
    runSafe(logger, 'chooseBaseline', token, null, async () => {
      baselines.choose(params.uri, params.choice);
      baselines.invalidate(params.uri);
      const settings = await settingsFor(params.uri);
      const baseline = await baselines.resolve(params.uri, effectiveChoice(params.uri, settings));
      if (documents.get(params.uri)) analyzer.schedule(params.uri, 0, 'refresh');
      return baseline.status;
    }),
  );

  connection.onRequest(baselineTextRequest, (params, token) =>
    runSafe(logger, 'baselineText', token, null, async () => {
      const known = baselines.current(params.uri);
      const baseline = known ?? (await baselines.resolve(params.uri, effectiveChoice(params.uri, await settingsFor(params.uri))));
      return baseline.text === undefined ? null : { text: baseline.text, label: baseline.status.label };
    }),
  );

  connection.onRequest(stacksTreeRequest, (params, token) =>
    runSafe(logger, 'stacksTree', token, { version: 0, nodes: [] }, () => stacksOrFail().tree(params?.filter)),
  );

  connection.onRequest(stacksRefreshRequest, (_params, token) =>
    runSafe(logger, 'stacksRefresh', token, null, async () => {
      await stacksOrFail().refresh();
      return null;
    }),
  );

  connection.onRequest(deployedTemplateRequest, (params, token) =>
    runSafe(logger, 'deployedTemplate', token, { ok: false, message: 'The deployed template could not be read; see the server output.' }, () =>
      stacksOrFail().deployedTemplate(params.region, params.stackId),
    ),
  );

  connection.onRequest(stackChoicesRequest, (_params, token) =>
    runSafe(logger, 'stackChoices', token, { stacks: [], problems: ['The stacks could not be listed; see the server output.'] }, () =>
      stacksOrFail().stackChoices(),
    ),
  );

  connection.onRequest(awsProfilesRequest, (_params, token) =>
    runSafe(logger, 'awsProfiles', token, { profiles: [], regions: [...AWS_REGIONS] }, async () => ({
      profiles: await readAwsProfiles(),
      regions: [...AWS_REGIONS],
    })),
  );

  connection.onNotification(stacksVisibilityNotification, (params) =>
    runSafeNotification(logger, 'stacks visibility', () => stacksOrFail().setVisible(params.visible === true)),
  );

  connection.onNotification(stacksFollowNotification, (params) =>
    runSafeNotification(logger, 'stacks follow', () => stacksOrFail().follow(params.region, params.stackId, params.follow !== false)),
  );

  /** The stacks service, which exists from `initialize` on. */
  function stacksOrFail(): StacksService {
    if (!stacks) throw new Error('the server is not initialised');
    return stacks;
  }

  documents.listen(connection);
  connection.listen();
}

function foldersOf(folders: WorkspaceFolder[] | undefined, rootUri: string | undefined): string[] {
  const uris = folders ? folders.map((folder) => folder.uri) : rootUri ? [rootUri] : [];
  return uris.map((uri) => filePathOf(uri)).filter((path): path is string => path !== undefined);
}

function main(): void {
  let connection: Connection;
  try {
    connection = createConnection(ProposedFeatures.all);
  } catch (error) {
    process.stderr.write(`cfn-impact language server: ${(error as Error).message}\nStart it with --stdio, --node-ipc or --socket=<port>.\n`);
    process.exit(2);
  }
  // A bug must cost one answer, not the server: log it and keep serving.
  process.on('uncaughtException', (error) => connection.console.error(`uncaught: ${describeError(error)}`));
  process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${describeError(reason)}`));
  startServer(connection);
}

main();
