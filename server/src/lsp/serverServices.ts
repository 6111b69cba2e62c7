/**
 * What the language server's groups of handlers share. server.ts builds it once, when the client
 * initialises the server, and hands it to each group (handlers/*.ts).
 */
import type { Connection, InitializeParams, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analyzer } from './analysis';
import type { CdkApps } from './cdkApps';
import type { Baseline, BaselineManager } from './baseline/baselines';
import type { Environment } from './environment';
import type { ParameterFiles } from './parameterFiles';
import type { ParentTemplates } from './parentTemplates';
import type { Logger } from './runSafe';
import type { DocumentSettings } from './settings';
import type { SettingsStore } from './settingsStore';
import type { StacksService } from './stacksService';
import type { WorkspaceFolders } from './workspaceFolders';

/** What the client said, in `initialize`, that it can do. */
export interface ClientFeatures {
  /** It answers `workspace/configuration`. */
  pullConfiguration: boolean;
  /** It accepts `workspace/codeLens/refresh`. */
  refreshLenses: boolean;
  /** It announces workspace folder changes. */
  watchWorkspaceFolders: boolean;
}

/** The client's features as its `initialize` request states them. */
export function readClientFeatures(params: InitializeParams): ClientFeatures {
  const workspace = params.capabilities?.workspace;
  return {
    pullConfiguration: workspace?.configuration === true,
    refreshLenses: workspace?.codeLens?.refreshSupport === true,
    watchWorkspaceFolders: workspace?.workspaceFolders === true,
  };
}

/** The services every group of handlers is given. */
export interface ServerServices {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly logger: Logger;
  readonly client: ClientFeatures;
  readonly workspace: WorkspaceFolders;
  readonly settings: SettingsStore;
  readonly parameterFiles: ParameterFiles;
  /** The parents of nested stacks' templates, found in the workspace folders. */
  readonly parentTemplates: ParentTemplates;
  readonly environment: Environment;
  readonly baselines: BaselineManager;
  readonly analyzer: Analyzer;
  readonly stacks: StacksService;
  /** CDK apps whose source files get the impact of their last synth. */
  readonly cdkApps: CdkApps;
  /** The document's baseline under the choice in effect for it (see baseline/effectiveChoice.ts). */
  resolveBaseline(uri: string, settings: DocumentSettings): Promise<Baseline>;
}
