/**
 * Where the changes of a CDK app's stacks belong in one source file of the app: at the line of
 * the app's code that created each changed construct. The creation trace says it exactly when
 * the app was synthesized with `CDK_DEBUG=true`; without traces, the construct is placed at the
 * first string literal in the file that is one of its ids (the deepest first, `'Orders'` for
 * `Svc/Orders`), which is said to be approximate.
 */
import { changesSomething } from '../impact/claims';
import type { ResourceChange } from '../impact/types';
import { isCdkMetadata } from './cdkTemplate';
import { sourceOfTrace, type ConstructInfo } from './constructs';
import type { StackComparison } from './stackComparison';

/** One changed resource of a stack, with the construct it comes from. */
export interface PlacedChange {
  stack: StackComparison;
  change: ResourceChange;
  constructPath: string;
}

/** The changes placed at one line of the file (0-based line and column, as editors count). */
export interface SourcePlacement {
  line: number;
  column: number;
  /** Placed by a construct id written in the file, not by a creation trace. */
  approximate: boolean;
  changes: PlacedChange[];
}

/** The changes of the app's stacks that belong in the file at `path` with `text`, by line, in line order. */
export function placementsInFile(path: string, text: string, comparisons: readonly StackComparison[], samePath: (a: string, b: string) => boolean): SourcePlacement[] {
  const byLine = new Map<number, SourcePlacement>();
  const place = (line: number, column: number, approximate: boolean, placed: PlacedChange) => {
    let placement = byLine.get(line);
    if (!placement) {
      placement = { line, column, approximate, changes: [] };
      byLine.set(line, placement);
    }
    placement.approximate &&= approximate;
    placement.changes.push(placed);
  };
  const literals = new LiteralLines(text);
  for (const stack of comparisons) {
    for (const change of stack.report?.changes ?? []) {
      if (!changesSomething(change) || isCdkMetadata(change)) continue;
      // A removed construct's trace is the old app's: its line is not in the code being edited.
      if (change.action === 'Remove') continue;
      const construct = stack.constructs.new.get(change.logicalId);
      if (!construct) continue;
      const placed: PlacedChange = { stack, change, constructPath: construct.path };
      const exact = located(construct);
      if (exact !== undefined) {
        if (samePath(exact.file, path)) place(exact.line - 1, exact.column - 1, false, placed);
        continue;
      }
      const guessed = literals.firstOf(ownIds(construct.path, stack.stack));
      if (guessed) place(guessed.line, guessed.column, true, placed);
    }
  }
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

function located(construct: ConstructInfo): { file: string; line: number; column: number } | undefined {
  return construct.trace ? sourceOfTrace(construct.trace) : undefined;
}

/** The ids the app wrote for a construct, deepest first, without the stack's own path. */
function ownIds(constructPath: string, stackPath: string): string[] {
  const segments = constructPath.split('/');
  const stackDepth = stackPath.split('/').length;
  return segments.slice(stackDepth).reverse();
}

/** The string literals of a source file, by their text: where each first appears. */
class LiteralLines {
  private readonly first = new Map<string, { line: number; column: number }>();

  constructor(text: string) {
    // Quoted strings on one line, in any of the app languages' quotes; escapes are rare in construct ids.
    const literal = /(['"`])([^'"`\n\\]{1,200})\1/g;
    let line = 0;
    let lineStart = 0;
    let scanned = 0;
    for (const match of text.matchAll(literal)) {
      const at = match.index;
      for (let i = text.indexOf('\n', scanned); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
        line++;
        lineStart = i + 1;
      }
      scanned = at;
      if (!this.first.has(match[2]!)) this.first.set(match[2]!, { line, column: at - lineStart });
    }
  }

  /** The first place any of the ids is written, trying them in order. */
  firstOf(ids: readonly string[]): { line: number; column: number } | undefined {
    for (const id of ids) {
      const found = this.first.get(id);
      if (found) return found;
    }
    return undefined;
  }
}
