/**
 * The CloudFormation Impact language server: `node dist/server.js --stdio` (or `--node-ipc`,
 * `--socket=N`), usable from any LSP editor. Documents in, the engine's findings out as
 * diagnostics, code lenses and hovers; baselines read from git, files or deployed stacks.
 *
 * This module is the composition root: when the client initialises the server it builds the
 * shared services (serverServices.ts) and hands them to the groups of handlers under handlers/,
 * each of which registers its own messages.
 */
import {
  CodeLensRefreshRequest,
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Analyzer } from './analysis';
import { BaselineManager, type Baseline } from './baseline/baselines';
import { effectiveChoice } from './baseline/effectiveChoice';
import { Environment } from './environment';
import { checkGitHeadsPeriodically, registerBaselineHandlers } from './handlers/baselines';
import { registerCodeLensHandler } from './handlers/codeLens';
import { registerConfigurationHandlers, watchClientConfiguration } from './handlers/configuration';
import { registerDocumentHandlers } from './handlers/documents';
import { registerEnvironmentHandlers } from './handlers/environment';
import { registerHoverHandler } from './handlers/hover';
import { registerNestedParentHandler } from './handlers/nestedParent';
import { registerCdkAppHandlers } from './handlers/cdkApps';
import { CdkApps } from './cdkApps';
import { registerStacksHandlers } from './handlers/stacks';
import { ParameterFiles } from './parameterFiles';
import { lookupByGlob } from '../git/glob';
import { parentSourceFor } from './parentSource';
import { ParentTemplates } from './parentTemplates';
import { baselineStatusNotification, deploymentEndedNotification, stacksChangedNotification, type InitializationOptions } from './protocol';
import { describeError, type Logger } from './runSafe';
import { readClientFeatures, type ServerServices } from './serverServices';
import type { DocumentSettings } from './settings';
import { SettingsStore } from './settingsStore';
import { StacksService } from './stacksService';
import { readChildTemplates } from './childTemplates';
import { LocalArtifactLookup } from './localArtifacts';
import { WorkspaceFolders } from './workspaceFolders';

function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const logger: Logger = {
    error: (message) => connection.console.error(message),
    info: (message) => connection.console.info(message),
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const services = createServices(connection, documents, logger, params);
    registerDocumentHandlers(services);
    registerCodeLensHandler(services);
    registerHoverHandler(services);
    registerBaselineHandlers(services);
    registerConfigurationHandlers(services);
    registerEnvironmentHandlers(services);
    registerStacksHandlers(services);
    registerNestedParentHandler(services);
    registerCdkAppHandlers(services);
    connection.onInitialized(() => {
      watchClientConfiguration(services);
      const gitHeadChecks = checkGitHeadsPeriodically(services);
      connection.onShutdown(() => {
        gitHeadChecks.dispose();
        services.analyzer.dispose();
        services.stacks.dispose();
      });
    });
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

  documents.listen(connection);
  connection.listen();
}

/** Builds the services from what the client sent in `initialize`. */
function createServices(connection: Connection, documents: TextDocuments<TextDocument>, logger: Logger, params: InitializeParams): ServerServices {
  const options = (params.initializationOptions ?? {}) as InitializationOptions;
  const client = readClientFeatures(params);
  const workspace = new WorkspaceFolders(params.workspaceFolders ?? undefined, params.rootUri ?? undefined);
  const settings = new SettingsStore(client.pullConfiguration ? (uri) => connection.workspace.getConfiguration({ scopeUri: uri, section: 'cfnImpact' }) : undefined, logger);
  const parameterFiles = new ParameterFiles(workspace);
  const parentTemplates = new ParentTemplates(workspace, () => documents.all().map((document) => ({ uri: document.uri, text: document.getText() })));
  const stacks = new StacksService({
    logger,
    onChanged: (version) => void connection.sendNotification(stacksChangedNotification, { version }).catch(() => undefined),
    onDeploymentEnded: (ended) => {
      void connection.sendNotification(deploymentEndedNotification, ended).catch(() => undefined);
      // A linked stack that moved on is a new baseline (and a new last operation), for CDK apps too.
      cdkApps.refreshDeployed();
      void baselines.refreshStack(ended.stackName, ended.region).catch((error: unknown) => logger.error(`refreshing the baselines of ${ended.stackName}: ${String(error)}`));
    },
    ...(typeof options.stacksPollIntervalMs === 'number' ? { pollIntervalMs: options.stacksPollIntervalMs } : {}),
  });
  // The baselines, the environment and the analyzer refer to each other through callbacks that run only later.
  const baselines: BaselineManager = new BaselineManager({
    isTrusted: () => environment.trusted,
    onChanged: (uri) => {
      analyzer.schedule(uri, 0, 'refresh');
      // A parent's baseline is what its children opened on their own are compared under, too.
      analyzer.refreshChildrenOf(uri, 0);
    },
    onStatus: (status) => void connection.sendNotification(baselineStatusNotification, status),
  });
  const environment: Environment = new Environment(baselines, stacks);
  environment.apply(options.environment);
  for (const [uri, choice] of Object.entries(options.baselines ?? {})) baselines.choose(uri, choice);
  const resolveBaseline = (uri: string, documentSettings: DocumentSettings): Promise<Baseline> =>
    baselines.resolve(uri, effectiveChoice(baselines.choiceOf(uri), documentSettings, workspace.relativePath(uri)));
  const localArtifacts = new LocalArtifactLookup();
  const analyzer: Analyzer = new Analyzer({
    getDocument: (uri) => documents.get(uri),
    settingsFor: (uri) => settings.for(uri),
    baselineFor: resolveBaseline,
    parametersFor: (uri, documentSettings, baseline) => parameterFiles.valuesFor(uri, documentSettings, baseline),
    regionFor: (uri, documentSettings) => lookupByGlob(documentSettings.regions, workspace.relativePath(uri)) ?? environment.regions[0],
    childTemplatesFor: (uri, text, baseline) => readChildTemplates(uri, text, baseline, (child) => documents.get(child)?.getText()),
    artifactsFor: (uri, text) => localArtifacts.presenceFor(uri, text),
    parentFor: async (uri, documentSettings) =>
      parentSourceFor(uri, await parentTemplates.choose(uri, documentSettings), {
        openText: (parent) => documents.get(parent)?.getText(),
        settingsFor: (parent) => settings.for(parent),
        baselineFor: resolveBaseline,
        parametersFor: (parent, parentSettings, baseline) => parameterFiles.valuesFor(parent, parentSettings, baseline),
      }),
    publish: (uri, version, diagnostics) => void connection.sendDiagnostics({ uri, version, diagnostics }),
    refreshed: () => {
      if (client.refreshLenses) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
    },
    logger,
  });
  const cdkApps = new CdkApps({ logger, deployedStacks: () => environment.deployedStacks, regions: () => environment.regions });
  return { connection, documents, logger, client, workspace, settings, parameterFiles, parentTemplates, environment, baselines, analyzer, stacks, cdkApps, resolveBaseline };
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
