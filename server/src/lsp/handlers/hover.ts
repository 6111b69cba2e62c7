/**
 * `textDocument/hover`: a resource's or property's update behaviour from the specification, and
 * what changed, from the analysis of the version the client shows.
 */
import { loadResourceSpec } from '../../spec/load';
import type { ResourceSpec } from '../../spec/types';
import { buildHover } from '../hover';
import { runSafe } from '../runSafe';
import type { ServerServices } from '../serverServices';

/** Registers the hover handler; the specification is loaded on the first hover. */
export function registerHoverHandler({ connection, documents, logger, analyzer }: ServerServices): void {
  let spec: ResourceSpec | undefined;
  connection.onHover((params, token) =>
    runSafe(logger, 'hover', token, null, async () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return null;
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.isTemplate || !result.after) return null;
      return buildHover(result.document, result.after, result.report, (spec ??= loadResourceSpec()), result.document.offsetAt(params.position));
    }),
  );
}
