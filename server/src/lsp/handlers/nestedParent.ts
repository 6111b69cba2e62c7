/**
 * `cfnImpact/nestedParent`: the client opens a child template from its parent's lens, and the
 * child, until it is closed, takes its parameter values from that parent.
 */
import { nestedParentNotification } from '../protocol';
import { runSafeNotification } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** Registers the nested parent notification. */
export function registerNestedParentHandler({ connection, logger, parentTemplates, analyzer }: ServerServices): void {
  connection.onNotification(nestedParentNotification, (params) =>
    runSafeNotification(logger, 'nested parent', () => {
      if (typeof params?.uri !== 'string' || typeof params.parentUri !== 'string') return;
      parentTemplates.remember(params.uri, params.parentUri);
      // Already open: analysed again with the parent's values; else its opening is analysed with them.
      analyzer.schedule(params.uri, 0, 'refresh');
    }),
  );
}
