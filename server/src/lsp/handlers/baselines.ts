/**
 * Baselines: the client chooses one for a document (`cfnImpact/chooseBaseline`) and asks for its
 * text to show a diff (`cfnImpact/baselineText`); git baselines follow HEAD as it moves.
 */
import type { Disposable } from 'vscode-languageserver/node';
import { compareWithChangeSet } from '../../impact/changeSetComparison';
import { changeSetVerdict, comparedResourceLine } from '../../present';
import { baselineTextRequest, chooseBaselineRequest, compareChangeSetRequest } from '../protocol';
import { describeError, runSafe } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** How often open documents' repositories are checked for a moved HEAD (file metadata only). */
const gitHeadCheckMs = 3000;

/** Registers the baseline requests. */
export function registerBaselineHandlers({ connection, logger, settings, baselines, analyzer, resolveBaseline, documents }: ServerServices): void {
  connection.onRequest(chooseBaselineRequest, (params, token) =>
    runSafe(logger, 'chooseBaseline', token, null, async () => {
      baselines.choose(params.uri, params.choice);
      baselines.invalidate(params.uri);
      const baseline = await resolveBaseline(params.uri, await settings.for(params.uri));
      analyzer.schedule(params.uri, 0, 'refresh');
      return baseline.status;
    }),
  );

  connection.onRequest(baselineTextRequest, (params, token) =>
    runSafe(logger, 'baselineText', token, null, async () => {
      const baseline = baselines.current(params.uri) ?? (await resolveBaseline(params.uri, await settings.for(params.uri)));
      return baseline.text === undefined ? null : { text: baseline.text, label: baseline.status.label };
    }),
  );

  // The same comparison as `cfn-impact verify`, with the prediction for the version the editor shows.
  connection.onRequest(compareChangeSetRequest, (params, token) =>
    runSafe(logger, 'compareChangeSet', token, { message: 'The comparison failed.', lines: [] }, async () => {
      const document = documents.get(params.uri);
      if (!document) return { message: 'The template is not open.', lines: [] };
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.report) return { message: 'There is no prediction for this template yet.', lines: [] };
      const read = await baselines.changeSetOf(params.uri, params.changeSetName);
      if (!read.ok) return { message: read.message, lines: [] };
      const comparison = compareWithChangeSet(result.report.changes, read.changeSet.changes);
      const agreeing = comparison.resources.filter((r) => r.disagreements.length === 0).length;
      const actionOf = (logicalId: string) => result.report?.changes.find((c) => c.logicalId === logicalId)?.action;
      return {
        agrees: comparison.agrees,
        message: changeSetVerdict(read.changeSet.changeSetName, agreeing, comparison.resources.length - agreeing, comparison.nested.length),
        lines: comparison.resources.map((r) => comparedResourceLine(r, actionOf(r.logicalId))),
      };
    }),
  );
}

/** Checks, every few seconds while the workspace is trusted, whether HEAD moved under the open documents' git baselines. */
export function checkGitHeadsPeriodically({ environment, baselines, logger }: ServerServices): Disposable {
  const timer = setInterval(() => {
    if (environment.trusted) baselines.checkGitHeads().catch((error: unknown) => logger.error(`git HEAD check failed: ${describeError(error)}`));
  }, gitHeadCheckMs);
  timer.unref();
  return { dispose: () => clearInterval(timer) };
}
