/**
 * `textDocument/codeLens`: the stack verdict, one lens per changed resource and one per edit
 * outside the resources, from the analysis of the version the client shows; and the lines of the
 * changed resources, which *Go to Next Impact* walks.
 */
import { parentParametersLabel } from '../../present';
import { buildCodeLenses, impactLines, noBaselineLens } from '../codeLens';
import { impactLocationsRequest } from '../protocol';
import { lensesWhileUnparsed, rejectsUnparsedText } from '../whileUnparsed';
import { runSafe } from '../runSafe';
import { cdkLenses } from '../cdkSource';
import type { ServerServices } from '../serverServices';

/** Registers the code lens handler. */
export function registerCodeLensHandler({ connection, documents, logger, analyzer, cdkApps, settings }: ServerServices): void {
  connection.onCodeLens((params, token) =>
    runSafe(logger, 'codeLens', token, [], async () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      if (cdkApps.handles(document)) {
        const view = await cdkApps.view(document, (await settings.for(document.uri)).cdkBaseline);
        return view ? cdkLenses(document, view) : [];
      }
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.isTemplate || !result.after) return [];
      if (!result.report) return [noBaselineLens(result.document, result.baseline?.status.detail ?? 'none chosen')];
      const baselineLabel = result.baseline?.status.label ?? 'baseline';
      // A child opened on its own says whose parameter values it was analysed with.
      const label = result.parametersFrom !== undefined ? `${baselineLabel} · ${parentParametersLabel(result.parametersFrom)}` : baselineLabel;
      const changeSets = result.baseline?.stack?.changeSets;
      const lastParsed = rejectsUnparsedText(result.report) ? analyzer.lastParsed(document.uri) : undefined;
      if (lastParsed) return lensesWhileUnparsed(result.document, result.report, lastParsed, label, changeSets);
      return buildCodeLenses(result.document, result.after, result.report, label, changeSets);
    }),
  );
  connection.onRequest(impactLocationsRequest, (params, token) =>
    runSafe(logger, 'impactLocations', token, { lines: [] }, async () => {
      const document = documents.get(params.uri);
      if (!document) return { lines: [] };
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.isTemplate || !result.after || !result.report) return { lines: [] };
      return { lines: impactLines(result.document, result.after, result.report) };
    }),
  );
}
