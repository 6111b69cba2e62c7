/**
 * CDK apps' source files: their problems are published when they open or change and after each
 * synth (a `manifest.json` the client watches changed), when their lenses are refreshed too.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { cdkDiagnostics } from '../cdkSource';
import { runSafeNotification } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** Publishes the problems of an app's source file for the version the client holds. */
export async function publishCdkDiagnostics({ connection, cdkApps, settings }: ServerServices, document: TextDocument): Promise<void> {
  const view = await cdkApps.view(document, (await settings.for(document.uri)).cdkBaseline);
  await connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: view ? cdkDiagnostics(document, view) : [] });
}

/** Registers the watch on synthesized assemblies. */
export function registerCdkAppHandlers(services: ServerServices): void {
  const { connection, documents, logger, cdkApps, client } = services;
  connection.onDidChangeWatchedFiles((params) =>
    runSafeNotification(logger, 'watched files', async () => {
      if (!params.changes.some((change) => change.uri.endsWith('/manifest.json'))) return;
      // Each comparison is keyed by its manifests' times: a new synth is compared on the next request.
      const sources = documents.all().filter((document) => cdkApps.handles(document));
      if (sources.length === 0) return;
      await Promise.all(sources.map((document) => publishCdkDiagnostics(services, document)));
      if (client.refreshLenses) await connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    }),
  );
}
