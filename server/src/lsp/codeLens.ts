/**
 * Code lenses: the stack verdict at the top of the file and the effect above each changed resource
 * (one for each SAM resource, summing up what happens to what the Serverless transform generated).
 * Every lens opens the side-by-side diff against the baseline, but a nested stack's, which opens its child.
 */
import type { CodeLens } from 'vscode-languageserver';
import type { MapNode } from '../template/ast';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { changesSomething, replacedIds } from '../impact/claims';
import type { ImpactReport, ResourceChange } from '../impact/types';
import { commands, type CompareChangeSetArguments, type OpenDiffArguments, type OpenNestedChildArguments, type ShowImpactsArguments } from './protocol';
import { changeLensTitle, changeSetLensTitle, editSiteLensTitle, moreRemovalsTitle, samResourceLensTitle, stackRiskLensTitle, verdictLensTitle } from '../present';
import type { AnalysedTemplate } from './worker/outline';

/** Removed resources given a lens of their own; the rest share one. */
const listedRemovals = 3;

/**
 * The lenses of one analysed version; `baselineLabel` names what the verdict is measured against,
 * and `changeSets` the change sets of the linked stack, which a lens beside the verdict offers to
 * compare. `offsetNow` takes an offset in the analysed text to the document's (when it changed since).
 */
export function buildCodeLenses(
  document: TextDocument,
  after: AnalysedTemplate,
  report: ImpactReport,
  baselineLabel: string,
  changeSets: readonly string[] = [],
  offsetNow: (offset: number) => number = (offset) => offset,
): CodeLens[] {
  const lenses: CodeLens[] = [];
  const lensAt = (offset: number, title: string): CodeLens => {
    const position = document.positionAt(offsetNow(offset));
    const line = position.line;
    const args: OpenDiffArguments = { uri: document.uri, line };
    return {
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      command: { title, command: commands.openDiff, arguments: [args] },
    };
  };

  // Removed resources have no place in the new file: they are named on the Resources key, a few
  // with what becomes of each, so that no title grows with the number of removals.
  const resourcesKey = after.model.root?.entries.find((entry) => entry.key === 'Resources');
  // A SAM resource gets one lens for everything generated from it, on its own line: the changes
  // attributed to it, including the removals of what it no longer generates (an old version).
  const bySamResource = samResourceGroups(report.changes, resourcesKey?.value.kind === 'map' ? resourcesKey.value : undefined);
  const grouped = new Set([...bySamResource.values()].flatMap((group) => group.changes));
  const removed = report.changes.filter((change) => change.action === 'Remove' && !grouped.has(change));
  lenses.push(lensAt(0, verdictLensTitle(report, baselineLabel, resourcesKey ? [] : removed.map((change) => change.logicalId))));
  if (changeSets.length > 0) {
    const args: CompareChangeSetArguments = { uri: document.uri, changeSets: [...changeSets] };
    lenses.push({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, command: { title: changeSetLensTitle(changeSets), command: commands.compareChangeSet, arguments: [args] } });
  }

  const replaced = replacedIds(report.changes);
  // Each resource's lens, with the resource it is about: several may share a line (the resources
  // one `Fn::ForEach` generates all stand at its text), and then each names its resource.
  const resourceLenses: { lens: CodeLens; logicalId: string }[] = [];
  for (const change of report.changes) {
    // A resource a change set lists only because it re-reads unchanged values gets no lens.
    if (grouped.has(change) || change.action === 'Remove' || change.rangeIn !== 'new' || !changesSomething(change)) continue;
    const lens = lensAt(change.range.start, changeLensTitle(change, replaced));
    // A nested stack's lens summarises its child: it opens the child, to see the child's findings where they are.
    if (change.nested && lens.command) {
      const args: OpenNestedChildArguments = { uri: new URL(change.nested.path, document.uri).href, parentUri: document.uri };
      lens.command = { ...lens.command, command: commands.openNestedChild, arguments: [args] };
    }
    resourceLenses.push({ lens, logicalId: change.logicalId });
  }
  for (const [samLogicalId, group] of bySamResource) resourceLenses.push({ lens: lensAt(group.keyStart, samResourceLensTitle(samLogicalId, group.changes)), logicalId: samLogicalId });
  const onLine = new Map<number, number>();
  for (const { lens } of resourceLenses) onLine.set(lens.range.start.line, (onLine.get(lens.range.start.line) ?? 0) + 1);
  for (const { lens, logicalId } of resourceLenses) {
    if (onLine.get(lens.range.start.line)! > 1 && lens.command) lens.command = { ...lens.command, title: `${logicalId}: ${lens.command.title}` };
    lenses.push(lens);
  }

  // An edit outside the resources (a parameter's value, a mapping entry, a condition, a Globals
  // value) has, on its line, what it causes; its command shows those resources where they are.
  const resourceKeys = new Map(resourcesKey?.value.kind === 'map' ? resourcesKey.value.entries.map((entry) => [entry.key, entry.keyRange.start]) : []);
  for (const site of report.editSites ?? []) {
    const lens = lensAt(site.range.start, editSiteLensTitle(site));
    const locations = site.effects.flatMap((effect) => {
      const offset = resourceKeys.get(effect.logicalId);
      return offset === undefined ? [] : [document.positionAt(offsetNow(offset))];
    });
    const args: ShowImpactsArguments = { uri: document.uri, line: lens.range.start.line, locations };
    lens.command = { title: lens.command!.title, command: commands.showImpacts, arguments: [args] };
    lenses.push(lens);
  }

  // An export at risk has its lens where it is written (a removed one, on the Outputs key).
  for (const diagnostic of report.diagnostics) {
    const finding = diagnostic.finding;
    if (!diagnostic.range || (finding?.kind !== 'export-in-use' && finding?.kind !== 'export-changes')) continue;
    lenses.push(lensAt(diagnostic.range.start, stackRiskLensTitle(finding)));
  }

  if (resourcesKey) {
    for (const change of removed.slice(0, listedRemovals)) lenses.push(lensAt(resourcesKey.keyRange.start, changeLensTitle(change, replaced)));
    if (removed.length > listedRemovals) {
      lenses.push(lensAt(resourcesKey.keyRange.start, moreRemovalsTitle(removed.slice(listedRemovals).map((change) => change.logicalId))));
    }
  }
  return lenses;
}

/** The lines of the changed resources in the new text, in template order, each once: one per SAM resource for what it generates. */
export function impactLines(document: TextDocument, after: AnalysedTemplate, report: ImpactReport): number[] {
  const resourcesKey = after.model.root?.entries.find((entry) => entry.key === 'Resources');
  const bySamResource = samResourceGroups(report.changes, resourcesKey?.value.kind === 'map' ? resourcesKey.value : undefined);
  const offsets = [...bySamResource.values()].map((group) => group.keyStart);
  for (const change of report.changes) {
    if (change.generatedBy || change.action === 'Remove' || change.rangeIn !== 'new' || !changesSomething(change)) continue;
    offsets.push(change.range.start);
  }
  return [...new Set(offsets.map((offset) => document.positionAt(offset).line))].sort((a, b) => a - b);
}

/**
 * The changes of each SAM resource that is in the new template and changes something, with where
 * its key is there. A SAM resource no longer in the template has no line: what it generated is
 * removed like any resource.
 */
function samResourceGroups(changes: readonly ResourceChange[], resources: MapNode | undefined): Map<string, { keyStart: number; changes: ResourceChange[] }> {
  const groups = new Map<string, { keyStart: number; changes: ResourceChange[] }>();
  for (const change of changes) {
    if (!change.generatedBy || !changesSomething(change)) continue;
    const samLogicalId = change.generatedBy.logicalId;
    let group = groups.get(samLogicalId);
    if (!group) {
      // A SAM resource a `Fn::ForEach` generates has no key of its own: it stands where its own resource's change does.
      const own = changes.find((c) => c.logicalId === samLogicalId && c.rangeIn === 'new');
      const keyStart = resources?.entries.find((entry) => entry.key === samLogicalId)?.keyRange.start ?? own?.range.start;
      if (keyStart === undefined) continue;
      groups.set(samLogicalId, (group = { keyStart, changes: [] }));
    }
    group.changes.push(change);
  }
  return groups;
}

/** The single lens shown when a template has no baseline: it says so instead of staying blank. */
export function noBaselineLens(document: TextDocument, reason: string): CodeLens {
  const args: OpenDiffArguments = { uri: document.uri, line: 0 };
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    command: { title: `No baseline: ${reason}`, command: commands.chooseBaseline, arguments: [args] },
  };
}
