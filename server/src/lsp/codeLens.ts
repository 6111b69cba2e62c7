/**
 * Code lenses: the stack verdict at the top of the file and the effect above each changed resource.
 * Every lens opens the side-by-side diff against the baseline.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ImpactReport } from '../impact/types';
import { commands, type OpenDiffArguments } from './protocol';
import { changeLensTitle, replacedIds, verdictTitle } from './wording';
import type { AnalysedTemplate } from './worker/outline';

/** The lenses of one analysed version; `baselineLabel` names what the verdict is measured against. */
export function buildCodeLenses(document: TextDocument, after: AnalysedTemplate, report: ImpactReport, baselineLabel: string): CodeLens[] {
  const lenses: CodeLens[] = [];
  const lensAt = (offset: number, title: string): CodeLens => {
    const position = document.positionAt(offset);
    const line = position.line;
    const args: OpenDiffArguments = { uri: document.uri, line };
    return {
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      command: { title, command: commands.openDiff, arguments: [args] },
    };
  };

  const removed = report.changes.filter((change) => change.action === 'Remove');
  let verdict = `${verdictTitle(report)} — against ${baselineLabel}`;
  if (removed.length > 0) verdict += ` · removes ${removed.map((change) => change.logicalId).join(', ')}`;
  lenses.push(lensAt(0, verdict));

  const replaced = replacedIds(report);
  for (const change of report.changes) {
    if (change.action === 'Remove' || change.rangeIn !== 'new') continue;
    lenses.push(lensAt(change.range.start, changeLensTitle(change, replaced)));
  }

  // Removed resources have no place in the new file: they are listed on the Resources key.
  const resourcesKey = after.model.root?.entries.find((entry) => entry.key === 'Resources');
  if (resourcesKey && removed.length > 0) {
    for (const change of removed) lenses.push(lensAt(resourcesKey.keyRange.start, changeLensTitle(change, replaced)));
  }
  return lenses;
}

/** The single lens shown when a template has no baseline: it says so instead of staying blank. */
export function noBaselineLens(document: TextDocument, reason: string): CodeLens {
  const args: OpenDiffArguments = { uri: document.uri, line: 0 };
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    command: { title: `No baseline: ${reason}`, command: commands.chooseBaseline, arguments: [args] },
  };
}
