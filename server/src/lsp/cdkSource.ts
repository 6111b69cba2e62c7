/**
 * A CDK app's source file as LSP sees it: a lens at each line that created changed constructs
 * (clicking it peeks at their resources in the synthesized template), a summary lens per stack at
 * the top of a file that holds any, the hover there, and problems for what replaces or fails.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DiagnosticSeverity, type CodeLens, type Diagnostic, type Hover, type Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { SourcePlacement } from '../cdk/sourcePlacements';
import { constructHoverText, constructLensTitle, constructProblem, stackLensTitle } from '../present/constructs';
import { LineIndex } from '../template';
import type { AppSourceView } from './cdkApps';
import { commands, type ShowImpactsArguments } from './protocol';

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

/** The lenses of an app's source file. */
export function cdkLenses(document: TextDocument, view: AppSourceView): CodeLens[] {
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  if (view.problem !== undefined) return [{ range: top, command: { title: view.problem.length > 90 ? `${view.problem.slice(0, 88)}…` : view.problem, command: '' } }];
  if (view.placements.length === 0) return [];
  const stacks = new Set(view.placements.flatMap((p) => p.changes.map((c) => c.stack)));
  const lenses: CodeLens[] = [...stacks].map((stack) => ({ range: top, command: { title: stackLensTitle(stack, view.baseline), command: '' } }));
  for (const placement of view.placements) {
    const range = { start: { line: placement.line, character: placement.column }, end: { line: placement.line, character: placement.column } };
    const args: ShowImpactsArguments = { uri: document.uri, line: placement.line, locations: templateLocations(view, placement) };
    lenses.push({ range, command: { title: constructLensTitle(placement), command: commands.showImpacts, arguments: [args] } });
  }
  return lenses;
}

/** The hover on a line that created changed constructs. */
export function cdkHover(view: AppSourceView, position: Position): Hover | null {
  const placement = view.placements.find((p) => p.line === position.line);
  if (!placement) return null;
  return { contents: { kind: 'markdown', value: constructHoverText(placement) } };
}

/** The problems of an app's source file: a replacement or a failure at the line that created the construct. */
export function cdkDiagnostics(document: TextDocument, view: AppSourceView): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const placement of view.placements) {
    const lineText = document.getText({ start: { line: placement.line, character: 0 }, end: { line: placement.line + 1, character: 0 } }).replace(/\r?\n$/, '');
    const range = { start: { line: placement.line, character: placement.column }, end: { line: placement.line, character: Math.max(placement.column, lineText.length) } };
    for (const placed of placement.changes) {
      const problem = constructProblem(placed);
      if (problem) diagnostics.push({ range, severity: SEVERITY[problem.severity], source: 'cfn-impact', message: problem.message, code: placed.change.impact });
    }
  }
  return diagnostics;
}

/** Where the changed resources of a placement are in the synthesized templates: what the lens peeks at. */
function templateLocations(view: AppSourceView, placement: SourcePlacement): ShowImpactsArguments['locations'] {
  const indexes = new Map<string, LineIndex>();
  const locations: ShowImpactsArguments['locations'] = [];
  for (const { stack, change } of placement.changes) {
    const current = stack.new;
    if (!current || !change.range || change.rangeIn !== 'new') continue;
    let lines = indexes.get(current.stack.templateFile);
    if (!lines) {
      lines = new LineIndex(current.text);
      indexes.set(current.stack.templateFile, lines);
    }
    const position = lines.positionAt(change.range.start);
    locations.push({ uri: pathToFileURL(join(view.app.folder, view.app.output, current.stack.templateFile)).href, line: position.line, character: position.character });
  }
  return locations;
}
