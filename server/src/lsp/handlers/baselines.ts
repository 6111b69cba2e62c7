/**
 * Baselines: the client chooses one for a document (`cfnImpact/chooseBaseline`) and asks for its
 * text to show a diff (`cfnImpact/baselineText`); git baselines follow HEAD as it moves.
 */
import type { Disposable } from 'vscode-languageserver/node';
import { baselineTextRequest, chooseBaselineRequest } from '../protocol';
import { describeError, runSafe } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** How often open documents' repositories are checked for a moved HEAD (file metadata only). */
const gitHeadCheckMs = 3000;

/** Registers the baseline requests. */
export function registerBaselineHandlers({ connection, logger, settings, baselines, analyzer, resolveBaseline }: ServerServices): void {
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
}

/** Checks, every few seconds while the workspace is trusted, whether HEAD moved under the open documents' git baselines. */
export function checkGitHeadsPeriodically({ environment, baselines, logger }: ServerServices): Disposable {
  const timer = setInterval(() => {
    if (environment.trusted) baselines.checkGitHeads().catch((error: unknown) => logger.error(`git HEAD check failed: ${describeError(error)}`));
  }, gitHeadCheckMs);
  timer.unref();
  return { dispose: () => clearInterval(timer) };
}
