/**
 * The VS Code extension: starts the language server (dist/server.js over node IPC), shows the
 * active template's baseline in the status bar, offers the commands to choose a baseline,
 * link a deployed stack and open the diff against the baseline, and shows the live stacks view.
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { baselineStatusNotification, commands, environmentNotification, type InitializationOptions } from '../../server/src/lsp/protocol';
import { chooseBaseline, linkStack, rememberedChoices } from './baselineChoices';
import { BaselineDocuments, baselineScheme, openBaselineDiff } from './baselineDiff';
import { BaselineStatusBar } from './baselineStatusBar';
import { compareChangeSet } from './changeSetComparison';
import { ImpactDecorations } from './impactDecorations';
import { goToImpact, showImpacts } from './impactNavigation';
import { openNestedChild } from './nestedChild';
import { readEnvironment } from './settings';
import { registerStacksView } from './stacksView';
import { awsCommands, selectProfile, selectRegions } from './awsPickers';
import type { CfnImpactApi } from './api';
import { mayBeTemplate } from './templateSniff';
import { cdkAppFolders, cdkSourceSelector, isCdkSource } from './cdkApps';

let client: LanguageClient | undefined;

/**
 * Activates on YAML/JSON files, in workspaces holding a CDK app, the stacks view and the extension's
 * commands (the language server starts with the first template, app source or request); logs how
 * long activation took. Returns the
 * read-only API of api.ts.
 */
export function activate(context: vscode.ExtensionContext): CfnImpactApi {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('CloudFormation Impact', { log: true });
  context.subscriptions.push(output);

  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const initializationOptions: InitializationOptions = {
    environment: readEnvironment(),
    baselines: rememberedChoices(context.workspaceState),
  };
  // A CDK app's source files show the impact of its last synth; each synth writes a manifest.json.
  const cdkApps = cdkAppFolders();
  const cdkSources = cdkSourceSelector(cdkApps);
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
      { scheme: 'file', language: 'json' },
      { scheme: 'untitled', language: 'json' },
      ...cdkSources,
    ],
    ...(cdkSources.length > 0 ? { synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/manifest.json') } } : {}),
    initializationOptions,
    outputChannel: output,
    traceOutputChannel: output,
  };
  const languageClient = new LanguageClient('cfnImpact', 'CloudFormation Impact', serverOptions, clientOptions);
  client = languageClient;

  const statusBar = new BaselineStatusBar();
  context.subscriptions.push(new ImpactDecorations());
  const baselineDocuments = new BaselineDocuments(languageClient);
  context.subscriptions.push(
    statusBar,
    baselineDocuments,
    vscode.workspace.registerTextDocumentContentProvider(baselineScheme, baselineDocuments),
    languageClient.onNotification(baselineStatusNotification, (status) => {
      statusBar.update(status);
      baselineDocuments.baselineChanged(status.uri);
    }),
    vscode.commands.registerCommand(commands.openDiff, (target) => openBaselineDiff(baselineDocuments, target)),
    vscode.commands.registerCommand(commands.chooseBaseline, (target) => chooseBaseline(languageClient, context.workspaceState, target)),
    vscode.commands.registerCommand(commands.compareChangeSet, (target) => compareChangeSet(languageClient, output, target)),
    vscode.commands.registerCommand(commands.openNestedChild, (target) => openNestedChild(languageClient, target)),
    vscode.commands.registerCommand(commands.showImpacts, (target) => showImpacts(target)),
    vscode.commands.registerCommand(commands.nextImpact, () => goToImpact(languageClient, 1)),
    vscode.commands.registerCommand(commands.previousImpact, () => goToImpact(languageClient, -1)),
    vscode.commands.registerCommand('cfnImpact.linkStack', (target) => linkStack(languageClient, context.workspaceState, target)),
    vscode.commands.registerCommand('cfnImpact.showOutput', () => output.show()),
    vscode.commands.registerCommand(awsCommands.selectProfile, () => selectProfile(languageClient)),
    vscode.commands.registerCommand(awsCommands.selectRegions, () => selectRegions(languageClient)),
    // Trust and the AWS settings decide what the server may do: it hears about every change.
    vscode.workspace.onDidGrantWorkspaceTrust(() => sendEnvironment(languageClient)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('cfnImpact.aws')) sendEnvironment(languageClient);
    }),
  );

  const stacksViewRows = registerStacksView(context, languageClient);

  // VS Code activates by language, so the extension wakes for every YAML and JSON file. The
  // server (a process of its own) starts only once a CloudFormation template is open; the stacks
  // view and the commands start it with their first request (the client starts on its first
  // message). Starting just after activation returns keeps that work out of the extension host's
  // activation, which other extensions wait on.
  let serverStarting = false;
  const startServerFor = (document: vscode.TextDocument) => {
    if (serverStarting || languageClient.isRunning() || !(mayBeTemplate(document) || isCdkSource(cdkApps, document))) return;
    serverStarting = true;
    setImmediate(() => {
      languageClient.start().catch((error: unknown) => output.error(`The language server did not start: ${String(error)}`));
    });
  };
  vscode.workspace.textDocuments.forEach(startServerFor);
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument(startServerFor),
    // A file that becomes a template as it is written (a new, unsaved one).
    vscode.workspace.onDidChangeTextDocument((event) => startServerFor(event.document)),
  );
  output.info(`CloudFormation Impact activated in ${(performance.now() - started).toFixed(1)} ms`);
  return { stacksViewRows, languageServerRunning: () => languageClient.isRunning() };
}

function sendEnvironment(languageClient: LanguageClient): void {
  languageClient.sendNotification(environmentNotification, readEnvironment()).catch(() => undefined);
}

/** Stops the language server. */
export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}
