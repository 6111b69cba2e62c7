/**
 * Settings and workspace folders: when either changes, what was read under the old ones is
 * forgotten and every open document is analysed again.
 */
import { DidChangeConfigurationNotification } from 'vscode-languageserver/node';
import { runSafeNotification } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** Registers the settings change handler. */
export function registerConfigurationHandlers({ connection, logger, settings, parameterFiles, parentTemplates, baselines, analyzer }: ServerServices): void {
  connection.onDidChangeConfiguration(() =>
    runSafeNotification(logger, 'configuration change', () => {
      settings.clear();
      parameterFiles.clear();
      parentTemplates.invalidate();
      baselines.invalidateAll();
      analyzer.refreshAll();
    }),
  );
}

/** Once the client is initialised: asks it for settings change notifications and follows its workspace folders. */
export function watchClientConfiguration({ connection, client, logger, workspace, settings, parentTemplates, analyzer }: ServerServices): void {
  if (client.pullConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'cfnImpact' }).catch(() => undefined);
  if (!client.watchWorkspaceFolders) return;
  connection.workspace.onDidChangeWorkspaceFolders((event) =>
    runSafeNotification(logger, 'workspace folders', () => {
      workspace.change(event.added, event.removed);
      settings.clear();
      parentTemplates.invalidate();
      analyzer.refreshAll();
    }),
  );
}
