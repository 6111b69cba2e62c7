/**
 * `Fn::Transform` inside the template: CloudFormation sends the map that holds it to a macro
 * and puts the macro's output in its place before it resolves any other function (AWS
 * CloudFormation User Guide, "Create a CloudFormation macro definition"). The macro's code is
 * not here, so its output is a value only the macro knows; a function whose argument is that
 * output is known only once the macro has run.
 */
import type { TemplateNode } from '../template/ast';

/** Whether a node is replaced by a macro's output: a map holding `Fn::Transform`, whatever else it holds. */
export function isMacroInvocation(node: TemplateNode | undefined): boolean {
  return node?.kind === 'map' && node.entries.some((e) => e.key === 'Fn::Transform');
}

/** The macro names an `Fn::Transform` argument gives: `{Name, Parameters}`, or a list of them applied in turn. */
export function macroNames(arg: TemplateNode): string[] {
  const names: string[] = [];
  for (const item of arg.kind === 'seq' ? arg.items : [arg]) {
    const name = item.kind === 'map' ? item.entries.find((e) => e.key === 'Name')?.value : undefined;
    if (name?.kind === 'scalar' && typeof name.value === 'string') names.push(name.value);
  }
  return names;
}
