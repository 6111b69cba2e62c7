/**
 * Code lenses: the stack verdict at the top of the file and the effect above each changed resource.
 * Every lens opens the side-by-side diff against the baseline.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { changesSomething, replacedIds } from '../impact/claims';
import type { ImpactReport } from '../impact/types';
import { commands, type CompareChangeSetArguments, type OpenDiffArguments } from './protocol';
import { changeLensTitle, changeSetLensTitle, moreRemovalsTitle, verdictLensTitle } from '../present';
import type { AnalysedTemplate } from './worker/outline';

/** Removed resources given a lens of their own; the rest share one. */
const listedRemovals = 3;

/**
 * The lenses of one analysed version; `baselineLabel` names what the verdict is measured against,
 * and `changeSets` the change sets of the linked stack, which a lens beside the verdict offers to compare.
 */
export function buildCodeLenses(document: TextDocument, after: AnalysedTemplate, report: ImpactReport, baselineLabel: string, changeSets: readonly string[] = []): CodeLens[] {
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
  // Removed resources have no place in the new file: they are named on the Resources key, a few
  // with what becomes of each, so that no title grows with the number of removals.
  const resourcesKey = after.model.root?.entries.find((entry) => entry.key === 'Resources');
  lenses.push(lensAt(0, verdictLensTitle(report, baselineLabel, resourcesKey ? [] : removed.map((change) => change.logicalId))));
  if (changeSets.length > 0) {
    const args: CompareChangeSetArguments = { uri: document.uri, changeSets: [...changeSets] };
    lenses.push({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, command: { title: changeSetLensTitle(changeSets), command: commands.compareChangeSet, arguments: [args] } });
  }

  const replaced = replacedIds(report.changes);
  for (const change of report.changes) {
    // A resource a change set lists only because it re-reads unchanged values gets no lens.
    if (change.action === 'Remove' || change.rangeIn !== 'new' || !changesSomething(change)) continue;
    lenses.push(lensAt(change.range.start, changeLensTitle(change, replaced)));
  }

  if (resourcesKey) {
    for (const change of removed.slice(0, listedRemovals)) lenses.push(lensAt(resourcesKey.keyRange.start, changeLensTitle(change, replaced)));
    if (removed.length > listedRemovals) {
      lenses.push(lensAt(resourcesKey.keyRange.start, moreRemovalsTitle(removed.slice(listedRemovals).map((change) => change.logicalId))));
    }
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
