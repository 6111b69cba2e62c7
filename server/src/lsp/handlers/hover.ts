/**
 * `textDocument/hover`: a resource's or property's update behaviour from the specification, and
 * what changed, from the analysis of the version the client shows (of the last text that parsed,
 * while the text does not).
 */
import { loadResourceSpec } from '../../spec/load';
import type { ResourceSpec } from '../../spec/types';
import { buildHover } from '../hover';
import { runSafe } from '../runSafe';
import { cdkHover } from '../cdkSource';
import { hoverWhileUnparsed, rejectsUnparsedText } from '../whileUnparsed';
import type { ServerServices } from '../serverServices';

/** Registers the hover handler; the specification is loaded on the first hover. */
export function registerHoverHandler({ connection, documents, logger, analyzer, cdkApps, settings }: ServerServices): void {
  let spec: ResourceSpec | undefined;
  connection.onHover((params, token) =>
    runSafe(logger, 'hover', token, null, async () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return null;
      if (cdkApps.handles(document)) {
        const view = await cdkApps.view(document, (await settings.for(document.uri)).cdkBaseline);
        return view ? cdkHover(view, params.position) : null;
      }
      const result = await analyzer.resultFor(document.uri, document.version, token);
      if (!result?.isTemplate || !result.after) return null;
      const offset = result.document.offsetAt(params.position);
      // While the text does not parse, the lenses and problems are the last parsed text's: so is the hover.
      const lastParsed = result.report && rejectsUnparsedText(result.report) ? analyzer.lastParsed(document.uri) : undefined;
      if (lastParsed) return hoverWhileUnparsed(result.document, lastParsed, offset, (lastDocument, at) => buildHover(lastDocument, lastParsed.after, lastParsed.report, (spec ??= loadResourceSpec()), at));
      return buildHover(result.document, result.after, result.report, (spec ??= loadResourceSpec()), offset);
    }),
  );
}
