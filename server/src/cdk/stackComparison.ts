/**
 * Two cloud assemblies compared stack by stack: each stack of the new one against the stack of
 * the same name in the old one (or against nothing, when it is new), with the same analysis as
 * any template, in the stack's own environment when the app fixed it. A stack only the old
 * assembly has is reported as removed.
 */
import { analyzeCreation, analyzeUpdate, type AnalyzeOptions, type TemplateSide } from '../impact';
import type { ImpactReport } from '../impact/types';
import type { AssemblyStack, CloudAssembly } from './assembly';
import { withTemplatePaths, type ConstructIndex } from './constructs';
import { cdkParameterValues, withoutCdkMachinery } from './cdkTemplate';
import { constructRenames, type ConstructRename } from './renames';

/** An assembly and the texts of its stacks' templates, by `templateFile`. */
export interface AssemblyWithTemplates {
  assembly: CloudAssembly;
  templates: ReadonlyMap<string, string>;
}

export interface StackComparison {
  /** The stack's display name (`Svc`, `Prod/Svc`). */
  stack: string;
  stackName: string;
  change: 'changed' | 'added' | 'removed';
  old?: { stack: AssemblyStack; text: string };
  new?: { stack: AssemblyStack; text: string };
  /** Absent for a removed stack: nothing is deployed from it. */
  report?: ImpactReport;
  constructs: { old: ConstructIndex; new: ConstructIndex };
  renames: ConstructRename[];
}

/** One stack's two sides: a template (the new side) and what it updates (an old template, or nothing). */
export interface StackSides {
  stack: string;
  stackName: string;
  old?: { stack?: AssemblyStack; side: TemplateSide };
  new?: { stack: AssemblyStack; side: TemplateSide };
}

/** The stacks of two assemblies, paired by display name, then by stack name; new stacks in the new assembly's order, removed ones after. */
export function pairStacks(old: AssemblyWithTemplates, current: AssemblyWithTemplates): StackSides[] {
  const unpaired = new Set(old.assembly.stacks);
  const sides: StackSides[] = [];
  for (const stack of current.assembly.stacks) {
    const candidates = [...unpaired];
    const match = candidates.find((o) => o.displayName === stack.displayName) ?? candidates.find((o) => o.stackName === stack.stackName);
    if (match) unpaired.delete(match);
    const oldText = match ? old.templates.get(match.templateFile) : undefined;
    sides.push({
      stack: stack.displayName,
      stackName: stack.stackName,
      ...(match && oldText !== undefined ? { old: { stack: match, side: { text: oldText } } } : {}),
      new: { stack, side: { text: current.templates.get(stack.templateFile) ?? '' } },
    });
  }
  for (const stack of unpaired.values()) {
    sides.push({ stack: stack.displayName, stackName: stack.stackName, old: { stack, side: { text: old.templates.get(stack.templateFile) ?? '' } } });
  }
  return sides;
}

/** Each stack's analysis: an update, a creation, or a removal. */
export function compareStack(sides: StackSides, options: AnalyzeOptions): StackComparison {
  const oldStack = sides.old?.stack;
  const emptyIndex: ConstructIndex = new Map();
  if (sides.new === undefined) {
    return {
      stack: sides.stack,
      stackName: sides.stackName,
      change: 'removed',
      ...(oldStack ? { old: { stack: oldStack, text: sides.old!.side.text } } : {}),
      constructs: { old: oldStack?.constructs ?? emptyIndex, new: emptyIndex },
      renames: [],
    };
  }
  const current = sides.new.stack;
  const stackOptions: AnalyzeOptions = {
    ...options,
    stackName: sides.stackName,
    ...(current.region !== undefined ? { region: current.region } : {}),
    ...(current.account !== undefined ? { accountId: current.account } : {}),
  };
  const after: TemplateSide = { ...sides.new.side, ...cdkParameterValues(sides.new.side.text) };
  const newSide = { stack: current, text: sides.new.side.text };
  if (sides.old === undefined) {
    const analysis = analyzeCreation(after, stackOptions);
    return {
      stack: sides.stack,
      stackName: sides.stackName,
      change: 'added',
      new: newSide,
      report: withoutCdkMachinery(analysis.report),
      constructs: { old: emptyIndex, new: withTemplatePaths(current.constructs, analysis.after.model) },
      renames: [],
    };
  }
  const before: TemplateSide = { ...sides.old.side, ...cdkParameterValues(sides.old.side.text) };
  const analysis = analyzeUpdate(before, after, stackOptions);
  const constructs = {
    old: withTemplatePaths(oldStack?.constructs ?? emptyIndex, analysis.before.model),
    new: withTemplatePaths(current.constructs, analysis.after.model),
  };
  const report = withoutCdkMachinery(analysis.report);
  return {
    stack: sides.stack,
    stackName: sides.stackName,
    change: 'changed',
    ...(oldStack ? { old: { stack: oldStack, text: sides.old.side.text } } : {}),
    new: newSide,
    report,
    constructs,
    renames: constructRenames(report.changes, constructs, { old: analysis.before.model, new: analysis.after.model }),
  };
}
