/**
 * `textDocument/codeLens`: the stack verdict and one lens per changed resource, from the
 * analysis of the version the client shows.
 */
import { buildCodeLenses, noBaselineLens } from '../codeLens';
import { runSafe } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** Registers the code lens handler. */
export function registerCodeLensHandler({ connection, documents, logger, analyzer }: ServerServices): void {
  connection.onCodeLens((params, token) =>
    runSafe(logger, 'codeLens', token, [], async () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.isTemplate || !result.after) return [];
      if (!result.report) return [noBaselineLens(result.document, result.baseline?.status.detail ?? 'none chosen')];
      return buildCodeLenses(result.document, result.after, result.report, result.baseline?.status.label ?? 'baseline', result.baseline?.stack?.changeSets);
    }),
  );
}
