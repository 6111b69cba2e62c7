/**
 * The stacks view: the tree and its refresh, the deployed template, the stacks a template can be
 * linked to, the timeline of a stack's operation, and what the client says about the view (visible, stacks followed).
 */
import { detectDriftRequest, deployedTemplateRequest, stackChoicesRequest, stackTimelineRequest, stacksFollowNotification, stacksRefreshRequest, stacksTreeRequest, stacksVisibilityNotification } from '../protocol';
import { runSafe, runSafeNotification } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** Registers the stacks view's requests and notifications. */
export function registerStacksHandlers({ connection, logger, stacks, baselines }: ServerServices): void {
  connection.onRequest(detectDriftRequest, (params, token) =>
    runSafe(logger, 'detectDrift', token, { ok: false, message: 'The drift detection could not run; see the server output.' }, async () => {
      const result = await stacks.detectDrift(params.region, params.stackName);
      // A template linked to the stack is compared with what the new detection found.
      if (result.ok) await baselines.refreshStack(params.stackName, params.region).catch((error: unknown) => logger.error(`refreshing the baselines of ${params.stackName}: ${String(error)}`));
      return result;
    }),
  );

  connection.onRequest(stacksTreeRequest, (params, token) => runSafe(logger, 'stacksTree', token, { version: 0, nodes: [] }, () => stacks.tree(params?.filter)));

  connection.onRequest(stacksRefreshRequest, (_params, token) =>
    runSafe(logger, 'stacksRefresh', token, null, async () => {
      await stacks.refresh();
      return null;
    }),
  );

  connection.onRequest(deployedTemplateRequest, (params, token) =>
    runSafe(logger, 'deployedTemplate', token, { ok: false, message: 'The deployed template could not be read; see the server output.' }, () =>
      stacks.deployedTemplate(params.region, params.stackId),
    ),
  );

  connection.onRequest(stackTimelineRequest, (params, token) =>
    runSafe(logger, 'stackTimeline', token, { ok: false, state: 'unavailable', message: 'The timeline could not be made; see the server output.' }, () =>
      stacks.timeline(params.region, params.stackId, params.operation),
    ),
  );

  connection.onRequest(stackChoicesRequest, (_params, token) =>
    runSafe(logger, 'stackChoices', token, { stacks: [], problems: ['The stacks could not be listed; see the server output.'] }, () => stacks.stackChoices()),
  );

  connection.onNotification(stacksVisibilityNotification, (params) =>
    runSafeNotification(logger, 'stacks visibility', () => stacks.setVisible(params.visible === true)),
  );

  connection.onNotification(stacksFollowNotification, (params) =>
    runSafeNotification(logger, 'stacks follow', () => stacks.follow(params.region, params.stackId, params.follow !== false)),
  );
}
