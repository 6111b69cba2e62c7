/**
 * Document events. An opened document is analysed at once and an edited one after its debounce
 * (a CDK app's source file is placed against its app's last synth instead),
 * with the open templates that nest it as a child;
 * a save reads the baseline again; a close drops everything kept for the document and clears its
 * diagnostics.
 */
import { runSafeNotification } from '../runSafe';
import { publishCdkDiagnostics } from './cdkApps';
import type { ServerServices } from '../serverServices';

/** Registers the open, change, save and close handlers. */
export function registerDocumentHandlers(services: ServerServices): void {
  const { connection, documents, logger, analyzer, settings, baselines, parentTemplates, cdkApps } = services;
  documents.onDidChangeContent((event) =>
    runSafeNotification(logger, 'document change', async () => {
      const uri = event.document.uri;
      // A CDK app's source file shows its app's last synth, placed by construct ids it may have just typed.
      if (cdkApps.handles(event.document)) {
        await publishCdkDiagnostics(services, event.document);
        return;
      }
      // The first content of a document is its opening: analysed at once, not after a debounce.
      if (!analyzer.isOpen(uri)) {
        analyzer.open(uri);
        return;
      }
      const debounceMs = (await settings.for(uri)).debounceMs;
      analyzer.schedule(uri, debounceMs);
      // A nested stack's child read from this document changed: the templates nesting it see the edit.
      analyzer.refreshParentsOf(uri, debounceMs);
      // A parent that passes parameter values to an open child changed: the child sees the new values.
      analyzer.refreshChildrenOf(uri, debounceMs);
    }),
  );

  documents.onDidSave((event) =>
    runSafeNotification(logger, 'document save', async () => {
      // A saved file may now nest a template, or no longer: the parents are looked for again.
      parentTemplates.invalidate();
      // A file just added to git may have a baseline now; a deployed stack may have moved on.
      await baselines.refresh(event.document.uri);
    }),
  );

  documents.onDidClose((event) =>
    runSafeNotification(logger, 'document close', () => {
      const uri = event.document.uri;
      settings.forget(uri);
      parentTemplates.forget(uri);
      analyzer.close(uri);
      baselines.forget(uri);
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    }),
  );
}
